import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, setSystemTime, test } from "bun:test";
import {
  ALIBABA_SANDBOX,
  ALIBABA_TOKEN_LIFETIME_SECONDS,
  alibabaListEntry,
  alibabaSignature,
  dateOf,
  fromPacific,
} from "../../../../emulators/stores/alibaba";
import { gramsOf as emuGrams, type TEmuOrder, totalMinorOf } from "../../../../emulators/stores/model";
import { STORE_SANDBOX_CREDENTIALS, startStoreEmulators } from "../../../../emulators/stores/server";
import {
  parseQuery,
  requestedCost,
  SHOPIFY_BUCKET,
  SHOPIFY_DEMO_CLIENT_ID,
  SHOPIFY_SANDBOX_LEGACY,
  SHOPIFY_TOKEN_LIFETIME_SECONDS,
  signedWebhook,
} from "../../../../emulators/stores/shopify";
import { AppError } from "../../errors";
import {
  ALIBABA_GATEWAY,
  ALIBABA_OVERLAP_MS,
  alibabaDate,
  alibabaSign,
  alibabaSignedParams,
  alibabaStatus,
} from "./alibaba";
import { AMAZON_HOSTS, amazonRetryAfter, amazonStatus } from "./amazon";
import { amountMinor, gramsOf, isoSeconds, storeReason } from "./http";
import { createStoreAdapter, defaultStoreBaseUrl, isSandboxStoreUrl } from "./registry";
import {
  ORDERS_QUERY,
  SHOPIFY_API_VERSION,
  SHOPIFY_ORDER_COST,
  shopifyOrderQuery,
  shopifyPageSize,
  shopifyShopUrl,
  shopifyStatus,
  shopifyTokenMargin,
  shopifyVersionEnd,
  shopifyVersionWarning,
} from "./shopify";
import {
  STORE_NAMES,
  STORE_PLATFORMS,
  type TStoreAdapter,
  type TStoreOrder,
  type TStorePlatform,
  type TStoreSettings,
} from "./types";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

const emu = startStoreEmulators();
afterAll(() => emu.stop());
beforeEach(() => {
  for (const c of Object.values(emu.controls)) c.reset();
  // Shopify Plus's restore rate, so that full listings need not wait; the throttling tests use the Standard plan's 50.
  emu.controls.shopify.restoreRate = 1000;
});
// Tests that move the clock put it back.
afterEach(() => setSystemTime());

const nameOf = (p: TStorePlatform) => `${STORE_NAMES[p]} (Addis shop)`;
const settings = (platform: TStorePlatform, over: Partial<TStoreSettings> = {}): TStoreSettings => ({
  platform,
  name: nameOf(platform),
  baseUrl: emu.urls[platform],
  credentials: { ...STORE_SANDBOX_CREDENTIALS[platform] },
  timeoutMs: 3000,
  // The emulators, and a closed loopback port for "unreachable": the operator's Sandbox, as demo mode's emulators are.
  sandboxOrigins: [...Object.values(emu.urls), "http://127.0.0.1:9"],
  ...over,
});
const adapter = (platform: TStorePlatform, over: Partial<TStoreSettings> = {}) =>
  createStoreAdapter(settings(platform, over));
const withCredentials = (platform: TStorePlatform, wrong: Record<string, string>) =>
  adapter(platform, { credentials: { ...STORE_SANDBOX_CREDENTIALS[platform], ...wrong } });

const caught = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a failure");
};

/** Every page, followed to the end. */
const allOrders = async (a: TStoreAdapter, updatedSince = 0, pageSize = 50) => {
  const orders: TStoreOrder[] = [];
  const cursors: string[] = [];
  let cursor: string | null = null;
  do {
    const page = await a.listOrders({ updatedSince, cursor, pageSize });
    orders.push(...page.orders);
    cursor = page.cursor;
    if (cursor) cursors.push(cursor);
    if (cursors.length > 200) throw new Error("paging does not end");
  } while (cursor);
  return { orders, pages: cursors.length + 1, cursors };
};

const byId = (orders: TStoreOrder[]) => new Map(orders.map((o) => [o.externalOrderId, o]));

/** Where a listing "since" a moment starts: Alibaba.com's lists start ALIBABA_OVERLAP_MS earlier. */
const startOf = (p: TStorePlatform, since: number) => (p === "alibaba" ? since - ALIBABA_OVERLAP_MS : since);

// What each adapter must make of an emulator order ---------------------------------------------------------------

const STATUS_WORDS = {
  shopify: {
    placed: ["pending", "UNFULFILLED"],
    ready: ["pending", "UNFULFILLED"],
    partial: ["processing", "PARTIALLY_FULFILLED"],
    shipped: ["processing", "FULFILLED"],
    cancelled: ["cancelled", "CANCELLED"],
  },
  amazon: {
    placed: ["pending", "PENDING"],
    ready: ["processing", "UNSHIPPED"],
    partial: ["processing", "PARTIALLY_SHIPPED"],
    shipped: ["processing", "SHIPPED"],
    cancelled: ["cancelled", "CANCELLED"],
  },
  amazonV0: {
    placed: ["pending", "Pending"],
    ready: ["processing", "Unshipped"],
    partial: ["processing", "PartiallyShipped"],
    shipped: ["processing", "Shipped"],
    cancelled: ["cancelled", "Canceled"],
  },
  alibaba: {
    placed: ["pending", "unpay"],
    ready: ["processing", "undeliver"],
    partial: ["processing", "delivering"],
    shipped: ["processing", "wait_confirm_receipt"],
    cancelled: ["cancelled", "trade_close"],
  },
} as const;

const NO_ADDRESS = {
  name: null,
  line1: null,
  city: null,
  state: null,
  country: null,
  postalCode: null,
  latitude: null,
  longitude: null,
};

const expected = (kind: keyof typeof STATUS_WORDS, o: TEmuOrder, o2: { pii?: boolean } = {}): TStoreOrder => {
  const [status, storeStatus] = STATUS_WORDS[kind][o.status];
  const a = o.address;
  const shippable = o.status === "ready" || o.status === "partial" || o.status === "shipped";
  const pii = o2.pii ?? true;
  const shipping =
    kind === "shopify" || kind === "alibaba" || shippable
      ? {
          name: pii ? a.name : null,
          line1: pii ? a.line1 : null,
          city: a.city,
          state: a.state,
          country: a.country,
          postalCode: a.postalCode,
          latitude: kind === "shopify" ? a.latitude : null,
          longitude: kind === "shopify" ? a.longitude : null,
        }
      : NO_ADDRESS;
  return {
    externalOrderId: kind === "shopify" ? `gid://shopify/Order/${o.id}` : o.id,
    orderNumber: o.number,
    orderDate: o.createdAt,
    updatedAt: o.updatedAt,
    customerName: pii || kind !== "amazonV0" ? `${o.customer.firstName} ${o.customer.lastName}` : null,
    status,
    storeStatus,
    currency: o.currency,
    totalMinor: totalMinorOf(o),
    shipping,
    items:
      kind === "amazonV0"
        ? []
        : o.items.map((i) => ({
            title: i.title,
            quantity: i.quantity,
            sku: i.sku,
            unitWeightGrams: kind === "shopify" && i.sku ? emuGrams(i.weight) : null,
          })),
  };
};

