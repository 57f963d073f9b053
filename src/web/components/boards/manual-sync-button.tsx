import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { handleSubscriptionRequired } from "../billing/upgrade-prompt";
import { Button } from "../ui/button";
import { serverMessage, useRefreshMarketplaces } from "./shared";

/** Queues a sync of every active board with sync allowed (not DAT), now. */
export function ManualSyncButton() {
  const { t } = useLingui();
  const refresh = useRefreshMarketplaces();
  const onUnauthorized = useUnauthorizedRedirect();
  const sync = useMutation(
    trpc.boards.syncManual.mutationOptions({
      onSuccess: async () => {
        toast({
          title: t({ message: "Sync Started", comment: "Notice title after a manual sync started" }),
          description: t`Manual synchronization has been started.`,
          variant: "success",
        });
        await refresh();
      },
      onError: (err) => {
        if (onUnauthorized(err) || handleSubscriptionRequired(err)) return;
        toast({
          title: t`Sync Failed`,
          description: serverMessage(err) ?? t`Failed to start manual sync`,
          variant: "destructive",
        });
      },
    }),
  );
  return (
    <Button variant="outline" disabled={sync.isPending} onClick={() => sync.mutate({})} data-testid="manual-sync">
      <RefreshCw className={sync.isPending ? "animate-spin" : undefined} aria-hidden />
      {sync.isPending ? (
        <Trans comment="Manual Sync button while the sync starts">Starting...</Trans>
      ) : (
        <Trans comment="Button on a board card: run a sync now">Manual Sync</Trans>
      )}
    </Button>
  );
}
