import "maplibre-gl/dist/maplibre-gl.css";
import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import { useRef } from "react";
import type { TPoint } from "../../lib/geolocation";
import { LegendItem } from "./legend";
import {
  COLORS,
  fitTo,
  isFiniteLngLat,
  type TLngLat,
  type TMap,
  type TMaplibre,
  useDrawn,
  useMaplibreMap,
} from "./maplibre";

export type TMapLoad = {
  id: number;
  title: string;
  pickupLocation: string;
  deliveryLocation: string;
  pickupLatitude: number;
  pickupLongitude: number;
  source: { type: string };
};

const MAX_IN_POPUP = 5;

/** The load board on a map: one circle per load at its pickup, a popup with the load(s) under a click. */
export default function LoadsMap({ loads, origin }: { loads: TMapLoad[]; origin?: TPoint | null }) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const container = useRef<HTMLDivElement>(null);
  const state = useMaplibreMap(container);
  const shown = loads.filter((l) => isFiniteLngLat({ lat: l.pickupLatitude, lng: l.pickupLongitude }));
  const hasOrigin = origin != null && isFiniteLngLat({ lat: origin.latitude, lng: origin.longitude });
  const key = JSON.stringify([
    shown.map((l) => [l.id, l.title, l.pickupLatitude, l.pickupLongitude]),
    hasOrigin ? [origin.latitude, origin.longitude] : null,
  ]);
  const openLabel = t({ message: "Open load", comment: "Button on a load marker on the map: open the load's page" });

  const popupContent = (items: TMapLoad[]) => {
    const root = document.createElement("div");
    root.className = "grid gap-2 text-sm";
    root.dataset.testid = "loads-map-popup";
    for (const l of items.slice(0, MAX_IN_POPUP)) {
      const item = document.createElement("div");
      const title = document.createElement("div");
      title.className = "font-semibold";
      title.textContent = l.title;
      const route = document.createElement("div");
      route.className = "text-muted-foreground";
      route.textContent = `${l.pickupLocation} → ${l.deliveryLocation}`;
      item.append(title, route);
      if (l.id > 0) {
        const a = document.createElement("a");
        a.href = `/loads/${l.id}`;
        a.className = "font-medium text-brand underline";
        a.textContent = openLabel;
        a.addEventListener("click", (e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          void navigate({ to: "/loads/$id", params: { id: String(l.id) } });
        });
        item.append(a);
      }
      root.append(item);
    }
    return root;
  };

  const draw = (lib: TMaplibre, map: TMap) => {
    map.addSource("loads", {
      type: "geojson",
      data: {
        type: "FeatureCollection",
        features: shown.map((l, i) => ({
          type: "Feature" as const,
          properties: { i, external: l.source.type === "external" },
          geometry: { type: "Point" as const, coordinates: [l.pickupLongitude, l.pickupLatitude] },
        })),
      },
    });
    if (hasOrigin)
      map.addSource("origin", {
        type: "geojson",
        data: {
          type: "Feature",
          properties: {},
          geometry: { type: "Point", coordinates: [origin.longitude, origin.latitude] },
        },
      });
    if (hasOrigin)
      map.addLayer({
        id: "origin-circle",
        type: "circle",
        source: "origin",
        paint: {
          "circle-radius": 6,
          "circle-color": COLORS.origin,
          "circle-stroke-color": "#ffffff",
          "circle-stroke-width": 3,
        },
      });
    map.addLayer({
      id: "loads-circle",
      type: "circle",
      source: "loads",
      paint: {
        "circle-radius": 8,
        "circle-color": ["case", ["==", ["get", "external"], true], COLORS.external, COLORS.own],
        "circle-stroke-color": "#ffffff",
        "circle-stroke-width": 2,
        "circle-opacity": 0.9,
      },
    });
    let popup: InstanceType<TMaplibre["Popup"]> | null = null;
    const onClick = (e: {
      features?: { properties: Record<string, unknown> }[];
      lngLat: { lng: number; lat: number };
    }) => {
      const items = (e.features ?? [])
        .map((f) => shown[Number(f.properties.i)])
        .filter((l): l is TMapLoad => l !== undefined);
      if (!items.length) return;
      popup?.remove();
      popup = new lib.Popup({ maxWidth: "260px", offset: 10 })
        .setLngLat(e.lngLat)
        .setDOMContent(popupContent(items))
        .addTo(map);
    };
    const onEnter = () => {
      map.getCanvas().style.cursor = "pointer";
    };
    const onLeave = () => {
      map.getCanvas().style.cursor = "";
    };
    map.on("click", "loads-circle", onClick);
    map.on("mouseenter", "loads-circle", onEnter);
    map.on("mouseleave", "loads-circle", onLeave);
    const points: TLngLat[] = shown.map((l) => [l.pickupLongitude, l.pickupLatitude]);
    if (hasOrigin) points.push([origin.longitude, origin.latitude]);
    fitTo(lib, map, points, 13);
    return () => {
      popup?.remove();
      map.off("click", "loads-circle", onClick);
      map.off("mouseenter", "loads-circle", onEnter);
      map.off("mouseleave", "loads-circle", onLeave);
      for (const l of ["loads-circle", "origin-circle"]) if (map.getLayer(l)) map.removeLayer(l);
      for (const s of ["loads", "origin"]) if (map.getSource(s)) map.removeSource(s);
    };
  };
  const ready = useDrawn(state, draw, key);

  const hasExternal = shown.some((l) => l.source.type === "external");
  return (
    <figure
      data-testid="loads-map"
      data-map-ready={ready ? "true" : "false"}
      data-markers={String(shown.length)}
      className="grid gap-2"
    >
      <div className="relative h-[260px] overflow-hidden rounded-lg border bg-[#eef2f5] md:h-[320px]">
        <div ref={container} className="size-full" role="region" aria-label={t`Map of the loads' pickup places`} />
        {state.status === "loading" && (
          <div className="absolute inset-0 grid animate-pulse place-items-center text-sm text-muted-foreground">
            <Trans comment="Shown while the map is being fetched">Loading map...</Trans>
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
        <ul
          className="flex flex-wrap gap-x-4 gap-y-1 text-sm"
          aria-label={t({ message: "Map legend", comment: "Screen-reader name of the map's legend" })}
        >
          <LegendItem color={COLORS.own}>
            <Trans comment="Map legend: loads posted on MyTess">MyTess loads</Trans>
          </LegendItem>
          {hasExternal && (
            <LegendItem color={COLORS.external}>
              <Trans comment="Map legend: loads from outside boards">External loads</Trans>
            </LegendItem>
          )}
          {hasOrigin && (
            <LegendItem color={COLORS.origin}>
              <Trans comment="Map legend: the driver's own position">Your position</Trans>
            </LegendItem>
          )}
          <li className="text-muted-foreground">
            <Trans>Select a circle to see its loads.</Trans>
          </li>
        </ul>
      </figcaption>
    </figure>
  );
}
