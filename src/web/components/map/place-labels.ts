import { useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { useEffect } from "react";
import type { TRouterOutputs } from "../../lib/api-types";
import { trpc } from "../../lib/trpc";
import type { TMaplibre, TMapState } from "./maplibre";

type TPlaceLabel = TRouterOutputs["places"]["labels"][number];

const MAX_LABELS = 40;
// A label's box around its point, in pixels: labels closer than this are not drawn over each other.
const GAP_X = 96;
const GAP_Y = 22;
/** Which labels show at a zoom: capitals and the largest cities from the world view, more as the map zooms in. */
const maxRankAt = (zoom: number) => (zoom < 3 ? 1 : zoom < 5.5 ? 2 : 3);

const labelNode = (name: string) => {
  const el = document.createElement("div");
  el.dataset.testid = "map-place-label";
  el.setAttribute("aria-hidden", "true");
  el.className = "pointer-events-none flex items-center gap-1 whitespace-nowrap text-[11px] font-medium text-slate-700";
  // A white halo keeps the name readable over borders and coasts.
  el.style.textShadow = "0 0 2px #fff, 0 0 2px #fff, 0 0 3px #fff";
  const dot = document.createElement("span");
  dot.className = "inline-block size-1.5 shrink-0 rounded-full bg-slate-500";
  const text = document.createElement("span");
  text.textContent = name;
  el.append(dot, text);
  return el;
};

/**
 * Place names on the map as HTML (the page's own fonts draw Ge'ez script; MapLibre's text would need glyph files), in
 * the user's language where the server knows a name in it: the most important ones that fit without overlapping,
 * chosen again after every move.
 */
export function usePlaceLabels(state: TMapState, avoid: [number, number][] = []) {
  const { i18n } = useLingui();
  const language = (["en", "am", "om"] as const).find((l) => l === i18n.locale) ?? "en";
  const labels = useQuery(trpc.places.labels.queryOptions({ language }, { staleTime: Number.POSITIVE_INFINITY }));
  const data = labels.data;
  const avoidKey = JSON.stringify(avoid);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the points to avoid change with their key, not each render
  useEffect(() => {
    if (state.status !== "loaded" || state.basemap !== "own" || !data) return;
    const { lib, map } = state;
    const shown = new Map<string, InstanceType<TMaplibre["Marker"]>>();
    const keyOf = (l: TPlaceLabel) => `${l.latitude},${l.longitude}`;
    const place = () => {
      const maxRank = maxRankAt(map.getZoom());
      const bounds = map.getBounds();
      // The map's own labels (a route's pickup and delivery) take their place first, with room for their longer names.
      const own = avoid.map((at) => map.project(at));
      const placed: { x: number; y: number }[] = [];
      const wanted = new Map<string, TPlaceLabel>();
      for (const l of data) {
        if (l.rank > maxRank) break; // most important first: the rest rank lower still
        if (!bounds.contains([l.longitude, l.latitude])) continue;
        const p = map.project([l.longitude, l.latitude]);
        if (placed.some((q) => Math.abs(q.x - p.x) < GAP_X && Math.abs(q.y - p.y) < GAP_Y)) continue;
        if (own.some((q) => Math.abs(q.x - p.x) < GAP_X * 1.5 && Math.abs(q.y - p.y) < GAP_Y * 2)) continue;
        placed.push(p);
        wanted.set(keyOf(l), l);
        if (wanted.size >= MAX_LABELS) break;
      }
      for (const [key, marker] of shown)
        if (!wanted.has(key)) {
          marker.remove();
          shown.delete(key);
        }
      for (const [key, l] of wanted)
        if (!shown.has(key))
          shown.set(
            key,
            new lib.Marker({ element: labelNode(l.name), anchor: "left", offset: [-3, 0] })
              .setLngLat([l.longitude, l.latitude])
              .addTo(map),
          );
    };
    place();
    map.on("moveend", place);
    return () => {
      map.off("moveend", place);
      for (const marker of shown.values()) marker.remove();
    };
  }, [state, data, avoidKey]);
}
