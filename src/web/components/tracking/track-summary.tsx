import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { TTrack, TTripAlert } from "../../../shared/schemas/tracking";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { Card, CardContent } from "../ui/card";
import { LoadError } from "../ui/load-error";

/** What the tracking noticed, in the reader's words. */
export function TripAlertText({ alert }: { alert: TTripAlert }) {
  const { formatDate } = usePreferences();
  if (alert.kind === "arrived_pickup") return <Trans>The driver arrived at the pickup point.</Trans>;
  if (alert.kind === "arrived_delivery") return <Trans>The driver arrived at the delivery point.</Trans>;
  const eta = alert.eta ? formatDate(alert.eta, { dateStyle: "short", timeStyle: "short" }) : "";
  return <Trans>Running late: expected {eta}, after the delivery date.</Trans>;
}

/** The trip's miles left, ETA (and when it was reckoned) and alerts; the map beside it draws the positions. */
export function TrackFigures({ track }: { track: TTrack }) {
  const { formatDate, formatNumber } = usePreferences();
  const miles = track.remainingMiles == null ? null : formatNumber(Math.round(track.remainingMiles));
  const eta = track.eta ? formatDate(track.eta, { dateStyle: "medium", timeStyle: "short" }) : null;
  const computed = formatDate(track.etaComputedAt, { dateStyle: "short", timeStyle: "short" });
  return (
    <div className="grid gap-1 text-sm" data-testid="track-figures">
      {miles != null && track.status !== "delivered" && track.status !== "completed" && (
        <p data-testid="track-remaining">
          <Trans>About {miles} mi by road to the delivery point</Trans>
        </p>
      )}
      {eta && (track.status === "in_transit" || track.status === "assigned") && (
        <p data-testid="track-eta">
          <Trans>
            Expected at {eta} (estimated {computed})
          </Trans>
        </p>
      )}
      {!eta && track.status !== "delivered" && track.status !== "completed" && (
        <p className="text-muted-foreground">
          <Trans>No position shared yet: the ETA shows once the driver's phone reports.</Trans>
        </p>
      )}
      {track.events.length > 0 && (
        <ul className="list-disc ps-5" data-testid="track-events">
          {track.events.map((e) => (
            <li key={`${e.kind}-${e.at}`}>
              {formatDate(e.at, { dateStyle: "short", timeStyle: "short" })}: <TripAlertText alert={e} />
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

/** The load page's tracking card for the two parties; it refreshes when the live channel says the track moved. */
export function TrackSummary({ loadId }: { loadId: number }) {
  const { t } = useLingui();
  const q = useQuery(trpc.tracking.track.queryOptions({ loadId }, { retry: false }));
  return (
    <Card
      data-testid="track-summary"
      aria-label={t({
        message: "Trip tracking",
        comment: "Accessible name of the load page's card with the trip's position and ETA",
      })}
    >
      <CardContent className="pt-5">
        {q.isPending && (
          <p className="text-sm text-muted-foreground">
            <Trans comment="Shown while the trip's position and ETA are fetched">Loading the trip's position...</Trans>
          </p>
        )}
        {q.isError && (
          <LoadError
            title={
              <Trans>The trip's position could not be loaded. It is tried again when the connection returns.</Trans>
            }
            error={q.error}
            onRetry={q.refetch}
          />
        )}
        {q.data && <TrackFigures track={q.data} />}
      </CardContent>
    </Card>
  );
}
