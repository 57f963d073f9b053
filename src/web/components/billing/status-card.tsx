import { Trans } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { daysLeft } from "../../../shared/subscription";
import { usePreferences } from "../../lib/preferences";
import { Badge } from "../ui/badge";
import { isPaid, type TSubscription, useProviderName } from "./shared";

export type TSubscriptionKind = "paid" | "trial" | "cancelled" | "expired";

/** Which subscription state the account is in, a paid period first (a trial does not run beside one). */
export const subscriptionKind = (s: TSubscription, now = Date.now()): TSubscriptionKind => {
  if (s.subscriptionStatus === "active" && isPaid(s, now)) return "paid";
  if (s.subscriptionStatus === "active" && s.trialStatus.isTrialActive) return "trial";
  return s.subscriptionStatus === "cancelled" ? "cancelled" : "expired";
};

function Row({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-wrap justify-between gap-x-4 gap-y-0.5">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="font-medium text-slate-900">{children}</dd>
    </div>
  );
}

/** The trial's days left, in the words the page used before payments (already translated). */
function TrialLeft({ days, until }: { days: number; until: string }) {
  return (
    <p className="font-medium text-green-700" data-testid="trial-state">
      <Trans>
        Your free premium access has {days} days left, until {until}.
      </Trans>
    </p>
  );
}

/** The account's subscription: active and paid until when, in its trial, expired or cancelled. */
export function SubscriptionStatusCard({ data }: { data: TSubscription }) {
  const { formatDate } = usePreferences();
  const providerName = useProviderName();
  const kind = subscriptionKind(data);
  const until = data.currentPeriodEnd ? formatDate(data.currentPeriodEnd) : "";
  const trialUntil = formatDate(data.trialStatus.trialEndsAt);
  const days = daysLeft(data.trialStatus.trialEndsAt);
  const provider = providerName(data.provider);

  return (
    <section
      className="grid gap-3 rounded-md border bg-white p-4 text-sm"
      data-testid="subscription-status"
      data-status={kind}
      aria-labelledby="subscription-status-title"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="subscription-status-title" className="font-semibold text-slate-900">
          <Trans comment="Subscription page card title: the user's current plan">Your subscription</Trans>
        </h2>
        {kind === "paid" && (
          <Badge variant="success">
            <Trans>Active</Trans>
          </Badge>
        )}
        {kind === "trial" && (
          <Badge variant="success">
            <Trans comment="Subscription card badge: the free trial is running">Trial</Trans>
          </Badge>
        )}
        {kind === "expired" && (
          <Badge variant="destructive">
            <Trans>Expired</Trans>
          </Badge>
        )}
        {kind === "cancelled" && (
          <Badge variant="secondary">
            <Trans>Cancelled</Trans>
          </Badge>
        )}
      </div>

      {kind === "paid" && (
        <>
          <p className="font-medium text-green-700" data-testid="trial-state">
            <Trans>Your premium plan is active.</Trans>
          </p>
          <dl className="grid gap-1.5">
            <Row label={<Trans comment="Subscription card: the date premium is paid until">Paid until</Trans>}>
              <span data-testid="paid-until">{until}</span>
            </Row>
            {provider && (
              <Row
                label={<Trans comment="Subscription card: the payment provider used (card, Chapa)">Paid with</Trans>}
              >
                {provider}
              </Row>
            )}
          </dl>
          <p className="text-muted-foreground" data-testid="renewal">
            {data.cancelAtPeriodEnd ? (
              <Trans>Ends on {until} (will not renew)</Trans>
            ) : data.provider === "stripe" ? (
              <Trans comment="Subscription card: the card payment renews by itself each month">
                Renews automatically
              </Trans>
            ) : (
              <Trans>Ends on {until}: it does not renew by itself.</Trans>
            )}
          </p>
        </>
      )}

      {kind === "trial" && (
        <>
          <TrialLeft days={days} until={trialUntil} />
          <dl className="grid gap-1.5">
            <Row label={<Trans>Free trial ends</Trans>}>{trialUntil}</Row>
          </dl>
          {data.billingStartsAt && (
            <p className="text-muted-foreground" data-testid="billing-starts">
              <Trans>
                Your card subscription starts when the trial ends: the first charge is on {trialUntil}, and premium
                continues without a break.
              </Trans>
            </p>
          )}
        </>
      )}

      {kind === "expired" && (
        <p className="font-medium text-destructive" data-testid="trial-state">
          {data.currentPeriodEnd ? (
            <Trans>Your premium plan ended on {until}.</Trans>
          ) : (
            <Trans>Your free premium access has expired.</Trans>
          )}
        </p>
      )}

      {kind === "cancelled" && (
        <p className="font-medium text-destructive" data-testid="trial-state">
          {data.currentPeriodEnd ? (
            <Trans>Your subscription was cancelled. Premium ended on {until}.</Trans>
          ) : (
            <Trans>Your subscription was cancelled.</Trans>
          )}
        </p>
      )}
    </section>
  );
}
