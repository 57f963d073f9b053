import "maplibre-gl/dist/maplibre-gl.css";
import { Trans, useLingui } from "@lingui/react/macro";
import { useRef } from "react";
import { usePreferences } from "../../lib/preferences";
import { LegendItem } from "./legend";
import { COLORS, fitTo, isFiniteLngLat, labelElement, type TLngLat, useDrawn, useMaplibreMap } from "./maplibre";
import { usePlaceLabels } from "./place-labels";

export type TMapPlace = { lat: number; lng: number; label: string };
export type TTrackPoint = { latitude: number; longitude: number; recordedAt: string };

const SOURCES = ["route", "track", "places"] as const;
const LAYERS = ["route-line", "track-line", "places-circle"] as const;

/** A load's route: pickup → delivery (dashed), the trip's track (solid) and the truck's last position. */
export default function RouteMap({
  pickup,
  delivery,
  track = [],
}: {
  pickup: TMapPlace;
  delivery: TMapPlace;
  track?: TTrackPoint[];
}) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const container = useRef<HTMLDivElement>(null);
  const state = useMaplibreMap(container);
  const points = track.filter((p) => isFiniteLngLat({ lat: p.latitude, lng: p.longitude }));
  const last = points.at(-1);
  const hasPickup = isFiniteLngLat(pickup);
  const hasDelivery = isFiniteLngLat(delivery);
  usePlaceLabels(state, [
    ...(hasPickup ? [[pickup.lng, pickup.lat] as TLngLat] : []),
    ...(hasDelivery ? [[delivery.lng, delivery.lat] as TLngLat] : []),
  ]);

  const key = JSON.stringify([pickup, delivery, points.length, last?.recordedAt]);
  const ready = useDrawn(
    state,
    (lib, map) => {
      const ends: TLngLat[] = [];
      if (hasPickup) ends.push([pickup.lng, pickup.lat]);
      if (hasDelivery) ends.push([delivery.lng, delivery.lat]);
      const trackLine: TLngLat[] = points.map((p) => [p.longitude, p.latitude]);
      map.addSource("route", {
        type: "geojson",
        data: { type: "Feature", properties: {}, geometry: { type: "LineString", coordinates: ends } },
      });
      map.addSource("track", {
        type: "geojson",
        data: { type: "Feature", properties: {}, geometry: { type: "LineString", coordinates: trackLine } },
      });
      map.addSource("places", {
        type: "geojson",
        data: {
          type: "FeatureCollection",
          features: [
            ...(hasPickup ? [{ kind: "pickup", at: [pickup.lng, pickup.lat] }] : []),
            ...(hasDelivery ? [{ kind: "delivery", at: [delivery.lng, delivery.lat] }] : []),
          ].map((f) => ({
            type: "Feature" as const,
            properties: { kind: f.kind },
            geometry: { type: "Point" as const, coordinates: f.at },
          })),
        },
      });
      map.addLayer({
        id: "route-line",
        type: "line",
        source: "route",
        paint: { "line-color": COLORS.route, "line-width": 2, "line-dasharray": [2, 2] },
      });
      map.addLayer({
        id: "track-line",
        type: "line",
        source: "track",
        layout: { "line-cap": "round", "line-join": "round" },
        paint: { "line-color": COLORS.track, "line-width": 4 },
      });
      map.addLayer({
        id: "places-circle",
        type: "circle",
        source: "places",
        paint: {
          "circle-radius": 7,
          "circle-color": ["match", ["get", "kind"], "pickup", COLORS.pickup, COLORS.delivery],
          "circle-stroke-color": "#ffffff",
          "circle-stroke-width": 2,
        },
      });
      const markers = [
        ...(hasPickup
          ? [
              new lib.Marker({ element: labelElement(pickup.label, COLORS.pickup), anchor: "bottom", offset: [0, -10] })
                .setLngLat([pickup.lng, pickup.lat])
                .addTo(map),
            ]
          : []),
        ...(hasDelivery
          ? [
              new lib.Marker({
                element: labelElement(delivery.label, COLORS.delivery),
                anchor: "bottom",
                offset: [0, -10],
              })
                .setLngLat([delivery.lng, delivery.lat])
                .addTo(map),
            ]
          : []),
      ];
      if (last) {
        const dot = document.createElement("div");
        dot.className = "size-4 rounded-full border-2 border-white shadow-md";
        dot.style.backgroundColor = COLORS.track;
        dot.dataset.testid = "last-position-marker";
        dot.title = t({ message: "Last position", comment: "Map on the load page: the driver's last known position" });
        markers.push(new lib.Marker({ element: dot }).setLngLat([last.longitude, last.latitude]).addTo(map));
      }
      fitTo(lib, map, [...ends, ...trackLine]);
      return () => {
        for (const m of markers) m.remove();
        for (const l of LAYERS) if (map.getLayer(l)) map.removeLayer(l);
        for (const s of SOURCES) if (map.getSource(s)) map.removeSource(s);
      };
    },
    key,
  );

  const lastTime = last ? formatDate(last.recordedAt, { dateStyle: "short", timeStyle: "short" }) : "";
  return (
    <figure data-testid="route-map" data-map-ready={ready ? "true" : "false"} className="grid gap-2">
      <div className="relative h-[260px] overflow-hidden rounded-lg border bg-[#eef2f5] md:h-[320px]">
        <div
          ref={container}
          className="size-full"
          role="region"
          aria-label={t({ message: "Route map", comment: "Screen-reader name of the map showing a load's route" })}
        />
        {state.status === "loading" && (
          <div className="absolute inset-0 grid animate-pulse place-items-center text-sm text-muted-foreground">
            <Trans>Loading map...</Trans>
          </div>
        )}
        {state.status === "unsupported" && (
          <div className="absolute inset-0 grid place-items-center p-4 text-center text-sm text-muted-foreground">
            <p data-testid="map-unavailable">
              <Trans>Map not available on this device</Trans>
            </p>
          </div>
        )}
      </div>
      <figcaption>
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-sm" aria-label={t`Map legend`}>
          <LegendItem color={COLORS.pickup}>
            <Trans>Pickup</Trans>: {pickup.label}
          </LegendItem>
          <LegendItem color={COLORS.delivery}>
            <Trans>Delivery</Trans>: {delivery.label}
          </LegendItem>
          {last && (
            <LegendItem color={COLORS.track} testId="legend-last-position">
              <Trans>Last position</Trans>: {lastTime}
            </LegendItem>
          )}
        </ul>
      </figcaption>
    </figure>
  );
}
