// What the four load-board emulators share: real freight cities with real coordinates, a deterministic set of loads
// per board (a fixed PRNG seeded by the board's name), a radius search, and the control tests use to switch a board
// into an outage, a rate limit or a slow mode, count its calls, and change its loads between calls.
//
// Loads change only through the control. Dates are kept relative to today (UTC midnight), so pickups are always
// upcoming while the values stay the same all day.
import { EQUIPMENT_TYPES, type TEquipmentType } from "../../src/shared/constants";
import { haversineMiles } from "../../src/shared/geo";

export type TRegion = "na" | "hoa" | "ke" | "eu";

export type TCity = {
  city: string;
  /** State, province or region code; null where the country has none we use. */
  state: string | null;
  /** ISO 3166 alpha-2. */
  country: string;
  latitude: number;
  longitude: number;
  postalCode: string | null;
  region: TRegion;
  /** How often loads start here, relative to the others of its set. */
  weight: number;
  /** Freight addresses in the city (the feed sends one). */
  addresses?: string[];
};

const na = (
  city: string,
  state: string,
  latitude: number,
  longitude: number,
  postalCode: string,
  weight: number,
  country = "US",
): TCity => ({ city, state, country, latitude, longitude, postalCode, region: "na", weight });

/** North American freight hubs (DAT, Truckstop, 123Loadboard). Chicagoland is weighted up: tests search there. */
export const NA_CITIES: TCity[] = [
  na("Chicago", "IL", 41.8781, -87.6298, "60607", 30),
  na("Joliet", "IL", 41.525, -88.0817, "60432", 8),
  na("Elk Grove Village", "IL", 42.0039, -87.9703, "60007", 6),
  na("Aurora", "IL", 41.7606, -88.3201, "60505", 4),
  na("Gary", "IN", 41.5934, -87.3464, "46402", 4),
  na("Milwaukee", "WI", 43.0389, -87.9065, "53202", 4),
  na("Rockford", "IL", 42.2711, -89.094, "61101", 3),
  na("South Bend", "IN", 41.6764, -86.252, "46601", 3),
  na("Dallas", "TX", 32.7767, -96.797, "75201", 10),
  na("Fort Worth", "TX", 32.7555, -97.3308, "76102", 5),
  na("Houston", "TX", 29.7604, -95.3698, "77002", 7),
  na("San Antonio", "TX", 29.4241, -98.4936, "78205", 3),
  na("Laredo", "TX", 27.5306, -99.4803, "78040", 6),
  na("El Paso", "TX", 31.7619, -106.485, "79901", 3),
  na("Atlanta", "GA", 33.749, -84.388, "30303", 9),
  na("Savannah", "GA", 32.0809, -81.0912, "31401", 4),
  na("Charlotte", "NC", 35.2271, -80.8431, "28202", 4),
  na("Jacksonville", "FL", 30.3322, -81.6557, "32202", 3),
  na("Los Angeles", "CA", 34.0522, -118.2437, "90012", 9),
  na("Ontario", "CA", 34.0633, -117.6509, "91761", 6),
  na("Long Beach", "CA", 33.7701, -118.1937, "90802", 4),
  na("Fresno", "CA", 36.7378, -119.7871, "93721", 2),
  na("Phoenix", "AZ", 33.4484, -112.074, "85003", 4),
  na("Memphis", "TN", 35.1495, -90.049, "38103", 8),
  na("Nashville", "TN", 36.1627, -86.7816, "37203", 4),
  na("Louisville", "KY", 38.2527, -85.7585, "40202", 3),
  na("Columbus", "OH", 39.9612, -82.9988, "43215", 7),
  na("Cincinnati", "OH", 39.1031, -84.512, "45202", 3),
  na("Indianapolis", "IN", 39.7684, -86.1581, "46204", 7),
  na("Detroit", "MI", 42.3314, -83.0458, "48226", 4),
  na("Kansas City", "MO", 39.0997, -94.5786, "64106", 6),
  na("St. Louis", "MO", 38.627, -90.1994, "63101", 4),
  na("Omaha", "NE", 41.2565, -95.9345, "68102", 2),
  na("Minneapolis", "MN", 44.9778, -93.265, "55401", 3),
  na("Denver", "CO", 39.7392, -104.9903, "80202", 5),
  na("Salt Lake City", "UT", 40.7608, -111.891, "84101", 2),
  na("Newark", "NJ", 40.7357, -74.1724, "07102", 6),
  na("Allentown", "PA", 40.6023, -75.4714, "18101", 3),
  na("Harrisburg", "PA", 40.2732, -76.8867, "17101", 3),
  na("Baltimore", "MD", 39.2904, -76.6122, "21202", 2),
  na("Seattle", "WA", 47.6062, -122.3321, "98104", 3),
  na("Portland", "OR", 45.5152, -122.6784, "97204", 2),
  na("Toronto", "ON", 43.6532, -79.3832, "M5H 2N2", 5, "CA"),
  na("Montreal", "QC", 45.5017, -73.5673, "H2Y 1C6", 2, "CA"),
  na("Monterrey", "NL", 25.6866, -100.3161, "64000", 2, "MX"),
];

