// What the three store emulators share: a deterministic set of ~60 orders per platform (a fixed PRNG seeded by the
// platform's name) shipping to real cities with real coordinates and postal codes, and the control tests use to switch
// a store into an outage, a rate limit or a slow mode, count its calls, expire its tokens and change its orders.
//
// Orders are dated relative to today (UTC midnight): created within the last 25 days, last updated before midnight, so
// the values stay the same all day. Orders change only through the control; a change stamps updatedAt with now.
import { json, prng, seedOf, startOfDayUtc } from "../boards/model";

export { json, startOfDayUtc };

export type TEmuPlatform = "shopify" | "amazon" | "alibaba";

export type TEmuCity = {
  city: string;
  /** State or province code, where the country uses them in addresses. */
  state: string | null;
  /** ISO 3166 alpha-2. */
  country: string;
  latitude: number | null;
  longitude: number | null;
  postalCode: string | null;
  streets: string[];
  /** How often each platform's orders ship here. */
  weight: Record<TEmuPlatform, number>;
};

const c = (
  city: string,
  state: string | null,
  country: string,
  latitude: number | null,
  longitude: number | null,
  postalCode: string | null,
  streets: string[],
  weight: [shopify: number, amazon: number, alibaba: number],
): TEmuCity => ({
  city,
  state,
  country,
  latitude,
  longitude,
  postalCode,
  streets,
  weight: { shopify: weight[0], amazon: weight[1], alibaba: weight[2] },
});

/** Where orders ship: Ethiopia, the US, Europe, and one place no geocoder knows. */
export const STORE_CITIES: TEmuCity[] = [
  c(
    "Addis Ababa",
    null,
    "ET",
    9.0108,
    38.7613,
    "1000",
    ["Bole Road", "Churchill Avenue", "Africa Avenue"],
    [10, 1, 12],
  ),
  c("Adama", null, "ET", 8.54, 39.27, null, ["Adama Industrial Park"], [4, 0, 6]),
  c("Dire Dawa", null, "ET", 9.5931, 41.8661, null, ["Dire Dawa Industrial Park", "Kezira"], [3, 0, 5]),
  c("Hawassa", null, "ET", 7.0621, 38.4764, null, ["Hawassa Industrial Park"], [3, 0, 4]),
  c("Bahir Dar", null, "ET", 11.5742, 37.3614, null, ["Bahir Dar Industrial Zone"], [2, 0, 3]),
  c("Mekelle", null, "ET", 13.4967, 39.4753, null, ["Mekelle Industrial Park"], [2, 0, 3]),
  c("Chicago", "IL", "US", 41.8781, -87.6298, "60607", ["1200 W Lake St", "455 N Cityfront Plaza Dr"], [5, 10, 2]),
  c("Dallas", "TX", "US", 32.7767, -96.797, "75201", ["2200 Ross Ave", "1601 Elm St"], [3, 8, 1]),
  c("Atlanta", "GA", "US", 33.749, -84.388, "30303", ["191 Peachtree St NE"], [3, 7, 1]),
  c("Los Angeles", "CA", "US", 34.0522, -118.2437, "90012", ["350 S Grand Ave", "700 W 7th St"], [3, 8, 2]),
  c("Newark", "NJ", "US", 40.7357, -74.1724, "07102", ["1 Gateway Center"], [2, 6, 1]),
  c("Houston", "TX", "US", 29.7604, -95.3698, "77002", ["1000 Main St"], [2, 5, 1]),
  c("Memphis", "TN", "US", 35.1495, -90.049, "38103", ["100 Peabody Pl"], [1, 4, 0]),
  c("Rotterdam", null, "NL", 51.9244, 4.4777, "3011", ["Coolsingel 40", "Wilhelminakade 123"], [3, 4, 3]),
  c("Hamburg", null, "DE", 53.5511, 9.9937, "20095", ["Mönckebergstraße 7", "Am Sandtorkai 50"], [3, 4, 2]),
  c("Lyon", null, "FR", 45.764, 4.8357, "69002", ["Rue de la République 12"], [2, 3, 1]),
  c("Milan", "MI", "IT", 45.4642, 9.19, "20121", ["Via Alessandro Manzoni 5"], [2, 3, 2]),
  c("Antwerp", null, "BE", 51.2194, 4.4025, "2000", ["Meir 50"], [1, 2, 1]),
  c("Madrid", "M", "ES", 40.4168, -3.7038, "28013", ["Gran Vía 32"], [1, 3, 1]),
];

