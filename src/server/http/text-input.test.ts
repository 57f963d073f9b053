// Text the databases cannot store as sent (a NUL character: PostgreSQL refuses it, a 500 where a 400 belongs; half
// of a surrogate pair: both engines would store U+FFFD) is refused as a 400 naming the field, in every string field of
// every input: first every procedure's schema, walked, then every REST route with a real request, on both engines.
import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { z } from "zod";
import { createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";
import { appRouter } from "../trpc/root";
import { REST_ROUTES } from "./rest/routes";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(240_000);

const BAD_TEXTS = { nul: "ab\u0000cd", surrogate: "ab\ud800cd", lowSurrogate: "\udc00" } as const;
const REFUSED = /must not contain a NUL character or an unpaired surrogate/;

// ---- Where a schema takes text ------------------------------------------------------------------------------------

const EACH = "[]"; // an array's element
const VALUE = "{}"; // a record's value
const KEY = "{key}"; // a record's key
type TPath = string[];
type TDef = { type: string; [k: string]: unknown };
const defOf = (s: unknown) => (s as { _zod: { def: TDef } })._zod.def;

/** Every place a schema accepts a string, as paths with EACH / VALUE / KEY where any index or key goes. */
const textPaths = (schema: unknown, path: TPath = [], out: TPath[] = []): TPath[] => {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      out.push(path);
      break;
    case "object":
      for (const [k, v] of Object.entries(def.shape as Record<string, unknown>)) textPaths(v, [...path, k], out);
      break;
    case "array":
      textPaths(def.element, [...path, EACH], out);
      break;
    case "record":
      textPaths(def.keyType, [...path, KEY], out);
      textPaths(def.valueType, [...path, VALUE], out);
      break;
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      textPaths(def.innerType, path, out);
      break;
    // A preprocess (a transform, then the schema) is walked on its schema; any other pipe on what it takes in.
    case "pipe":
      textPaths(defOf(def.in).type === "transform" ? def.out : def.in, path, out);
      break;
    case "union":
      for (const o of def.options as unknown[]) textPaths(o, path, out);
      break;
    case "intersection":
      textPaths(def.left, path, out);
      textPaths(def.right, path, out);
      break;
    case "lazy":
      textPaths((def.getter as () => unknown)(), path, out);
      break;
    case "tuple":
      for (const [i, item] of (def.items as unknown[]).entries()) textPaths(item, [...path, String(i)], out);
      break;
  }
  return out;
};
const keyOf = (p: TPath) => p.join(".");
const unique = (paths: TPath[]) => [...new Map(paths.map((p) => [keyOf(p), p])).values()];

/** An input that holds `text` at `path` and nothing else. */
const inputWith = (path: TPath, text: string): unknown => {
  if (!path.length) return text;
  const [head, ...rest] = path;
  if (head === EACH) return [inputWith(rest, text)];
  if (head === VALUE) return { field: inputWith(rest, text) };
  if (head === KEY) return { [text]: "value" };
  return { [head!]: inputWith(rest, text) };
};
/** The issue path zod reports for that input. */
const issuePath = (path: TPath) => {
  const at = path.map((s) => (s === EACH ? "0" : s === VALUE ? "field" : s));
  const key = at.indexOf(KEY);
  return (key >= 0 ? at.slice(0, key) : at).join(".");
};

type TProcedure = { _def: { inputs: z.ZodType[]; type: string } };
const procedures = Object.entries(
  (appRouter as unknown as { _def: { procedures: Record<string, TProcedure> } })._def.procedures,
);

describe("every procedure's input schema", () => {
  test("refuses a NUL or an unpaired surrogate in each place it takes text, naming that place", () => {
    const missed: string[] = [];
    let checked = 0;
    for (const [name, proc] of procedures) {
      for (const schema of proc._def.inputs) {
        for (const path of unique(textPaths(schema))) {
          for (const [kind, text] of Object.entries(BAD_TEXTS)) {
            checked++;
            const result = schema.safeParse(inputWith(path, text));
            const at = issuePath(path);
            const named = result.error?.issues.some((i) => {
              const p = i.path.map(String).join(".");
              // A record's key is named by the record (zod reports the key below it).
              return path.includes(KEY) ? p.startsWith(at) : p === at && REFUSED.test(i.message);
            });
            if (!named) missed.push(`${name} ${keyOf(path)} (${kind})`);
          }
        }
      }
    }
    expect(missed).toEqual([]);
    // The walk found the text fields (sign-up, loads, bids, messages, lanes, boards, stores, shipping, push…).
    expect(checked).toBeGreaterThan(120 * Object.keys(BAD_TEXTS).length);
  });
});