const city = (
  name: string,
  state: string | null,
  country: string,
  latitude: number,
  longitude: number,
  region: TRegion,
  weight: number,
  addresses: string[],
  postalCode: string | null = null,
): TCity => ({ city: name, state, country, latitude, longitude, postalCode, region, weight, addresses });

/** The feed's cities: the Ethiopia–Djibouti corridor, East Africa, and three North Sea ports. */
export const FEED_CITIES: TCity[] = [
  city("Addis Ababa", "AA", "ET", 9.0108, 38.7613, "hoa", 25, [
    "Kality Industrial Zone",
    "Bole Lemi Industrial Park",
    "Merkato, Addis Ketema",
    "Akaki Kality, Ring Road",
  ]),
  city("Sebeta", "OR", "ET", 8.9167, 38.6167, "hoa", 3, ["Sebeta Industrial Area"]),
  city("Bishoftu", "OR", "ET", 8.7525, 38.9785, "hoa", 4, ["Bishoftu Industrial Zone"]),
  city("Modjo", "OR", "ET", 8.587, 39.121, "hoa", 9, ["Modjo Dry Port"]),
  city("Adama", "OR", "ET", 8.54, 39.27, "hoa", 8, ["Adama Industrial Park", "Adama Bus Station Road"]),
  city("Dire Dawa", "DD", "ET", 9.5931, 41.8661, "hoa", 6, ["Dire Dawa Industrial Park", "Dire Dawa Dry Port"]),
  city("Djibouti", null, "DJ", 11.5721, 43.1456, "hoa", 15, [
    "Doraleh Container Terminal",
    "Doraleh Multipurpose Port",
    "Port of Djibouti, Boulevard de la République",
  ]),
  city("Hawassa", "SI", "ET", 7.0621, 38.4764, "hoa", 5, ["Hawassa Industrial Park"]),
  city("Bahir Dar", "AM", "ET", 11.5742, 37.3614, "hoa", 4, ["Bahir Dar Industrial Zone"]),
  city("Gondar", "AM", "ET", 12.603, 37.4521, "hoa", 3, ["Azezo, Gondar"]),
  city("Mekelle", "TI", "ET", 13.4967, 39.4753, "hoa", 4, ["Mekelle Industrial Park"]),
  city("Nairobi", "30", "KE", -1.2921, 36.8219, "ke", 6, ["Embakasi Inland Container Depot", "Industrial Area"]),
  city("Mombasa", "01", "KE", -4.0435, 39.6682, "ke", 6, ["Kilindini Harbour", "Changamwe"]),
  city("Rotterdam", "ZH", "NL", 51.9244, 4.4777, "eu", 4, ["Maasvlakte 2", "Waalhaven"], "3089"),
  city("Antwerp", "VAN", "BE", 51.2194, 4.4025, "eu", 3, ["Port of Antwerp, Kaai 1333"], "2030"),
  city("Hamburg", "HH", "DE", 53.5511, 9.9937, "eu", 3, ["Container Terminal Altenwerder"], "21129"),
];

/** A city by name (and state, when given), in any of the sets. */
export const findCity = (name: string | null | undefined, state?: string | null): TCity | undefined => {
  const n = name?.trim().toLowerCase();
  if (!n) return undefined;
  const st = state?.trim().toUpperCase();
  return [...NA_CITIES, ...FEED_CITIES].find(
    (c) => c.city.toLowerCase() === n && (!st || (c.state ?? "").toUpperCase() === st),
  );
};

