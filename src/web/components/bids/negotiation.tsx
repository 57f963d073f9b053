import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { type FormEvent, useId, useState } from "react";
import type { TMoneyCurrency } from "../../../shared/constants";
import type { TCounterOffer } from "../../../shared/schemas/bids";
import { defaultBidCurrency } from "../../lib/bid-form";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { MoneyCurrencySelect } from "../loads/money-currency-select";
import { Button } from "../ui/button";
import { FieldError, Input, Label } from "../ui/input";

type TSide = TCounterOffer["side"];

/**
 * A bid's counter-offers, for one of its two sides: the offers so far, the open one with Accept / Counter / Decline
 * when it is the other side's, and the form for a counter. The server decides whose turn it is; this shows only the
 * actions it would take (the shipper counters a pending bid, the driver only the shipper's open offer).
 */
export function Negotiation({
  bidId,
  side,
  bidPending,
  openCounter,
  counters,
  currency,
}: {
  bidId: number;
  side: TSide;
  bidPending: boolean;
  openCounter: TCounterOffer | null;
  counters: TCounterOffer[];
  /** The currency the counter form starts in (the bid's). */
  currency: string;
}) {
  const { t } = useLingui();
  const { formatOriginal } = usePreferences();
  const queryClient = useQueryClient();
  const [countering, setCountering] = useState(false);
  const [confirmingAccept, setConfirmingAccept] = useState(false);
  const [error, setError] = useState<string>();
  const fieldId = useId();
  const refresh = () => queryClient.invalidateQueries();
  const onError = async (err: unknown) => {
    const info = errorInfo(err);
    const issue = info.issues.find((i) => i.path === "amount" || i.path === "currency");
    if (issue) return setError(issue.message);
    toast({
      title: t`Error`,
      description: info.status === 409 ? info.message : t`Please try again.`,
      variant: "destructive",
    });
    await refresh();
  };
  const counter = useMutation(
    trpc.bids.counter.mutationOptions({
      onSuccess: async () => {
        setCountering(false);
        setError(undefined);
        toast({
          title: t({ message: "Counter-offer sent", comment: "Notice title after a counter-offer (a price) was sent" }),
          variant: "success",
        });
        await refresh();
      },
      onError,
    }),
  );
  const accept = useMutation(
    trpc.bids.acceptCounter.mutationOptions({
      onSuccess: async () => {
        setConfirmingAccept(false);
        toast({
          title: t({
            message: "Offer accepted",
            comment: "Notice title after accepting a counter-offer: the load is awarded at that price",
          }),
          description: t`The load is awarded at the agreed price.`,
          variant: "success",
        });
        await refresh();
      },
      onError,
    }),
  );
  const decline = useMutation(
    trpc.bids.declineCounter.mutationOptions({
      onSuccess: refresh,
      onError,
    }),
  );
  const theirs = openCounter && openCounter.side !== side ? openCounter : null;
  const mine = openCounter && openCounter.side === side ? openCounter : null;
  const canCounter = bidPending && !mine && (side === "shipper" || theirs !== null);
  const busy = counter.isPending || accept.isPending || decline.isPending;

  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const amount = Number(f.get("amount"));
    if (!f.get("amount") || !Number.isFinite(amount) || amount <= 0) {
      setError(t`Enter an amount greater than 0`);
      return;
    }
    setError(undefined);
    counter.mutate({
      bidId,
      amount: Math.round(amount * 100) / 100,
      currency: String(f.get("currency")) as TMoneyCurrency,
    });
  };

  const who = (c: TCounterOffer) =>
    c.side === side
      ? t({ message: "You", comment: "Who made a counter-offer in a bid's offer history: the reader" })
      : c.side === "shipper"
        ? t({ message: "Shipper", comment: "Who made a counter-offer in a bid's offer history: the load's shipper" })
        : t({ message: "Driver", comment: "Who made a counter-offer in a bid's offer history: the bidding driver" });
  const state: Record<TCounterOffer["status"], string> = {
    open: t({ message: "waiting for an answer", comment: "State of a counter-offer in a bid's offer history" }),
    accepted: t({ message: "accepted", comment: "State of a counter-offer in a bid's offer history" }),
    declined: t({ message: "declined", comment: "State of a counter-offer in a bid's offer history" }),
    countered: t({
      message: "countered",
      comment: "State of a counter-offer in a bid's offer history: answered with another price",
    }),
    closed: t({
      message: "closed",
      comment: "State of a counter-offer in a bid's offer history: the bid changed or ended before an answer",
    }),
  };

  if (!counters.length && !canCounter) return null;
  return (
    <div className="grid basis-full gap-2 text-sm" data-testid="negotiation">
      {counters.length > 0 && (
        <ol
          className="grid gap-1 text-muted-foreground"
          aria-label={t({
            message: "Counter-offers",
            comment: "Label of the list of a bid's counter-offers (prices offered back and forth)",
          })}
          data-testid="counter-history"
        >
          {counters.map((c) => (
            <li key={c.id} className="break-words" data-testid="counter-history-item">
              {who(c)}: <span className="font-medium text-foreground">{formatOriginal(c.amount, c.currency)}</span> ·{" "}
              {state[c.status]}
            </li>
          ))}
        </ol>
      )}
      {theirs && (
        <div className="rounded-md border border-brand/40 bg-teal-50 p-3" role="group" data-testid="open-counter">
          <p className="font-medium">
            {side === "driver" ? (
              <Trans>The shipper offers {formatOriginal(theirs.amount, theirs.currency)}</Trans>
            ) : (
              <Trans>The driver asks {formatOriginal(theirs.amount, theirs.currency)}</Trans>
            )}
          </p>
          {confirmingAccept ? (
            <div className="mt-2 grid gap-2" role="alertdialog" aria-label={t`Accept this offer?`}>
              <p>
                {side === "driver" ? (
                  <Trans>
                    Accept {formatOriginal(theirs.amount, theirs.currency)}? The load is awarded to you at this price.
                  </Trans>
                ) : (
                  <Trans>
                    Accept {formatOriginal(theirs.amount, theirs.currency)}? The load is awarded to this driver at this
                    price and other pending bids are declined. This cannot be undone.
                  </Trans>
                )}
              </p>
              <div className="flex flex-wrap gap-2">
                <Button
                  size="sm"
                  className="min-h-11"
                  disabled={busy}
                  onClick={() => accept.mutate({ bidId })}
                  data-testid="confirm-accept-counter"
                >
                  <Trans comment="Button confirming the acceptance of a counter-offer">Yes, accept</Trans>
                </Button>
                <Button size="sm" className="min-h-11" variant="ghost" onClick={() => setConfirmingAccept(false)}>
                  <Trans comment="Button: go back one step in a dialog">Back</Trans>
                </Button>
              </div>
            </div>
          ) : (
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                size="sm"
                className="min-h-11"
                disabled={busy}
                onClick={() => setConfirmingAccept(true)}
                data-testid="accept-counter"
              >
                <Trans comment="Button under a counter-offer: accept the offered price">Accept</Trans>
              </Button>
              <Button
                size="sm"
                className="min-h-11"
                variant="outline"
                disabled={busy || countering}
                onClick={() => setCountering(true)}
                data-testid="counter-button"
              >
                <Trans comment="Button under a counter-offer: answer with another price">Counter</Trans>
              </Button>
              <Button
                size="sm"
                className="min-h-11"
                variant="ghost"
                disabled={busy}
                onClick={() => decline.mutate({ bidId })}
                data-testid="decline-counter"
              >
                <Trans comment="Button under a counter-offer: decline the offered price">Decline</Trans>
              </Button>
            </div>
          )}
        </div>
      )}
      {mine && (
        <p className="text-muted-foreground" data-testid="own-counter">
          <Trans>Your offer of {formatOriginal(mine.amount, mine.currency)} is waiting for an answer.</Trans>
        </p>
      )}
      {canCounter && !theirs && !countering && (
        <div>
          <Button
            size="sm"
            className="min-h-11"
            variant="outline"
            disabled={busy}
            onClick={() => setCountering(true)}
            data-testid="counter-button"
          >
            <Trans comment="Button beside a bid: answer the bid with another price (a counter-offer)">Counter</Trans>
          </Button>
        </div>
      )}
      {countering && (
        <form className="grid gap-2" onSubmit={submit} noValidate data-testid="counter-form">
          <div className="grid grid-cols-[1fr_7rem] gap-2">
            <div className="grid gap-1">
              <Label htmlFor={`${fieldId}-amount`}>
                <Trans comment="Label of the price field of a counter-offer">Your counter-offer</Trans>
              </Label>
              <Input
                id={`${fieldId}-amount`}
                name="amount"
                type="number"
                inputMode="decimal"
                step="0.01"
                min="0.01"
                required
                aria-invalid={!!error}
                aria-describedby={error ? `${fieldId}-error` : undefined}
                autoFocus
              />
            </div>
            <div className="grid gap-1">
              <Label htmlFor={`${fieldId}-currency`}>
                <Trans>Currency</Trans>
              </Label>
              <MoneyCurrencySelect
                id={`${fieldId}-currency`}
                name="currency"
                defaultValue={defaultBidCurrency(currency)}
              />
            </div>
          </div>
          <FieldError id={`${fieldId}-error`}>{error}</FieldError>
          <div className="flex flex-wrap gap-2">
            <Button type="submit" size="sm" className="min-h-11" disabled={busy} data-testid="send-counter">
              {counter.isPending ? (
                <Trans comment="Send button while the counter-offer is being sent">Sending...</Trans>
              ) : (
                <Trans comment="Button: send the counter-offer">Send offer</Trans>
              )}
            </Button>
            <Button
              type="button"
              size="sm"
              className="min-h-11"
              variant="ghost"
              onClick={() => {
                setCountering(false);
                setError(undefined);
              }}
            >
              <Trans comment="Button: cancel an action or close a form">Cancel</Trans>
            </Button>
          </div>
        </form>
      )}
    </div>
  );
}