// ---- Through the REST routes, on the engine under test -------------------------------------------------------------

type TWho = "anonymous" | "driver" | "shipper";
type TSample = {
  who: TWho;
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: Record<string, unknown>;
};

const DAY = 24 * 60 * 60 * 1000;
const address = (name: string) => ({
  name,
  company: "MyTess Test",
  street1: "1 Main St",
  street2: "Suite 2",
  city: "Austin",
  state: "TX",
  postalCode: "78701",
  countryCode: "US",
  phone: "5125550100",
});
const pkg = {
  weight: 5,
  weightUnit: "LBS",
  length: 10,
  width: 8,
  height: 4,
  dimensionUnit: "IN",
  description: "Books",
};
const lane = {
  name: "Addis to Adama",
  originName: "Addis Ababa",
  originLatitude: 9.03,
  originLongitude: 38.74,
  originRadiusMiles: 50,
  destinationName: "Adama",
  destinationLatitude: 8.54,
  destinationLongitude: 39.27,
  destinationRadiusMiles: 50,
  equipmentTypes: ["flatbed"],
};
const storeSettings = {
  warehouse: {
    address: "Bole Road 1",
    city: "Addis Ababa",
    state: "Addis Ababa",
    country: "Ethiopia",
    latitude: 9.0,
    longitude: 38.76,
  },
  defaultEquipmentType: "dry_van",
  budget: { mode: "perMile", amount: 2.5, currency: "USD" },
  importStatuses: ["pending"],
  apiBaseUrl: "https://store.example.com",
};
const searchQuery = {
  latitude: "8.9",
  longitude: "38.77",
  radius: "50",
  sourceType: "all",
  equipmentType: "flatbed",
  maxWeight: "40000",
  minRate: "1",
  location: "Adama",
  pickupFrom: "2026-12-01",
  pickupTo: "2026-12-08",
  status: "posted",
  sort: "distance",
  page: "1",
  pageSize: "20",
};
const fullLoad = () =>
  loadInput({
    pickupState: "Oromia",
    deliveryState: "Oromia",
    specialInstructions: "Call ahead",
    pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
  });

