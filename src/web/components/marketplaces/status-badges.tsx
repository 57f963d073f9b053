import { Trans } from "@lingui/react/macro";
import { Badge } from "../ui/badge";
import type { TMarketplace } from "./shared";

/** SPEC §4: Inactive, Active, or Active & Syncing. */
export function MarketplaceStatusBadge({ config }: { config: Pick<TMarketplace, "isActive" | "syncEnabled"> }) {
  if (!config.isActive)
    return (
      <Badge variant="secondary" data-testid="marketplace-status">
        <Trans>Inactive</Trans>
      </Badge>
    );
  if (config.syncEnabled)
    return (
      <Badge variant="success" data-testid="marketplace-status">
        <Trans>Active & Syncing</Trans>
      </Badge>
    );
  return (
    <Badge variant="default" data-testid="marketplace-status">
      <Trans>Active</Trans>
    </Badge>
  );
}

/** Emulators and the boards' test hosts. */
export function SandboxBadge() {
  return (
    <Badge variant="warning" data-testid="sandbox-badge">
      <Trans>Sandbox</Trans>
    </Badge>
  );
}

/** A board searched with the user's own authorization (123Loadboard): whether MyTess may search with it now. */
export function ConnectionBadge({ connection }: { connection: NonNullable<TMarketplace["connection"]> }) {
  if (connection === "connected")
    return (
      <Badge variant="success" data-testid="connection-status">
        <Trans>Connected</Trans>
      </Badge>
    );
  if (connection === "reconnect")
    return (
      <Badge variant="destructive" data-testid="connection-status">
        <Trans>Reconnect needed</Trans>
      </Badge>
    );
  return (
    <Badge variant="warning" data-testid="connection-status">
      <Trans>Not connected</Trans>
    </Badge>
  );
}