/** A city no geocoder knows: the domain's "cannot place" path. */
export const UNKNOWN_CITY: TEmuCity = c("Smallville", null, "ZZ", null, null, null, ["1 Main Street"], [0, 0, 0]);

export type TWeightUnit = "GRAMS" | "KILOGRAMS" | "OUNCES" | "POUNDS";

type TProduct = {
  title: string;
  sku: string | null;
  /** USD cents. */
  priceUsdCents: number;
  weight: { unit: TWeightUnit; value: number } | null;
};

const PRODUCTS: TProduct[] = [
  {
    title: "Coffee beans, green, 60 kg sack",
    sku: "ET-COF-60",
    priceUsdCents: 42000,
    weight: { unit: "KILOGRAMS", value: 60 },
  },
  { title: "Teff flour, 25 kg bag", sku: "ET-TEF-25", priceUsdCents: 6500, weight: { unit: "KILOGRAMS", value: 25 } },
  { title: "Pallet rack upright", sku: "PR-UP-1", priceUsdCents: 8900, weight: { unit: "KILOGRAMS", value: 18.5 } },
  { title: "Steel shelving unit", sku: "SH-ST-5", priceUsdCents: 12900, weight: { unit: "POUNDS", value: 35 } },
  { title: "Hand truck", sku: "HT-600", priceUsdCents: 7400, weight: { unit: "POUNDS", value: 40 } },
  {
    title: "Ceramic floor tiles, box of 12",
    sku: "TL-CR-12",
    priceUsdCents: 3900,
    weight: { unit: "KILOGRAMS", value: 22 },
  },
  { title: "Solar panel 400 W", sku: "SP-400", priceUsdCents: 18900, weight: { unit: "KILOGRAMS", value: 21.5 } },
  { title: "Cotton fabric roll", sku: "CT-ROLL", priceUsdCents: 9800, weight: { unit: "GRAMS", value: 12000 } },
  { title: "Leather travel bag", sku: "LB-TRV", priceUsdCents: 15500, weight: { unit: "GRAMS", value: 850 } },
  {
    title: "Spice sampler (berbere, mitmita)",
    sku: "SPC-12",
    priceUsdCents: 2400,
    weight: { unit: "OUNCES", value: 12 },
  },
  { title: "LED work light", sku: "LED-WL", priceUsdCents: 2900, weight: { unit: "POUNDS", value: 1.2 } },
  {
    title: "Electric mitad (injera griddle)",
    sku: "MIT-E",
    priceUsdCents: 11000,
    weight: { unit: "KILOGRAMS", value: 9 },
  },
  // No weights: the domain has to do without.
  { title: "Office chair", sku: "OC-ERGO", priceUsdCents: 21900, weight: null },
  { title: "Handwoven gabi blanket", sku: null, priceUsdCents: 5600, weight: null },
];

const GRAMS_PER_UNIT: Record<TWeightUnit, number> = {
  GRAMS: 1,
  KILOGRAMS: 1000,
  OUNCES: 28.349523125,
  POUNDS: 453.59237,
};

/** A weight in whole grams (what the adapters report); null when unknown. */
export const gramsOf = (w: { unit: TWeightUnit; value: number } | null) =>
  w ? Math.round(w.value * GRAMS_PER_UNIT[w.unit]) : null;

/**
 * Where an order is: placed (not paid or confirmed yet), ready (paid, nothing shipped), partial (some shipped),
 * shipped, cancelled. Each emulator words it its platform's way.
 */
export type TEmuStatus = "placed" | "ready" | "partial" | "shipped" | "cancelled";

export type TEmuItem = {
  title: string;
  sku: string | null;
  quantity: number;
  /** Minor units of the order's currency. */
  unitPriceMinor: number;
  weight: { unit: TWeightUnit; value: number } | null;
};

export type TEmuAddress = {
  name: string;
  line1: string;
  city: string;
  state: string | null;
  country: string;
  postalCode: string | null;
  latitude: number | null;
  longitude: number | null;
};

