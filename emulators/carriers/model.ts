// What the three carrier emulators share: where a postal code is, how far apart two places are, what a service
// costs, and deterministic tracking histories. Plausible, not real tariffs.
import { haversineMiles } from "../../src/shared/geo";

// Approximate centres of the ten US ZIP regions (first digit), refined by the second digit.
const US_REGIONS: [number, number][] = [
  [42.4, -71.8],
  [41.3, -75.2],
  [37.6, -78.4],
  [31.8, -83.9],
  [39.9, -85.0],
  [44.5, -93.6],
  [39.0, -94.6],
  [32.4, -96.7],
  [38.8, -109.5],
  [38.2, -121.0],
];
const COUNTRIES: Record<string, [number, number]> = {
  US: [39.8, -98.6],
  CA: [56.1, -106.3],
  MX: [23.6, -102.6],
  GB: [54.0, -2.0],
  DE: [51.2, 10.4],
  FR: [46.2, 2.2],
  ET: [9.0, 38.8],
  KE: [0.0, 37.9],
  DJ: [11.6, 43.1],
  CN: [35.9, 104.2],
  IN: [20.6, 79.0],
  AE: [24.0, 54.0],
  JP: [36.2, 138.3],
};

export type TPoint = { lat: number; lng: number };

export const locate = (postalCode: string, countryCode: string): TPoint => {
  if (countryCode === "US") {
    const d = postalCode.replace(/\D/g, "");
    const [lat, lng] = US_REGIONS[Number(d[0] ?? 0)] ?? US_REGIONS[0];
    const second = Number(d[1] ?? 5);
    return { lat: lat + (second - 5) * 0.35, lng: lng + (Number(d[2] ?? 5) - 5) * 0.45 };
  }
  const [lat, lng] = COUNTRIES[countryCode] ?? [0, 0];
  return { lat, lng };
};

export const milesBetween = (
  a: { postalCode: string; countryCode: string },
  b: { postalCode: string; countryCode: string },
) => {
  const p = locate(a.postalCode, a.countryCode);
  const q = locate(b.postalCode, b.countryCode);
  return haversineMiles(p.lat, p.lng, q.lat, q.lng);
};

/** Zone 1 (local) to 8 (cross-country); 9 for international. */
export const zoneOf = (miles: number, international: boolean) =>
  international
    ? 9
    : miles < 50
      ? 1
      : miles < 150
        ? 2
        : miles < 300
          ? 3
          : miles < 600
            ? 4
            : miles < 1000
              ? 5
              : miles < 1400
                ? 6
                : miles < 1800
                  ? 7
                  : 8;

export type TServiceLevel = {
  base: number;
  perLb: number;
  zoneFactor: number;
  days: (zone: number) => number;
  guaranteed: boolean;
};

/** Price of a service for a billable weight and zone, rounded to cents. */
export const priceOf = (level: TServiceLevel, billableLb: number, zone: number) =>
  Math.round(
    (level.base + level.perLb * Math.max(1, Math.ceil(billableLb)) * (1 + level.zoneFactor * (zone - 1))) * 100,
  ) / 100;

export const groundDays = (zone: number) => (zone >= 9 ? 7 : Math.min(5, Math.max(1, Math.ceil(zone / 1.6))));

export const addBusinessDays = (from: Date, days: number) => {
  const d = new Date(from);
  let left = days;
  while (left > 0) {
    d.setUTCDate(d.getUTCDate() + 1);
    const wd = d.getUTCDay();
    if (wd !== 0 && wd !== 6) left--;
  }
  return d;
};

// Tracking histories ------------------------------------------------------------------------------------------------

export type TScenario = "delivered" | "in_transit" | "exception" | "pending" | "not_found";

const hash = (s: string) => {
  let h = 2166136261;
  for (const c of s) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return h;
};

/** A number whose digits before the check digit end in 0000 is unknown to the carrier; otherwise its hash picks a story. */
export const scenarioOf = (n: string): TScenario => {
  if (/0000[0-9A-Z]$/.test(n.replace(/^([A-Z]{2}\d{9})[A-Z]{2}$/, "$1"))) return "not_found";
  const h = hash(n) % 10;
  return h < 4 ? "delivered" : h < 7 ? "in_transit" : h < 9 ? "exception" : "pending";
};