/** A well-formed request for each REST route that takes text, with every optional text field filled in. */
const SAMPLES: Record<string, TSample> = {
  "POST /api/auth/register": {
    who: "anonymous",
    body: {
      email: "new.user@example.com",
      password: "correct-horse-battery",
      firstName: "Abebe",
      lastName: "Kebede",
      userType: "driver",
    },
  },
  "POST /api/auth/login": {
    who: "anonymous",
    body: { email: "nobody@example.com", phone: "+251911234567", password: "not-the-password" },
  },
  "POST /api/subscription/checkout": { who: "shipper", body: { currency: "USD", period: "month" } },
  "POST /api/subscription/confirm": { who: "shipper", body: { txRef: "tx-123" } },
  "PUT /api/user/language": { who: "driver", body: { language: "en" } },
  "PUT /api/user/currency": { who: "driver", body: { currency: "USD" } },
  "PUT /api/user/calendar": { who: "driver", body: { calendar: "gregorian" } },
  "PUT /api/user/profile": {
    who: "driver",
    body: { firstName: "Dawit", lastName: "Alemu", profileImageUrl: "https://images.example.com/me.png" },
  },
  "GET /api/loads": { who: "driver", query: searchQuery },
  "GET /api/loads/stats": { who: "driver", query: searchQuery },
  "GET /api/loads/points": { who: "driver", query: searchQuery },
  "POST /api/loads": { who: "shipper", body: fullLoad() },
  "PATCH /api/loads/:id": { who: "shipper", params: { id: "LOAD" }, body: fullLoad() },
  "POST /api/loads/:id/cancel": { who: "shipper", params: { id: "LOAD" }, body: { reason: "Customer postponed" } },
  "POST /api/loads/:id/delivery": {
    who: "driver",
    params: { id: "LOAD" },
    body: { receiverName: "Almaz Tesfaye", documentIds: [1] },
  },
  "POST /api/loads/:id/positions": {
    who: "driver",
    params: { id: "LOAD" },
    body: { positions: [{ latitude: 8.95, longitude: 38.76, recordedAt: new Date().toISOString() }] },
  },
  "POST /api/loads/:id/pod/dispute": { who: "shipper", params: { id: "LOAD" }, body: { reason: "Two pallets short" } },
  "POST /api/loads/:id/bids": {
    who: "driver",
    params: { id: "LOAD" },
    body: {
      amount: 900,
      currency: "USD",
      proposedPickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
      notes: "Ready",
    },
  },
  "GET /api/loads/:id/messages": { who: "driver", params: { id: "LOAD" }, query: { driverId: "1" } },
  "POST /api/loads/:id/messages": { who: "driver", params: { id: "LOAD" }, body: { body: "Can load tomorrow" } },
  "POST /api/shipping/rates": {
    who: "shipper",
    body: { shipper: address("Sender"), recipient: address("Receiver"), packages: [pkg], carrier: "ups" },
  },
  "GET /api/shipping/track/:first": { who: "shipper", params: { first: "1Z999AA10123456784" } },
  "GET /api/shipping/track/:first/:trackingNumber": {
    who: "shipper",
    params: { first: "ups", trackingNumber: "1Z999AA10123456784" },
  },
  "POST /api/shipping/shipments": {
    who: "shipper",
    body: {
      quote: {
        carrier: "ups",
        serviceCode: "03",
        serviceName: "Ground",
        transitTime: "3 days",
        totalCost: 12.5,
        currency: "USD",
        deliveryDays: 3,
        guaranteedDelivery: false,
      },
      shipper: address("Sender"),
      recipient: address("Receiver"),
      packages: [pkg],
    },
  },
  "POST /api/push/subscribe": {
    who: "driver",
    body: {
      endpoint: "https://push.example.com/send/abc",
      keys: { p256dh: Buffer.alloc(65, 4).toString("base64url"), auth: Buffer.alloc(16, 7).toString("base64url") },
    },
  },
  "DELETE /api/push/subscribe": { who: "driver", body: { endpoint: "https://push.example.com/send/abc" } },
  "POST /api/push/test": { who: "driver", body: { title: "Hello", message: "A test" } },
  "PUT /api/push/preferences": {
    who: "driver",
    body: {
      enabled: true,
      notificationTypes: {
        loadAssigned: true,
        loadUpdates: true,
        paymentReceived: true,
        systemAlerts: false,
        marketing: false,
      },
      quietHours: { enabled: true, start: "22:00", end: "07:00", timezone: "Africa/Addis_Ababa" },
    },
  },
  "GET /api/notifications": { who: "driver", query: { page: "1", pageSize: "20" } },
  "PUT /api/messaging/preferences": {
    who: "driver",
    body: {
      whatsappEnabled: false,
      whatsappNumber: "0911234567",
      telegramEnabled: false,
      telegramChatId: "123456789",
      notificationTypes: { loadAssigned: true, loadUpdates: true, paymentReceived: true, systemAlerts: false },
      language: "en",
    },
  },
  "POST /api/messaging/whatsapp/send": {
    who: "driver",
    body: { phoneNumber: "0911234567", message: "Hello", type: "test" },
  },
  "POST /api/messaging/whatsapp/code": { who: "driver", body: { phoneNumber: "0911234567" } },
  "POST /api/messaging/whatsapp/verify": { who: "driver", body: { code: "123456" } },
  "POST /api/messaging/telegram/send": { who: "driver", body: { chatId: "123456789", message: "Hello", type: "test" } },
  "POST /api/marketplaces/lanes": { who: "driver", body: lane },
  "PUT /api/marketplaces/lanes/:id": { who: "driver", params: { id: "1" }, body: lane },
  "POST /api/marketplaces": {
    who: "driver",
    body: {
      provider: "other",
      name: "Broker feed",
      apiBaseUrl: "https://feed.example.com",
      config: { apiKey: "k-123" },
    },
  },
  "PUT /api/marketplaces/:id": {
    who: "driver",
    params: { id: "1" },
    body: { name: "Broker feed", apiBaseUrl: "https://feed.example.com", config: { apiKey: "k-123" } },
  },
  "POST /api/marketplaces/:id/search": {
    who: "driver",
    params: { id: "1" },
    body: { originLatitude: "8.9", originLongitude: "38.7", radiusMiles: "50", equipmentType: "flatbed", limit: "20" },
  },
  "POST /api/ecommerce/integrations": {
    who: "shipper",
    body: {
      platform: "shopify",
      name: "My shop",
      credentials: { shopDomain: "demo.myshopify.com" },
      settings: storeSettings,
    },
  },
  "PUT /api/ecommerce/integrations/:id": {
    who: "shipper",
    params: { id: "1" },
    body: { name: "My shop", credentials: { accessToken: "t-1" }, settings: storeSettings },
  },
  "GET /api/ecommerce/orders": {
    who: "shipper",
    query: { integrationId: "1", status: "pending", page: "1", pageSize: "20" },
  },
  "POST /api/ecommerce/orders/:id/convert": { who: "shipper", params: { id: "1" }, body: { load: fullLoad() } },
  "PUT /api/messaging/load-alerts": {
    who: "driver",
    body: { enabled: true, radiusMiles: 100, equipmentTypes: ["flatbed"] },
  },
  "GET /api/places": { who: "driver", query: { q: "Adama", limit: "5" } },
  "POST /api/tokens": { who: "driver", body: { name: "Our TMS", scopes: ["loads:read"] } },
  "POST /api/webhook-endpoints": {
    who: "driver",
    body: { url: "https://hooks.example.com/mytess", events: ["load.awarded"] },
  },
  "GET /api/track/:token": { who: "anonymous", params: { token: "a".repeat(43) } },
  "POST /api/saved-searches": {
    who: "driver",
    body: {
      name: "Addis to Djibouti",
      search: { equipment: ["flatbed", "dry_van"], q: "cement" },
      originName: "Addis Ababa",
      destinationName: "Djibouti",
    },
  },
  "PUT /api/saved-searches/:id": { who: "driver", params: { id: "1" }, body: { name: "Addis to Adama" } },
  "POST /api/trucks": {
    who: "driver",
    body: {
      originName: "Adama, Ethiopia",
      originLatitude: 8.54,
      originLongitude: 39.27,
      availableFrom: "2099-01-01",
      availableTo: "2099-01-05",
      destinationName: "Djibouti",
      destinationLatitude: 11.59,
      destinationLongitude: 43.15,
      equipmentType: "flatbed",
      capacityLbs: 40000,
      plate: "3-A12345",
      note: "Tarps on board",
    },
  },
  "GET /api/trucks/search": {
    who: "shipper",
    query: {
      latitude: "8.9",
      longitude: "38.7",
      availableFrom: "2099-01-01",
      availableTo: "2099-01-05",
      equipmentType: "flatbed",
    },
  },
  // Both ways at once are refused as such, but only once every field is storable text: each field is still named.
  "POST /api/auth/password/forgot": { who: "anonymous", body: { email: "nobody@example.com", phone: "+251911234567" } },
  "POST /api/user/phone": { who: "driver", body: { phone: "+251911234567" } },
  "POST /api/payouts/account": { who: "driver", body: { country: "ET" } },
  "POST /api/companies": { who: "driver", body: { kind: "carrier", name: "Abay Trucking", country: "ET" } },
  "POST /api/companies/:id/invitations": {
    who: "driver",
    params: { id: "1" },
    body: { email: "dispatch@example.com", phone: "+251911234567", role: "dispatcher" },
  },
  "POST /api/invitations/:token/accept": { who: "driver", params: { token: "abcdefghijklmnopqrstuvwxyz" } },
  "GET /api/invitations/:token": { who: "anonymous", params: { token: "abcdefghijklmnopqrstuvwxyz" } },
  "PUT /api/payouts/method": {
    who: "driver",
    body: { bankCode: 1, accountNumber: "0911234567", accountName: "Abebe Kebede", accountNameConfirmed: true },
  },
  "POST /api/verification": {
    who: "shipper",
    body: {
      country: "ET",
      tradeLicenceNumber: "AA/14/1234",
      tin: "0012345678",
      mcNumber: "123456",
      dotNumber: "1234567",
      insuranceExpiresOn: "2099-03-01",
      fileIds: [],
    },
  },
  "POST /api/verification/submissions/:id/reject": {
    who: "driver",
    params: { id: "1" },
    body: { reason: "The licence copy is unreadable" },
  },
  "POST /api/auth/phone/start": { who: "anonymous", body: { phone: "+251911234567" } },
  "POST /api/auth/phone/verify": {
    who: "anonymous",
    body: { phone: "+251911234567", code: "123456", firstName: "Abebe", lastName: "Kebede", userType: "driver" },
  },
  "POST /api/auth/email/verify": { who: "anonymous", body: { token: "A".repeat(43) } },
  "POST /api/user/email": { who: "driver", body: { email: "new.address@example.com" } },
  "POST /api/user/phone/verify": { who: "driver", body: { phone: "+251911234567", code: "123456" } },
  // Both fields, so each can carry the bad text (the pair itself is refused, and the password is not the driver's).
  "DELETE /api/user": { who: "driver", body: { password: "not-the-password", code: "123456" } },
  "POST /api/auth/password/reset": {
    who: "anonymous",
    body: { token: "A".repeat(43), code: "123456", phone: "+251911234567", password: "correct-horse-battery" },
  },
};

