import { Trans } from "@lingui/react/macro";
import { CloudUpload } from "lucide-react";
import { useOfflineQueue } from "../../lib/offline-queue";
import { Badge } from "../ui/badge";

/** A load with something of the user's waiting in the offline queue (a bid, a trip step, a rating, a message). */
export function PendingBadge({ loadId }: { loadId: number }) {
  const { queued } = useOfflineQueue();
  const pending = queued.filter((q) => q.input.loadId === loadId);
  if (!pending.length) return null;
  return (
    <Badge variant="warning" data-testid="pending-badge">
      <CloudUpload className="size-3" />
      {pending.some((q) => q.kind === "bid") ? <Trans>Bid waiting to send</Trans> : <Trans>Waiting to send</Trans>}
    </Badge>
  );
}
