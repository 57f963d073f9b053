import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Link } from "@tanstack/react-router";
import { Crown } from "lucide-react";
import { daysLeft } from "../../../shared/subscription";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Tooltip } from "../ui/tooltip";

export const subscriptionQueryOptions = () =>
  trpc.user.subscriptionStatus.queryOptions(undefined, { staleTime: 30_000, retry: 1 });

/** Days left during the trial, nothing while a paid plan is active, otherwise Upgrade Now. */
export function SubscriptionBadge() {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const { data } = useQuery(subscriptionQueryOptions());
  if (!data) return null;
  const { subscriptionStatus, trialStatus } = data;
  const days = daysLeft(trialStatus.trialEndsAt);
  if (trialStatus.isTrialActive && days > 0) {
    const until = formatDate(trialStatus.trialEndsAt);
    return (
      <Tooltip content={t`Free premium access until ${until}`}>
        <Badge variant="success" data-testid="trial-badge" tabIndex={0}>
          <Crown className="size-3" />
          {days === 1 ? (
            <Trans comment="Header badge during the free trial: one day of premium left">1 day left</Trans>
          ) : (
            <Trans comment="Header badge during the free trial: days of premium left">{days} days left</Trans>
          )}
        </Badge>
      </Tooltip>
    );
  }
  if (subscriptionStatus === "active" && !trialStatus.isTrialActive) return null;
  return (
    <Button asChild size="sm" variant="outline" data-testid="upgrade-now">
      <Link to="/subscribe">
        <Crown />
        <Trans comment="Header badge after the free trial: open the subscription page to buy premium">
          Upgrade Now
        </Trans>
      </Link>
    </Button>
  );
}
