import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { Check, Pencil, X } from "lucide-react";
import { credentialFieldsFor } from "../../../shared/schemas/stores";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { handleSubscriptionRequired } from "../billing/upgrade-prompt";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Label } from "../ui/input";
import { Switch } from "../ui/switch";
import { DeleteIntegrationDialog } from "./delete-integration-dialog";
import { SyncOrdersButton, TestConnectionButton } from "./integration-actions";
import { savedShopifyApp } from "./integration-form";
import { serverMessage, type TIntegration, useCredentialLabel, useRefreshEcommerce } from "./shared";
import { IntegrationStatusBadge, SandboxBadge } from "./status-badges";
import { WebhookAddress } from "./webhook-address";

/** One store integration: what it is, how it stands, and its actions. */
export function IntegrationCard({ integration, onEdit }: { integration: TIntegration; onEdit: () => void }) {
  const { t } = useLingui();
  const { formatDate, formatNumber } = usePreferences();
  const credentialLabel = useCredentialLabel();
  const refresh = useRefreshEcommerce();
  const onUnauthorized = useUnauthorizedRedirect();
  const update = useMutation(
    trpc.stores.updateIntegration.mutationOptions({
      onSuccess: async (i) => {
        toast({
          title: t({ message: "Integration Updated", comment: "Notice title after a store's settings were saved" }),
          description: i.name,
          variant: "success",
        });
        await refresh();
      },
      onError: (err) => {
        if (onUnauthorized(err) || handleSubscriptionRequired(err)) return;
        toast({
          title: t`Error`,
          description: serverMessage(err) ?? t`Failed to update integration`,
          variant: "destructive",
        });
      },
    }),
  );
  // While the switch is being saved it shows the asked-for position.
  const isActive = (update.isPending ? update.variables?.isActive : undefined) ?? integration.isActive;
  const w = integration.settings.warehouse;
  const warehouse = [w.city, w.state, w.country].filter(Boolean).join(", ");
  const synced = formatNumber(integration.totalOrdersSynced);
  // Shopify's: the shop's and those of the kind of app it connects with.
  const shown = credentialFieldsFor(integration.platform, savedShopifyApp(integration.credentials));
  const credentials = Object.entries(integration.credentials).filter(([field]) => shown.includes(field));
  return (
    <Card className="p-4" data-testid="integration-card" data-integration-id={integration.id}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          <h3 className="font-semibold break-words" data-testid="integration-name">
            {integration.name}
          </h3>
          <Badge variant="outline" data-testid="integration-platform">
            {integration.platformName}
          </Badge>
          {integration.sandbox && <SandboxBadge />}
          <IntegrationStatusBadge isActive={isActive} />
        </div>
        <div className="flex flex-wrap gap-2 sm:shrink-0 sm:justify-end">
          <TestConnectionButton integration={integration} />
          <SyncOrdersButton integration={integration} />
          <Button size="sm" variant="outline" onClick={onEdit} data-testid="edit-integration">
            <Pencil aria-hidden />
            <Trans comment="Button on a store or board card: change its settings">Edit</Trans>
          </Button>
          <DeleteIntegrationDialog integration={integration} />
        </div>
      </div>

      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">
            <Trans comment="Store card: the warehouse the store's goods leave from (pickup of its loads)">
              Warehouse
            </Trans>
          </dt>
          <dd data-testid="integration-warehouse">{warehouse}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">
            <Trans comment="Store card: how many orders were imported">Orders synced</Trans>
          </dt>
          <dd data-testid="integration-orders-synced">{synced}</dd>
        </div>
        <div>
          <dt className="text-muted-foreground">
            <Trans comment="Store/board card: when the last sync ran">Last sync</Trans>
          </dt>
          <dd data-testid="integration-last-sync">
            {integration.lastSyncAt ? (
              <time dateTime={integration.lastSyncAt}>
                {formatDate(integration.lastSyncAt, { dateStyle: "medium", timeStyle: "short" })}
              </time>
            ) : (
              <Trans comment="Store/board card, last sync: it has never synced">Never</Trans>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">
            <Trans>Credentials</Trans>
          </dt>
          <dd>
            <ul className="flex flex-wrap gap-x-3 gap-y-1" data-testid="integration-credentials">
              {credentials.map(([field, isSet]) => {
                const label = credentialLabel(integration.platform, field);
                return (
                  <li key={field} className="flex items-center gap-1" data-set={isSet}>
                    {isSet ? (
                      <Check className="size-3.5 text-green-700" aria-hidden />
                    ) : (
                      <X className="size-3.5 text-muted-foreground" aria-hidden />
                    )}
                    {isSet ? (
                      <Trans comment="Board/store card: the credential named {label} has been entered (its value stays hidden)">
                        {label}: set
                      </Trans>
                    ) : (
                      <Trans comment="Board/store card: the credential named {label} has not been entered">
                        {label}: not set
                      </Trans>
                    )}
                  </li>
                );
              })}
            </ul>
          </dd>
        </div>
      </dl>
      {integration.lastError && (
        <p
          className="mt-3 rounded-md border border-destructive/40 p-2 text-sm break-words text-destructive"
          data-testid="integration-last-error"
        >
          <Trans comment="Store/board card: the error of the last sync">Last error: {integration.lastError}</Trans>
        </p>
      )}
      {integration.platform === "shopify" && <WebhookAddress integrationId={integration.id} />}

      <div className="mt-3 flex items-center justify-between gap-3 border-t pt-3 sm:justify-start">
        <Label htmlFor={`ec-${integration.id}-active`}>
          <Trans comment="Store/board status badge and switch label: switched on (in use)">Active</Trans>
        </Label>
        <Switch
          id={`ec-${integration.id}-active`}
          checked={isActive}
          disabled={update.isPending}
          onCheckedChange={(on) => update.mutate({ id: integration.id, isActive: on })}
          data-testid="toggle-active"
        />
      </div>
    </Card>
  );
}
