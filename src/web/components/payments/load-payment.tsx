import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useSearch } from "@tanstack/react-router";
import { Loader2, ShieldCheck } from "lucide-react";
import { useEffect, useState } from "react";
import { useOnline } from "../../lib/online";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { PaymentStateBadge, PayoutIssueNote, PayoutNoticeNote } from "./payment-state";

const CONFIRM_POLL_MS = 2_000;
const CONFIRM_FOR_MS = 30_000;

/**
 * Back from the provider's page (Stripe's success URL, Chapa's return URL): the provider may have taken the money
 * while its webhook is still on the way. Until the server hears of it (the payment leaves awaiting_payment), the card
 * says the payment is being confirmed instead of offering to pay again, and asks every 2 s for up to 30 s; then it
 * says so and offers both "Check again" and paying.
 */
const useConfirmation = () => {
  const search: Record<string, unknown> = useSearch({ strict: false });
  const returned = search.payment === "success" || search.payment === "return";
  const [until, setUntil] = useState(() => (returned ? Date.now() + CONFIRM_FOR_MS : 0));
  const [timedOut, setTimedOut] = useState(false);
  useEffect(() => {
    if (!until) return;
    setTimedOut(false);
    const id = setTimeout(() => setTimedOut(true), Math.max(0, until - Date.now()));
    return () => clearTimeout(id);
  }, [until]);
  return {
    returned,
    polling: returned && !timedOut,
    timedOut: returned && timedOut,
    again: () => setUntil(Date.now() + CONFIRM_FOR_MS),
  };
};

/**
 * A load's payment on its page: for the shipper of an awarded load, what funding costs (agreed amount, the platform's
 * fee, the total) and "Fund this load", which goes to the provider of the currency; for both parties, "Payment
 * secured" once the money is held.
 */
