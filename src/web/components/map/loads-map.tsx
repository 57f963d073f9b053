import "maplibre-gl/dist/maplibre-gl.css";
import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { useNavigate } from "@tanstack/react-router";
import { useRef, useState } from "react";
import type { TRouterInputs } from "../../lib/api-types";
import type { TPoint } from "../../lib/geolocation";
import { trpc } from "../../lib/trpc";
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
import { usePlaceLabels } from "./place-labels";

export type TMapLoad = {
  id: number;
  title: string;
  pickupLocation: string;
  deliveryLocation: string;
  pickupLatitude: number;
  pickupLongitude: number;
  source: { type: string };
};

export type TPointsQuery = TRouterInputs["loads"]["points"];

type TMapPoint = { id: number; latitude: number; longitude: number; external: boolean };

const MAX_IN_POPUP = 5;
const SOURCES = ["loads", "origin"] as const;
const LAYERS = ["loads-circle", "origin-circle"] as const;

/**
 * The load board on a map: every load the board's filters match (not only the page shown, at most the server's bound)
 * clustered by MapLibre, each cluster a button with its count that zooms in; a single load opens on a click, several at
 * one spot list in a popup. Until the points arrive (or when they cannot), the page's own loads are drawn.
 */
export default function LoadsMap({
  loads,
  origin,
  query,
}: {
  loads: TMapLoad[];
  origin?: TPoint | null;
  /** The board's filters; without them only the page's loads are drawn. */
  query?: TPointsQuery;
}) {
  const { t, i18n } = useLingui();
  const navigate = useNavigate();
  const container = useRef<HTMLDivElement>(null);
  const state = useMaplibreMap(container);
  usePlaceLabels(state);
  const all = useQuery({
    ...trpc.loads.points.queryOptions(query ?? {}, { placeholderData: keepPreviousData, staleTime: 30_000 }),
    enabled: query !== undefined,
  });
  const pageLoads = loads.filter((l) => isFiniteLngLat({ lat: l.pickupLatitude, lng: l.pickupLongitude }));
  const shown: TMapPoint[] = (
    all.data?.points ??
    pageLoads.map((l) => ({
      id: l.id,
      latitude: l.pickupLatitude,
      longitude: l.pickupLongitude,
      external: l.source.type === "external",
    }))
  ).filter((p) => isFiniteLngLat({ lat: p.latitude, lng: p.longitude }));
  const byId = new Map(pageLoads.map((l) => [l.id, l]));
  const hasOrigin = origin != null && isFiniteLngLat({ lat: origin.latitude, lng: origin.longitude });
  const key = JSON.stringify([
    shown.map((p) => [p.id, p.latitude, p.longitude]),
    hasOrigin ? [origin.latitude, origin.longitude] : null,
  ]);
  // What the clusters on screen add up to, for the figure's attributes (tests compare it with the answer).
  const [clustered, setClustered] = useState({ clusters: 0, inClusters: 0, single: 0 });
  const openLabel = t({ message: "Open load", comment: "Button on a load marker on the map: open the load's page" });

  const open = (id: number) => void navigate({ to: "/loads/$id", params: { id: String(id) } });

  const popupContent = (ids: number[]) => {
    const root = document.createElement("div");
    root.className = "grid gap-2 text-sm";
    root.dataset.testid = "loads-map-popup";
    for (const id of ids.slice(0, MAX_IN_POPUP)) {
      const l = byId.get(id);
      const item = document.createElement("div");
      const title = document.createElement("div");
      title.className = "font-semibold";
      title.textContent = l
        ? l.title
        : t({ message: `Load #${id}`, comment: "A load on the map known only by its number" });
      item.append(title);
      if (l) {
        const route = document.createElement("div");
        route.className = "text-muted-foreground";
        route.textContent = `${l.pickupLocation} → ${l.deliveryLocation}`;
        item.append(route);
      }
      if (id > 0) {
        const a = document.createElement("a");
        a.href = `/loads/${id}`;
        a.className = "inline-flex min-h-11 items-center font-medium text-brand underline";
        a.textContent = openLabel;
        a.addEventListener("click", (e) => {
          if (e.metaKey || e.ctrlKey || e.shiftKey || e.button !== 0) return;
          e.preventDefault();
          open(id);
        });
        item.append(a);
      }
      root.append(item);
    }
    return root;
  };

  const clusterButton = (count: number, onClick: () => void) => {
    const el = document.createElement("button");
    el.type = "button";
    el.dataset.testid = "map-cluster";
    el.dataset.count = String(count);
    // 44 px: a finger's target on a phone.
    el.className =
      "grid size-11 place-items-center rounded-full border-2 border-white text-sm font-semibold text-white shadow-md focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand";
    el.style.backgroundColor = COLORS.own;
    el.textContent = i18n.number(count);
    el.setAttribute(
      "aria-label",
      t({
        message: `${count} loads here: zoom in`,
        comment: "Screen-reader name of a cluster of loads on the map; pressing it zooms in",
      }),
    );
    el.addEventListener("click", (e) => {
      e.stopPropagation();
      onClick();
    });
    return el;
  };

  const draw = (lib: TMaplibre, map: TMap) => {
    map.addSource("loads", {
      type: "geojson",
      cluster: true,
      clusterRadius: 50,
      clusterMaxZoom: 13,
      data: {
        type: "FeatureCollection",
        features: shown.map((p) => ({
          type: "Feature" as const,
          properties: { id: p.id, external: p.external },
          geometry: { type: "Point" as const, coordinates: [p.longitude, p.latitude] },
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
    // Single loads only: clusters are HTML buttons (their count needs text, and MapLibre's text needs glyph files).
    map.addLayer({
      id: "loads-circle",
      type: "circle",
      source: "loads",
      filter: ["!", ["has", "point_count"]],
      paint: {
        "circle-radius": 8,
        "circle-color": ["case", ["==", ["get", "external"], true], COLORS.external, COLORS.own],
        "circle-stroke-color": "#ffffff",
        "circle-stroke-width": 2,
        "circle-opacity": 0.9,
      },
    });

    const source = map.getSource("loads") as InstanceType<TMaplibre["GeoJSONSource"]>;
    const markers = new Map<number, InstanceType<TMaplibre["Marker"]>>();
    const syncClusters = () => {
      if (!map.getSource("loads") || !map.isSourceLoaded("loads")) return;
      const features = map.querySourceFeatures("loads");
      const seen = new Set<number>();
      const singles = new Set<number>();
      let inClusters = 0;
      for (const f of features) {
        const props = f.properties as { cluster_id?: number; point_count?: number; id?: number };
        if (props.cluster_id === undefined) {
          if (props.id !== undefined) singles.add(props.id);
          continue;
        }
        const id = props.cluster_id;
        if (seen.has(id)) continue; // a cluster on a tile's edge comes once per tile
        seen.add(id);
        inClusters += props.point_count ?? 0;
        if (markers.has(id)) continue;
        const [lng, lat] = (f.geometry as GeoJSON.Point).coordinates;
        const zoomIn = () =>
          void source.getClusterExpansionZoom(id).then((zoom) => map.easeTo({ center: [lng, lat], zoom }));
        markers.set(
          id,
          new lib.Marker({ element: clusterButton(props.point_count ?? 0, zoomIn) }).setLngLat([lng, lat]).addTo(map),
        );
      }
      for (const [id, marker] of markers)
        if (!seen.has(id)) {
          marker.remove();
          markers.delete(id);
        }
      setClustered((c) =>
        c.clusters === seen.size && c.inClusters === inClusters && c.single === singles.size
          ? c
          : { clusters: seen.size, inClusters, single: singles.size },
      );
    };

    let popup: InstanceType<TMaplibre["Popup"]> | null = null;
    const onClick = (e: {
      features?: { properties: Record<string, unknown> }[];
      lngLat: { lng: number; lat: number };
    }) => {
      const ids = [...new Set((e.features ?? []).map((f) => Number(f.properties.id)).filter(Number.isFinite))];
      if (!ids.length) return;
      popup?.remove();
      if (ids.length === 1) {
        open(ids[0]);
        return;
      }
      popup = new lib.Popup({ maxWidth: "260px", offset: 10 })
        .setLngLat(e.lngLat)
        .setDOMContent(popupContent(ids))
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
    map.on("idle", syncClusters);
    map.on("moveend", syncClusters);
    const points: TLngLat[] = shown.map((p) => [p.longitude, p.latitude]);
    if (hasOrigin) points.push([origin.longitude, origin.latitude]);
    fitTo(lib, map, points, 13);
    return () => {
      popup?.remove();
      for (const marker of markers.values()) marker.remove();
      map.off("click", "loads-circle", onClick);
      map.off("mouseenter", "loads-circle", onEnter);
      map.off("mouseleave", "loads-circle", onLeave);
      map.off("idle", syncClusters);
      map.off("moveend", syncClusters);
      for (const l of LAYERS) if (map.getLayer(l)) map.removeLayer(l);
      for (const s of SOURCES) if (map.getSource(s)) map.removeSource(s);
    };
  };
  const ready = useDrawn(state, draw, key);

  const hasExternal = shown.some((p) => p.external);
  const limit = i18n.number(all.data?.limit ?? 0);
  return (
    <figure
      data-testid="loads-map"
      data-map-ready={ready ? "true" : "false"}
      data-markers={String(shown.length)}
      data-points={all.data ? "all" : "page"}
      data-basemap={state.status === "loaded" ? state.basemap : ""}
      data-clusters={String(clustered.clusters)}
      data-in-clusters={String(clustered.inClusters)}
      data-single={String(clustered.single)}
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
            <Trans>Select a number to zoom in, a circle to open its load.</Trans>
          </li>
        </ul>
        {all.data?.truncated && (
          <p className="mt-1 text-sm text-muted-foreground" data-testid="map-points-truncated">
            <Trans>The map shows the first {limit} matching loads; narrow the search to see the rest.</Trans>
          </p>
        )}
        {all.isError && !all.data && (
          <p className="mt-1 text-sm text-muted-foreground" data-testid="map-points-page-only">
            <Trans>Only this page's loads are on the map: the others could not be loaded.</Trans>
          </p>
        )}
      </figcaption>
    </figure>
  );
}
