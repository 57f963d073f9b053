import type { StyleSpecification } from "maplibre-gl";
import { feature, mesh } from "topojson-client";
import type { GeometryCollection, Topology } from "topojson-specification";
// Natural Earth's 1:50m countries (public domain) as TopoJSON from the world-atlas package: built into the app as a
// hashed file our own server sends (cached for a year, never precached by the service worker), so no map needs any
// outside tile, font or sprite host.
import countriesUrl from "world-atlas/countries-50m.json?url";

export const BASEMAP_COLORS = {
  water: "#cfe0ec",
  land: "#f7f6f2",
  coast: "#8fb1c7",
  border: "#9aa3ad",
};

type TCountries = Topology<{ countries: GeometryCollection; land: GeometryCollection }>;

/** The style: water as the background, land, its coast and country borders; the maps add their own layers on top. */
const styleOf = (topology: TCountries): StyleSpecification => ({
  version: 8,
  // Tiled in MapLibre's worker up to zoom 7 only (drawn larger beyond), simplified a little more than its default, with
  // a small tile buffer: a third of the work of its defaults on a slow phone, with no difference one can see.
  sources: {
    land: { type: "geojson", data: feature(topology, topology.objects.land), maxzoom: 7, tolerance: 0.6, buffer: 16 },
    // Each border once: the arcs two countries share (a coast is an arc of one country, drawn as the land's edge).
    borders: {
      type: "geojson",
      data: mesh(topology, topology.objects.countries, (a, b) => a !== b),
      maxzoom: 7,
      tolerance: 0.6,
      buffer: 16,
    },
  },
  layers: [
    { id: "bg", type: "background", paint: { "background-color": BASEMAP_COLORS.water } },
    { id: "land", type: "fill", source: "land", paint: { "fill-color": BASEMAP_COLORS.land } },
    {
      id: "coast",
      type: "line",
      source: "land",
      paint: {
        "line-color": BASEMAP_COLORS.coast,
        "line-width": ["interpolate", ["linear"], ["zoom"], 2, 0.5, 8, 1.2],
      },
    },
    {
      id: "borders",
      type: "line",
      source: "borders",
      paint: {
        "line-color": BASEMAP_COLORS.border,
        "line-width": ["interpolate", ["linear"], ["zoom"], 2, 0.6, 8, 1.5],
        "line-dasharray": [3, 2],
      },
    },
  ],
});

let loading: Promise<StyleSpecification> | null = null;
/** The basemap's style, its data fetched and converted on first use only; a failure is retried by the next map. */
export const loadBasemapStyle = () => {
  loading ??= fetch(countriesUrl)
    .then((res) => {
      if (!res.ok) throw new Error(`basemap: ${res.status}`);
      return res.json() as Promise<TCountries>;
    })
    .then(styleOf);
  loading.catch(() => {
    loading = null;
  });
  return loading;
};

/** The basemap file's address (tests and the service worker's exclusions refer to its name). */
export const BASEMAP_URL = countriesUrl;