const expectAll = (
  kind: keyof typeof STATUS_WORDS,
  got: TStoreOrder[],
  held: TEmuOrder[],
  o: { pii?: boolean } = {},
) => {
  const map = byId(got);
  expect(map.size).toBe(got.length);
  expect(got.length).toBe(held.length);
  for (const h of held) {
    const id = kind === "shopify" ? `gid://shopify/Order/${h.id}` : h.id;
    expect(map.get(id)).toEqual(expected(kind, h, o));
  }
};

const WRONG: Record<TStorePlatform, [Record<string, string>, string][]> = {
  shopify: [
    [{ clientSecret: "wrong" }, "Client authentication failed"],
    [{ clientId: "wrong" }, "Client authentication failed"],
  ],
  amazon: [
    [{ clientSecret: "wrong" }, "Client authentication failed"],
    [{ refreshToken: "wrong" }, "The request has an invalid grant parameter : refresh_token"],
  ],
  alibaba: [
    [{ appKey: "wrong" }, "The app key wrong does not exist (InvalidAppKey)"],
    [{ appSecret: "wrong" }, "The request signature does not conform to platform standards (IncompleteSignature)"],
    // A refused access token is renewed with the refresh token: only a refused refresh token is the end of it.
    [
      { accessToken: "wrong", refreshToken: "wrong" },
      "The specified refresh token is invalid or expired (IllegalRefreshToken)",
    ],
  ],
};

// Connection test ---------------------------------------------------------------------------------------------------

describe("connection test", () => {
  test.each(STORE_PLATFORMS)("%s: the sandbox credentials pass, and the address is a sandbox", async (p) => {
    const a = adapter(p);
    await a.test();
    expect(a.platform).toBe(p);
    expect(a.storeName).toBe(STORE_NAMES[p]);
    expect(a.sandbox).toBe(true);
  });

  test.each(STORE_PLATFORMS)(
    "%s: other credentials are refused, in the store's words, naming the integration",
    async (p) => {
      for (const [wrong, reason] of WRONG[p]) {
        const a = withCredentials(p, wrong);
        const err = await caught(a.test());
        expect(err.code).toBe("BAD_REQUEST");
        expect(err.message).toBe(`${nameOf(p)} refused the credentials: ${reason}`);
        // Listing fails the same way.
        expect((await caught(a.listOrders({ updatedSince: 0, cursor: null, pageSize: 10 }))).message).toBe(err.message);
      }
    },
  );

  test("Amazon: the test is a real LWA exchange and a one-order search", async () => {
    const a = adapter("amazon");
    await a.test();
    await a.test();
    expect(emu.controls.amazon.tokenCalls).toBe(2);
    expect(emu.controls.amazon.orderCalls).toBe(2);
  });

  test("Amazon: a marketplace the seller is not in is the request's fault, in Amazon's words", async () => {
    const err = await caught(withCredentials("amazon", { marketplaceId: "A1PA6795UKMFR9" }).test());
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe(
      `${nameOf("amazon")} rejected the request: Invalid marketplace identifier: A1PA6795UKMFR9`,
    );
  });

  test("Alibaba.com: the test is one signed one-order list call", async () => {
    await adapter("alibaba").test();
    expect(emu.controls.alibaba.orderCalls).toBe(1);
  });
});

// Listing orders ----------------------------------------------------------------------------------------------------

describe("listing orders", () => {
  test.each(STORE_PLATFORMS)("%s: paging reaches every order, each mapped from the store's own form", async (p) => {
    const held = emu.controls[p].orders();
    expect(held.length).toBe(60);
    const { orders, pages } = await allOrders(adapter(p), 0, 10);
    expect(pages).toBeGreaterThan(1);
    expectAll(p, orders, held);
  });

  test("Shopify: a page holds what one query may cost (9 orders with 20 line items each)", async () => {
    expect(SHOPIFY_ORDER_COST).toBe(106);
    expect(shopifyPageSize(50)).toBe(9);
    expect(shopifyPageSize(1)).toBe(1);
    // The emulator prices the adapter's query the way the adapter expects.
    expect(requestedCost(parseQuery(ORDERS_QUERY), { first: 9 })).toBe(2 + 9 * SHOPIFY_ORDER_COST);
    expect(requestedCost(parseQuery("{ shop { name } }"), {})).toBe(1);
    const { orders, pages } = await allOrders(adapter("shopify"), 0, 50);
    expect(orders.length).toBe(60);
    expect(pages).toBeGreaterThanOrEqual(Math.ceil(60 / 9));
    // Pages are sized to what the bucket holds: only a page asked when it held less than one order waits (the old way,
    // every page after the first was throttled once). One token serves them all.
    expect(emu.controls.shopify.tokenCalls).toBe(1);
    expect(emu.controls.shopify.calls - 1).toBeLessThan(pages + Math.ceil(pages / 4));
  });

  test("Shopify, Standard plan: a page the bucket cannot hold is asked again smaller, and later pages fit the bucket", async () => {
    const c = emu.controls.shopify;
    c.restoreRate = SHOPIFY_BUCKET.restoreRate;
    // Enough for three orders: the first, full page is throttled and asked again for three.
    c.setAvailable(2 + 3 * SHOPIFY_ORDER_COST + 10);
    const held = c.orders();
    const since = held.map((o) => o.updatedAt).sort((a, b) => b - a)[11];
    const { orders, pages } = await allOrders(adapter("shopify"), since, 50);
    expect(orders.length).toBe(held.filter((o) => o.updatedAt >= since).length);
    // Only the first page was throttled (once); every later page asked for what the bucket held.
    expect(c.calls - c.tokenCalls).toBe(pages + 1);
  });

  test.each(STORE_PLATFORMS)("%s: updatedSince returns exactly the orders changed at or after it", async (p) => {
    const held = emu.controls[p].orders();
    const times = held.map((o) => o.updatedAt).sort((a, b) => a - b);
    const since = times[Math.floor(times.length / 2)];
    const { orders } = await allOrders(adapter(p), since, 20);
    const want = held.filter((o) => o.updatedAt >= startOf(p, since));
    expect(want.length).toBeGreaterThan(20);
    expect(want.length).toBeLessThan(held.length);
    expectAll(p, orders, want);
  });

  test.each(STORE_PLATFORMS)("%s: changed, new and deleted orders show on the next sync", async (p) => {
    const a = adapter(p);
    const c = emu.controls[p];
    const before = Date.now() - 1000;
    const untouched = c.orders().filter((o) => o.updatedAt >= startOf(p, before));
    expect((await allOrders(a, before)).orders.map((o) => o.orderNumber)).toEqual(untouched.map((o) => o.number));
    const [first, second] = c.orders();
    c.update(first.id, { status: "cancelled" });
    const added = c.add({ status: "ready" });
    c.remove(second.id);
    const { orders } = await allOrders(a, before);
    // (Alibaba.com's overlap may reach seeded orders changed just before midnight, when the test runs just after.)
    const others = untouched.filter((o) => o.id !== first.id && o.id !== second.id).map((o) => o.number);
    expect(orders.map((o) => o.orderNumber).sort()).toEqual([first.number, added.number, ...others].sort());
    const changed = orders.find((o) => o.orderNumber === first.number)!;
    expect(changed.status).toBe("cancelled");
    expect(changed.updatedAt).toBeGreaterThanOrEqual(before);
    expect((await allOrders(a)).orders.length).toBe(60);
  });

  test("Shopify: coordinates where the store has them, none where it has not; weights in grams", async () => {
    const { orders } = await allOrders(adapter("shopify"));
    expect(orders.filter((o) => o.shipping.latitude !== null).length).toBeGreaterThan(10);
    expect(orders.filter((o) => o.shipping.latitude === null).length).toBeGreaterThan(10);
    for (const o of orders) expect(o.shipping.latitude === null).toBe(o.shipping.longitude === null);
    // Places no geocoder knows come through as given: the domain cannot place them.
    const unknown = orders.filter((o) => o.shipping.city === "Smallville");
    expect(unknown.length).toBe(3);
    for (const o of unknown) expect(o.shipping).toMatchObject({ country: "ZZ", latitude: null, postalCode: null });
    const items = orders.flatMap((o) => o.items);
    const grams = (title: string) => items.find((i) => i.title === title)?.unitWeightGrams;
    expect(grams("Hand truck")).toBe(18144); // 40 lb
    expect(grams("Spice sampler (berbere, mitmita)")).toBe(340); // 12 oz
    expect(grams("Coffee beans, green, 60 kg sack")).toBe(60000);
    expect(grams("Leather travel bag")).toBe(850);
    expect(grams("Office chair")).toBeNull(); // weight 0: not set
    expect(grams("Handwoven gabi blanket")).toBeNull(); // custom item, no variant
    // Money in minor units of each order's currency.
    expect(new Set(orders.map((o) => o.currency))).toEqual(new Set(["USD", "EUR", "ETB"]));
    for (const o of orders) expect(Number.isInteger(o.totalMinor) && o.totalMinor > 0).toBe(true);
  });

  test("Amazon: no coordinates, and no address until an order can ship", async () => {
    const { orders } = await allOrders(adapter("amazon"));
    expect(orders.every((o) => o.shipping.latitude === null)).toBe(true);
    for (const o of orders)
      expect(o.shipping.city === null).toBe(o.storeStatus === "PENDING" || o.storeStatus === "CANCELLED");
    expect(orders.filter((o) => o.shipping.city === "Smallville").length).toBe(3);
  });

  test("updatedSince 0: Amazon reads the last 30 days, the others their own default window", async () => {
    const long = Date.now() - 40 * 86_400_000;
    for (const p of STORE_PLATFORMS) emu.controls[p].add({ createdAt: long, updatedAt: long });
    expect((await allOrders(adapter("amazon"))).orders.length).toBe(60);
    expect((await allOrders(adapter("shopify"))).orders.length).toBe(61);
    expect((await allOrders(adapter("alibaba"))).orders.length).toBe(61);
  });
});

