import type { StyleSpecification, Map as TMaplibreMap } from "maplibre-gl";
import { type RefObject, useEffect, useState } from "react";
import { loadBasemapStyle } from "./basemap";

export type TMaplibre = typeof import("maplibre-gl");
export type TMap = TMaplibreMap;
export type TLngLat = [number, number];

/** Drawn when the basemap's data cannot be had (offline before it was ever fetched): a background and the maps' layers. */
export const PLAIN_STYLE: StyleSpecification = {
  version: 8,
  sources: {},
  layers: [{ id: "bg", type: "background", paint: { "background-color": "#eef2f5" } }],
};

/**
 * Production may set another basemap at build time (VITE_MAP_STYLE_URL, a style whose tiles, glyphs and sprites that
 * host serves); without one the maps draw our own (basemap.ts), from files this server sends.
 */
const STYLE_URL = import.meta.env.VITE_MAP_STYLE_URL || "";

export const COLORS = {
  pickup: "#0d9488",
  delivery: "#dc2626",
  route: "#64748b",
  track: "#2563eb",
  own: "#0d9488",
  external: "#d97706",
  origin: "#1e293b",
};

export const hasWebGL = () => {
  try {
    const c = document.createElement("canvas");
    return Boolean(c.getContext("webgl2") ?? c.getContext("webgl"));
  } catch {
    return false;
  }
};

let loading: Promise<TMaplibre> | null = null;
/** MapLibre and its worker, fetched on first use only (never part of the first load). */
export const loadMaplibre = () => {
  loading ??= Promise.all([import("maplibre-gl"), import("maplibre-gl/dist/maplibre-gl-worker.mjs?url")]).then(
    ([lib, worker]) => {
      lib.setWorkerUrl(new URL(worker.default, window.location.href).href);
      return lib;
    },
  );
  loading.catch(() => {
    loading = null;
  });
  return loading;
};

export const isFiniteLngLat = (p: { lat: number; lng: number } | null | undefined): p is { lat: number; lng: number } =>
  p != null && Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180;

/** Bounds around the points, with a minimum size so one point (or two equal ones) does not zoom in to the street. */
export const fitTo = (lib: TMaplibre, map: TMap, points: TLngLat[], maxZoom = 10) => {
  if (!points.length) return;
  const bounds = new lib.LngLatBounds(points[0], points[0]);
  for (const p of points) bounds.extend(p);
  map.fitBounds(bounds, { padding: 40, maxZoom, duration: 0 });
};

/** An HTML label on the map: text only, so no glyphs are needed. */
export const labelElement = (text: string, color: string) => {
  const el = document.createElement("div");
  el.className =
    "pointer-events-none max-w-40 truncate rounded bg-white/90 px-1.5 py-0.5 text-xs font-medium shadow-sm ring-1 ring-black/10";
  el.style.color = color;
  el.textContent = text;
  return el;
};

export type TMapState =
  | { status: "loading" }
  | { status: "unsupported" }
  | { status: "loaded"; lib: TMaplibre; map: TMap; basemap: "own" | "external" | "plain" };

/**
 * A MapLibre map in the container: "loading" until its style is loaded, then "loaded"; "unsupported" when WebGL is
 * missing, MapLibre throws, or the map fails before it could load.
 */
export function useMaplibreMap(container: RefObject<HTMLDivElement | null>): TMapState {
  const [state, setState] = useState<TMapState>({ status: "loading" });
  useEffect(() => {
    let cancelled = false;
    let map: TMap | undefined;
    if (!hasWebGL()) {
      setState({ status: "unsupported" });
      return;
    }
    // The basemap's data is fetched beside the library; without it (offline, never fetched) the plain style is drawn.
    const basemap = STYLE_URL ? Promise.resolve(null) : loadBasemapStyle().catch(() => null);
    Promise.all([loadMaplibre(), basemap])
      .then(([lib, own]) => {
        if (cancelled || !container.current) return;
        let loaded = false;
        try {
          map = new lib.Map({
            container: container.current,
            style: STYLE_URL || own || PLAIN_STYLE,
            // GeoNames' place names (the labels) are CC BY and named; Natural Earth is public domain, named as a courtesy.
            attributionControl: STYLE_URL
              ? { compact: true }
              : own
                ? { compact: true, customAttribution: "Natural Earth · GeoNames" }
                : false,
            center: [38.75, 9.0],
            zoom: 4,
            dragRotate: false,
            pitchWithRotate: false,
            cooperativeGestures: false,
          });
        } catch (err) {
          console.warn("Map unavailable", err);
          setState({ status: "unsupported" });
          return;
        }
        const m = map;
        m.touchZoomRotate.disableRotation();
        m.on("error", (e) => {
          console.warn("Map error", e.error);
          if (!loaded && !cancelled) {
            setState({ status: "unsupported" });
            m.remove();
            map = undefined;
          }
        });
        m.on("load", () => {
          loaded = true;
          if (!cancelled)
            setState({ status: "loaded", lib, map: m, basemap: STYLE_URL ? "external" : own ? "own" : "plain" });
        });
      })
      .catch((err) => {
        console.warn("Map unavailable", err);
        if (!cancelled) setState({ status: "unsupported" });
      });
    return () => {
      cancelled = true;
      map?.remove();
    };
  }, [container]);
  return state;
}

/** True once the map has drawn the current data (its `idle` event after `draw` ran); tests wait on it. */
export function useDrawn(state: TMapState, draw: (lib: TMaplibre, map: TMap) => (() => void) | undefined, key: string) {
  const [ready, setReady] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: redrawn when the data's key changes, not on every render
  useEffect(() => {
    if (state.status !== "loaded") return;
    setReady(false);
    const { lib, map } = state;
    const undo = draw(lib, map);
    let live = true;
    map.once("idle", () => {
      if (live) setReady(true);
    });
    map.triggerRepaint();
    return () => {
      live = false;
      try {
        undo?.();
      } catch {
        // The map itself is already gone.
      }
    };
  }, [state, key]);
  return ready;
}