// Loads ------------------------------------------------------------------------------------------------------------

export type TEmuPlace = {
  city: string;
  state: string | null;
  country: string;
  latitude: number;
  longitude: number;
  postalCode: string | null;
  address: string | null;
};

export type TEmuLoad = {
  id: string;
  origin: TEmuPlace;
  destination: TEmuPlace;
  /** Pickup: this many days after today (UTC), at this hour. */
  pickupInDays: number;
  pickupHour: number;
  /** Delivery this many hours after pickup; null when the poster gives no delivery date. */
  transitHours: number | null;
  /** Posted this many hours before today's midnight (UTC). */
  postedHoursAgo: number;
  /** Set when the control changes the load: when it did. */
  updatedAt: number | null;
  equipment: TEquipmentType;
  fullLoad: boolean;
  weightLbs: number | null;
  lengthFeet: number;
  /** Road miles. */
  miles: number;
  /** The posted rate in the currency's major units; null when none is shown. */
  rate: number | null;
  currency: string;
  company: { name: string; mcNumber: string | null; phone: string; email: string; city: string; state: string | null };
  contactName: string | null;
  comments: string | null;
};

const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

export const startOfDayUtc = (now = Date.now()) => Math.floor(now / DAY_MS) * DAY_MS;

/** A load's dates, relative to today. */
export const datesOf = (l: TEmuLoad, now = Date.now()) => {
  const day = startOfDayUtc(now);
  const pickupAt = day + l.pickupInDays * DAY_MS + l.pickupHour * HOUR_MS;
  return {
    pickupAt,
    /** The end of the pickup window: four hours later. */
    pickupLatestAt: pickupAt + 4 * HOUR_MS,
    deliveryAt: l.transitHours === null ? null : pickupAt + l.transitHours * HOUR_MS,
    postedAt: l.updatedAt ?? day - l.postedHoursAgo * HOUR_MS,
  };
};

/** A PRNG with a fixed sequence per seed (mulberry32). */
export const prng = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

export const seedOf = (s: string) => {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
};

type TRandom = () => number;
const pick = <T>(r: TRandom, list: readonly T[]) => list[Math.floor(r() * list.length)];
const weighted = <T>(r: TRandom, list: readonly T[], weightOf: (t: T) => number) => {
  const total = list.reduce((s, t) => s + weightOf(t), 0);
  let x = r() * total;
  for (const t of list) {
    x -= weightOf(t);
    if (x < 0) return t;
  }
  return list[list.length - 1];
};
const between = (r: TRandom, lo: number, hi: number) => lo + r() * (hi - lo);
const round4 = (v: number) => Math.round(v * 1e4) / 1e4;

/** A facility within about five miles of the city centre. */
const placeNear = (r: TRandom, c: TCity): TEmuPlace => {
  const dLat = between(r, -0.07, 0.07);
  const dLng = between(r, -0.07, 0.07) / Math.cos((c.latitude * Math.PI) / 180);
  return {
    city: c.city,
    state: c.state,
    country: c.country,
    latitude: round4(c.latitude + dLat),
    longitude: round4(c.longitude + dLng),
    postalCode: c.postalCode,
    address: c.addresses ? pick(r, c.addresses) : null,
  };
};

const NA_EQUIPMENT: [TEquipmentType, number][] = [
  ["dry_van", 40],
  ["refrigerated", 22],
  ["flatbed", 18],
  ["step_deck", 7],
  ["lowboy", 3],
  ["tanker", 5],
  ["container", 5],
];
const FEED_EQUIPMENT: [TEquipmentType, number][] = [
  ["container", 35],
  ["dry_van", 20],
  ["flatbed", 20],
  ["tanker", 12],
  ["refrigerated", 7],
  ["lowboy", 4],
  ["step_deck", 2],
];
const RATE_PER_MILE_USD: Record<TEquipmentType, number> = {
  dry_van: 2.1,
  refrigerated: 2.5,
  flatbed: 2.6,
  step_deck: 2.8,
  lowboy: 3.6,
  tanker: 2.9,
  container: 2.3,
};
const LENGTH_FEET: Record<TEquipmentType, number> = {
  dry_van: 53,
  refrigerated: 53,
  flatbed: 48,
  step_deck: 48,
  lowboy: 48,
  tanker: 42,
  container: 40,
};