// Shopify throttling ------------------------------------------------------------------------------------------------

describe("Shopify cost throttling", () => {
  const page = (a: TStoreAdapter) => a.listOrders({ updatedSince: 0, cursor: null, pageSize: 50 });
  const requested = 2 + shopifyPageSize(50) * SHOPIFY_ORDER_COST;
  beforeEach(() => {
    emu.controls.shopify.restoreRate = SHOPIFY_BUCKET.restoreRate;
  });

  test("a short wait is sat out and the query sent again", async () => {
    const c = emu.controls.shopify;
    // 40 points short: 0.8 s at 50 points a second.
    c.setAvailable(requested - 40);
    const started = Date.now();
    const result = await page(adapter("shopify"));
    expect(result.orders.length).toBe(shopifyPageSize(50));
    expect(Date.now() - started).toBeGreaterThanOrEqual(750);
    // The token, then the query twice.
    expect([c.tokenCalls, c.calls]).toEqual([1, 3]);
  });

  test("a long wait is TOO_MANY_REQUESTS with the seconds the bucket needs", async () => {
    const c = emu.controls.shopify;
    c.setAvailable(0);
    const err = await caught(page(adapter("shopify")));
    expect(err.code).toBe("TOO_MANY_REQUESTS");
    const seconds = Math.ceil(requested / SHOPIFY_BUCKET.restoreRate);
    expect(err.retryAfterSeconds).toBe(seconds);
    expect(err.message).toBe(`${nameOf("shopify")} is limiting requests; try again in ${seconds} s`);
    expect([c.tokenCalls, c.calls]).toEqual([1, 2]);
  });

  test("the emulator refuses a query over 1000 points and fields Shopify does not have", async () => {
    const post = (query: string, variables: Record<string, unknown> = {}) =>
      fetch(`${emu.urls.shopify}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": "sandbox" },
        body: JSON.stringify({ query, variables }),
      }).then((r) => r.json() as Promise<{ errors?: { message: string; extensions?: { code?: string } }[] }>);
    const costly = await post(ORDERS_QUERY, { first: 10 });
    expect(costly.errors?.[0].extensions?.code).toBe("MAX_COST_EXCEEDED");
    const wrong = await post("{ shop { nam } }");
    expect(wrong.errors?.[0].message).toBe("Field 'nam' doesn't exist on type 'Shop'");
  });
});

// Shopify webhooks --------------------------------------------------------------------------------------------------

describe("Shopify webhooks", () => {
  const receiver = (a: TStoreAdapter) =>
    Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => {
        try {
          return Response.json(a.verifyWebhook!(await req.text(), req.headers));
        } catch (err) {
          const e = err as AppError;
          return Response.json({ code: e.code, message: e.message }, { status: e.code === "UNAUTHORIZED" ? 401 : 400 });
        }
      },
    });

  test("a signed delivery is verified and gives the same order as the sync", async () => {
    const a = adapter("shopify");
    const server = receiver(a);
    try {
      const { orders } = await allOrders(a);
      for (const o of emu.controls.shopify.orders().slice(0, 8)) {
        const res = await emu.controls.shopify.deliverWebhook(`http://127.0.0.1:${server.port}/`, "orders/updated", o);
        expect(res.status).toBe(200);
        const body = (await res.json()) as { topic: string; webhookId: string | null; order: TStoreOrder };
        expect(body.topic).toBe("orders/updated");
        expect(body.webhookId).toMatch(/^[0-9a-f-]{36}$/);
        expect(body.order).toEqual(byId(orders).get(`gid://shopify/Order/${o.id}`)!);
      }
    } finally {
      server.stop(true);
    }
  });

  test("a delivery signed with another secret is refused", async () => {
    const a = adapter("shopify");
    const server = receiver(a);
    try {
      const o = emu.controls.shopify.orders()[0];
      const res = await emu.controls.shopify.deliverWebhook(
        `http://127.0.0.1:${server.port}/`,
        "orders/create",
        o,
        "not-the-secret",
      );
      expect(res.status).toBe(401);
      expect(((await res.json()) as { message: string }).message).toBe(
        `${nameOf("shopify")}: the webhook could not be verified: the signature does not match the body`,
      );
    } finally {
      server.stop(true);
    }
  });

  test("a changed body, a missing signature or a missing secret is refused", async () => {
    const a = adapter("shopify");
    const o = emu.controls.shopify.orders()[0];
    const w = signedWebhook("orders/create", o, "sandbox");
    const headers = new Headers(w.headers);
    expect(a.verifyWebhook!(w.body, headers).order.externalOrderId).toBe(`gid://shopify/Order/${o.id}`);
    const changed = w.body.replace(/"total_price":"[^"]+"/, '"total_price":"0.01"');
    expect(changed).not.toBe(w.body);
    const err = await caught(() => a.verifyWebhook!(changed, headers));
    expect(err.code).toBe("UNAUTHORIZED");
    expect(err.message).toContain("the signature does not match the body");
    const unsigned = new Headers(w.headers);
    unsigned.delete("X-Shopify-Hmac-Sha256");
    expect((await caught(() => a.verifyWebhook!(w.body, unsigned))).message).toBe(
      `${nameOf("shopify")}: the webhook could not be verified: the X-Shopify-Hmac-Sha256 header is missing`,
    );
    // A legacy custom app without its webhook secret.
    const noSecret = adapter("shopify", { credentials: { shopDomain: "sandbox", accessToken: "sandbox" } });
    expect((await caught(() => noSecret.verifyWebhook!(w.body, headers))).message).toBe(
      `${nameOf("shopify")}: the webhook could not be verified: no webhook secret is set for this integration`,
    );
    // Signed right, but not an order.
    const junk = signedWebhook("orders/create", o, "sandbox");
    const { createHmac } = await import("node:crypto");
    const body = JSON.stringify({ hello: "world" });
    const h = new Headers(junk.headers);
    h.set("X-Shopify-Hmac-Sha256", createHmac("sha256", "sandbox").update(body).digest("base64"));
    const unreadable = await caught(() => a.verifyWebhook!(body, h));
    expect(unreadable.code).toBe("BAD_REQUEST");
  });

  test("the key is a Dev Dashboard app's client secret, a legacy app's webhook secret, or the one named", async () => {
    const o = emu.controls.shopify.orders()[0];
    const byClient = signedWebhook("orders/create", o, "the-client-secret");
    const byLegacy = signedWebhook("orders/create", o, "the-api-secret-key");
    const byAdmin = signedWebhook("orders/create", o, "the-notifications-key");
    const verifies = async (credentials: Record<string, string>, w: ReturnType<typeof signedWebhook>) => {
      const a = adapter("shopify", { credentials: { shopDomain: "sandbox", ...credentials } });
      try {
        return a.verifyWebhook!(w.body, new Headers(w.headers)).order.externalOrderId === `gid://shopify/Order/${o.id}`;
      } catch (err) {
        if (err instanceof AppError && err.code === "UNAUTHORIZED") return false;
        throw err;
      }
    };
    const devApp = { clientId: "id", clientSecret: "the-client-secret" };
    expect(await verifies(devApp, byClient)).toBe(true);
    expect(await verifies(devApp, byLegacy)).toBe(false);
    expect(await verifies({ ...devApp, webhookSecret: "the-notifications-key" }, byAdmin)).toBe(true);
    expect(await verifies({ ...devApp, webhookSecret: "the-notifications-key" }, byClient)).toBe(false);
    const legacyApp = { accessToken: "shpat_x", webhookSecret: "the-api-secret-key" };
    expect(await verifies(legacyApp, byLegacy)).toBe(true);
    expect(await verifies(legacyApp, byClient)).toBe(false);
  });

  test("Amazon and Alibaba.com have no webhooks", () => {
    expect(adapter("amazon").verifyWebhook).toBeNull();
    expect(adapter("alibaba").verifyWebhook).toBeNull();
  });
});