const ROUTES = [
  [
    { city: "MEMPHIS", state: "TN", zip: "38118" },
    { city: "INDIANAPOLIS", state: "IN", zip: "46241" },
    { city: "COLUMBUS", state: "OH", zip: "43219" },
  ],
  [
    { city: "LOUISVILLE", state: "KY", zip: "40209" },
    { city: "ATLANTA", state: "GA", zip: "30354" },
    { city: "ORLANDO", state: "FL", zip: "32824" },
  ],
  [
    { city: "ONTARIO", state: "CA", zip: "91761" },
    { city: "PHOENIX", state: "AZ", zip: "85043" },
    { city: "DALLAS", state: "TX", zip: "75261" },
  ],
  [
    { city: "NEWARK", state: "NJ", zip: "07114" },
    { city: "HARTFORD", state: "CT", zip: "06114" },
    { city: "BOSTON", state: "MA", zip: "02128" },
  ],
];

export type TStep = {
  kind: "label" | "pickup" | "depart" | "arrive" | "out" | "delivered" | "exception";
  at: Date;
  place: { city: string; state: string; zip: string };
};

/** A history, oldest first, ending at `now`-ish; same number, same history (times relative to a fixed day). */
export const historyOf = (n: string, scenario: TScenario, now = new Date()) => {
  const route = ROUTES[hash(n) % ROUTES.length];
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - 4, 14, 0, 0));
  const at = (hours: number) => new Date(start.getTime() + hours * 3_600_000);
  const steps: TStep[] = [{ kind: "label", at: at(0), place: route[0] }];
  if (scenario === "pending") return { steps, route, start };
  steps.push({ kind: "pickup", at: at(4), place: route[0] });
  steps.push({ kind: "depart", at: at(9), place: route[0] });
  steps.push({ kind: "arrive", at: at(26), place: route[1] });
  steps.push({ kind: "depart", at: at(30), place: route[1] });
  if (scenario === "in_transit") {
    steps.push({ kind: "arrive", at: at(50), place: route[2] });
    return { steps, route, start };
  }
  steps.push({ kind: "arrive", at: at(50), place: route[2] });
  steps.push({ kind: "out", at: at(64), place: route[2] });
  steps.push({ kind: scenario === "delivered" ? "delivered" : "exception", at: at(70), place: route[2] });
  return { steps, route, start };
};

export const estimatedDeliveryOf = (start: Date) => new Date(start.getTime() + 96 * 3_600_000);

// A fake bearer-token store shared by the three emulators' OAuth endpoints ------------------------------------------------

export type TControl = {
  /** Answer the next requests with these instead (status, body, headers); `raw` sends the text as is. */
  failNext: (...answers: { status: number; body?: unknown; raw?: string; headers?: Record<string, string> }[]) => void;
  /** Forget every issued token, as if they had all expired. */
  expireTokens: () => void;
  tokenRequests: number;
  apiRequests: number;
  delayMs: number;
  tokenLifetimeSeconds: number;
};

export const createControl = () => {
  const queue: { status: number; body?: unknown; raw?: string; headers?: Record<string, string> }[] = [];
  const tokens = new Map<string, number>();
  const control: TControl & {
    takeFailure: () => Response | null;
    issue: () => { token: string; expiresIn: number; issuedAt: number };
    valid: (auth: string | null) => boolean;
  } = {
    failNext: (...answers) => queue.push(...answers),
    expireTokens: () => tokens.clear(),
    tokenRequests: 0,
    apiRequests: 0,
    delayMs: 0,
    tokenLifetimeSeconds: 3599,
    takeFailure: () => {
      const f = queue.shift();
      if (!f) return null;
      return new Response(f.raw ?? JSON.stringify(f.body ?? {}), {
        status: f.status,
        headers: { "Content-Type": "application/json", ...f.headers },
      });
    },
    issue: () => {
      const token = crypto.randomUUID().replaceAll("-", "");
      const issuedAt = Date.now();
      tokens.set(token, issuedAt + control.tokenLifetimeSeconds * 1000);
      return { token, expiresIn: control.tokenLifetimeSeconds, issuedAt };
    },
    valid: (auth) => {
      const token = auth?.replace(/^Bearer\s+/i, "") ?? "";
      const exp = tokens.get(token);
      return exp !== undefined && exp > Date.now();
    },
  };
  return control;
};

export const sleep = (ms: number) => (ms > 0 ? Bun.sleep(ms) : Promise.resolve());
export const json = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", ...headers } });
