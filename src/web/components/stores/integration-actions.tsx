import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { PlugZap, RefreshCw } from "lucide-react";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { handleSubscriptionRequired } from "../billing/upgrade-prompt";
import { Button } from "../ui/button";
import { serverMessage, type TIntegration, useRefreshEcommerce } from "./shared";

/**
 * A real call to the store with the saved credentials; the answer's `connected` says which toast (Connection Successful
 * or Connection Failed).
 */
export function TestConnectionButton({ integration }: { integration: TIntegration }) {
  const { t } = useLingui();
  const refresh = useRefreshEcommerce();
  const onUnauthorized = useUnauthorizedRedirect();
  const store = integration.platformName;
  const test = useMutation(
    trpc.stores.testIntegration.mutationOptions({
      onSuccess: (res) =>
        res.connected
          ? toast({
              title: t({
                message: "Connection Successful",
                comment: "Notice title: connecting to the store or board worked",
              }),
              description: t`Successfully connected to ${store}.`,
              variant: "success",
            })
          : toast({
              title: t({
                message: "Connection Failed",
                comment: "Notice title: connecting to the store or board failed",
              }),
              description: res.message ?? t`Could not connect to ${store}`,
              variant: "destructive",
            }),
      onError: (err) => {
        if (onUnauthorized(err)) return;
        toast({
          title: t({ message: "Test Failed", comment: "Notice title: the connection or message test failed" }),
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
      {test.isPending ? (
        <Trans comment="Test Connection button while testing">Testing...</Trans>
      ) : (
        <Trans comment="Button on a store or board card: check that its credentials work">Test Connection</Trans>
      )}
    </Button>
  );
}

/** Fetches the orders the store changed since the last sync, now. */
export function SyncOrdersButton({ integration }: { integration: TIntegration }) {
  const { t } = useLingui();
  const refresh = useRefreshEcommerce();
  const onUnauthorized = useUnauthorizedRedirect();
  const sync = useMutation(
    trpc.stores.syncIntegration.mutationOptions({
      onSuccess: (res) =>
        toast({
          title: t({ message: "Sync Successful", comment: "Notice title after a sync worked" }),
          description: res.message || t`Orders synced successfully`,
          variant: "success",
        }),
      onError: (err) => {
        if (onUnauthorized(err) || handleSubscriptionRequired(err)) return;
        toast({
          title: t({ message: "Sync Failed", comment: "Notice title: a sync failed" }),
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
      {sync.isPending ? (
        <Trans comment="Sync Orders button while syncing">Syncing...</Trans>
      ) : (
        <Trans comment="Button on a store card: import its orders now">Sync Orders</Trans>
      )}
    </Button>
  );
}