export type TEmuOrder = {
  /** The platform's order id: Shopify's numeric id ("5500000001"), Amazon's "112-…", Alibaba's trade id. */
  id: string;
  /** What the shop shows: "#1001" on Shopify, the id elsewhere. */
  number: string;
  /** Epoch ms, whole seconds. */
  createdAt: number;
  updatedAt: number;
  status: TEmuStatus;
  customer: { firstName: string; lastName: string };
  address: TEmuAddress;
  currency: string;
  items: TEmuItem[];
  /** Minor units. */
  shippingMinor: number;
};

/** What the order costs in all, in minor units. */
export const totalMinorOf = (o: TEmuOrder) =>
  o.items.reduce((s, i) => s + i.quantity * i.unitPriceMinor, 0) + o.shippingMinor;

/** Minor units as the decimal string stores send ("129.90"). */
export const decimal = (minor: number) => (minor / 100).toFixed(2);

export const iso = (ms: number) => new Date(ms).toISOString().replace(".000Z", "Z");

const FIRST = ["Abebe", "Selam", "Hana", "Dawit", "Maria", "James", "Aisha", "Tom", "Lena", "Jan", "Sofia", "Marco"];
const LAST = ["Bekele", "Tesfaye", "Girma", "Alemu", "Lopez", "Carter", "Johnson", "Novak", "Schmidt", "de Vries"];
const STATUSES: [TEmuStatus, number][] = [
  ["placed", 20],
  ["ready", 35],
  ["partial", 10],
  ["shipped", 20],
  ["cancelled", 15],
];
/** Units of the currency per USD (a fixed table: the emulators' prices need not follow the market). */
const PER_USD: Record<string, number> = { USD: 1, EUR: 0.92, ETB: 140 };

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

const HOUR_MS = 3_600_000;
const digits = (r: TRandom, n: number) => Array.from({ length: n }, () => Math.floor(r() * 10)).join("");

/** The platform's id and display number of its i-th order (0-based). */
export const orderIds = (platform: TEmuPlatform, i: number, r: TRandom): { id: string; number: string } => {
  if (platform === "shopify") return { id: String(5500000001 + i), number: `#${1001 + i}` };
  if (platform === "amazon") {
    const id = `${pick(r, ["111", "112", "113", "114"])}-${digits(r, 7)}-${digits(r, 7)}`;
    return { id, number: id };
  }
  const id = `${2600000000 + i * 7919}${digits(r, 8)}`;
  return { id, number: id };
};

const currencyOf = (platform: TEmuPlatform, country: string) => {
  // Alibaba.com trades in US dollars; Amazon sells in the marketplace's currency (US or EU here).
  if (platform === "alibaba") return "USD";
  const eu = ["NL", "DE", "FR", "IT", "BE", "ES"].includes(country);
  if (platform === "amazon") return eu ? "EUR" : "USD";
  return eu ? "EUR" : country === "ET" ? "ETB" : "USD";
};

const PLATFORM_CITIES: Record<TEmuPlatform, TEmuCity[]> = {
  shopify: STORE_CITIES.filter((x) => x.weight.shopify > 0),
  amazon: STORE_CITIES.filter((x) => x.weight.amazon > 0),
  alibaba: STORE_CITIES.filter((x) => x.weight.alibaba > 0),
};

