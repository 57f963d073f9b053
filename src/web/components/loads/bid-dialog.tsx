import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { bidToBudgetRatio, isUnusualBid } from "../../../shared/bid-check";
import { defaultBidCurrency, type TBidDraft, useBidForm } from "../../lib/bid-form";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { isQueued, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { handleSubscriptionRequired } from "../billing/upgrade-prompt";
import { BiddingFor } from "../companies/bidding-for";
import { BidTruckField } from "../trucks/bid-truck";
import { Button } from "../ui/button";
import { DateTimeField } from "../ui/date-time-field";
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
  DialogTrigger,
} from "../ui/dialog";
import { FieldError, Input, Label } from "../ui/input";
import { Textarea } from "../ui/textarea";
import { MoneyCurrencySelect } from "./money-currency-select";

export type TBidLoad = {
  id: number;
  title: string;
  budgetAmount: number;
  budgetCurrency: string;
  pickupLocation: string;
  deliveryLocation: string;
  /** Bids are not taken on external loads: the dialog is never offered for one. */
  source?: { type: string };
};

/** The driver's pending bid on the load, which the dialog changes rather than adds to. */
export type TExistingBid = { amount: number; currency: string; truckId?: number | null };

/**
 * The bid dialog: opens, submits ("Placing..."), closes on success and refreshes the loads. The board
 * loads it on demand (`DeferredBidDialog`), opened by the click that asked for it (`defaultOpen`). With the driver's
 * pending bid (`existing`) it is "Change your bid", starting from that bid. A change, and an amount outside 0.3–3×
 * the budget (compared in one currency), ask once more before sending, with the figures; neither is ever refused.
 */
