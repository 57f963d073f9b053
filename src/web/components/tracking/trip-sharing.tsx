import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { MapPin, MapPinOff } from "lucide-react";
import { useEffect, useState } from "react";
import { useOfflineQueue } from "../../lib/offline-queue";
import { flushPoints, isSharing, setSharing, useTripReporter, watchTrips } from "../../lib/trip-reporter";
import { Button } from "../ui/button";

type TWatch = "starting" | "watching" | "denied" | "unavailable" | "unsupported";

/**
 * The trip card's sharing line: whether the driver's position goes to the shipper now, the button that pauses or
 * resumes it (or, before pickup, starts it), and what the device said when it could not give a position.
 */
export function TripSharing({ loadId, status }: { loadId: number; status: string }) {
  const { t } = useLingui();
  const { points } = useTripReporter();
  const sharing = isSharing(loadId, status);
  const [watch, setWatch] = useState<TWatch>("starting");
  // Points still on the phone: held by the reporter, or in batches the offline queue keeps.
  const queued = useOfflineQueue()
    .queued.filter((q) => q.kind === "position" && q.input.loadId === loadId)
    .reduce((n, q) => n + (Array.isArray(q.input.positions) ? q.input.positions.length : 0), 0);
  const held = (points[String(loadId)]?.length ?? 0) + queued;

  useEffect(() => {
    if (!sharing) return;
    setWatch("starting");
    const stop = watchTrips([loadId], setWatch);
    return () => {
      stop();
      flushPoints(true).catch(() => {});
    };
  }, [sharing, loadId]);

  if (status !== "assigned" && status !== "in_transit") return null;
  const problem = sharing && (watch === "denied" || watch === "unavailable" || watch === "unsupported");
  return (
    <div
      className="flex w-full flex-wrap items-center justify-between gap-2 rounded-md border bg-muted/40 p-2 text-sm"
      data-testid="trip-sharing"
      data-sharing={sharing ? "on" : "off"}
    >
      <p className="flex items-center gap-2" role="status" aria-live="polite">
        {sharing && !problem ? (
          <MapPin className="size-4 text-brand" aria-hidden />
        ) : (
          <MapPinOff className="size-4 text-muted-foreground" aria-hidden />
        )}
        <span>
          {sharing && watch === "denied" && (
            <Trans>
              Location access is blocked. Allow it for MyTess in your browser's settings to share this trip.
            </Trans>
          )}
          {sharing && watch === "unavailable" && (
            <Trans>Your position cannot be found right now. Sharing resumes when the phone finds it.</Trans>
          )}
          {sharing && watch === "unsupported" && <Trans>This browser cannot share your location.</Trans>}
          {sharing && !problem && <Trans>Sharing your location with the shipper while the app is open.</Trans>}
          {!sharing && status === "in_transit" && (
            <Trans>Location sharing is paused. The shipper sees your last position.</Trans>
          )}
          {!sharing && status === "assigned" && (
            <Trans>Your location is shared with the shipper from pickup. You may share it now.</Trans>
          )}
          {held > 0 && (
            <span className="block text-muted-foreground" data-testid="trip-sharing-held">
              {plural(held, {
                one: "# position waiting to be sent",
                other: "# positions waiting to be sent",
              })}
            </span>
          )}
        </span>
      </p>
      <Button
        size="sm"
        variant="outline"
        className="min-h-11 sm:min-h-8"
        onClick={() => setSharing(loadId, sharing ? "paused" : "on")}
        aria-label={sharing ? t`Pause location sharing for this trip` : t`Share my location for this trip`}
      >
        {sharing ? (
          <Trans comment="Button on the driver's trip card: stop sending the position to the shipper for now">
            Pause sharing
          </Trans>
        ) : status === "in_transit" ? (
          <Trans comment="Button on the driver's trip card: send the position to the shipper again">
            Resume sharing
          </Trans>
        ) : (
          <Trans comment="Button on the driver's trip card before pickup: start sending the position to the shipper">
            Share now
          </Trans>
        )}
      </Button>
    </div>
  );
}