// Amazon tokens, limits and the v0 fallback -------------------------------------------------------------------------

describe("Amazon", () => {
  const first = (a: TStoreAdapter) => a.listOrders({ updatedSince: 0, cursor: null, pageSize: 10 });

  test("one LWA token serves many calls; an expired one is exchanged again, once", async () => {
    const c = emu.controls.amazon;
    const a = adapter("amazon");
    await first(a);
    await first(a);
    expect(c.tokenCalls).toBe(1);
    c.expireTokens();
    const page = await first(a);
    expect(page.orders.length).toBe(10);
    expect(c.tokenCalls).toBe(2);
    // searchOrders: 2 before, then the refused call and its retry.
    expect(c.orderCalls).toBe(4);
  });

  test("past the usage plan's burst: TOO_MANY_REQUESTS, 1 / rate seconds from x-amzn-RateLimit-Limit", async () => {
    const c = emu.controls.amazon;
    c.usagePlans.searchOrders = { rate: 0.5, burst: 2 };
    const a = adapter("amazon");
    await first(a);
    await first(a);
    const err = await caught(first(a));
    expect(err.code).toBe("TOO_MANY_REQUESTS");
    expect(err.retryAfterSeconds).toBe(2);
    expect(err.message).toBe(`${nameOf("amazon")} is limiting requests; try again in 2 s`);
    // A 429 without the header: the last rate seen for the operation…
    c.rateLimit = true;
    expect((await caught(first(a))).retryAfterSeconds).toBe(2);
    // …or, for a new adapter, Amazon's documented default (0.0056 req/s).
    expect((await caught(first(adapter("amazon")))).retryAfterSeconds).toBe(179);
  });

  test("where v2026 is not offered, v0 getOrders with a Restricted Data Token gives the same orders", async () => {
    const c = emu.controls.amazon;
    const a = adapter("amazon");
    const v2026 = await allOrders(a, 0, 25);
    c.v2026Available = false;
    const b = adapter("amazon");
    const v0 = await allOrders(b, 0, 25);
    expect(v0.cursors.every((x) => x.startsWith("v0:"))).toBe(true);
    expectAll("amazonV0", v0.orders, c.orders());
    // The same orders either way, but for the status words and the items v0 lists do not carry.
    const strip = (o: TStoreOrder) => ({ ...o, storeStatus: "", items: [] });
    expect(v0.orders.map(strip).sort((x, y) => x.orderNumber.localeCompare(y.orderNumber))).toEqual(
      v2026.orders.map(strip).sort((x, y) => x.orderNumber.localeCompare(y.orderNumber)),
    );
    // One RDT for all pages; after the first 404 the adapter goes to v0 directly.
    expect(c.rdtCalls).toBe(1);
    const calls = c.orderCalls;
    await first(b);
    expect(c.orderCalls).toBe(calls + 1);
    // Expired tokens: the RDT is refused, and so is the request for a new one (the LWA token expired too); one LWA
    // exchange and one new RDT later the page comes.
    const tokens = c.tokenCalls;
    c.expireTokens();
    expect((await first(b)).orders.length).toBe(10);
    expect(c.rdtCalls).toBe(2);
    expect(c.tokenCalls).toBe(tokens + 3);
    await b.test();
  });

  test("without the restricted role, v0 orders come without names and address lines", async () => {
    const c = emu.controls.amazon;
    c.v2026Available = false;
    c.rdtAllowed = false;
    const { orders } = await allOrders(adapter("amazon"), 0, 100);
    expectAll("amazonV0", orders, c.orders(), { pii: false });
  });

  test("the LWA token endpoint is the base URL's for an emulator, api.amazon.com for Amazon's hosts", () => {
    expect(defaultStoreBaseUrl("amazon", { region: "eu" })).toBe(AMAZON_HOSTS.eu);
    expect(defaultStoreBaseUrl("amazon", { region: "FE" })).toBe(AMAZON_HOSTS.fe);
    expect(defaultStoreBaseUrl("amazon", { region: "na" })).toBe(AMAZON_HOSTS.na);
    expect(defaultStoreBaseUrl("amazon", {})).toBe(AMAZON_HOSTS.na);
  });
});

