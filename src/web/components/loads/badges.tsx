import { Trans, useLingui } from "@lingui/react/macro";
import { MailOpen, MapPin } from "lucide-react";
import { useRef } from "react";
import { DISTANCE_BADGE_MID_MILES, DISTANCE_BADGE_NEAR_MILES } from "../../../shared/constants";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { Badge, useTitleWhenCut } from "../ui/badge";

/** MYTESS when the source is mytess or missing, otherwise EXTERNAL. */
export function SourceBadge({ type }: { type?: string | null }) {
  const external = type != null && type !== "mytess";
  return (
    <Badge variant={external ? "outline" : "default"} data-testid="source-badge">
      {external ? "EXTERNAL" : "MYTESS"}
    </Badge>
  );
}

/**
 * Green within 10 miles, yellow within 50, grey beyond. `compact` (a table's column says "to pickup") shows the distance
 * only, in the reader's unit.
 */
export function DistanceBadge({ miles, compact }: { miles: number | null | undefined; compact?: boolean }) {
  const { t } = useLingui();
  const { formatDistance } = usePreferences();
  const ref = useRef<HTMLSpanElement>(null);
  const distance = miles == null ? "" : formatDistance(miles);
  const title = compact
    ? t({
        message: `${distance} to pickup`,
        comment: "Distance from the driver to the pickup place; {distance} is a number with its unit (12 km)",
      })
    : undefined;
  useTitleWhenCut(ref, title);
  if (miles == null) return null;
  // The colours keep their thresholds in miles whatever the reader's units: the same load looks the same to everyone.
  const tone = miles <= DISTANCE_BADGE_NEAR_MILES ? "near" : miles <= DISTANCE_BADGE_MID_MILES ? "mid" : "far";
  return (
    <span
      ref={ref}
      data-testid="distance-badge"
      data-tone={tone}
      title={title}
      className={cn(
        "inline-flex max-w-full shrink-0 items-center gap-1 overflow-hidden whitespace-nowrap rounded-full px-2.5 py-0.5 text-xs font-semibold",
        tone === "near" && "bg-green-100 text-green-800",
        tone === "mid" && "bg-yellow-100 text-yellow-800",
        tone === "far" && "bg-slate-100 text-slate-700",
      )}
    >
      <MapPin className="size-3 shrink-0" />
      {compact ? (
        distance
      ) : (
        <Trans comment="Distance from the driver to the pickup place; {distance} is a number with its unit (12 km)">
          {distance} to pickup
        </Trans>
      )}
    </span>
  );
}

/**
 * "Invited": the load's shipper invited the signed-in driver to bid on it (the server's `invited`, true for the driver's
 * own invitations only). Nothing otherwise. `compact` (a table's or a phone's row) keeps it to the word.
 */
export function InvitedBadge({ invited, compact }: { invited?: boolean; compact?: boolean }) {
  if (!invited) return null;
  return (
    <Badge variant="success" data-testid="invited-badge" className={cn("shrink-0", compact && "px-1.5 py-0")}>
      {!compact && <MailOpen className="size-3 shrink-0" aria-hidden />}
      <Trans context="driver's load badge" comment="Badge on a load: the shipper invited you to bid on it">
        Invited
      </Trans>
    </Badge>
  );
}

export function LoadStatusBadge({ status }: { status: string }) {
  const map: Record<
    string,
    { variant: "default" | "secondary" | "success" | "warning" | "destructive" | "outline"; label: React.ReactNode }
  > = {
    posted: {
      variant: "default",
      label: <Trans comment="Status badge of a load: published and open for bids">Posted</Trans>,
    },
    assigned: {
      variant: "warning",
      label: <Trans comment="Load status badge: the load has been given to a driver">Assigned</Trans>,
    },
    in_transit: {
      variant: "warning",
      label: <Trans comment="Status badge of a load: the driver is on the way with it">In transit</Trans>,
    },
    delivered: {
      variant: "success",
      label: (
        <Trans comment="Status badge: the load arrived at its delivery place; also a notification that reached the phone">
          Delivered
        </Trans>
      ),
    },
    disputed: {
      variant: "destructive",
      label: (
        <Trans comment="Status badge of a load: the shipper disputed the proof of delivery, so the trip is on hold">
          Disputed
        </Trans>
      ),
    },
    completed: {
      variant: "success",
      label: <Trans comment="Status badge of a load: the trip is finished and confirmed">Completed</Trans>,
    },
    cancelled: { variant: "destructive", label: <Trans>Cancelled</Trans> },
  };
  const s = map[status] ?? { variant: "secondary" as const, label: status };
  return (
    <Badge variant={s.variant} data-testid="load-status">
      {s.label}
    </Badge>
  );
}

/** Accepted and rejected get their colours, anything else (pending) a neutral badge. */
export function BidStatusBadge({ status }: { status: string }) {
  if (status === "accepted")
    return (
      <Badge variant="success" data-testid="bid-status">
        <Trans comment="Bid status badge: the shipper accepted the bid">Accepted</Trans>
      </Badge>
    );
  if (status === "rejected")
    return (
      <Badge variant="destructive" data-testid="bid-status">
        <Trans comment="Bid status badge: the shipper declined the bid">Rejected</Trans>
      </Badge>
    );
  if (status === "withdrawn")
    return (
      <Badge variant="outline" data-testid="bid-status">
        <Trans comment="Bid status badge: the driver took the bid back">Withdrawn</Trans>
      </Badge>
    );
  return (
    <Badge variant="secondary" data-testid="bid-status">
      <Trans>Pending</Trans>
    </Badge>
  );
}