const NA_COMPANIES = [
  { name: "Lakeshore Freight Brokerage", city: "Chicago", state: "IL", area: "312", domain: "lakeshorefreight" },
  { name: "Smith & Sons Transport", city: "Joliet", state: "IL", area: "815", domain: "smithandsons" },
  { name: "Prairie Logistics LLC", city: "Indianapolis", state: "IN", area: "317", domain: "prairielogistics" },
  { name: "Lone Star Load Partners", city: "Dallas", state: "TX", area: "214", domain: "lonestarloads" },
  { name: "Peachtree Cargo Inc.", city: "Atlanta", state: "GA", area: "404", domain: "peachtreecargo" },
  { name: "Great Lakes Carriers Co.", city: "Detroit", state: "MI", area: "313", domain: "greatlakescarriers" },
  { name: "Rocky Mountain Freight", city: "Denver", state: "CO", area: "303", domain: "rockymountainfreight" },
  { name: "Gulf Coast Logistics", city: "Houston", state: "TX", area: "713", domain: "gulfcoastlogistics" },
  { name: "Bluff City Brokerage", city: "Memphis", state: "TN", area: "901", domain: "bluffcitybrokerage" },
  { name: "Maple Leaf Freight Ltd.", city: "Toronto", state: "ON", area: "416", domain: "mapleleaffreight" },
];
const FEED_COMPANIES = [
  {
    name: "Addis Freight Forwarders PLC",
    city: "Addis Ababa",
    state: "AA",
    phone: "+251 11 555",
    domain: "addisfreight",
  },
  { name: "Awash Transport S.C.", city: "Adama", state: "OR", phone: "+251 22 555", domain: "awashtransport" },
  { name: "Djibouti Corridor Logistics", city: "Djibouti", state: null, phone: "+253 21 555", domain: "corridorlog" },
  { name: "Rift Valley Haulage", city: "Hawassa", state: "SI", phone: "+251 46 555", domain: "riftvalleyhaulage" },
  { name: "Abay Trucking & Cargo", city: "Bahir Dar", state: "AM", phone: "+251 58 555", domain: "abaytrucking" },
  { name: "Mombasa Gateway Freight Ltd", city: "Mombasa", state: "01", phone: "+254 41 555", domain: "mombasagateway" },
  { name: "Rhine Delta Logistics B.V.", city: "Rotterdam", state: "ZH", phone: "+31 10 555", domain: "rhinedelta" },
  { name: "Hanse Spedition GmbH", city: "Hamburg", state: "HH", phone: "+49 40 555", domain: "hansespedition" },
];
const CONTACT_NAMES_NA = ["Maria Lopez", "James Carter", "Aisha Johnson", "Tom Novak", "Priya Patel", "Kevin O'Brien"];
const CONTACT_NAMES_FEED = [
  "Abebe Kebede",
  "Hana Tesfaye",
  "Yohannes Girma",
  "Fatuma Ali",
  "Wanjiru Kamau",
  "Jan de Vries",
];
const NA_COMMENTS = [
  "Drop and hook at both ends.",
  "Tarps required; 8 ft drop.",
  "Team preferred; hot load.",
  "Lumper paid by shipper.",
  "FCFS pickup, appointment delivery.",
  null,
  null,
];
const FEED_CARGO: Record<TEquipmentType, string[]> = {
  container: ["2 × 40 ft containers of sesame", "20 ft container of coffee", "40 ft container of textiles"],
  dry_van: ["Bagged cement, 600 bags", "Packaged coffee for export", "Consumer goods, palletised"],
  flatbed: ["Steel rebar bundles", "Construction timber", "Bagged fertiliser"],
  tanker: ["Diesel, 30,000 L", "Edible oil, 25,000 L", "Jet A-1, 32,000 L"],
  refrigerated: ["Cut flowers, keep at 2 °C", "Fresh avocados", "Pharmaceuticals, 2–8 °C"],
  lowboy: ["Excavator, 24 t", "Generator set", "Road roller"],
  step_deck: ["Industrial boilers", "Prefabricated steel frames", "Agricultural machinery"],
};