export function BidDialog({
  load,
  existing,
  trigger,
  defaultOpen,
}: {
  load: TBidLoad;
  existing?: TExistingBid;
  trigger: ReactNode;
  defaultOpen?: boolean;
}) {
  const { t } = useLingui();
  const { formatOriginal, formatNumber, rateOf } = usePreferences();
  const [open, setOpenState] = useState(defaultOpen ?? false);
  // The bid waiting for the driver's "yes" (a change, or an unusual amount), with what the question says.
  const [confirming, setConfirming] = useState<{ draft: TBidDraft; ratio: number | null; unusual: boolean } | null>(
    null,
  );
  const setOpen = (o: boolean) => {
    setOpenState(o);
    if (!o) setConfirming(null);
  };
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const place = useMutation(
    trpc.bids.place.mutationOptions({
      onSuccess: async (out) => {
        setOpen(false);
        toast(
          out.replaced
            ? {
                title: t({ message: "Bid changed", comment: "Notice title after a driver changed their bid's amount" }),
                description: t`Your bid now has the new amount.`,
                variant: "success",
              }
            : {
                title: t({
                  message: "Bid Placed",
                  comment: "Notice title after a driver's bid (price offer) was sent",
                }),
                description: t`Your bid has been submitted successfully.`,
                variant: "success",
              },
        );
        await Promise.all([
          queryClient.invalidateQueries(trpc.loads.pathFilter()),
          queryClient.invalidateQueries(trpc.bids.pathFilter()),
          queryClient.invalidateQueries(trpc.drivers.pathFilter()),
          queryClient.invalidateQueries(trpc.dashboard.pathFilter()),
        ]);
      },
      onError: (err) => {
        // Kept for later: the dialog closes and the load shows the bid as waiting to send.
        if (isQueued(err)) return setOpen(false);
        if (onUnauthorized(err)) return;
        if (handleSubscriptionRequired(err)) return setOpen(false);
        toast({ title: t`Error`, description: t`Failed to place bid. Please try again.`, variant: "destructive" });
      },
    }),
  );
  const send = (draft: TBidDraft) => place.mutate({ loadId: load.id, ...draft });
  const { error, submit } = useBidForm((draft) => {
    const ratio = bidToBudgetRatio(draft, { amount: load.budgetAmount, currency: load.budgetCurrency }, rateOf);
    const unusual = isUnusualBid(ratio);
    if (existing || unusual) setConfirming({ draft, ratio, unusual });
    else send(draft);
  });
  if (load.source?.type === "external") return null;
  const budget = formatOriginal(load.budgetAmount, load.budgetCurrency);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent closeLabel={t`Close`} data-testid="bid-dialog">
        <DialogHeader>
          <DialogTitle>
            {existing ? (
              <Trans comment="Button on a load the driver already bid on: open the form to change the amount">
                Change your bid
              </Trans>
            ) : (
              <Trans comment="Button and dialog title: offer a price (bid) on this load">Place a bid</Trans>
            )}
          </DialogTitle>
          <DialogDescription>
            {load.title}: {load.pickupLocation} → {load.deliveryLocation}
          </DialogDescription>
        </DialogHeader>
        {confirming && (
          <div className="grid gap-3" role="alert" data-testid="bid-confirm">
            {confirming.unusual && confirming.ratio != null && (
              <>
                <p className="font-semibold">
                  <Trans comment="Question before sending a bid far above or below the load's budget">
                    Are you sure?
                  </Trans>
                </p>
                <p className="text-sm" data-testid="bid-unusual">
                  <Trans comment="Before sending a bid: {amount} is the bid, {ratio} how many times the budget it is (5 or 0.1), {budget} the load's budget">
                    Your bid of {formatOriginal(confirming.draft.amount, confirming.draft.currency)} is{" "}
                    {formatNumber(confirming.ratio, { maximumFractionDigits: confirming.ratio < 1 ? 2 : 1 })}× the
                    load's budget of {budget}.
                  </Trans>
                </p>
              </>
            )}
            {existing && (
              <p className="text-sm" data-testid="bid-change">
                <Trans comment="Before changing a bid: the driver's pending bid and the new amount">
                  Change your bid from {formatOriginal(existing.amount, existing.currency)} to{" "}
                  {formatOriginal(confirming.draft.amount, confirming.draft.currency)}?
                </Trans>
              </p>
            )}
            <DialogFooter>
              <Button variant="outline" type="button" onClick={() => setConfirming(null)}>
                <Trans comment="Button: go back to the bid form to change the amount">Back</Trans>
              </Button>
              <Button
                type="button"
                disabled={place.isPending}
                onClick={() => send(confirming.draft)}
                data-testid="bid-confirm-send"
              >
                {existing ? (
                  <Trans comment="Button: yes, send the new amount of the driver's bid">Yes, change my bid</Trans>
                ) : (
                  <Trans comment="Button: yes, send the bid with this amount">Yes, place my bid</Trans>
                )}
              </Button>
            </DialogFooter>
          </div>
        )}
        <form className={confirming ? "hidden" : "grid gap-4"} onSubmit={submit} noValidate>
          <BiddingFor />
          <div className="grid grid-cols-[1fr_7rem] gap-3">
            <div className="grid gap-2">
              <Label htmlFor={`bid-amount-${load.id}`}>
                <Trans comment="Label of the price field when a driver places a bid (offer) on a load">
                  Bid amount
                </Trans>
              </Label>
              <Input
                id={`bid-amount-${load.id}`}
                name="amount"
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0.01"
                defaultValue={existing?.amount}
                required
                aria-invalid={!!error}
              />
            </div>
            <div className="grid gap-2">
              <Label htmlFor={`bid-currency-${load.id}`}>
                <Trans>Currency</Trans>
              </Label>
              <MoneyCurrencySelect
                id={`bid-currency-${load.id}`}
                name="currency"
                defaultValue={defaultBidCurrency(existing?.currency ?? load.budgetCurrency)}
              />
            </div>
          </div>
          <FieldError>{error}</FieldError>
          <BidTruckField id={`bid-truck-${load.id}`} defaultTruckId={existing?.truckId} />
          <DateTimeField
            id={`bid-pickup-${load.id}`}
            name="proposedPickupDate"
            label={<Trans>Proposed pickup (optional)</Trans>}
          />
          <div className="grid gap-2">
            <Label htmlFor={`bid-notes-${load.id}`}>
              <Trans comment="Label of an optional note a driver adds to a bid">Notes (optional)</Trans>
            </Label>
            <Textarea id={`bid-notes-${load.id}`} name="notes" maxLength={1000} />
          </div>
          <DialogFooter>
            <Button type="submit" disabled={place.isPending}>
              {place.isPending ? (
                <Trans comment="Place Bid button while the bid is being sent">Placing...</Trans>
              ) : existing ? (
                <Trans comment="Button in the bid form: send the new amount of the driver's bid">Change bid</Trans>
              ) : (
                <Trans comment="Button: send a price offer (bid) on this load">Place Bid</Trans>
              )}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