// Alibaba.com signing ----------------------------------------------------------------------------------------------

describe("Alibaba.com signing", () => {
  const PARAMS = {
    app_key: "12345678",
    access_token: "test-token",
    sign_method: "sha256",
    timestamp: "1517820392000",
    role: "seller",
    start_page: "0",
    page_size: "20",
  };
  // HMAC-SHA256("helloworld", "/alibaba/order/list" + "access_tokentest-tokenapp_key12345678page_size20…"), computed
  // independently (Python's hmac).
  const PINNED = "0A6F8E7786D4EC38BE15ADA13C188BEC21E1D3F782C1F7313A358FD70C3DFD5E";

  test("a known parameter set gives a known signature, in the adapter and in the emulator", () => {
    expect(alibabaSign("/alibaba/order/list", PARAMS, "helloworld")).toBe(PINNED);
    expect(alibabaSignature("/alibaba/order/list", PARAMS, "helloworld")).toBe(PINNED);
    // `sign` itself is left out; the order the parameters come in does not matter.
    const shuffled = Object.fromEntries(Object.entries({ sign: "X", ...PARAMS }).reverse());
    expect(alibabaSign("/alibaba/order/list", shuffled, "helloworld")).toBe(PINNED);
  });

  test("the system parameters", () => {
    const p = alibabaSignedParams("/alibaba/order/list", { role: "seller" }, ALIBABA_SANDBOX, 1517820392000);
    expect(p).toMatchObject({
      role: "seller",
      app_key: "sandbox",
      sign_method: "sha256",
      timestamp: "1517820392000",
      access_token: "sandbox",
    });
    const { sign, ...rest } = p;
    expect(sign).toBe(alibabaSign("/alibaba/order/list", rest, "sandbox"));
    expect(sign).toMatch(/^[0-9A-F]{64}$/);
  });

  test("the emulator refuses a wrong signature, a changed parameter and a stale timestamp", async () => {
    const c = emu.controls.alibaba;
    const post = (params: Record<string, string>) =>
      fetch(`${emu.urls.alibaba}/alibaba/order/list`, { method: "POST", body: new URLSearchParams(params) }).then(
        (r) => r.json() as Promise<{ code?: string; error_response?: { code: string; msg: string } }>,
      );
    const good = alibabaSignedParams("/alibaba/order/list", { role: "seller", page_size: "5" }, ALIBABA_SANDBOX);
    expect((await post(good)).code).toBe("0");
    const wrongSecret = alibabaSignedParams(
      "/alibaba/order/list",
      { role: "seller" },
      { ...ALIBABA_SANDBOX, appSecret: "x" },
    );
    expect((await post(wrongSecret)).error_response?.code).toBe("IncompleteSignature");
    expect((await post({ ...good, page_size: "50" })).error_response?.code).toBe("IncompleteSignature");
    expect(c.badSignatures).toBe(2);
    const stale = alibabaSignedParams(
      "/alibaba/order/list",
      { role: "seller" },
      ALIBABA_SANDBOX,
      Date.now() - 3_600_000,
    );
    expect((await post(stale)).error_response?.code).toBe("InvalidTimestamp");
  });

  test("the list lacks addresses: each listed order is read in detail", async () => {
    const c = emu.controls.alibaba;
    const page = await adapter("alibaba").listOrders({ updatedSince: 0, cursor: null, pageSize: 10 });
    expect(page.orders.length).toBe(10);
    expect(page.cursor).toBe("1");
    expect(c.orderCalls).toBe(11);
    expect(page.orders.every((o) => o.shipping.city !== null && o.totalMinor > 0)).toBe(true);
  });

  test("an expired session whose refresh token is refused too is refused as the credentials", async () => {
    emu.controls.alibaba.expireTokens();
    const err = await caught(withCredentials("alibaba", { refreshToken: "not-the-seller's" }).test());
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe(
      `${nameOf("alibaba")} refused the credentials: The specified refresh token is invalid or expired (IllegalRefreshToken)`,
    );
    expect(emu.controls.alibaba.refreshes).toBe(0);
  });
});

// Shopify apps, tokens and scopes -------------------------------------------------------------------------------------

