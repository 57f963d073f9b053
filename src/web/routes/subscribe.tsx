import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { Check, Crown } from "lucide-react";
import { MONEY_BACK_DAYS, PREMIUM_PRICE_USD } from "../../shared/constants";
import { daysLeft } from "../../shared/subscription";
import { PageHeader } from "../components/layout/page-header";
import { subscriptionQueryOptions } from "../components/layout/subscription-badge";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "../components/ui/card";
import { loginHref } from "../lib/auth";
import { usePreferences } from "../lib/preferences";

export const Route = createFileRoute("/subscribe")({ component: SubscribePage });

function TrialState() {
  const { formatDate } = usePreferences();
  const { data, isPending, isError } = useQuery(subscriptionQueryOptions());
  if (isPending) return null;
  if (isError || !data) {
    return (
      <p className="text-sm text-destructive">
        <Trans>Your subscription status could not be loaded.</Trans>
      </p>
    );
  }
  const days = daysLeft(data.trialStatus.trialEndsAt);
  const until = formatDate(data.trialStatus.trialEndsAt);
  if (data.subscriptionStatus === "active" && !data.trialStatus.isTrialActive) {
    return (
      <p className="font-medium text-green-700" data-testid="trial-state">
        <Trans>Your premium plan is active.</Trans>
      </p>
    );
  }
  if (data.trialStatus.isTrialActive && days > 0) {
    return (
      <p className="font-medium text-green-700" data-testid="trial-state">
        <Trans>
          Your free premium access has {days} days left, until {until}.
        </Trans>
      </p>
    );
  }
  return (
    <p className="font-medium text-destructive" data-testid="trial-state">
      <Trans>Your free premium access has expired.</Trans>
    </p>
  );
}

function SubscribePage() {
  const { t } = useLingui();
  const { me } = Route.useRouteContext();
  const { formatAmount } = usePreferences();
  const price = formatAmount(PREMIUM_PRICE_USD, "USD");
  const features = [
    t`Unlimited bids and posted loads`,
    t`Loads within 500 miles of you`,
    t`Trip tracking and ratings`,
    t`Alerts in the browser, on Telegram and on WhatsApp`,
    t`Support in English, Amharic and Afaan Oromo`,
  ];
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <PageHeader
        title={<Trans>MyTess Premium</Trans>}
        description={<Trans>Everything you need to move freight, for one monthly price.</Trans>}
      />
      <Card className="border-brand">
        <CardHeader>
          <CardTitle className="flex items-center gap-2 text-xl">
            <Crown className="size-5 text-brand" />
            <Trans>Premium</Trans>
          </CardTitle>
          <CardDescription>
            <span className="text-3xl font-bold text-slate-900">{price}</span> <Trans>per month</Trans>
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-4">
          {me ? (
            <TrialState />
          ) : (
            <div className="rounded-md bg-muted p-4 text-sm">
              <Trans>Sign in to see your free trial and subscription.</Trans>{" "}
              <a className="font-medium text-brand hover:underline" href={loginHref("/subscribe")}>
                <Trans>Sign in</Trans>
              </a>
            </div>
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
        </CardContent>
      </Card>
    </div>
  );
}
