import { Trans } from "@lingui/react/macro";
import { MapPin, Star } from "lucide-react";
import type { ReactNode } from "react";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";

/**
 * A bid's driver as a shipper sees them, on the landing page's demo and in the bids dialog: initials in a circle, then
 * `children` (the driver's figures, and in the dialog the name above them and the notes below).
 */
export function DriverBidRow({ initials, children }: { initials: string; children: ReactNode }) {
  return (
    <div className="flex items-center gap-3">
      <div className="flex size-10 items-center justify-center rounded-full bg-teal-100 font-semibold text-teal-900">
        {initials}
      </div>
      {children}
    </div>
  );
}

/** The driver's rating, trips and distance to the pickup (whole miles), then `children` on the same line. */
export function DriverBidFigures({
  bid,
  className,
  children,
}: {
  bid: { rating: number; trips: number; distance: number | null };
  className?: string;
  children?: ReactNode;
}) {
  const { formatNumber, formatDistance } = usePreferences();
  const distance = bid.distance == null ? null : formatDistance(bid.distance, 0);
  return (
    <div className={cn("flex flex-wrap items-center gap-3 text-muted-foreground", className)}>
      <span className="flex items-center gap-1">
        <Star className="size-3" />
        {formatNumber(bid.rating, { maximumFractionDigits: 1 })}
      </span>
      <span>
        <Trans comment="Bid row and landing example: how many trips the bidding driver has completed">
          {bid.trips} trips
        </Trans>
      </span>
      {distance != null && (
        <span className="flex items-center gap-1">
          <MapPin className="size-3" />
          <Trans comment="Bid row: how far the bidding driver is from the pickup; {distance} is a number with its unit (12 km)">
            {distance} from pickup
          </Trans>
        </span>
      )}
      {children}
    </div>
  );
}