/** How the rate of a feed load is quoted: dollars on the Djibouti corridor, local currency elsewhere. */
const feedMoney = (o: TCity, d: TCity, miles: number, equipment: TEquipmentType) => {
  const factor = RATE_PER_MILE_USD[equipment] / RATE_PER_MILE_USD.dry_van;
  if (o.region === "eu") return { currency: "EUR", amount: Math.round((miles * 2.1 * factor + 180) / 10) * 10 };
  if (o.region === "ke") return { currency: "KES", amount: Math.round((miles * 420 * factor + 15000) / 500) * 500 };
  if (o.country === "DJ" || d.country === "DJ")
    return { currency: "USD", amount: Math.round((miles * 4.6 * factor + 250) / 25) * 25 };
  return { currency: "ETB", amount: Math.round((miles * 290 * factor + 8000) / 500) * 500 };
};

const roadMiles = (a: TEmuPlace, b: TEmuPlace) =>
  Math.max(5, Math.round(haversineMiles(a.latitude, a.longitude, b.latitude, b.longitude) * 1.18));

/** ~300 North American loads for a board; the same list for the same seed. */
export const northAmericanLoads = (seed: string, idOf: (i: number) => string, count = 300): TEmuLoad[] => {
  const r = prng(seedOf(seed));
  return Array.from({ length: count }, (_, i) => {
    const o = weighted(r, NA_CITIES, (c) => c.weight);
    // Destinations at least 80 miles away, any hub.
    const far = NA_CITIES.filter((c) => haversineMiles(o.latitude, o.longitude, c.latitude, c.longitude) > 80);
    const d = weighted(r, far, (c) => c.weight + 2);
    const origin = placeNear(r, o);
    const destination = placeNear(r, d);
    const equipment = weighted(r, NA_EQUIPMENT, ([, w]) => w)[0];
    const miles = roadMiles(origin, destination);
    const company = pick(r, NA_COMPANIES);
    const fullLoad = r() > 0.15;
    const hasRate = r() > 0.12;
    const rate = Math.round((miles * RATE_PER_MILE_USD[equipment] * between(r, 0.85, 1.25) + 150) / 25) * 25;
    const weightLbs =
      r() < 0.08 ? null : Math.round(between(r, fullLoad ? 18000 : 4000, fullLoad ? 44000 : 16000) / 100) * 100;
    const transit = Math.ceil(miles / 500) * 24 + Math.floor(between(r, 0, 8));
    return {
      id: idOf(i),
      origin,
      destination,
      pickupInDays: 1 + Math.floor(r() * 10),
      pickupHour: 6 + Math.floor(r() * 12),
      transitHours: r() < 0.2 ? null : transit,
      postedHoursAgo: 1 + Math.floor(r() * 47),
      updatedAt: null,
      equipment,
      fullLoad,
      weightLbs,
      lengthFeet: LENGTH_FEET[equipment],
      miles,
      rate: hasRate ? rate : null,
      currency: "USD",
      company: {
        name: company.name,
        mcNumber: String(100000 + Math.floor(r() * 899999)),
        phone: `(${company.area}) 555-01${String(Math.floor(r() * 100)).padStart(2, "0")}`,
        email: `dispatch@${company.domain}.example`,
        city: company.city,
        state: company.state,
      },
      contactName: r() < 0.15 ? null : pick(r, CONTACT_NAMES_NA),
      comments: pick(r, NA_COMMENTS),
    };
  });
};

