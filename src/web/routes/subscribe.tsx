import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { Check, Crown } from "lucide-react";
import { useEffect, useState } from "react";
import { MONEY_BACK_DAYS, PREMIUM_PRICE_USD } from "../../shared/constants";
import { CheckoutOptions } from "../components/billing/checkout-options";
import { CheckoutResult, type TCheckoutReturn } from "../components/billing/checkout-result";
import { ManageSubscription } from "../components/billing/manage-subscription";
import { PaymentsList } from "../components/billing/payments-list";
import { isPaid, subscriptionStatusOptions, type TSubscription } from "../components/billing/shared";
import { SubscriptionStatusCard } from "../components/billing/status-card";
import { PageHeader } from "../components/layout/page-header";
import { Amount } from "../components/money/amount";
import { RatesNote } from "../components/money/rates-note";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { LoadError } from "../components/ui/load-error";
import { loginHref } from "../lib/auth";
import { loadAppMessages } from "../lib/i18n";
import { usePreferences } from "../lib/preferences";

// Hand-written so that the route table, which every page loads, does not pull in a schema library. The providers send
// the browser back here: Stripe with checkout=success&session_id=… or checkout=cancelled, Chapa with
// checkout=return&tx_ref=….
type TSearch = { checkout?: "success" | "cancelled" | "return"; session_id?: string; tx_ref?: string };
const param = (v: unknown) => {
  const s = typeof v === "string" || typeof v === "number" ? String(v).trim() : "";
  return s && s.length <= 200 ? s : undefined;
};
const validateSearch = (raw: Record<string, unknown>): TSearch => {
  const checkout =
    raw.checkout === "success" || raw.checkout === "cancelled" || raw.checkout === "return" ? raw.checkout : undefined;
  return {
    checkout,
    session_id: checkout === "success" ? param(raw.session_id) : undefined,
    tx_ref: checkout === "return" ? param(raw.tx_ref) : undefined,
  };
};

const checkoutReturnOf = (s: TSearch): TCheckoutReturn | null => {
  if (s.checkout === "success" || s.checkout === "cancelled") return { kind: s.checkout };
  if (s.checkout === "return" && s.tx_ref) return { kind: "return", txRef: s.tx_ref };
  return null;
};

export const Route = createFileRoute("/subscribe")({
  validateSearch,
  // Signed in, the page shows the subscription's own screens, whose messages are in the app catalog.
  beforeLoad: async ({ context }) => {
    if (context.me) await loadAppMessages();
  },
  component: SubscribePage,
});

/** The team sets the plan up by hand: what the page offers when no payment provider is configured. */
function ContactToSubscribe() {
  return (
    <div className="grid gap-3">
      <div
        className="rounded-md border border-yellow-300 bg-yellow-50 p-4 text-sm text-yellow-900"
        data-testid="payment-note"
      >
        <Trans>
          Online payment is not available yet. To subscribe now, contact our team and we will set up your plan.
        </Trans>
      </div>
      <Button asChild>
        <Link to="/contact">
          <Trans>Contact us to subscribe</Trans>
        </Link>
      </Button>
    </div>
  );
}

/**
 * Buy (unless a paid period runs). Premium bought in birr does not renew by itself: its holders may pay the next month
 * ahead, which starts when the current one ends.
 */
function BuySection({ data }: { data: TSubscription }) {
  if (isPaid(data) && data.provider === "chapa") return <CheckoutOptions inTrial={false} only="ETB" fallback={null} />;
  // A card subscription already waits for the trial's end.
  if (isPaid(data) || data.billingStartsAt) return null;
  return <CheckoutOptions inTrial={data.trialStatus.isTrialActive} fallback={<ContactToSubscribe />} />;
}

function SubscribePage() {
  const { t } = useLingui();
  const { me } = Route.useRouteContext();
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  const { formatDistance } = usePreferences();
  // The provider's answer is read once, then the address is cleaned so that a reload does not show it again.
  const [checkoutReturn] = useState(() => checkoutReturnOf(search));
  const status = useQuery({ ...subscriptionStatusOptions(), enabled: Boolean(me) });
  const hasParams = Boolean(search.checkout || search.session_id || search.tx_ref);
  useEffect(() => {
    if (me && hasParams) void navigate({ to: "/subscribe", search: {}, replace: true });
  }, [me, hasParams, navigate]);

  const features = [
    t`Unlimited bids and posted loads`,
    t({
      message: `Loads within ${formatDistance(500, 0)} of you`,
      comment: "Premium plan feature; {0} is a distance with its unit (805 km)",
    }),
    t`Trip tracking and ratings`,
    t`Alerts in the browser, on Telegram and on WhatsApp`,
    t`Support in English, Amharic and Afaan Oromo`,
  ];
  const paid = status.data ? isPaid(status.data) : false;

  return (
    <div className="mx-auto grid max-w-3xl gap-4 px-4 py-8">
      <PageHeader
        title={<Trans comment="Title of the subscription page: the paid plan of MyTess">MyTess Premium</Trans>}
        description={<Trans>Everything you need to move freight, for one monthly price.</Trans>}
      />
      {me && checkoutReturn && <CheckoutResult result={checkoutReturn} />}
      {me && status.data && <SubscriptionStatusCard data={status.data} />}
      <Card className="border-brand">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-xl">
            <Crown className="size-5 text-brand" />
            <Trans comment="Name of the paid plan (subscription page, terms section heading)">Premium</Trans>
          </CardTitle>
          <CardDescription>
            <Amount amount={PREMIUM_PRICE_USD} currency="USD" className="text-3xl font-bold text-slate-900" />{" "}
            <Trans comment="Subscription page: after the price, “per month”">per month</Trans>
            <RatesNote className="mt-1" />
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {!me && (
            <div className="rounded-md bg-muted p-4 text-sm">
              <Trans>Sign in to see your free trial and subscription.</Trans>{" "}
              <a className="font-medium text-brand hover:underline" href={loginHref("/subscribe")}>
                <Trans>Sign in</Trans>
              </a>
            </div>
          )}
          {me && status.isPending && (
            <p className="text-sm text-muted-foreground" role="status">
              <Trans>Loading your subscription…</Trans>
            </p>
          )}
          {me && status.isError && (
            <LoadError
              title={<Trans>Your subscription status could not be loaded.</Trans>}
              error={status.error}
              onRetry={status.refetch}
            />
          )}
          <ul className="grid gap-2">
            {features.map((f) => (
              <li key={f} className="flex items-start gap-2 text-sm">
                <Check className="mt-0.5 size-4 text-brand" />
                {f}
              </li>
            ))}
          </ul>
          <p className="text-sm text-muted-foreground">
            <Trans>New accounts get 6 months free. {MONEY_BACK_DAYS}-day money-back guarantee. Cancel anytime.</Trans>
          </p>
          <p className="text-sm text-muted-foreground" data-testid="after-premium">
            <Trans>
              Without Premium you keep your account and everything in it: loads, trips, messages, answering bids, your
              boards and stores, and alerts in the app and the browser. Posting loads, bidding, board sync, store order
              imports, new-load alerts and Telegram and WhatsApp alerts need Premium.
            </Trans>
          </p>
          {me && status.data && <BuySection data={status.data} />}
        </CardContent>
      </Card>
      {me && status.data && (
        <Card>
          <CardContent className="grid gap-6 pt-5">
            {(paid || status.data.billingStartsAt) && <ManageSubscription data={status.data} />}
            <PaymentsList />
          </CardContent>
        </Card>
      )}
    </div>
  );
}
