import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { Loader2, ShieldCheck } from "lucide-react";
import { useState } from "react";
import { useOnline } from "../../lib/online";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../ui/card";
import { PaymentStateBadge, PayoutIssueNote } from "./payment-state";

/**
 * A load's payment on its page: for the shipper of an awarded load, what funding costs (agreed amount, the platform's
 * fee, the total) and "Fund this load", which goes to the provider of the currency; for both parties, "Payment
 * secured" once the money is held.
 */
export function LoadPayment({ loadId }: { loadId: number }) {
  const { t } = useLingui();
  const { formatOriginal } = usePreferences();
  const online = useOnline();
  const q = useQuery(trpc.payments.forLoad.queryOptions({ loadId }, { retry: false }));
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
      <p className="text-sm text-destructive" role="alert" data-testid="load-payment-error">
        <Trans>The payment could not be loaded.</Trans> {errorInfo(q.error).message}
      </p>
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
            <PaymentStateBadge state={payment.state} secured />
          </div>
          {payment.payoutIssue && (
            <div className="basis-full">
              <PayoutIssueNote issue={payment.payoutIssue} />
            </div>
          )}
        </CardContent>
      </Card>
    );
  if (!quote || (payment && payment.state === "refunded")) return null;
  const busy = fund.isPending || leaving;
  const providerName = quote.provider === "chapa" ? "Chapa" : "Stripe";
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