/** ~300 loads of the feed: the Ethiopia–Djibouti corridor, East Africa, Europe. */
export const feedLoads = (seed: string, idOf: (i: number) => string, count = 300): TEmuLoad[] => {
  const r = prng(seedOf(seed));
  return Array.from({ length: count }, (_, i) => {
    const o = weighted(r, FEED_CITIES, (c) => c.weight);
    // Mostly within the region; a few Addis–Nairobi runs by the Moyale road.
    const region = o.region === "hoa" && r() < 0.03 ? "ke" : o.region === "ke" && r() < 0.05 ? "hoa" : o.region;
    const others = FEED_CITIES.filter((c) => c.region === region && c.city !== o.city);
    const d = weighted(r, others, (c) => c.weight + (c.country === "DJ" ? 10 : 1));
    const origin = placeNear(r, o);
    const destination = placeNear(r, d);
    const equipment = weighted(r, FEED_EQUIPMENT, ([, w]) => w)[0];
    const miles = roadMiles(origin, destination);
    const company = pick(r, FEED_COMPANIES);
    const money = feedMoney(o, d, miles, equipment);
    const hasRate = r() > 0.1;
    return {
      id: idOf(i),
      origin,
      destination,
      pickupInDays: 1 + Math.floor(r() * 12),
      pickupHour: 5 + Math.floor(r() * 12),
      // Average 30 mph on the corridor, with border and port time.
      transitHours: r() < 0.1 ? null : Math.ceil(miles / 30) + Math.floor(between(r, 4, 30)),
      postedHoursAgo: 1 + Math.floor(r() * 70),
      updatedAt: null,
      equipment,
      fullLoad: true,
      weightLbs: r() < 0.05 ? null : Math.round(between(r, 15000, 88000) / 100) * 100,
      lengthFeet: LENGTH_FEET[equipment],
      miles,
      rate: hasRate ? money.amount : null,
      currency: money.currency,
      company: {
        name: company.name,
        mcNumber: null,
        phone: `${company.phone} ${String(Math.floor(r() * 10000)).padStart(4, "0")}`,
        email: `loads@${company.domain}.example`,
        city: company.city,
        state: company.state,
      },
      contactName: pick(r, CONTACT_NAMES_FEED),
      comments: pick(r, FEED_CARGO[equipment]),
    };
  });
};

// Search -----------------------------------------------------------------------------------------------------------

export type TEmuQuery = {
  /** The pickup area: a point and a radius, or a list of states when no point is known. */
  origin: { latitude: number; longitude: number; radiusMiles: number } | { states: string[] };
  destination?: { latitude: number; longitude: number; radiusMiles: number } | { states: string[] } | null;
  /** Empty or absent: any equipment. */
  equipment?: readonly TEquipmentType[] | null;
  limit: number;
  offset?: number;
};

const within = (p: TEmuPlace, area: NonNullable<TEmuQuery["destination"]>) =>
  "states" in area
    ? area.states.map((s) => s.toUpperCase()).includes((p.state ?? "").toUpperCase())
    : haversineMiles(area.latitude, area.longitude, p.latitude, p.longitude) <= area.radiusMiles;

/** Loads in the origin area (nearest first, then by id), of the equipment, to the destination; paged. */
export const searchLoads = (loads: readonly TEmuLoad[], q: TEmuQuery) => {
  const o = q.origin;
  const matches = loads
    .filter((l) => within(l.origin, o))
    .filter((l) => !q.destination || within(l.destination, q.destination))
    .filter((l) => !q.equipment?.length || q.equipment.includes(l.equipment))
    .map((l) => ({
      load: l,
      originMiles: "states" in o ? 0 : haversineMiles(o.latitude, o.longitude, l.origin.latitude, l.origin.longitude),
    }))
    .sort((a, b) => a.originMiles - b.originMiles || a.load.id.localeCompare(b.load.id));
  const offset = q.offset ?? 0;
  return { total: matches.length, results: matches.slice(offset, offset + Math.max(0, q.limit)) };
};

export const isEquipmentType = (v: string): v is TEquipmentType => (EQUIPMENT_TYPES as readonly string[]).includes(v);

// Control ----------------------------------------------------------------------------------------------------------