/** One generated order: the i-th of the platform's sequence, created `createdAt`. */
const makeOrder = (platform: TEmuPlatform, i: number, r: TRandom, createdAt: number, updatedAt: number): TEmuOrder => {
  // Every 25th order ships to a city no geocoder knows; the rest to the platform's usual places.
  const unknown = i % 25 === 7;
  const city = unknown ? UNKNOWN_CITY : weighted(r, PLATFORM_CITIES[platform], (x) => x.weight[platform]);
  const drawn = weighted(r, STATUSES, ([, w]) => w)[0];
  // Ready to ship, so that every platform shows its address.
  const status = unknown ? "ready" : drawn;
  const firstName = pick(r, FIRST);
  const lastName = pick(r, LAST);
  const currency = currencyOf(platform, city.country);
  const rate = PER_USD[currency];
  const count = 1 + Math.floor(r() * 3);
  const items = Array.from({ length: count }, (): TEmuItem => {
    const p = pick(r, PRODUCTS);
    return {
      title: p.title,
      sku: p.sku,
      quantity: 1 + Math.floor(r() * (p.priceUsdCents > 10000 ? 4 : 20)),
      unitPriceMinor: Math.round(p.priceUsdCents * rate),
      weight: p.weight && { ...p.weight },
    };
  });
  // A third of the addresses come without coordinates (the store did not geocode them): the domain geocodes.
  const located = city.latitude !== null && r() > 0.33;
  const jitter = () => Math.round((r() - 0.5) * 0.04 * 1e4) / 1e4;
  return {
    ...orderIds(platform, i, r),
    createdAt,
    updatedAt,
    status,
    customer: { firstName, lastName },
    address: {
      name: `${firstName} ${lastName}`,
      line1: pick(r, city.streets),
      city: city.city,
      state: city.state,
      country: city.country,
      postalCode: city.postalCode,
      latitude: located && city.latitude !== null ? Math.round((city.latitude + jitter()) * 1e4) / 1e4 : null,
      longitude: located && city.longitude !== null ? Math.round((city.longitude + jitter()) * 1e4) / 1e4 : null,
    },
    currency,
    items,
    shippingMinor: Math.round((1500 + Math.floor(r() * 6000)) * rate),
  };
};

/** The platform's seeded orders (60 unless told), dated relative to today. */
const SEEDED = 60;

export const seedOrders = (platform: TEmuPlatform, count = SEEDED, now = Date.now()): TEmuOrder[] => {
  const r = prng(seedOf(`store:${platform}`));
  const midnight = startOfDayUtc(now);
  return Array.from({ length: count }, (_, i) => {
    // Created 1 hour to 25 days before midnight; updated between then and midnight (often within two days).
    const createdAt = midnight - (1 + Math.floor(r() * 600)) * HOUR_MS - Math.floor(r() * 3600) * 1000;
    const span = Math.min(midnight - createdAt - 1000, 48 * HOUR_MS);
    const updatedAt = createdAt + Math.floor((r() * span) / 1000) * 1000;
    return makeOrder(platform, i, r, createdAt, updatedAt);
  });
};

// Control ----------------------------------------------------------------------------------------------------------

export type TStoreControl = {
  /** Every endpoint answers 503. */
  outage: boolean;
  /** Every endpoint refuses with the platform's rate-limit answer. */
  rateLimit: boolean;
  /** Every answer waits this long first. */
  delayMs: number;
  /** Requests received (all endpoints), token requests, order requests (lists and details); counted on arrival. */
  calls: number;
  tokenCalls: number;
  orderCalls: number;
  /** Every issued token is from now on expired (the store says so when one is used). */
  expireTokens: () => void;
  /** The store's current orders (copies), in creation order. */
  orders: () => TEmuOrder[];
  get: (id: string) => TEmuOrder | undefined;
  /** A new order (the next of the platform's sequence, or as patched), created and updated now unless patched. */
  add: (patch?: Partial<TEmuOrder>) => TEmuOrder;
  /** Changes an order's fields; marks it updated now. */
  update: (id: string, patch: Partial<Omit<TEmuOrder, "id">>) => boolean;
  /** Deletes an order. */
  remove: (id: string) => boolean;
  /** Modes off, counters zero, tokens forgotten, the seeded orders back. */
  reset: () => void;
};

type TGate = "token" | "orders" | "other";

/**
 * A store's state: its orders, its tokens, its modes and counters. `enter` counts a request, waits out the delay and
 * returns the outage or rate-limit answer when one is switched on.
 */