describe("Shopify: Dev Dashboard apps get expiring tokens, legacy custom apps keep theirs", () => {
  const list = (a: TStoreAdapter) => a.listOrders({ updatedSince: 0, cursor: null, pageSize: 5 });
  const grantAt = (body: string, type = "application/x-www-form-urlencoded") =>
    fetch(`${emu.urls.shopify}/admin/oauth/access_token`, { method: "POST", headers: { "Content-Type": type }, body });

  test("the emulator answers the client-credentials grant as Shopify does", async () => {
    const form = await grantAt("grant_type=client_credentials&client_id=sandbox&client_secret=sandbox");
    expect(form.status).toBe(200);
    const token = (await form.json()) as Record<string, unknown>;
    expect(Object.keys(token).sort()).toEqual(["access_token", "expires_in", "scope"]);
    expect(token.access_token).toMatch(/^shpat_[0-9a-f]{32}$/);
    expect(token).toMatchObject({ scope: "read_orders,read_products", expires_in: SHOPIFY_TOKEN_LIFETIME_SECONDS });
    // JSON, as Shopify's own client sends it, works too; a wrong secret is Shopify's OAuth refusal.
    const json = await grantAt(
      JSON.stringify({ grant_type: "client_credentials", client_id: "sandbox", client_secret: "sandbox" }),
      "application/json",
    );
    expect(json.status).toBe(200);
    const wrong = await grantAt("grant_type=client_credentials&client_id=sandbox&client_secret=nope");
    expect(wrong.status).toBe(400);
    expect(await wrong.json()).toEqual({ error: "invalid_client", error_description: "Client authentication failed" });
  });

  test("made with a client secret (demo mode's own), the emulator has a demo app that takes only it and signs webhooks with it; the published app stays", async () => {
    const own = "installation-own-secret-0123456789abcdef";
    const demo = startStoreEmulators({}, { shopifyClientSecret: own });
    try {
      const grant = (id: string, secret: string) =>
        fetch(`${demo.urls.shopify}/admin/oauth/access_token`, {
          method: "POST",
          headers: { "Content-Type": "application/x-www-form-urlencoded" },
          body: `grant_type=client_credentials&client_id=${id}&client_secret=${secret}`,
        });
      expect((await grant(SHOPIFY_DEMO_CLIENT_ID, own)).status).toBe(200);
      for (const [id, secret] of [
        [SHOPIFY_DEMO_CLIENT_ID, "sandbox"],
        ["sandbox", own],
      ] as const)
        expect(await (await grant(id, secret)).json()).toEqual({
          error: "invalid_client",
          error_description: "Client authentication failed",
        });
      // Anyone may still try the Sandbox with the published app (a store they add gets a webhook secret of its own).
      expect((await grant("sandbox", "sandbox")).status).toBe(200);
      const credentials = { shopDomain: "sandbox", clientId: SHOPIFY_DEMO_CLIENT_ID, clientSecret: own };
      const a = adapter("shopify", {
        baseUrl: demo.urls.shopify,
        credentials,
        sandboxOrigins: Object.values(demo.urls),
      });
      await a.test();
      const o = demo.controls.shopify.orders()[0]!;
      let signature = null as string | null;
      const server = Bun.serve({
        port: 0,
        hostname: "127.0.0.1",
        fetch: async (req) => {
          signature = req.headers.get("x-shopify-hmac-sha256");
          a.verifyWebhook!(await req.text(), req.headers);
          return new Response("ok");
        },
      });
      try {
        expect(
          (await demo.controls.shopify.deliverWebhook(`http://127.0.0.1:${server.port}/`, "orders/create", o)).status,
        ).toBe(200);
      } finally {
        server.stop(true);
      }
      expect(signature).toBe(signedWebhook("orders/create", o, own).headers["X-Shopify-Hmac-Sha256"]);
      expect(signature).not.toBe(signedWebhook("orders/create", o, "sandbox").headers["X-Shopify-Hmac-Sha256"]);
    } finally {
      demo.stop();
    }
  });

  test("one token serves every call while it lives; one Shopify refuses is asked for again, once", async () => {
    const c = emu.controls.shopify;
    const a = adapter("shopify");
    await a.test();
    await list(a);
    await list(a);
    expect(c.tokenCalls).toBe(1);
    // Expired early (the app reinstalled): the 401, a new grant, the same call again.
    c.expireTokens();
    expect((await list(a)).orders.length).toBe(5);
    expect(c.tokenCalls).toBe(2);
    expect(c.calls).toBe(1 + 3 + 1 + 2);
  });

  test("a token is asked for again shortly before it expires, not after Shopify refuses it", async () => {
    const c = emu.controls.shopify;
    const a = adapter("shopify");
    const start = Date.now();
    await list(a);
    // Four minutes before it expires (the margin is five): still good at Shopify, but no longer used.
    setSystemTime(new Date(start + SHOPIFY_TOKEN_LIFETIME_SECONDS * 1000 - 4 * 60_000));
    const calls = c.calls;
    await list(a);
    expect(c.tokenCalls).toBe(2);
    expect(c.calls).toBe(calls + 2);
    expect(shopifyTokenMargin(SHOPIFY_TOKEN_LIFETIME_SECONDS * 1000)).toBe(5 * 60_000);
    expect(shopifyTokenMargin(60_000)).toBe(6_000);
  });

  test("a new token Shopify refuses as well is the credentials, after one more grant", async () => {
    const c = emu.controls.shopify;
    // Tokens that are dead on arrival.
    c.tokenLifetimeSeconds = 0;
    const err = await caught(list(adapter("shopify")));
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe(
      `${nameOf("shopify")} refused the credentials: [API] Invalid API key or access token (unrecognized login or wrong password)`,
    );
    expect(c.tokenCalls).toBe(2);
    expect(c.calls).toBe(4);
  });

  test("a legacy custom app's Admin API token is used as it is, and does not expire", async () => {
    const c = emu.controls.shopify;
    const a = adapter("shopify", { credentials: { ...SHOPIFY_SANDBOX_LEGACY } });
    await a.test();
    c.expireTokens();
    const { orders } = await allOrders(a, 0, 20);
    expectAll("shopify", orders, c.orders());
    expect(c.tokenCalls).toBe(0);
    const wrong = adapter("shopify", { credentials: { ...SHOPIFY_SANDBOX_LEGACY, accessToken: "shpat_wrong" } });
    expect((await caught(wrong.test())).message).toBe(
      `${nameOf("shopify")} refused the credentials: [API] Invalid API key or access token (unrecognized login or wrong password)`,
    );
  });
});

describe("Shopify: the app needs read_orders and read_products, nothing more", () => {
  type TGql = { data?: Record<string, unknown> | null; errors?: Record<string, unknown>[] };
  const token = async () => {
    const res = await fetch(`${emu.urls.shopify}/admin/oauth/access_token`, {
      method: "POST",
      body: new URLSearchParams({ grant_type: "client_credentials", client_id: "sandbox", client_secret: "sandbox" }),
    });
    return ((await res.json()) as { access_token: string; scope: string }).access_token;
  };
  const post = async (accessToken: string, query: string) =>
    (await fetch(`${emu.urls.shopify}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Shopify-Access-Token": accessToken },
      body: JSON.stringify({ query }),
    }).then((r) => r.json())) as TGql;

  test("the emulator refuses a field the token's scopes do not reach, in Shopify's words, and leaves it null", async () => {
    const answer = await post(await token(), "{ orders(first: 1) { nodes { name customer { displayName } } } }");
    expect(answer.errors).toEqual([
      {
        message: "Access denied for customer field. Required access: `read_customers` access scope.",
        path: ["orders", "nodes", 0, "customer"],
        extensions: {
          code: "ACCESS_DENIED",
          documentation: "https://shopify.dev/api/usage/access-scopes",
          requiredAccess: "`read_customers` access scope.",
        },
      },
    ]);
    const nodes = (answer.data as { orders: { nodes: { name: string; customer: unknown }[] } }).orders.nodes;
    expect(nodes[0].name).toMatch(/^#\d+$/);
    expect(nodes[0].customer).toBeNull();
    // The scopes are those the app had when its token was granted.
    emu.controls.shopify.appScopes = ["read_orders", "read_customers"];
    const later = await post(await token(), "{ orders(first: 1) { nodes { customer { displayName } } } }");
    expect(later.errors).toBeUndefined();
    const installed = await post(await token(), "{ currentAppInstallation { accessScopes { handle } } }");
    expect(installed.data).toEqual({
      currentAppInstallation: { accessScopes: [{ handle: "read_orders" }, { handle: "read_customers" }] },
    });
  });

  test("with read_orders and read_products every order reads in full", async () => {
    expect(emu.controls.shopify.appScopes).toEqual(["read_orders", "read_products"]);
    const a = adapter("shopify");
    await a.test();
    const { orders } = await allOrders(a, 0, 50);
    expectAll("shopify", orders, emu.controls.shopify.orders());
  });

  test("without read_products the sync and the connection test say which scope is missing", async () => {
    emu.controls.shopify.appScopes = ["read_orders"];
    const a = adapter("shopify");
    const err = await caught(a.listOrders({ updatedSince: 0, cursor: null, pageSize: 5 }));
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe(
      `${nameOf("shopify")} refused access: Access denied for variant field. Required access: \`read_products\` access scope; the app needs the access scopes read_orders, read_products`,
    );
    const tested = await caught(adapter("shopify").test());
    expect(tested.code).toBe("BAD_REQUEST");
    expect(tested.message).toBe(
      `${nameOf("shopify")}: the app does not have the access scopes read_products; it needs read_orders, read_products`,
    );
    // A write_ scope includes its read_ one.
    emu.controls.shopify.appScopes = ["write_orders", "write_products"];
    await adapter("shopify").test();
    emu.controls.shopify.legacyScopes = [];
    const legacy = adapter("shopify", { credentials: { ...SHOPIFY_SANDBOX_LEGACY } });
    expect((await caught(legacy.test())).message).toBe(
      `${nameOf("shopify")}: the app does not have the access scopes read_orders, read_products; it needs read_orders, read_products`,
    );
  });

  test("orders older than 60 days need read_all_orders", async () => {
    const c = emu.controls.shopify;
    const old = c.add({ createdAt: Date.now() - 70 * 86_400_000, updatedAt: Date.now() - 70 * 86_400_000 });
    const numbers = async () => (await allOrders(adapter("shopify"), 0, 50)).orders.map((o) => o.orderNumber);
    expect(await numbers()).not.toContain(old.number);
    c.appScopes = ["read_orders", "read_products", "read_all_orders"];
    expect(await numbers()).toContain(old.number);
  });
});