/** Which procedure a REST route calls, and with what input, for a request (the route's own mapping). */
const procedureCall = (route: (typeof REST_ROUTES)[number], s: TSample) => {
  try {
    return {
      name: route.procedure,
      input: route.input({ params: s.params ?? {}, query: s.query ?? {}, body: s.body }),
    };
  } catch {
    return null; // refused by the route itself (a path id that is not a number)
  }
};

/** Every string in a JSON value, with its path. */
const stringsIn = (v: unknown, path: string[] = []): { path: string[]; value: string }[] => {
  if (typeof v === "string") return [{ path, value: v }];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringsIn(x, [...path, String(i)]));
  if (v && typeof v === "object") return Object.entries(v).flatMap(([k, x]) => stringsIn(x, [...path, k]));
  return [];
};
const setAt = (v: unknown, path: string[], text: string): unknown => {
  if (!path.length) return text;
  const [head, ...rest] = path;
  if (Array.isArray(v)) return v.map((x, i) => (String(i) === head ? setAt(x, rest, text) : x));
  const o = v as Record<string, unknown>;
  return { ...o, [head!]: setAt(o[head!], rest, text) };
};
const matches = (pattern: TPath, path: string[]) =>
  pattern.length === path.length &&
  pattern.every((seg, i) => seg === path[i] || ((seg === EACH || seg === VALUE) && path[i] !== undefined));

