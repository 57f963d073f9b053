import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery } from "@tanstack/react-query";
import { CreditCard, Loader2 } from "lucide-react";
import { type ReactNode, useEffect, useState } from "react";
import { PREMIUM_YEAR_PRICE_MONTHS } from "../../../shared/constants";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { LoadError } from "../ui/load-error";
import type { TPrice } from "./shared";

const keyOf = (p: Pick<TPrice, "currency" | "period">) => `${p.currency}-${p.period}`;

/**
 * Premium in each currency a configured provider takes (a month, and for birr also a year); a click goes to the
 * provider's page. With no provider configured, `fallback` (contact the team) shows instead.
 */
export function CheckoutOptions({
  inTrial,
  fallback,
  only,
}: {
  inTrial: boolean;
  fallback: ReactNode;
  /** Offer this currency alone (renewing premium bought in birr). */
  only?: "USD" | "EUR" | "ETB";
}) {
  const { t } = useLingui();
  const { formatOriginal } = usePreferences();
  const prices = useQuery(trpc.billing.prices.queryOptions(undefined, { staleTime: 60_000 }));
  // Stays set once the provider's page is on its way, so the button keeps its pending state until the page leaves.
  const [leaving, setLeaving] = useState<string | null>(null);
  // Back from the provider's page through the browser's history, the page may come back as it was left.
  useEffect(() => {
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setLeaving(null);
    };
    window.addEventListener("pageshow", onShow);
    return () => window.removeEventListener("pageshow", onShow);
  }, []);
  const checkout = useMutation(
    trpc.billing.checkout.mutationOptions({
      onSuccess: ({ url }, vars) => {
        setLeaving(keyOf({ currency: vars.currency, period: vars.period ?? "month" }));
        window.location.assign(url);
      },
      onError: (err) =>
        toast({ title: t`Payment could not be started`, description: errorInfo(err).message, variant: "destructive" }),
    }),
  );

  if (prices.isPending)
    return (
      <p className="text-sm text-muted-foreground" role="status">
        <Trans>Loading payment options…</Trans>
      </p>
    );
  if (prices.isError || prices.data.prices.length === 0)
    return (
      <div className="grid gap-3">
        {prices.isError && (
          <LoadError
            title={<Trans>Payment options could not be loaded.</Trans>}
            error={prices.error}
            onRetry={prices.refetch}
          />
        )}
        {fallback}
      </div>
    );

  const { providers } = prices.data;
  const busy = checkout.isPending || leaving !== null;
  const pendingKey =
    leaving ??
    (checkout.isPending && checkout.variables
      ? keyOf({ currency: checkout.variables.currency, period: checkout.variables.period ?? "month" })
      : null);
  const hint = (p: TPrice) =>
    p.provider === "stripe"
      ? t({ message: "Card (Stripe)", comment: "Payment choice: pay by bank card through Stripe" })
      : t`Chapa (telebirr, CBE Birr, cards in birr)`;

  return (
    <section className="grid gap-3" data-testid="checkout-options" aria-labelledby="checkout-options-title">
      <div className="grid gap-1">
        <h2 id="checkout-options-title" className="font-semibold text-slate-900">
          <Trans>Pay for premium</Trans>
        </h2>
        <p className="text-sm text-muted-foreground">
          {inTrial ? (
            <Trans>
              You can subscribe before your free period ends: your paid month starts when the free period ends, so no
              free day is lost. A card is first charged on that day (at once when less than two days are left).
            </Trans>
          ) : (
            <Trans>Choose how you want to pay. You will continue on the payment provider's secure page.</Trans>
          )}
        </p>
      </div>
      <ul className="grid gap-3 sm:grid-cols-2">
        {prices.data.prices
          .filter((p) => !only || p.currency === only)
          .map((p) => {
            const price = formatOriginal(p.amount, p.currency);
            const sandbox = providers.find((x) => x.id === p.provider)?.state === "sandbox";
            const pending = pendingKey === keyOf(p);
            const yearly = p.period === "year";
            return (
              <li key={keyOf(p)} className="grid gap-2 rounded-md border p-3">
                <Button
                  className="w-full"
                  data-testid={yearly ? `checkout-${p.currency}-year` : `checkout-${p.currency}`}
                  disabled={busy}
                  aria-busy={pending}
                  onClick={() => checkout.mutate({ currency: p.currency, period: p.period })}
                >
                  {pending ? <Loader2 className="animate-spin" /> : <CreditCard />}
                  {pending ? (
                    <Trans>Opening the payment page…</Trans>
                  ) : yearly ? (
                    <Trans comment="Payment button: pay {price} for one year">Pay {price} / year</Trans>
                  ) : (
                    <Trans comment="Payment button: pay {price} every month">Pay {price} / month</Trans>
                  )}
                </Button>
                <div className="flex flex-wrap items-center gap-2 text-xs text-muted-foreground">
                  <span>{hint(p)}</span>
                  {yearly && (
                    <span data-testid="yearly-saving">
                      <Trans>12 months for the price of {PREMIUM_YEAR_PRICE_MONTHS}; it does not renew by itself</Trans>
                    </span>
                  )}
                  {sandbox && (
                    <Badge variant="warning" data-testid={`sandbox-${p.provider}`}>
                      <Trans>Sandbox</Trans>
                    </Badge>
                  )}
                </div>
              </li>
            );
          })}
      </ul>
    </section>
  );
}