export function LoadPayment({ loadId }: { loadId: number }) {
  const { t } = useLingui();
  const { formatOriginal } = usePreferences();
  const online = useOnline();
  const confirmation = useConfirmation();
  const q = useQuery(
    trpc.payments.forLoad.queryOptions(
      { loadId },
      {
        retry: false,
        refetchInterval: (query) =>
          confirmation.polling && query.state.data?.payment?.state === "awaiting_payment" ? CONFIRM_POLL_MS : false,
      },
    ),
  );
  // Set once the provider's page is on its way, so the button stays busy until the page leaves.
  const [leaving, setLeaving] = useState(false);
  const fund = useMutation(
    trpc.payments.fund.mutationOptions({
      onSuccess: ({ url }) => {
        setLeaving(true);
        window.location.assign(url);
      },
      onError: (err) =>
        toast({ title: t`Payment could not be started`, description: errorInfo(err).message, variant: "destructive" }),
    }),
  );
  if (q.isPending)
    return (
      <p className="text-sm text-muted-foreground" role="status">
        <Trans comment="Load page: the payment card is being fetched">Loading payment…</Trans>
      </p>
    );
  if (q.isError)
    return (
      <LoadError
        testId="load-payment-error"
        title={<Trans>The payment could not be loaded.</Trans>}
        error={q.error}
        onRetry={q.refetch}
      />
    );
  const { quote, payment } = q.data;
  if (payment?.secured)
    return (
      <Card data-testid="payment-secured">
        <CardContent className="flex flex-wrap items-center gap-3 pt-5">
          <ShieldCheck className="h-6 w-6 text-green-700" aria-hidden />
          <div className="grid gap-1">
            <p className="font-medium">
              <Trans comment="Load page: the shipper's payment is held by MyTess until delivery">Payment secured</Trans>
            </p>
            <p className="text-sm text-muted-foreground" data-testid="payment-secured-text">
              {payment.state === "paid_out" ? (
                payment.role === "driver" ? (
                  <Trans>{formatOriginal(payment.agreed, payment.currency)} was sent to your payout account.</Trans>
                ) : (
                  <Trans>{formatOriginal(payment.agreed, payment.currency)} was paid to the driver.</Trans>
                )
              ) : payment.payoutNotice === "reversed" ? (
                <Trans>
                  {formatOriginal(payment.agreed, payment.currency)} is held by MyTess until an operator settles it.
                </Trans>
              ) : payment.state === "released" || payment.state === "failed" ? (
                payment.role === "driver" ? (
                  <Trans>
                    {formatOriginal(payment.agreed, payment.currency)} is released to you and sent to your payout
                    account.
                  </Trans>
                ) : (
                  <Trans>{formatOriginal(payment.agreed, payment.currency)} is released to the driver.</Trans>
                )
              ) : payment.role === "driver" ? (
                <Trans>
                  {formatOriginal(payment.agreed, payment.currency)} is held by MyTess and paid to you when the delivery
                  is accepted.
                </Trans>
              ) : (
                <Trans>
                  {formatOriginal(payment.total, payment.currency)} is held by MyTess and paid to the driver when you
                  accept the delivery.
                </Trans>
              )}
            </p>
          </div>
          <div className="ml-auto">
            <PaymentStateBadge state={payment.state} secured notice={payment.payoutNotice} />
          </div>
          {payment.payoutIssue && (
            <div className="basis-full">
              <PayoutIssueNote issue={payment.payoutIssue} />
            </div>
          )}
          {payment.payoutNotice && (
            <div className="basis-full">
              <PayoutNoticeNote notice={payment.payoutNotice} role={payment.role} />
            </div>
          )}
        </CardContent>
      </Card>
    );
  if (!quote || (payment && payment.state === "refunded")) return null;
  const busy = fund.isPending || leaving;
  const providerName = quote.provider === "chapa" ? "Chapa" : "Stripe";
  const unconfirmed = confirmation.returned && payment?.state === "awaiting_payment";
  if (unconfirmed && confirmation.polling)
    return (
      <Card data-testid="payment-confirming">
        <CardContent className="flex items-center gap-3 pt-5" role="status">
          <Loader2 className="h-5 w-5 animate-spin" aria-hidden />
          <p className="text-sm">
            <Trans comment="Load page, back from Stripe's or Chapa's payment page, until the provider confirms">
              Confirming your payment with {providerName}…
            </Trans>
          </p>
        </CardContent>
      </Card>
    );
  return (
    <Card data-testid="fund-load">
      <CardHeader>
        <CardTitle>
          <Trans comment="Load page card title: the shipper pays the agreed amount into MyTess's escrow">
            Fund this load
          </Trans>
        </CardTitle>
        <CardDescription>
          <Trans>MyTess holds the payment and pays the driver when you accept the delivery.</Trans>
        </CardDescription>
      </CardHeader>
      <CardContent className="grid gap-3">
        <dl className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm">
          <dt>
            <Trans comment="Payment summary row: the amount of the accepted bid">Agreed amount</Trans>
          </dt>
          <dd className="text-right" data-testid="fund-agreed">
            {formatOriginal(quote.agreed, quote.currency)}
          </dd>
          <dt>
            <Trans comment="Payment summary row: MyTess's fee, with its percentage">
              Platform fee ({quote.feePercent}%)
            </Trans>
          </dt>
          <dd className="text-right" data-testid="fund-fee">
            {formatOriginal(quote.fee, quote.currency)}
          </dd>
          <dt className="font-medium">
            <Trans comment="Payment summary row: what the shipper pays in all">Total</Trans>
          </dt>
          <dd className="text-right font-medium" data-testid="fund-total">
            {formatOriginal(quote.total, quote.currency)}
          </dd>
        </dl>
        {unconfirmed && (
          <div className="flex flex-wrap items-center gap-2" role="status" data-testid="payment-unconfirmed">
            <p className="text-sm text-muted-foreground">
              <Trans>
                Your payment is not confirmed yet. If you paid, it shows here as soon as {providerName} confirms it.
              </Trans>
            </p>
            <Button
              variant="outline"
              className="min-h-11"
              onClick={() => {
                confirmation.again();
                void q.refetch();
              }}
            >
              <Trans comment="Button after a payment: ask again whether the payment is confirmed">Check again</Trans>
            </Button>
          </div>
        )}
        {payment?.state === "failed" && (
          <p className="text-sm text-destructive" role="alert">
            <Trans>The last payment did not go through. You can try again.</Trans>
          </p>
        )}
        {!quote.available || !quote.provider ? (
          <p className="text-sm text-muted-foreground">
            <Trans>Online payment in {quote.currency} is not available yet.</Trans>
          </p>
        ) : (
          <Button
            className="min-h-11"
            disabled={busy || !online}
            onClick={() => quote.provider && fund.mutate({ loadId, provider: quote.provider })}
            data-testid="fund-button"
          >
            {busy && <Loader2 className="h-4 w-4 animate-spin" aria-hidden />}
            <Trans comment="Button: pay the total ({0}, an amount with its currency) with Stripe or Chapa">
              Pay {formatOriginal(quote.total, quote.currency)} with {providerName}
            </Trans>
          </Button>
        )}
        {!online && (
          <p className="text-sm text-muted-foreground">
            <Trans>You're offline. Paying needs a connection.</Trans>
          </p>
        )}
      </CardContent>
    </Card>
  );
}
