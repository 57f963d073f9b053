import { Trans } from "@lingui/react/macro";
import { MapPinCheck } from "lucide-react";
import { useState } from "react";
import { haversineMiles } from "../../../shared/geo";
import { ARRIVAL_MILES } from "../../../shared/schemas/tracking";
import { isSharing, useTripReporter } from "../../lib/trip-reporter";
import { Button } from "../ui/button";

/** A fix older than this says nothing about where the truck is now. */
const FRESH_MS = 10 * 60_000;

type TTripPlaces = {
  id: number;
  status: string;
  pickupLatitude: number;
  pickupLongitude: number;
  deliveryLatitude: number;
  deliveryLongitude: number;
};

/**
 * On the trip card, when the shared position is within 500 m of the pickup point (before pickup) or of the delivery
 * point (in transit): "Arrived at pickup? Picked up?" or "Arrived at delivery?", answered with the card's own pickup
 * or delivery action. "Not yet" hides the question until the page is opened again.
 */
export function ArrivalPrompt({
  trip,
  busy,
  onPickedUp,
  onDelivered,
}: {
  trip: TTripPlaces;
  busy: boolean;
  onPickedUp: () => void;
  onDelivered: () => void;
}) {
  const { lastFix } = useTripReporter();
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (!lastFix || !isSharing(trip.id, trip.status) || Date.now() - lastFix.at > FRESH_MS) return null;
  const near = (lat: number, lng: number) =>
    haversineMiles(lastFix.latitude, lastFix.longitude, lat, lng) <= ARRIVAL_MILES;
  const at =
    trip.status === "assigned" && near(trip.pickupLatitude, trip.pickupLongitude)
      ? "pickup"
      : trip.status === "in_transit" && near(trip.deliveryLatitude, trip.deliveryLongitude)
        ? "delivery"
        : null;
  if (!at || dismissed === at) return null;
  return (
    <section
      className="flex w-full flex-wrap items-center justify-between gap-2 rounded-md border border-brand bg-teal-50 p-3 text-sm"
      data-testid="arrival-prompt"
      data-at={at}
      aria-labelledby={`arrival-${trip.id}`}
      aria-live="polite"
    >
      <div className="flex items-start gap-2">
        <MapPinCheck className="mt-0.5 size-5 shrink-0 text-brand" aria-hidden />
        <div>
          <h3 id={`arrival-${trip.id}`} className="font-semibold">
            {at === "pickup" ? (
              <Trans comment="Driver's trip card, near the pickup point: a question">Arrived at pickup?</Trans>
            ) : (
              <Trans comment="Driver's trip card, near the delivery point: a question">Arrived at delivery?</Trans>
            )}
          </h3>
          <p className="text-muted-foreground">
            {at === "pickup" ? (
              <Trans>Picked up? Tell the shipper once the load is on the truck.</Trans>
            ) : (
              <Trans>Mark the load delivered once it is unloaded.</Trans>
            )}
          </p>
        </div>
      </div>
      <div className="flex gap-2">
        <Button
          size="sm"
          className="min-h-11 sm:min-h-8"
          disabled={busy}
          onClick={at === "pickup" ? onPickedUp : onDelivered}
          data-testid="arrival-yes"
        >
          {at === "pickup" ? (
            <Trans comment="Driver's answer near the pickup point: the load is on the truck">Yes, picked up</Trans>
          ) : (
            <Trans comment="Driver's answer near the delivery point: the load was handed over">Yes, delivered</Trans>
          )}
        </Button>
        <Button size="sm" variant="outline" className="min-h-11 sm:min-h-8" onClick={() => setDismissed(at)}>
          <Trans comment="Driver's answer to 'Arrived at pickup/delivery?': not yet, ask again later">Not yet</Trans>
        </Button>
      </div>
    </section>
  );
}