describe("Shopify: the pinned API version and its support window", () => {
  test("a version is supported 12 months from its release; the start warns 3 months before that ends", () => {
    expect(shopifyVersionEnd("2026-01")).toBe(Date.UTC(2027, 0, 1));
    expect(shopifyVersionEnd("2025-10")).toBe(Date.UTC(2026, 9, 1));
    expect(shopifyVersionEnd("unstable")).toBeNull();
    expect(shopifyVersionEnd("2026-02")).toBeNull();
    expect(shopifyVersionWarning("2026-01", Date.UTC(2026, 8, 30, 23, 59))).toBeNull();
    expect(shopifyVersionWarning("2026-01", Date.UTC(2026, 9, 1))).toBe(
      "Shopify Admin API version 2026-01 is supported until 2027-01-01 at the least: move SHOPIFY_API_VERSION to a newer version before then",
    );
    expect(shopifyVersionWarning("2026-01", Date.UTC(2027, 0, 2))).toBe(
      "Shopify Admin API version 2026-01 may no longer be supported since 2027-01-01 (Shopify then answers with its oldest supported version): move SHOPIFY_API_VERSION to a newer version",
    );
    expect(shopifyVersionWarning("2025-10", Date.UTC(2026, 6, 1))).toContain("supported until 2026-10-01");
    expect(shopifyVersionWarning("unstable", Date.UTC(2026, 0, 1))).toBe(
      "Shopify Admin API version unstable is not a stable version (YYYY-MM of a quarter)",
    );
    // The pinned version is a stable one.
    expect(shopifyVersionEnd(SHOPIFY_API_VERSION)).not.toBeNull();
  });
});

// Alibaba.com dates and tokens --------------------------------------------------------------------------------------

describe("Alibaba.com: dates without a guessed time zone", () => {
  test("the emulator dates things in US Pacific time, as the gateway's answers do", () => {
    expect(dateOf(1754021376000)).toEqual({ format_date: "Jul. 31, 2025, 21:09:36 PDT.", timestamp: "1754021376000" });
    expect(dateOf(Date.UTC(2025, 11, 10, 8, 0, 0)).format_date).toBe("Dec. 10, 2025, 00:00:00 PST.");
    expect(fromPacific("2025-07-31 21:09:36")).toBe(1754021376000);
    expect(fromPacific("2025-12-10 00:00:00")).toBe(Date.UTC(2025, 11, 10, 8));
    const o = emu.controls.alibaba.orders()[0];
    expect(alibabaListEntry(o).modify_date).toEqual(dateOf(o.updatedAt));
  });

  test("the list filters by epoch milliseconds, from a little before the cursor", async () => {
    const c = emu.controls.alibaba;
    const since = Date.now() - 60_000;
    // Changed a minute and a half ago, and now: both are in (the first within the overlap), however the zones lie.
    const earlier = c.add({ status: "ready", updatedAt: since - 30_000 });
    const fresh = c.add({ status: "ready" });
    const { orders } = await allOrders(adapter("alibaba"), since, 50);
    expect(orders.map((o) => o.orderNumber).sort()).toEqual([earlier.number, fresh.number].sort());
    expect(c.lastFilter.modifiedFrom).toBe(since - ALIBABA_OVERLAP_MS);
    expect(alibabaDate(since)).toBe(JSON.stringify({ date_timestamp: String(since) }));
  });
});

describe("Alibaba.com: the seller's access token expires and is renewed with the refresh token", () => {
  /** A store for renewed tokens, as the domain keeps them (beside the other credentials). */
  const memoryStore = (initial: Record<string, string>) => {
    let saved: Record<string, string> = { ...initial };
    const saves: Record<string, string>[] = [];
    return {
      saves,
      current: () => saved,
      store: {
        load: async () => ({ ...saved }),
        save: async (credentials: Record<string, string>) => {
          saved = { ...credentials };
          saves.push(saved);
        },
      },
    };
  };
  const list = (a: TStoreAdapter) => a.listOrders({ updatedSince: 0, cursor: null, pageSize: 2 });

  test("a refused access token is renewed once, and the new pair is stored back", async () => {
    const c = emu.controls.alibaba;
    const kept = memoryStore({ ...ALIBABA_SANDBOX });
    const a = adapter("alibaba", { credentialStore: kept.store });
    await list(a);
    expect(kept.saves).toEqual([]);
    c.expireTokens();
    const before = Date.now();
    expect((await list(a)).orders.length).toBe(2);
    expect(c.refreshes).toBe(1);
    expect(kept.saves.length).toBe(1);
    const saved = kept.current();
    expect(saved.accessToken).not.toBe(ALIBABA_SANDBOX.accessToken);
    expect(saved.refreshToken).not.toBe(ALIBABA_SANDBOX.refreshToken);
    expect({ appKey: saved.appKey, appSecret: saved.appSecret }).toEqual({ appKey: "sandbox", appSecret: "sandbox" });
    const expiresAt = Number(saved.accessTokenExpiresAt);
    expect(expiresAt).toBeGreaterThanOrEqual(before + ALIBABA_TOKEN_LIFETIME_SECONDS * 1000);
    expect(expiresAt).toBeLessThanOrEqual(Date.now() + ALIBABA_TOKEN_LIFETIME_SECONDS * 1000);
    // An adapter made from what was stored (after a restart) uses the new access token, and its refresh token (the
    // used one is gone) when that one expires too.
    const b = adapter("alibaba", { credentials: saved, credentialStore: memoryStore(saved).store });
    await list(b);
    expect(c.refreshes).toBe(1);
    c.expireTokens();
    await list(b);
    expect(c.refreshes).toBe(2);
    const reused = adapter("alibaba", {
      credentials: { ...saved, accessToken: "expired" },
      credentialStore: memoryStore({ ...saved, accessToken: "expired" }).store,
    });
    expect((await caught(list(reused))).message).toBe(
      `${nameOf("alibaba")} refused the credentials: The specified refresh token is invalid or expired (IllegalRefreshToken)`,
    );
  });

  test("a token known to expire soon is renewed before it is used, not after the gateway refuses it", async () => {
    const c = emu.controls.alibaba;
    const kept = memoryStore({ ...ALIBABA_SANDBOX });
    const a = adapter("alibaba", { credentialStore: kept.store });
    c.expireTokens();
    await list(a);
    const expiresAt = Number(kept.current().accessTokenExpiresAt);
    // Twenty minutes before the renewed token expires (the margin is thirty): still good at the gateway.
    setSystemTime(new Date(expiresAt - 20 * 60_000));
    const orderCalls = c.orderCalls;
    await list(a);
    expect(c.refreshes).toBe(2);
    // One list and its two details: nothing refused.
    expect(c.orderCalls).toBe(orderCalls + 3);
  });

  test("a pair another process renewed and stored is taken instead of renewing again", async () => {
    const c = emu.controls.alibaba;
    const kept = memoryStore({ ...ALIBABA_SANDBOX });
    const web = adapter("alibaba", { credentialStore: kept.store });
    const worker = adapter("alibaba", { credentialStore: kept.store });
    c.expireTokens();
    await list(web);
    await list(worker);
    expect(c.refreshes).toBe(1);
    expect(kept.saves.length).toBe(1);
  });
});