/** Numbers that take their default when what is sent is not a usable number, text included. */
const FALLS_BACK = new Set([
  "POST /api/marketplaces/:id/search radiusMiles",
  "POST /api/marketplaces/:id/search limit",
]);

let t: TTestApp;
let clients: Record<TWho, ReturnType<typeof createClient>>;
let loadId: number;

beforeAll(async () => {
  t = await createTestApp();
  clients = {
    anonymous: createClient(t, "10.70.0.1"),
    driver: createClient(t, "10.70.0.2"),
    shipper: createClient(t, "10.70.0.3"),
  };
  await registerUser(clients.driver, "driver");
  await registerUser(clients.shipper, "shipper");
  loadId = (await clients.shipper.post("/api/loads", loadInput())).json.id;
});
afterAll(() => t.close());

/** Every row of every table but the sign-in attempt log (refused sign-ins are recorded there on purpose). */
const snapshot = async () => {
  const h = new Bun.CryptoHasher("sha256");
  for (const name of (await t.tableNames()).filter((n) => n !== "login_failures"))
    h.update(`${name}:${JSON.stringify(await t.rows(`SELECT * FROM "${name}"`))}`);
  return h.digest("hex");
};

const routeKey = (r: (typeof REST_ROUTES)[number]) => `${r.method} ${r.path}`;