export type TBoardControl = {
  /** Every endpoint answers 503. */
  outage: boolean;
  /** Every endpoint answers 429 with Retry-After: 30. */
  rateLimit: boolean;
  /** Every answer waits this long first. */
  delayMs: number;
  /** Requests received (all endpoints), search requests, token requests; counted on arrival, refused or not. */
  calls: number;
  searchCalls: number;
  tokenCalls: number;
  /** Lifetime of the tokens the board issues. */
  tokenLifetimeSeconds: number;
  /** Forget every issued token, as if they had all expired. */
  expireTokens: () => void;
  /** The board's current loads (copies). */
  loads: () => TEmuLoad[];
  get: (id: string) => TEmuLoad | undefined;
  /** Replace every load. */
  setLoads: (loads: TEmuLoad[]) => void;
  add: (...loads: TEmuLoad[]) => void;
  /** Take a load off the board (booked, expired). */
  remove: (id: string) => boolean;
  /** Change a load's posted rate (null: no rate shown); marks it updated now. */
  setRate: (id: string, amount: number | null) => boolean;
  /** Change any of a load's fields; marks it updated now. */
  update: (id: string, patch: Partial<Omit<TEmuLoad, "id">>) => boolean;
  /** Modes off, counters zero, tokens forgotten, the seeded loads back. */
  reset: () => void;
};

type TGate = "token" | "search" | "other";

/**
 * A board's state: its loads, its tokens, its modes and counters. `enter` counts a request, waits out the delay and
 * returns the outage or rate-limit answer when one is switched on.
 */
export const createBoardState = (o: {
  seed: () => TEmuLoad[];
  tokenLifetimeSeconds: number;
  outage: () => Response;
  rateLimited: () => Response;
}) => {
  let loads = o.seed();
  const tokens = new Map<string, { kind: string; expiresAt: number }>();
  const clone = (l: TEmuLoad): TEmuLoad => structuredClone(l);
  const change = (id: string, f: (l: TEmuLoad) => void) => {
    const l = loads.find((x) => x.id === id);
    if (!l) return false;
    f(l);
    l.updatedAt = Date.now();
    return true;
  };
  const control: TBoardControl = {
    outage: false,
    rateLimit: false,
    delayMs: 0,
    calls: 0,
    searchCalls: 0,
    tokenCalls: 0,
    tokenLifetimeSeconds: o.tokenLifetimeSeconds,
    expireTokens: () => tokens.clear(),
    loads: () => loads.map(clone),
    get: (id) => {
      const l = loads.find((x) => x.id === id);
      return l && clone(l);
    },
    setLoads: (list) => {
      loads = list.map(clone);
    },
    add: (...list) => {
      loads.push(...list.map(clone));
    },
    remove: (id) => {
      const before = loads.length;
      loads = loads.filter((l) => l.id !== id);
      return loads.length < before;
    },
    setRate: (id, amount) =>
      change(id, (l) => {
        l.rate = amount;
      }),
    update: (id, patch) => change(id, (l) => Object.assign(l, patch, { id: l.id })),
    reset: () => {
      control.outage = false;
      control.rateLimit = false;
      control.delayMs = 0;
      control.calls = 0;
      control.searchCalls = 0;
      control.tokenCalls = 0;
      control.tokenLifetimeSeconds = o.tokenLifetimeSeconds;
      tokens.clear();
      loads = o.seed();
    },
  };
  return {
    control,
    /** The live list (no copy), for the emulator's own reads. */
    current: () => loads,
    enter: async (gate: TGate): Promise<Response | null> => {
      control.calls++;
      if (gate === "search") control.searchCalls++;
      if (gate === "token") control.tokenCalls++;
      if (control.delayMs > 0) await Bun.sleep(control.delayMs);
      if (control.outage) return o.outage();
      if (control.rateLimit) return o.rateLimited();
      return null;
    },
    issue: (kind: string) => {
      const token = `${kind}.${crypto.randomUUID().replaceAll("-", "")}`;
      const expiresAt = Date.now() + control.tokenLifetimeSeconds * 1000;
      tokens.set(token, { kind, expiresAt });
      return { token, expiresAt, expiresIn: control.tokenLifetimeSeconds };
    },
    /** Whether an Authorization header carries a live token of this kind. */
    valid: (auth: string | null, kind: string) => {
      const m = /^Bearer\s+(\S+)$/i.exec(auth ?? "");
      const t = m ? tokens.get(m[1]) : undefined;
      return t !== undefined && t.kind === kind && t.expiresAt > Date.now();
    },
  };
};

export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });

export const iso = (ms: number) => new Date(ms).toISOString();

/** Reads a JSON request body, or null when it is not JSON. */
export const readJsonBody = async (req: Request): Promise<unknown> => {
  try {
    return await req.json();
  } catch {
    return null;
  }
};
