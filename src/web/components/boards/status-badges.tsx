import { Trans } from "@lingui/react/macro";
import { Badge } from "../ui/badge";
import type { TMarketplace } from "./shared";

/** A board's state: Inactive, Active, or Active & Syncing. */
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
        <Trans comment="Board status badge: switched on and copying its loads on a schedule">Active & Syncing</Trans>
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
        <Trans comment="Badge on a 123Loadboard card: the user has allowed MyTess on 123Loadboard">Connected</Trans>
      </Badge>
    );
  if (connection === "reconnect")
    return (
      <Badge variant="destructive" data-testid="connection-status">
        <Trans comment="Badge on a 123Loadboard card: 123Loadboard no longer accepts the connection; the user must connect again">
          Reconnect needed
        </Trans>
      </Badge>
    );
  return (
    <Badge variant="warning" data-testid="connection-status">
      <Trans comment="Badge on a 123Loadboard card: the user has not yet allowed MyTess on 123Loadboard">
        Not connected
      </Trans>
    </Badge>
  );
}