export const createStoreState = (o: {
  platform: TEmuPlatform;
  tokenLifetimeSeconds: number;
  outage: () => Response;
  rateLimited: () => Response;
  /** Called by reset(), for the emulator's own modes. */
  onReset?: () => void;
}) => {
  let orders = seedOrders(o.platform);
  let added = 0;
  const tokens = new Map<string, { kind: string; expiresAt: number; data?: unknown }>();
  const clone = (x: TEmuOrder): TEmuOrder => structuredClone(x);
  const find = (id: string) => orders.find((x) => x.id === id);
  const control: TStoreControl = {
    outage: false,
    rateLimit: false,
    delayMs: 0,
    calls: 0,
    tokenCalls: 0,
    orderCalls: 0,
    expireTokens: () => {
      for (const t of tokens.values()) t.expiresAt = 0;
    },
    orders: () => orders.map(clone),
    get: (id) => {
      const x = find(id);
      return x && clone(x);
    },
    add: (patch = {}) => {
      const now = Math.floor(Date.now() / 1000) * 1000;
      const i = SEEDED + added++;
      const fresh = makeOrder(o.platform, i, prng(seedOf(`store:${o.platform}:${i}`)), now, now);
      const order = {
        ...fresh,
        ...structuredClone(patch),
        createdAt: patch.createdAt ?? now,
        updatedAt: patch.updatedAt ?? now,
      };
      orders.push(order);
      return clone(order);
    },
    update: (id, patch) => {
      const x = find(id);
      if (!x) return false;
      Object.assign(x, structuredClone(patch), { id: x.id, updatedAt: Math.floor(Date.now() / 1000) * 1000 });
      return true;
    },
    remove: (id) => {
      const before = orders.length;
      orders = orders.filter((x) => x.id !== id);
      return orders.length < before;
    },
    reset: () => {
      control.outage = false;
      control.rateLimit = false;
      control.delayMs = 0;
      control.calls = 0;
      control.tokenCalls = 0;
      control.orderCalls = 0;
      tokens.clear();
      orders = seedOrders(o.platform);
      added = 0;
      o.onReset?.();
    },
  };
  return {
    control,
    /** The live list (no copy), for the emulator's own reads. */
    current: () => orders,
    /** `limited: false` for an endpoint the rate-limit mode spares (Amazon's LWA is not SP-API). */
    enter: async (gate: TGate, opts: { limited?: boolean } = {}): Promise<Response | null> => {
      control.calls++;
      if (gate === "token") control.tokenCalls++;
      if (gate === "orders") control.orderCalls++;
      if (control.delayMs > 0) await Bun.sleep(control.delayMs);
      if (control.outage) return o.outage();
      if (control.rateLimit && opts.limited !== false) return o.rateLimited();
      return null;
    },
    /**
     * Issues a token of a kind (with data the emulator wants back, such as an RDT's data elements or a token's scopes),
     * living the platform's token lifetime unless told otherwise.
     */
    issue: (kind: string, prefix: string, data?: unknown, lifetimeSeconds = o.tokenLifetimeSeconds) => {
      const token = `${prefix}${crypto.randomUUID().replaceAll("-", "")}`;
      const expiresAt = Date.now() + lifetimeSeconds * 1000;
      tokens.set(token, { kind, expiresAt, data });
      return { token, expiresIn: lifetimeSeconds };
    },
    /** Expires every issued token of a kind (access tokens, but not the refresh tokens that renew them). */
    expire: (kind: string) => {
      for (const t of tokens.values()) if (t.kind === kind) t.expiresAt = 0;
    },
    /** Forgets a token (a refresh token that was used). */
    revoke: (token: string) => {
      tokens.delete(token);
    },
    /** What a presented token is: unknown, expired, or live (with its kind and data). */
    check: (token: string | null) => {
      const t = token ? tokens.get(token) : undefined;
      if (!t) return { state: "unknown" as const };
      if (t.expiresAt <= Date.now()) return { state: "expired" as const, kind: t.kind };
      return { state: "live" as const, kind: t.kind, data: t.data };
    },
  };
};

/** Reads a request's parameters: the query string, and a form or JSON body (values as strings). */
export const readParams = async (req: Request): Promise<Record<string, string>> => {
  const url = new URL(req.url);
  const out: Record<string, string> = Object.fromEntries(url.searchParams);
  if (req.method !== "GET") {
    const type = req.headers.get("content-type") ?? "";
    const body = await req.text();
    if (type.includes("application/json")) {
      try {
        const j = JSON.parse(body) as Record<string, unknown>;
        for (const [k, v] of Object.entries(j)) out[k] = typeof v === "string" ? v : JSON.stringify(v);
      } catch {
        // Not JSON after all: no parameters from the body.
      }
    } else {
      for (const [k, v] of new URLSearchParams(body)) out[k] = v;
    }
  }
  return out;
};