// Failures ----------------------------------------------------------------------------------------------------------

describe("when the store fails", () => {
  const list = (a: TStoreAdapter) => a.listOrders({ updatedSince: 0, cursor: null, pageSize: 10 });

  test.each(STORE_PLATFORMS)("%s: an outage is an error naming the integration", async (p) => {
    emu.controls[p].outage = true;
    const err = await caught(list(adapter(p)));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toStartWith(`${nameOf(p)} failed: `);
    expect(err.message).toContain("503");
  });

  test.each([
    ["shopify", 2],
    ["amazon", 179],
    ["alibaba", 30],
  ] as const)("%s: the store's rate limit is passed on with the seconds to wait", async (p, seconds) => {
    emu.controls[p].rateLimit = true;
    const err = await caught(list(adapter(p)));
    expect(err.code).toBe("TOO_MANY_REQUESTS");
    expect(err.retryAfterSeconds).toBe(seconds);
    expect(err.message).toBe(`${nameOf(p)} is limiting requests; try again in ${seconds} s`);
  });

  test.each(STORE_PLATFORMS)("%s: a store slower than timeoutMs is a timeout", async (p) => {
    emu.controls[p].delayMs = 700;
    const err = await caught(list(adapter(p, { timeoutMs: 200 })));
    expect(err.code).toBe("GATEWAY_TIMEOUT");
    expect(err.message).toBe(`${nameOf(p)} did not answer within 0.2 s`);
  });

  test.each(STORE_PLATFORMS)("%s: an unreachable address names the integration", async (p) => {
    const err = await caught(list(adapter(p, { baseUrl: "http://127.0.0.1:9" })));
    expect(err.code).toBe("BAD_GATEWAY");
    expect(err.message).toStartWith(`${nameOf(p)} could not be reached: `);
  });
});

// Small mappings ------------------------------------------------------------------------------------------------------

describe("mappings and addresses", () => {
  test("amounts in minor units, exactly", () => {
    expect(amountMinor("129.90", "USD")).toBe(12990);
    expect(amountMinor("4.8750", "USD")).toBe(488);
    expect(amountMinor("1.005", "EUR")).toBe(101);
    expect(amountMinor(0.1 + 0.2, "USD")).toBe(30);
    expect(amountMinor("1500", "JPY")).toBe(1500);
    expect(amountMinor("12,345.6", "ETB")).toBe(1234560);
    expect(amountMinor("", "USD")).toBeNull();
    expect(amountMinor("abc", "USD")).toBeNull();
  });

  test("weights in grams", () => {
    expect(gramsOf(2.5, "KILOGRAMS")).toBe(2500);
    expect(gramsOf("40", "POUNDS")).toBe(18144);
    expect(gramsOf(12, "OUNCES")).toBe(340);
    expect(gramsOf(850, "GRAMS")).toBe(850);
    expect(gramsOf(1, "lb")).toBe(454);
    expect(gramsOf(0, "KILOGRAMS")).toBeNull();
    expect(gramsOf(3, "STONES")).toBeNull();
    expect(gramsOf(null, "GRAMS")).toBeNull();
  });

  test("statuses", () => {
    expect(shopifyStatus("FULFILLED", true)).toEqual({ status: "cancelled", storeStatus: "CANCELLED" });
    expect(shopifyStatus("IN_PROGRESS", false)).toEqual({ status: "processing", storeStatus: "IN_PROGRESS" });
    expect(shopifyStatus("ON_HOLD", false).status).toBe("pending");
    expect(shopifyStatus("RESTOCKED", false).status).toBe("cancelled");
    expect(amazonStatus("InvoiceUnconfirmed")).toBe("processing");
    expect(amazonStatus("PENDING_AVAILABILITY")).toBe("pending");
    expect(amazonStatus("Unfulfillable")).toBe("cancelled");
    expect(alibabaStatus("WAIT_SELLER_SEND_GOODS")).toBe("processing");
    expect(alibabaStatus("charge_back")).toBe("cancelled");
    expect(alibabaStatus("frozen")).toBe("pending");
  });

  test("the platforms' error bodies give their reasons", () => {
    expect(storeReason('{"errors":"[API] Invalid API key"}')).toBe("[API] Invalid API key");
    expect(
      storeReason('{"errors":[{"code":"Unauthorized","message":"The access token you provided has expired."}]}'),
    ).toBe("The access token you provided has expired.");
    expect(storeReason('{"error":"invalid_grant","error_description":"bad refresh token"}')).toBe("bad refresh token");
    expect(storeReason('{"error_response":{"code":"IncompleteSignature","msg":"bad sign"}}')).toBe("bad sign");
    expect(storeReason("<html><title>Bad Gateway</title></html>")).toBe("Bad Gateway");
  });

  test("Amazon waits one request's worth of the rate, at least a second", () => {
    expect(amazonRetryAfter(0.0056)).toBe(179);
    expect(amazonRetryAfter(0.0167)).toBe(60);
    expect(amazonRetryAfter(5)).toBe(1);
  });

  test("Shopify's search string and shop address", () => {
    expect(shopifyOrderQuery(0)).toBeNull();
    expect(shopifyOrderQuery(Date.UTC(2026, 0, 5, 10, 0, 0, 750))).toBe("updated_at:>='2026-01-05T10:00:00Z'");
    expect(isoSeconds(Date.UTC(2026, 0, 5, 10, 0, 0, 999))).toBe("2026-01-05T10:00:00Z");
    expect(shopifyShopUrl("acme")).toBe("https://acme.myshopify.com");
    expect(shopifyShopUrl(" https://Acme.myshopify.com/ ")).toBe("https://acme.myshopify.com");
    // A shop is only ever its myshopify.com name: no other domain, port, user info, path or address.
    for (const domain of [
      "shop.example.com",
      "https://acme.myshopify.com/admin",
      "acme.myshopify.com:8443",
      "x@acme.myshopify.com",
      "127.0.0.1",
      "127.0.0.1:4000",
      "x@127.0.0.1",
      "foo.myshopify.com.evil.com",
      "acme.myshopify.com.",
      "http://acme.myshopify.com",
      "",
    ])
      expect(defaultStoreBaseUrl("shopify", { shopDomain: domain })).toBeNull();
    expect(defaultStoreBaseUrl("alibaba", {})).toBe(ALIBABA_GATEWAY);
  });

  test("sandbox addresses", () => {
    expect(isSandboxStoreUrl("http://127.0.0.1:4121")).toBe(true);
    expect(isSandboxStoreUrl("http://localhost:4122")).toBe(true);
    expect(isSandboxStoreUrl("https://sandbox.sellingpartnerapi-eu.amazon.com")).toBe(true);
    expect(isSandboxStoreUrl("https://openapi-api-sandbox.alibaba.com/rest")).toBe(true);
    expect(isSandboxStoreUrl("https://sellingpartnerapi-na.amazon.com")).toBe(false);
    expect(isSandboxStoreUrl("https://acme.myshopify.com")).toBe(false);
    expect(isSandboxStoreUrl("not a url")).toBe(false);
    expect(adapter("amazon", { baseUrl: AMAZON_HOSTS.na }).sandbox).toBe(false);
  });
});
