import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { ArrowRight, MapPin } from "lucide-react";
import { lazy, Suspense } from "react";
import type { TSharedTrack } from "../../../shared/schemas/tracking";
import { useOnline } from "../../lib/online";
import { usePreferences } from "../../lib/preferences";
import { errorInfo, trpc } from "../../lib/trpc";
import { Card, CardContent, CardHeader } from "../ui/card";
import { LoadError } from "../ui/load-error";

const RouteMap = lazy(() => import("../map/route-map"));

/** How often the page asks for the trip again: the consignee has no live channel, and the track moves slowly. */
const REFRESH_MS = 60_000;

/** The trip's stage in the consignee's words. */
function StageText({ stage }: { stage: TSharedTrack["stage"] }) {
  if (stage === "awaiting_pickup")
    return <Trans comment="Tracking link page: the truck has not collected the goods yet">Waiting for pickup</Trans>;
  if (stage === "in_transit")
    return <Trans comment="Tracking link page: the truck is on its way with the goods">On the way</Trans>;
  return <Trans comment="Tracking link page: the goods arrived at the delivery place">Delivered</Trans>;
}

/**
 * The page a tracking link opens, signed in or not: the route, the track and last position on the map, the ETA and
 * the stage. It shows what the link's answer holds and nothing else.
 */
export function SharedTrip({ token }: { token: string }) {
  const { t } = useLingui();
  const online = useOnline();
  const q = useQuery(
    trpc.tracking.shared.queryOptions(
      { token },
      {
        retry: (count, err) => errorInfo(err).status === 0 && count < 2,
        refetchInterval: REFRESH_MS,
      },
    ),
  );
  const status = q.error ? errorInfo(q.error).status : null;
  if (q.isPending && !online)
    return (
      <Card className="p-8 text-center" data-testid="shared-trip-offline">
        <p className="text-muted-foreground">
          <Trans>You're offline. The trip shows once you're back online.</Trans>
        </p>
      </Card>
    );
  if (q.isPending)
    return (
      <p className="text-muted-foreground" role="status">
        <Trans comment="Shown while the trip's position and ETA are fetched">Loading the trip's position...</Trans>
      </p>
    );
  if (!q.data && (status === 404 || status === 400))
    return (
      <Card className="p-8 text-center" data-testid="shared-trip-gone">
        <h1 className="text-xl font-semibold">
          <Trans>This tracking link no longer works</Trans>
        </h1>
        <p className="mt-2 text-muted-foreground">
          <Trans>
            It has expired (a link works until 7 days after the delivery) or the sender turned it off. Ask them for a
            new link.
          </Trans>
        </p>
      </Card>
    );
  if (!q.data)
    return (
      <LoadError
        card
        testId="shared-trip-error"
        title={
          status === 429 ? (
            <Trans>Too many requests from this network. Try again in a minute.</Trans>
          ) : (
            <Trans>The trip's position could not be loaded.</Trans>
          )
        }
        error={status === 429 ? undefined : q.error}
        onRetry={q.refetch}
      />
    );
  const trip = q.data;
  const from = trip.pickup.label;
  const to = trip.delivery.label;
  return (
    <div className="grid gap-4" data-testid="shared-trip">
      <Card>
        <CardHeader>
          <h1 className="text-xl font-semibold leading-tight" data-testid="shared-trip-stage">
            <StageText stage={trip.stage} />
          </h1>
          <p className="text-muted-foreground" data-testid="shared-trip-route">
            <span className="sr-only">
              {t({ message: `From ${from} to ${to}`, comment: "Tracking link page: the trip's route, read aloud" })}
            </span>
            <span className="flex flex-wrap items-center gap-2" aria-hidden>
              <MapPin className="size-4" />
              <span>{from}</span>
              <ArrowRight className="size-4" />
              <span>{to}</span>
            </span>
          </p>
        </CardHeader>
        <CardContent>
          <TripFigures trip={trip} />
        </CardContent>
      </Card>
      <Suspense fallback={<div className="h-[260px] animate-pulse rounded-lg bg-muted md:h-[320px]" />}>
        <RouteMap
          pickup={{ lat: trip.pickup.latitude, lng: trip.pickup.longitude, label: trip.pickup.label }}
          delivery={{ lat: trip.delivery.latitude, lng: trip.delivery.longitude, label: trip.delivery.label }}
          track={trip.positions}
        />
      </Suspense>
    </div>
  );
}

function TripFigures({ trip }: { trip: TSharedTrack }) {
  const { formatDate, formatDistance } = usePreferences();
  const when = (iso: string) => formatDate(iso, { dateStyle: "medium", timeStyle: "short" });
  const eta = trip.eta ? when(trip.eta) : null;
  const computed = formatDate(trip.etaComputedAt, { dateStyle: "short", timeStyle: "short" });
  const distance = trip.remainingMiles == null ? null : formatDistance(trip.remainingMiles, 0);
  const deliveredAt = trip.deliveredAt ? when(trip.deliveredAt) : null;
  const lastAt = trip.lastPosition ? when(trip.lastPosition.recordedAt) : null;
  return (
    <div className="grid gap-1 text-sm" data-testid="shared-trip-figures">
      {trip.stage === "delivered" && deliveredAt && (
        <p data-testid="shared-trip-delivered">
          <Trans comment="Tracking link page: when the goods arrived (a date and time)">
            Delivered at {deliveredAt}
          </Trans>
        </p>
      )}
      {trip.stage !== "delivered" && eta && (
        <p className="text-base font-medium" data-testid="shared-trip-eta">
          <Trans>
            Expected at {eta} (estimated {computed})
          </Trans>
        </p>
      )}
      {trip.stage !== "delivered" && distance && (
        <p data-testid="shared-trip-remaining">
          <Trans>About {distance} by road to the delivery point</Trans>
        </p>
      )}
      {trip.stage !== "delivered" && !trip.lastPosition && (
        <p className="text-muted-foreground">
          <Trans>No position shared yet: the ETA shows once the driver's phone reports.</Trans>
        </p>
      )}
      {lastAt && (
        <p className="text-muted-foreground" data-testid="shared-trip-last">
          <Trans>Last position reported at {lastAt}</Trans>
        </p>
      )}
    </div>
  );
}
