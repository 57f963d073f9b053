// Malformed input across every REST route, as an anonymous caller, a driver and a shipper: no answer may be
// a 5xx, none may hang, and a refused request must leave the database as it was.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { emulatorEnv, startCarrierEmulators } from "../../../emulators/carriers/server";
import { startPaymentEmulators } from "../../../emulators/payments/server";
import { carriersFromEnv } from "../integrations/carriers/registry";
import { paymentsFromEnv } from "../integrations/payments/registry";
import { createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";
import { REST_ROUTES } from "./rest/routes";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const CASES_PER_ACTOR = 400;
const ANSWER_WITHIN_MS = 10_000;
// Signed in, most routes get as far as validating their input; anonymous, the public routes and path checks do.
const MIN_ROUTES_VALIDATED = { anonymous: 5, driver: 22, shipper: 22 };
// The anonymous caller also sends broken session cookies.
const ANONYMOUS_COOKIES = [
  "",
  "mytess_session=%",
  `mytess_session=${"a".repeat(5000)}`,
  "mytess_session=%E0%A4%A; x=%",
];

const FIELDS = [
  "amount",
  "currency",
  "proposedPickupDate",
  "notes",
  "title",
  "description",
  "equipmentType",
  "pickupCity",
  "pickupCountry",
  "pickupLatitude",
  "pickupLongitude",
  "deliveryLatitude",
  "deliveryLongitude",
  "pickupDate",
  "deliveryDate",
  "weight",
  "budgetAmount",
  "budgetCurrency",
  "rating",
  "comment",
  "reason",
  "body",
  "driverId",
  "language",
  "firstName",
  "lastName",
  "profileImageUrl",
  "email",
  "password",
  "userType",
  "latitude",
  "longitude",
  "isAvailable",
  "packages",
  "shipper",
  "recipient",
  "carrier",
  "trackingNumber",
  "status",
  "radius",
  "page",
  "pageSize",
  "sort",
  "q",
  "limit",
  "__proto__",
  "constructor",
];

const VALUES: unknown[] = [
  null,
  "",
  " ",
  -1,
  0,
  1.5,
  1e308,
  -1e308,
  "NaN",
  "Infinity",
  true,
  [],
  {},
  [1, 2, 3],
  "x".repeat(10_000),
  "<script>alert(1)</script>",
  "' OR 1=1 --",
  "\u0000",
  "😀".repeat(200),
  { $gt: "" },
  "2026-13-45T99:99:99Z",
  "1970-01-01T00:00:00Z",
  { weight: -5 },
  [{ weight: "heavy" }],
  "javascript:alert(1)",
  "%",
];

const PATH_VALUES = ["0", "-1", "abc", "1.5", "99999999999999999999", "%25", "%", "%E0%A4%A", "1e3", "..%2F..", "null"];

const RAW_BODIES = [
  "{",
  "[]",
  "null",
  "0",
  '"text"',
  '{"a":',
  "[".repeat(5000),
  '{"__proto__":{"admin":true}}',
  "\u0000\u0001",
  '{"amount":1e999}',
  JSON.stringify("s".repeat(200_000)),
];

/** A small seeded generator, so a failure can be replayed. */
const rng = (seed: number) => () => {
  seed |= 0;
  seed = (seed + 0x6d2b79f5) | 0;
  let r = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  r = (r + Math.imul(r ^ (r >>> 7), 61 | r)) ^ r;
  return ((r ^ (r >>> 14)) >>> 0) / 4294967296;
};

let t: TTestApp;
const emu = startCarrierEmulators();
// The payment providers are set up too, so the payment and payout routes are fuzzed past their "not set up" answer.
const payments = startPaymentEmulators();
let actors: Record<"anonymous" | "driver" | "shipper", ReturnType<typeof createClient>>;
let realIds: string[];

beforeAll(async () => {
  t = await createTestApp(
    {},
    carriersFromEnv(emulatorEnv(emu.urls)),
    undefined,
    undefined,
    paymentsFromEnv(payments.env()),
  );
  actors = {
    anonymous: createClient(t, "10.50.0.1"),
    driver: createClient(t, "10.50.0.2"),
    shipper: createClient(t, "10.50.0.3"),
  };
  await registerUser(actors.driver, "driver");
  await registerUser(actors.shipper, "shipper");
  const load = await actors.shipper.post("/api/loads", loadInput({ budgetAmount: 30000, budgetCurrency: "ETB" }));
  const bid = await actors.driver.post(`/api/loads/${load.json.id}/bids`, { amount: 28000, currency: "ETB" });
  realIds = [String(load.json.id), String(bid.json.bid.id)];
});
afterAll(async () => {
  emu.stop();
  payments.stop();
  await t.close();
});

/** Every row of every table but the sign-in attempt log (refused sign-ins are recorded there on purpose). */
const snapshot = async () => {
  const tables = (await t.tableNames()).filter((name) => name !== "login_failures");
  const h = new Bun.CryptoHasher("sha256");
  for (const name of tables) h.update(`${name}:${JSON.stringify(await t.rows(`SELECT * FROM "${name}"`))}`);
  return h.digest("hex");
};

type TCase = { method: string; path: string; body?: string; contentType: string };

const makeCases = (seed: number): TCase[] => {
  const next = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(next() * xs.length)];
  const hostileObject = () => {
    const o: Record<string, unknown> = {};
    const n = 1 + Math.floor(next() * 4);
    for (let i = 0; i < n; i++) o[pick(FIELDS)] = pick(VALUES);
    return o;
  };
  const cases: TCase[] = [];
  for (let i = 0; i < CASES_PER_ACTOR; i++) {
    const route = REST_ROUTES[i % REST_ROUTES.length];
    const path = route.path.replace(/:\w+/g, () => (next() < 0.3 ? pick(realIds) : pick(PATH_VALUES)));
    const query = new URLSearchParams();
    if (route.method === "GET" || next() < 0.3) {
      for (const [k, v] of Object.entries(hostileObject()))
        query.set(k, typeof v === "string" ? v.slice(0, 2000) : JSON.stringify(v));
    }
    const body =
      route.method === "GET" ? undefined : next() < 0.35 ? pick(RAW_BODIES) : JSON.stringify(hostileObject());
    cases.push({
      method: route.method,
      path: `${path}${query.size ? `?${query}` : ""}`,
      body,
      contentType: next() < 0.9 ? "application/json" : "text/plain",
    });
  }
  return cases;
};

