import { t } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import { Crown } from "lucide-react";
import { toast } from "../../lib/toast";
import { errorInfo, isSubscriptionRequired, queryClient, trpc } from "../../lib/trpc";
import { cn } from "../../lib/utils";
import { Button } from "../ui/button";

const UPGRADE_TOAST_MS = 10_000;

/**
 * Premium has ended (the server said 402 SUBSCRIPTION_REQUIRED): the server's message in a toast, and the status asked
 * again, so the header's "Upgrade Now" button (a link to /subscribe) shows at once. `message` is the server's
 * (translated) text; without it a generic one shows.
 */
export const toastUpgrade = (message?: string) => {
  void queryClient.invalidateQueries(trpc.user.subscriptionStatus.pathFilter());
  void queryClient.invalidateQueries(trpc.billing.status.pathFilter());
  return toast({
    title: t({ message: "Premium required", comment: "Notice title: this needs the paid premium plan" }),
    description: message || t`This needs MyTess Premium. Upgrade on the subscription page to continue.`,
    variant: "warning",
    duration: UPGRADE_TOAST_MS,
  });
};

/**
 * For a mutation's onError: when the error is a 402 SUBSCRIPTION_REQUIRED, shows the upgrade toast and returns true
 * (the caller shows nothing else); any other error returns false.
 *
 *   onError: (err) => { if (handleSubscriptionRequired(err)) return; ... }
 */
export const handleSubscriptionRequired = (err: unknown): boolean => {
  if (!isSubscriptionRequired(err)) return false;
  toastUpgrade(errorInfo(err).message);
  return true;
};

/**
 * The same inside a form or a panel: the server's message with an "Upgrade" button to /subscribe. Render it where the
 * form shows its errors, e.g. `{isSubscriptionRequired(m.error) && <UpgradePrompt message={errorInfo(m.error).message} />}`.
 */
export function UpgradePrompt({ message, className }: { message?: string; className?: string }) {
  return (
    <div
      className={cn(
        "flex flex-wrap items-center justify-between gap-3 rounded-md border border-yellow-300 bg-yellow-50 p-3 text-sm text-yellow-900",
        className,
      )}
      role="alert"
      data-testid="upgrade-prompt"
    >
      <p className="min-w-0 flex-1">
        {message || <Trans>This needs MyTess Premium. Upgrade on the subscription page to continue.</Trans>}
      </p>
      <Button asChild size="sm">
        <Link to="/subscribe" data-testid="upgrade-link">
          <Crown />
          <Trans comment="Button in the premium-required notice: open the subscription page">Upgrade</Trans>
        </Link>
      </Button>
    </div>
  );
}
