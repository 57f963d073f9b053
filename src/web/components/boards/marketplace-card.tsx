import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation } from "@tanstack/react-query";
import { Check, KeyRound, Minus, Pencil, PlugZap, X } from "lucide-react";
import { REQUIRED_CREDENTIAL_FIELDS, type TUpdateMarketplaceInput } from "../../../shared/schemas/boards";
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
import { DeleteMarketplaceDialog } from "./delete-marketplace-dialog";
import {
  serverMessage,
  type TMarketplace,
  useCredentialLabel,
  useProviderLabel,
  useRefreshMarketplaces,
} from "./shared";
import { ConnectionBadge, MarketplaceStatusBadge, SandboxBadge } from "./status-badges";

/**
 * Connect 123Loadboard: the user allows MyTess to search with their 123Loadboard account, on 123Loadboard's own page;
 * the browser comes back to the Marketplaces page, which says how it went.
 */
function ConnectButton({ config }: { config: TMarketplace }) {
  const { t } = useLingui();
  const onUnauthorized = useUnauthorizedRedirect();
  const connect = useMutation(
    trpc.boards.connect.mutationOptions({
      onSuccess: ({ url }) => window.location.assign(url),
      onError: (err) => {
        if (onUnauthorized(err)) return;
        toast({
          title: t`Connection Failed`,
          description: serverMessage(err) ?? t`123Loadboard could not be reached to connect.`,
          variant: "destructive",
        });
      },
    }),
  );
  const again = config.connection !== "not_connected";
  return (
    <Button
      size="sm"
      variant={config.connection === "connected" ? "outline" : "default"}
      disabled={connect.isPending || connect.isSuccess}
      onClick={() => connect.mutate({ id: config.id })}
      data-testid="connect-board"
    >
      <KeyRound aria-hidden />
      {again ? (
        <Trans comment="Button on a 123Loadboard card: authorize MyTess on 123Loadboard's page again (the connection was refused)">
          Reconnect 123Loadboard
        </Trans>
      ) : (
        <Trans comment="Button on a 123Loadboard card: go to 123Loadboard's page to allow MyTess to search with the user's account">
          Connect 123Loadboard
        </Trans>
      )}
    </Button>
  );
}

