import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type ReactNode, useState } from "react";
import { defaultBidCurrency, useBidForm } from "../../lib/bid-form";
import { toast } from "../../lib/toast";
import { isQueued, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { handleSubscriptionRequired } from "../billing/upgrade-prompt";
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
};

/**
 * The bid dialog: opens, submits ("Placing..."), closes on success and refreshes the loads. The board
 * loads it on demand (`DeferredBidDialog`), opened by the click that asked for it (`defaultOpen`).
 */
export function BidDialog({
  load,
  trigger,
  defaultOpen,
}: {
  load: TBidLoad;
  trigger: ReactNode;
  defaultOpen?: boolean;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(defaultOpen ?? false);
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const place = useMutation(
    trpc.bids.place.mutationOptions({
      onSuccess: async () => {
        setOpen(false);
        toast({
          title: t({ message: "Bid Placed", comment: "Notice title after a driver's bid (price offer) was sent" }),
          description: t`Your bid has been submitted successfully.`,
          variant: "success",
        });
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
  const { error, submit } = useBidForm((draft) => place.mutate({ loadId: load.id, ...draft }));
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>{trigger}</DialogTrigger>
      <DialogContent closeLabel={t`Close`} data-testid="bid-dialog">
        <DialogHeader>
          <DialogTitle>
            <Trans comment="Button and dialog title: offer a price (bid) on this load">Place a bid</Trans>
          </DialogTitle>
          <DialogDescription>
            {load.title}: {load.pickupLocation} → {load.deliveryLocation}
          </DialogDescription>
        </DialogHeader>
        <form className="grid gap-4" onSubmit={submit} noValidate>
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
                defaultValue={defaultBidCurrency(load.budgetCurrency)}
              />
            </div>
          </div>
          <FieldError>{error}</FieldError>
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