const send = async (c: TCase, cookie: string, ip: string) => {
  const request = new Request(`http://localhost${c.path}`, {
    method: c.method,
    headers: { "Content-Type": c.contentType, "X-Forwarded-For": ip, ...(cookie ? { Cookie: cookie } : {}) },
    body: c.body,
  });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ANSWER_WITHIN_MS} ms`)), ANSWER_WITHIN_MS);
  });
  try {
    const res = await Promise.race([t.app.handle(request), hang]);
    return { status: res.status, text: await res.text() };
  } finally {
    clearTimeout(timer);
  }
};

describe("fuzzing every REST route", () => {
  for (const [seed, who] of [
    [7, "anonymous"],
    [11, "driver"],
    [13, "shipper"],
  ] as const) {
    test(`${CASES_PER_ACTOR} malformed requests as ${who}: no 5xx, no hang, nothing written when refused`, async () => {
      const failures: string[] = [];
      // Which routes refused input as invalid (400/413): the cases got past the door to each route's validation.
      const validated = new Set<string>();
      for (const [i, c] of makeCases(seed).entries()) {
        const before = await snapshot();
        const cookie = who === "anonymous" ? ANONYMOUS_COOKIES[i % ANONYMOUS_COOKIES.length] : actors[who].cookie;
        const res = await send(c, cookie, `10.50.0.${who.length}`);
        const label = `${c.method} ${c.path.slice(0, 120)} ${String(c.body).slice(0, 80)}`;
        if (res.status >= 500) failures.push(`${res.status} ${label} → ${res.text.slice(0, 200)}`);
        if (res.status === 400 || res.status === 413) validated.add(REST_ROUTES[i % REST_ROUTES.length].path);
        if (res.status >= 400) {
          if ((await snapshot()) !== before)
            failures.push(`database changed by a refused request: ${res.status} ${label}`);
        }
      }
      expect(failures).toEqual([]);
      expect(validated.size).toBeGreaterThanOrEqual(MIN_ROUTES_VALIDATED[who]);
    }, 240_000);
  }
});
