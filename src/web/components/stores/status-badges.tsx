import { Trans } from "@lingui/react/macro";
import type { TOrderStatus } from "../../../shared/schemas/stores";
import { Badge } from "../ui/badge";
import { useOrderStatusLabel } from "./shared";

export { SandboxBadge } from "../boards/status-badges";

/** Active or Inactive (an inactive integration neither syncs nor takes webhooks). */
export function IntegrationStatusBadge({ isActive }: { isActive: boolean }) {
  return isActive ? (
    <Badge variant="success" data-testid="integration-status">
      <Trans>Active</Trans>
    </Badge>
  ) : (
    <Badge variant="secondary" data-testid="integration-status">
      <Trans comment="Store/board status badge: switched off (not used for search or sync)">Inactive</Trans>
    </Badge>
  );
}

const ORDER_VARIANT: Record<TOrderStatus, "default" | "secondary" | "outline" | "success" | "warning" | "destructive"> =
  {
    pending: "warning",
    processing: "default",
    synced: "outline",
    converted: "success",
    cancelled: "destructive",
  };

/** An order's status: pending, processing, synced, converted or cancelled. */
export function OrderStatusBadge({ status }: { status: TOrderStatus }) {
  const label = useOrderStatusLabel();
  return (
    <Badge variant={ORDER_VARIANT[status] ?? "secondary"} data-testid="order-status" data-status={status}>
      {label(status)}
    </Badge>
  );
}