describe("every REST route that takes text", () => {
  test("has a sample here that fills every text field its procedure takes", async () => {
    const gaps: string[] = [];
    for (const route of REST_ROUTES) {
      const sample = SAMPLES[routeKey(route)];
      const call = procedureCall(route, sample ?? { who: "driver", params: { id: "1", first: "x" } });
      if (!call) continue;
      const proc = procedures.find(([name]) => name === call.name)?.[1];
      const wanted = unique((proc?._def.inputs ?? []).flatMap((s) => textPaths(s))).filter((p) => !p.includes(KEY));
      if (!wanted.length) continue;
      if (!sample) {
        gaps.push(`${routeKey(route)}: no sample (${call.name} takes text)`);
        continue;
      }
      const given = stringsIn(call.input).map((s) => s.path);
      for (const p of wanted) if (!given.some((g) => matches(p, g))) gaps.push(`${routeKey(route)}: ${keyOf(p)}`);
    }
    expect(gaps).toEqual([]);
  });

  for (const [kind, text] of Object.entries(BAD_TEXTS)) {
    test(`${kind}: a 400 naming the field for each text field, never a 5xx, nothing written`, async () => {
      const failures: string[] = [];
      let sent = 0;
      const before = await snapshot();
      for (const route of REST_ROUTES) {
        const sample = SAMPLES[routeKey(route)];
        if (!sample) continue;
        const params = Object.fromEntries(
          Object.entries(sample.params ?? {}).map(([k, v]) => [k, v === "LOAD" ? String(loadId) : v]),
        );
        const base = { params, query: sample.query ?? {}, body: sample.body };
        type TRequest = typeof base;
        const send = (r: TRequest) => {
          const path = route.path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(r.params[name]!));
          const qs = new URLSearchParams(r.query).toString();
          const url = `${path}${qs ? `?${qs}` : ""}`;
          const client = clients[sample.who];
          if (route.method === "GET") return client.get(url);
          if (route.method === "DELETE") return client.del(url, r.body);
          if (route.method === "PATCH") return client.patch(url, r.body);
          return route.method === "PUT" ? client.put(url, r.body) : client.post(url, r.body);
        };
        // Each string of the request in turn, wherever it travels (path, query, body), and each record's keys.
        const changed: { label: string; request: TRequest }[] = [];
        // A URL carries UTF-8: half of a surrogate pair cannot be written in one (it arrives as U+FFFD), a NUL can.
        for (const where of kind === "nul" ? (["params", "query", "body"] as const) : (["body"] as const))
          for (const { path } of stringsIn(base[where]))
            changed.push({
              label: `${where}.${path.join(".")}`,
              request: { ...base, [where]: setAt(base[where], path, text) },
            });
        const call = procedureCall(route, sample);
        const proc = procedures.find(([name]) => name === call?.name)?.[1];
        const texts = unique((proc?._def.inputs ?? []).flatMap((sch) => textPaths(sch)));
        const records = texts.filter((p) => p.at(-1) === KEY && p.length === 2).map((p) => p[0]!);
        for (const record of records)
          if (base.body && record in base.body)
            changed.push({
              label: `body.${record} (a key)`,
              request: { ...base, body: { ...base.body, [record]: { ...(base.body[record] as object), [text]: "x" } } },
            });
        for (const { label, request } of changed) {
          // The field the procedure is given the text in: the route's own mapping, applied to the changed request.
          const input = (await procedureCall(route, { who: sample.who, ...request }))?.input;
          const named = label.endsWith("(a key)")
            ? label.slice(5, -8)
            : stringsIn(input)
                .find((x) => x.value === text)
                ?.path.join(".");
          sent++;
          const res = await send(request);
          const what = `${routeKey(route)} ${label}`;
          const issues: { path: string; message: string }[] = res.json?.issues ?? [];
          const fallsBack = FALLS_BACK.has(`${routeKey(route)} ${named}`);
          // Where the procedure takes text the issue says why; elsewhere (a number, a choice) its own rule refuses it.
          const isText = named !== undefined && texts.some((p) => matches(p, named.split(".")));
          const said = (i: { path: string; message: string }) =>
            (i.path === named || i.path.startsWith(`${named}.`)) && (!isText || REFUSED.test(i.message));
          if (res.status >= 500 || (res.status !== 400 && !fallsBack))
            failures.push(`${what}: ${res.status} ${res.text.slice(0, 160)}`);
          else if (!fallsBack && named !== undefined && !label.endsWith("(a key)") && !issues.some(said))
            failures.push(`${what}: ${JSON.stringify(issues).slice(0, 200)}, nothing about ${named}`);
          else if (label.endsWith("(a key)") && !issues.some((i) => i.path.startsWith(named!)))
            failures.push(`${what}: ${JSON.stringify(issues).slice(0, 200)}, nothing about ${named}`);
        }
      }
      expect(failures).toEqual([]);
      expect(sent).toBeGreaterThan(150);
      // Every request was refused (or, for a number that falls back, found nothing to act on): nothing was written.
      expect(await snapshot()).toBe(before);
    });
  }
});