/** One board configuration: what it is, how it stands, and its actions. */
export function MarketplaceCard({ config, onEdit }: { config: TMarketplace; onEdit: () => void }) {
  const { t } = useLingui();
  const { formatDate, formatNumber } = usePreferences();
  const providerLabel = useProviderLabel();
  const credentialLabel = useCredentialLabel();
  const refresh = useRefreshMarketplaces();
  const onUnauthorized = useUnauthorizedRedirect();

  const test = useMutation(
    trpc.boards.test.mutationOptions({
      onSuccess: () =>
        toast({
          title: t`Connection Successful`,
          description: t`Successfully connected to the marketplace API.`,
          variant: "success",
        }),
      onError: (err) => {
        if (onUnauthorized(err)) return;
        toast({
          title: t`Connection Failed`,
          description: serverMessage(err) ?? t`Failed to connect to marketplace API`,
          variant: "destructive",
        });
      },
      // The test records or clears the board's last error.
      onSettled: () => refresh(),
    }),
  );
  const update = useMutation(
    trpc.boards.update.mutationOptions({
      onSuccess: async () => {
        toast({
          title: t({
            message: "Marketplace Updated",
            comment: "Notice title after a load board's settings were saved",
          }),
          description: config.name,
          variant: "success",
        });
        await refresh();
      },
      onError: (err) => {
        if (onUnauthorized(err) || handleSubscriptionRequired(err)) return;
        toast({
          title: t`Error`,
          description: serverMessage(err) ?? t`Failed to update marketplace configuration`,
          variant: "destructive",
        });
      },
    }),
  );
  const toggle = (changes: Pick<TUpdateMarketplaceInput, "isActive" | "syncEnabled">) =>
    update.mutate({ id: config.id, ...changes });
  // While a switch is being saved it shows the asked-for position.
  const asked = update.isPending ? update.variables : undefined;
  const isActive = asked?.isActive ?? config.isActive;
  const syncEnabled = asked?.syncEnabled ?? config.syncEnabled;

  const name = config.name;
  const rate = formatNumber(config.rateLimitPerHour);
  const credentials = Object.entries(config.config);
  return (
    <Card className="p-4" data-testid="marketplace-card" data-marketplace-id={config.id}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0">
          <div className="flex flex-wrap items-center gap-2">
            <h3 className="font-semibold" data-testid="marketplace-name">
              {name}
            </h3>
            <Badge variant="outline" data-testid="marketplace-board">
              {providerLabel(config.provider)}
            </Badge>
            {config.sandbox && <SandboxBadge />}
            <MarketplaceStatusBadge config={{ isActive, syncEnabled }} />
            {config.connection && <ConnectionBadge connection={config.connection} />}
          </div>
          <p className="mt-1 break-all text-sm text-muted-foreground" data-testid="marketplace-url">
            {config.apiBaseUrl}
          </p>
        </div>
        <div className="flex flex-wrap gap-2 sm:shrink-0 sm:justify-end">
          {config.connection && <ConnectButton config={config} />}
          <Button
            size="sm"
            variant="outline"
            disabled={test.isPending}
            onClick={() => test.mutate({ id: config.id })}
            data-testid="test-connection"
          >
            <PlugZap aria-hidden />
            {test.isPending ? <Trans>Testing...</Trans> : <Trans>Test Connection</Trans>}
          </Button>
          <Button size="sm" variant="outline" onClick={onEdit} data-testid="edit-marketplace">
            <Pencil aria-hidden />
            <Trans>Edit</Trans>
          </Button>
          <DeleteMarketplaceDialog config={config} />
        </div>
      </div>

      <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
        <div>
          <dt className="text-muted-foreground">
            <Trans comment="Board card: time between two syncs">Sync interval</Trans>
          </dt>
          <dd data-testid="marketplace-interval">
            {config.canSync ? (
              plural(config.syncIntervalMinutes, { one: "Every # minute", other: "Every # minutes" })
            ) : (
              <Trans>Live search only</Trans>
            )}
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">
            <Trans comment="Board card: how many requests per hour MyTess may send to the board">Rate limit</Trans>
          </dt>
          <dd data-testid="marketplace-rate-limit">
            <Trans>{rate} requests per hour</Trans>
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">
            <Trans>Credentials</Trans>
          </dt>
          <dd>
            <ul className="flex flex-wrap gap-x-3 gap-y-1" data-testid="marketplace-credentials">
              {credentials.map(([field, isSet]) => {
                const label = credentialLabel(config.provider, field);
                const required = REQUIRED_CREDENTIAL_FIELDS[config.provider].includes(field);
                return (
                  <li key={field} className="flex items-center gap-1" data-set={isSet}>
                    {isSet ? (
                      <Check className="size-3.5 text-green-700" aria-hidden />
                    ) : required ? (
                      <X className="size-3.5 text-destructive" aria-hidden />
                    ) : (
                      <Minus className="size-3.5 text-muted-foreground" aria-hidden />
                    )}
                    {isSet ? <Trans>{label}: set</Trans> : <Trans>{label}: not set</Trans>}
                  </li>
                );
              })}
            </ul>
          </dd>
        </div>
        <div>
          <dt className="text-muted-foreground">
            <Trans>Last sync</Trans>
          </dt>
          <dd data-testid="marketplace-last-sync">
            {config.lastSyncAt ? (
              <time dateTime={config.lastSyncAt}>
                {formatDate(config.lastSyncAt, { dateStyle: "medium", timeStyle: "short" })}
              </time>
            ) : config.canSync ? (
              <Trans>Never</Trans>
            ) : (
              <Trans>Not synced (live search)</Trans>
            )}
          </dd>
        </div>
      </dl>
      {config.lastError && (
        <p
          className="mt-3 rounded-md border border-destructive/40 p-2 text-sm break-words text-destructive"
          data-testid="marketplace-last-error"
        >
          <Trans>Last error: {config.lastError}</Trans>
        </p>
      )}

      <div className="mt-3 flex flex-col gap-3 border-t pt-3 sm:flex-row sm:flex-wrap sm:items-center sm:gap-x-8">
        <div className="flex items-center justify-between gap-3 sm:justify-start">
          <Label htmlFor={`mp-${config.id}-active`}>
            <Trans>Active</Trans>
          </Label>
          <Switch
            id={`mp-${config.id}-active`}
            checked={isActive}
            disabled={update.isPending}
            onCheckedChange={(on) => toggle({ isActive: on })}
            data-testid="toggle-active"
          />
        </div>
        {config.canSync ? (
          <div className="flex items-center justify-between gap-3 sm:justify-start">
            <Label htmlFor={`mp-${config.id}-sync`}>
              <Trans comment="Label of the switch on a board card: copy this board's loads on a schedule (on/off)">
                Sync
              </Trans>
            </Label>
            <Switch
              id={`mp-${config.id}-sync`}
              checked={syncEnabled}
              disabled={update.isPending}
              onCheckedChange={(on) => toggle({ syncEnabled: on })}
              data-testid="toggle-sync"
            />
          </div>
        ) : (
          <p className="text-sm text-muted-foreground" data-testid="dat-live-only">
            <Trans>DAT is searched live only (DAT's terms)</Trans>
          </p>
        )}
      </div>
    </Card>
  );
}
