import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { PlugZap, RefreshCw } from "lucide-react";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { handleSubscriptionRequired } from "../subscription/upgrade-prompt";
import { Button } from "../ui/button";
import { serverMessage, type TIntegration, useRefreshEcommerce } from "./shared";

/** A real call to the store with the saved credentials; the answer's `connected` says which toast (SPEC §8). */
export function TestConnectionButton({ integration }: { integration: TIntegration }) {
  const { t } = useLingui();
  const refresh = useRefreshEcommerce();
  const onUnauthorized = useUnauthorizedRedirect();
  const store = integration.platformName;
  const test = useMutation(
    trpc.ecommerce.testIntegration.mutationOptions({
      onSuccess: (res) =>
        res.connected
          ? toast({
              title: t`Connection Successful`,
              description: t`Successfully connected to ${store}.`,
              variant: "success",
            })
          : toast({
              title: t`Connection Failed`,
              description: res.message ?? t`Could not connect to ${store}`,
              variant: "destructive",
            }),
      onError: (err) => {
        if (onUnauthorized(err)) return;
        toast({
          title: t`Test Failed`,
          description: serverMessage(err) ?? t`Failed to test the connection`,
          variant: "destructive",
        });
      },
      // The test records or clears the integration's last error.
      onSettled: () => refresh(),
    }),
  );
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={test.isPending}
      onClick={() => test.mutate({ id: integration.id })}
      data-testid="test-integration"
    >
      <PlugZap aria-hidden />
      {test.isPending ? <Trans>Testing...</Trans> : <Trans>Test Connection</Trans>}
    </Button>
  );
}

/** Fetches the orders the store changed since the last sync, now. */
export function SyncOrdersButton({ integration }: { integration: TIntegration }) {
  const { t } = useLingui();
  const refresh = useRefreshEcommerce();
  const onUnauthorized = useUnauthorizedRedirect();
  const sync = useMutation(
    trpc.ecommerce.syncIntegration.mutationOptions({
      onSuccess: (res) =>
        toast({
          title: t`Sync Successful`,
          description: res.message || t`Orders synced successfully`,
          variant: "success",
        }),
      onError: (err) => {
        if (onUnauthorized(err) || handleSubscriptionRequired(err)) return;
        toast({
          title: t`Sync Failed`,
          description: serverMessage(err) ?? t`Failed to sync orders`,
          variant: "destructive",
        });
      },
      // New orders, the counters, the last sync and the last error.
      onSettled: () => refresh(),
    }),
  );
  return (
    <Button
      size="sm"
      variant="outline"
      disabled={sync.isPending}
      onClick={() => sync.mutate({ id: integration.id })}
      data-testid="sync-integration"
    >
      <RefreshCw className={sync.isPending ? "animate-spin" : undefined} aria-hidden />
      {sync.isPending ? <Trans>Syncing...</Trans> : <Trans>Sync Orders</Trans>}
    </Button>
  );
}
