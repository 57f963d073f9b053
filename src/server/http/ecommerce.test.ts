import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { ecommerceIntegrations } from "../../../db/tables";
import { ALIBABA_SANDBOX } from "../../../emulators/stores/alibaba";
import { STORE_SANDBOX_CREDENTIALS, startStoreEmulators } from "../../../emulators/stores/server";
import { signedWebhook } from "../../../emulators/stores/shopify";
import { insertJob as enqueue, listJobs } from "../jobs/queue";
import { logger } from "../logger";
import { jobHandlers, startWorker } from "../modules/jobs";
import { storeAdapterOf } from "../modules/stores/integrations";
import { enqueueDueStoreSyncs } from "../modules/stores/sync";
import { closeTestApps, createClient, loadInput, registerUser, sandboxApp, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

type TClient = ReturnType<typeof createClient>;
let emu: ReturnType<typeof startStoreEmulators>;
beforeAll(() => {
  emu = startStoreEmulators();
});
afterAll(() => emu.stop());

let t: TTestApp;
let shipper: TClient;
let other: TClient;
let driver: TClient;
beforeEach(async () => {
  for (const c of Object.values(emu.controls)) c.reset();
  // Shopify Plus's refill rate: the throttle is tested with the adapter; here it would only make the tests wait.
  emu.controls.shopify.restoreRate = 1000;
  ({
    t,
    clients: [shipper, other, driver],
  } = await sandboxApp(Object.values(emu.urls), ["shipper", "shipper", "driver"]));
});
afterEach(closeTestApps);

const WAREHOUSE = {
  address: "Bole Lemi Industrial Park",
  city: "Addis Ababa",
  country: "Ethiopia",
  latitude: 8.955,
  longitude: 38.865,
};
type TPlatform = keyof typeof STORE_SANDBOX_CREDENTIALS;
const addStore = async (platform: TPlatform, over: Record<string, unknown> = {}, who = shipper) => {
  const res = await who.post("/api/ecommerce/integrations", {
    platform,
    name: `${platform} shop`,
    credentials: STORE_SANDBOX_CREDENTIALS[platform],
    settings: { warehouse: WAREHOUSE, apiBaseUrl: emu.urls[platform] },
    ...over,
  });
  if (res.status !== 201) throw new Error(`add ${platform}: ${res.status} ${res.text}`);
  return res.json as { id: number; [k: string]: unknown };
};
type TOrder = {
  id: number;
  orderNumber: string;
  status: string;
  isConvertedToLoad: boolean;
  loadId: number | null;
  shippingCity: string | null;
  shippingCountry: string | null;
};
const orders = async (who = shipper, query = "pageSize=100") =>
  (await who.get(`/api/ecommerce/orders?${query}`)).json as { items: TOrder[]; total: number };

describe("integrations", () => {
  test("added with the product's defaults; credentials sealed and shown as set; required fields named", async () => {
    const res = await shipper.post("/api/ecommerce/integrations", {
      platform: "shopify",
      name: "Addis shop",
      credentials: { shopDomain: "sandbox", accessToken: "shpat_super_secret" },
      settings: { warehouse: WAREHOUSE, apiBaseUrl: emu.urls.shopify },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      platform: "shopify",
      name: "Addis shop",
      isActive: true,
      credentials: { shopDomain: true, clientId: false, clientSecret: false, accessToken: true, webhookSecret: false },
      settings: {
        warehouse: { city: "Addis Ababa" },
        defaultEquipmentType: "dry_van",
        budget: { mode: "perMile", amount: 2.5, currency: "USD" },
        importStatuses: ["pending", "processing"],
      },
      sandbox: true,
      totalOrdersSynced: 0,
    });
    expect(res.text).not.toContain("shpat_super_secret");
    const [row] = await t.rows<{ credentials: string }>("select credentials from ecommerce_integrations");
    expect(row!.credentials).not.toContain("shpat_super_secret");

    const missing = await shipper.post("/api/ecommerce/integrations", { settings: {} });
    expect(missing.status).toBe(400);
    expect((missing.json.issues as { path: string }[]).map((i) => i.path)).toEqual(
      expect.arrayContaining(["platform", "name", "settings.warehouse"]),
    );
    const creds = await shipper.post("/api/ecommerce/integrations", {
      platform: "amazon",
      name: "Amazon EU",
      credentials: { clientId: "a", clientSecret: "b", refreshToken: "c", marketplaceId: "A1PA6795UKMFR9" },
      settings: { warehouse: WAREHOUSE },
    });
    expect(creds.json.issues).toEqual([
      { path: "credentials.region", message: "credentials.region is required for Amazon" },
    ]);
    const badRegion = await shipper.post("/api/ecommerce/integrations", {
      platform: "amazon",
      name: "Amazon EU",
      credentials: { clientId: "a", clientSecret: "b", refreshToken: "c", marketplaceId: "x", region: "mars" },
      settings: { warehouse: WAREHOUSE },
    });
    expect(badRegion.json.issues).toEqual([
      { path: "credentials.region", message: "credentials.region must be na, eu or fe" },
    ]);
    const stray = await shipper.post("/api/ecommerce/integrations", {
      platform: "shopify",
      name: "Shop",
      credentials: { shopDomain: "a.myshopify.com", accessToken: "shpat_x", apiKey: "k" },
      settings: { warehouse: WAREHOUSE },
    });
    expect(stray.status).toBe(400);
    expect(stray.json.issues[0].path).toBe("credentials.apiKey");
    expect(stray.json.issues[0].message).toStartWith("apiKey is not a credential of Shopify; it takes ");
    expect(await t.rows("select id from ecommerce_integrations")).toHaveLength(1);
  });

  test("Shopify takes one kind of app: a Dev Dashboard app's client ID and secret, or a legacy app's token", async () => {
    const add = (credentials: Record<string, string>) =>
      shipper.post("/api/ecommerce/integrations", {
        platform: "shopify",
        name: "Addis shop",
        credentials,
        settings: { warehouse: WAREHOUSE, apiBaseUrl: emu.urls.shopify },
      });
    const issues = async (credentials: Record<string, string>) => {
      const res = await add(credentials);
      expect(res.status).toBe(400);
      return res.json.issues;
    };
    expect(await issues({ shopDomain: "sandbox" })).toEqual([
      {
        path: "credentials.clientId",
        message:
          "credentials.clientId and credentials.clientSecret of your Dev Dashboard app are required for Shopify (or credentials.accessToken of a legacy custom app)",
      },
    ]);
    expect(await issues({ shopDomain: "sandbox", clientId: "sandbox" })).toEqual([
      { path: "credentials.clientSecret", message: "credentials.clientSecret is required for Shopify" },
    ]);
    expect(await issues({ shopDomain: "sandbox", clientId: "a", clientSecret: "b", accessToken: "shpat_x" })).toEqual([
      {
        path: "credentials.accessToken",
        message:
          "credentials.accessToken is a legacy custom app's; a Dev Dashboard app takes its client ID and secret only",
      },
    ]);
    expect(await t.rows("select id from ecommerce_integrations")).toEqual([]);

    // A legacy custom app moved to a Dev Dashboard app keeps nothing of the old app's.
    const legacy = await add({ shopDomain: "sandbox", accessToken: "shpat_old", webhookSecret: "old-api-secret" });
    expect(legacy.status).toBe(201);
    const moved = await shipper.put(`/api/ecommerce/integrations/${legacy.json.id}`, {
      credentials: { clientId: "sandbox", clientSecret: "sandbox" },
    });
    expect(moved.status).toBe(200);
    expect(moved.json.credentials).toEqual({
      shopDomain: true,
      clientId: true,
      clientSecret: true,
      accessToken: false,
      webhookSecret: false,
    });
    expect((await shipper.post(`/api/ecommerce/integrations/${legacy.json.id}/test`)).json).toEqual({
      connected: true,
      message: null,
    });
    // Its webhooks are now checked with the client secret.
    const order = emu.controls.shopify.add({ status: "ready" });
    const hook = signedWebhook("orders/create", order, "sandbox");
    const res = await t.app.handle(
      new Request(`http://localhost/api/ecommerce/webhooks/${legacy.json.id}`, {
        method: "POST",
        headers: hook.headers,
        body: hook.body,
      }),
    );
    expect(res.status).toBe(200);
  });

  test("one shipper never sees or changes another's integrations", async () => {
    const mine = await addStore("shopify");
    expect((await other.get("/api/ecommerce/integrations")).json).toEqual([]);
    for (const call of [
      other.put(`/api/ecommerce/integrations/${mine.id}`, { isActive: false }),
      other.post(`/api/ecommerce/integrations/${mine.id}/test`),
      other.post(`/api/ecommerce/integrations/${mine.id}/sync`),
      other.del(`/api/ecommerce/integrations/${mine.id}`),
    ])
      expect((await call).status).toBe(404);
    expect((await shipper.put(`/api/ecommerce/integrations/${mine.id}`, { isActive: false })).json.isActive).toBe(
      false,
    );
  });

  test("the connection test answers connected true or false with the store's reason, for every platform", async () => {
    for (const platform of ["shopify", "amazon", "alibaba"] as const) {
      const good = await addStore(platform);
      expect((await shipper.post(`/api/ecommerce/integrations/${good.id}/test`)).json).toEqual({
        connected: true,
        message: null,
      });
      const field = platform === "shopify" ? "clientSecret" : platform === "amazon" ? "refreshToken" : "appSecret";
      const bad = await addStore(platform, {
        name: `${platform} wrong`,
        credentials: { ...STORE_SANDBOX_CREDENTIALS[platform], [field]: "not-sandbox" },
      });
      const res = await shipper.post(`/api/ecommerce/integrations/${bad.id}/test`);
      expect(res.status).toBe(200);
      expect(res.json.connected).toBe(false);
      expect(res.json.message).toContain(`${platform} wrong`);
    }
  });
});

describe("store tokens", () => {
  test("a Dev Dashboard store's token is granted once for many syncs, and again when it expires", async () => {
    const c = emu.controls.shopify;
    const shop = await addStore("shopify");
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/test`)).json.connected).toBe(true);
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    expect(c.tokenCalls).toBe(1);
    c.expireTokens();
    const order = c.add({ status: "ready" });
    const res = await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`);
    expect(res.json).toMatchObject({ created: 1, updated: 0 });
    expect(c.tokenCalls).toBe(2);
    expect((await orders()).items.map((o) => o.orderNumber)).toContain(order.number);
  });

  test("a store app without read_products: the test and the sync name the missing scope", async () => {
    emu.controls.shopify.appScopes = ["read_orders"];
    const shop = await addStore("shopify", { name: "Addis shop" });
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/test`)).json).toEqual({
      connected: false,
      message: "Addis shop: the app does not have the access scopes read_products; it needs read_orders, read_products",
    });
    const synced = await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`);
    expect(synced.status).toBe(400);
    expect(synced.json.message).toContain("`read_products` access scope; the app needs the access scopes");
    expect((await shipper.get("/api/ecommerce/integrations")).json[0].lastError).toBe(synced.json.message);
  });

  test("Alibaba.com: a renewed access token and its refresh token are stored back sealed, and used from there", async () => {
    const c = emu.controls.alibaba;
    const shop = await addStore("alibaba");
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    c.expireTokens();
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    expect(c.refreshes).toBe(1);
    const [row] = await t.rows<{ credentials: string; credential_fields: string }>(
      "select credentials, credential_fields from ecommerce_integrations",
    );
    const stored = JSON.parse(t.services.stores.secrets.open(row!.credentials)) as Record<string, string>;
    expect(stored.accessToken).toMatch(/^50000601/);
    expect(stored.refreshToken).toMatch(/^50001600/);
    expect(row!.credentials).not.toContain(stored.accessToken);
    expect(row!.credentials).not.toContain(stored.refreshToken);
    // What the user sees has not changed: the same fields are set.
    expect((await shipper.get("/api/ecommerce/integrations")).json[0].credentials).toEqual({
      appKey: true,
      appSecret: true,
      accessToken: true,
      refreshToken: true,
    });
    // A new adapter (the integration renamed) starts from the stored pair: no renewal needed.
    expect((await shipper.put(`/api/ecommerce/integrations/${shop.id}`, { name: "Alibaba renamed" })).status).toBe(200);
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    expect(c.refreshes).toBe(1);
    // Expired again: renewed with the stored refresh token.
    c.expireTokens();
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    expect(c.refreshedWith).toEqual(["sandbox", stored.refreshToken]);
  });
});

describe("renewed tokens and a user's change", () => {
  const storedCredentials = async () => {
    const [row] = await t.rows<{ credentials: string }>("select credentials from ecommerce_integrations");
    return JSON.parse(t.services.stores.secrets.open(row!.credentials)) as Record<string, string>;
  };

  test("an adapter made before the user changed the credentials never stores its renewed tokens over them", async () => {
    const c = emu.controls.alibaba;
    const shop = await addStore("alibaba");
    const [before] = await t.db.select().from(ecommerceIntegrations);
    const stale = storeAdapterOf(t.db, t.services.stores, before!);
    // The user enters a new authorization meanwhile.
    const put = await shipper.put(`/api/ecommerce/integrations/${shop.id}`, {
      credentials: { accessToken: "sandbox", refreshToken: "sandbox" },
    });
    expect(put.status).toBe(200);
    const entered = await storedCredentials();
    c.expireTokens();
    await stale.test();
    expect(c.refreshes).toBe(1);
    expect(await storedCredentials()).toEqual(entered);
  });

  test("a user's change made over tokens renewed meanwhile keeps the renewed ones it did not replace", async () => {
    const c = emu.controls.alibaba;
    const shop = await addStore("alibaba");
    c.expireTokens();
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    const renewed = await storedCredentials();
    expect(renewed.accessToken).not.toBe("sandbox");
    // The app secret changes; the renewed pair stays (its expiry, which is not a field, is forgotten).
    const put = await shipper.put(`/api/ecommerce/integrations/${shop.id}`, { credentials: { appSecret: "sandbox" } });
    expect(put.status).toBe(200);
    const { accessTokenExpiresAt: _, ...fields } = renewed;
    expect(await storedCredentials()).toEqual(fields);
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    expect(c.refreshes).toBe(1);
  });

  test("tokens stored back while a user's change is being made are merged into it, not overwritten", async () => {
    const shop = await addStore("alibaba");
    const renewed = { ...ALIBABA_SANDBOX, accessToken: "renewed-access", refreshToken: "renewed-refresh" };
    // The moment the change is about to be written (read and merged already), an adapter stores a renewed pair.
    const db = t.db as unknown as { update: (table: unknown) => unknown };
    const update = db.update;
    let raced = 0;
    db.update = (table: unknown) => {
      const builder = update.call(t.db, table) as { set: (v: unknown) => { where: (w: unknown) => unknown } };
      if (table !== ecommerceIntegrations || raced++ > 0) return builder;
      const sealed = t.services.stores.secrets.seal(JSON.stringify(renewed));
      return {
        set: (values: unknown) => ({
          where: (cond: unknown) => ({
            returning: () => {
              const query = builder.set(values).where(cond) as { returning: () => PromiseLike<unknown> };
              return t.rows("update ecommerce_integrations set credentials = ?", sealed).then(() => query.returning());
            },
          }),
        }),
      };
    };
    try {
      const put = await shipper.put(`/api/ecommerce/integrations/${shop.id}`, { credentials: { appKey: "new-key" } });
      expect(put.status).toBe(200);
    } finally {
      db.update = update;
    }
    // The first write found the credentials changed; the second merged the change into the renewed pair.
    expect(raced).toBe(2);
    expect(await storedCredentials()).toEqual({ ...renewed, appKey: "new-key" });
  });
});

describe("orders", () => {
  test("sync imports the orders to ship, re-runs add nothing, changes follow; only the owner sees them", async () => {
    const shop = await addStore("shopify");
    const first = await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`);
    expect(first.status).toBe(200);
    const created = first.json.created as number;
    expect(created).toBeGreaterThan(0);
    expect(first.json.message).toBe(`${created} new orders, 0 updated`);
    const list = await orders();
    expect(list.total).toBe(created);
    expect(list.items.every((o) => o.status === "pending" || o.status === "processing")).toBe(true);
    // Cancelled orders are not imported by default.
    const cancelledInStore = emu.controls.shopify.orders().filter((o) => o.status === "cancelled").length;
    expect(cancelledInStore).toBeGreaterThan(0);
    expect(created).toBeLessThan(emu.controls.shopify.orders().length);

    const again = await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`);
    expect(again.json.message).toBe("0 new orders, 0 updated");
    const target = emu.controls.shopify.orders().find((o) => list.items.some((i) => i.orderNumber === o.number))!;
    emu.controls.shopify.update(target.id, { status: "cancelled" });
    const third = await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`);
    expect(third.json).toMatchObject({ created: 0, updated: 1 });
    const cancelled = await orders(shipper, "status=cancelled");
    expect(cancelled.items.map((o) => o.orderNumber)).toEqual([target.number]);
    expect((await shipper.get("/api/ecommerce/integrations")).json[0].totalOrdersSynced).toBe(created);

    expect((await orders(other)).total).toBe(0);
    expect((await orders(other, `integrationId=${shop.id}`)).items).toEqual([]);
  });

  test("two syncs at once never duplicate an order", async () => {
    const shop = await addStore("amazon");
    const [a, b] = await Promise.all([
      shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`),
      shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`),
    ]);
    expect(a.status).toBe(200);
    expect(b.status).toBe(200);
    const [{ n, d }] = await t.rows<{ n: number; d: number }>(
      "select CAST(count(*) AS INTEGER) n, CAST(count(distinct external_order_id) AS INTEGER) d from ecommerce_orders",
    );
    expect(n).toBe(d);
    expect(n).toBeGreaterThan(0);
  });

  test("a Shopify webhook brings an order in at once; a replay or a bad signature changes nothing", async () => {
    const shop = await addStore("shopify");
    const order = emu.controls.shopify.add({ status: "ready" });
    const hook = signedWebhook("orders/create", order, "sandbox");
    const send = (body: string, headers: Record<string, string>) =>
      t.app.handle(
        new Request(`http://localhost/api/ecommerce/webhooks/${shop.id}`, { method: "POST", headers, body }),
      );
    const ok = await send(hook.body, hook.headers);
    expect(ok.status).toBe(200);
    expect(await ok.json()).toMatchObject({ accepted: true, replayed: false, created: 1 });
    expect((await orders()).items.map((o) => o.orderNumber)).toEqual([order.number]);

    const replay = await send(hook.body, hook.headers);
    expect(await replay.json()).toMatchObject({ replayed: true, created: 0 });
    const forged = await send(hook.body.replace(order.number, "#9999"), hook.headers);
    expect(forged.status).toBe(401);
    const unsigned = await send(hook.body, { "Content-Type": "application/json" });
    expect(unsigned.status).toBe(401);
    expect((await orders()).total).toBe(1);
    // A later sync writes the same order, not a second one.
    await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`);
    const [{ n }] = await t.rows<{ n: number }>(
      "select CAST(count(*) AS INTEGER) n from ecommerce_orders where order_number = ?",
      order.number,
    );
    expect(n).toBe(1);
  });
});

describe("13. anonymous store webhooks", () => {
  test("every refusal is the same answer and names no integration, store or account", async () => {
    const name = "Tigist Bekele's Spice House";
    const live = await addStore("shopify", { name });
    const off = await addStore("shopify", { name: `${name} (old)` });
    expect((await shipper.put(`/api/ecommerce/integrations/${off.id}`, { isActive: false })).status).toBe(200);
    const noSecret = await addStore("shopify", {
      name: `${name} (no secret)`,
      credentials: { shopDomain: "sandbox", accessToken: "sandbox" },
    });
    const amazon = await addStore("amazon", { name: `${name} on Amazon` });
    const order = emu.controls.shopify.add({ status: "ready" });
    const hook = signedWebhook("orders/create", order, "sandbox");
    const forged = signedWebhook("orders/create", order, "not-the-secret");
    const send = (id: number, h: { body: string; headers: Record<string, string> }) =>
      t.app.handle(
        new Request(`http://localhost/api/ecommerce/webhooks/${id}`, {
          method: "POST",
          headers: h.headers,
          body: h.body,
        }),
      );
    const unsigned = { body: hook.body, headers: { "Content-Type": "application/json" } };
    const answers = [
      await send(999_999, hook), // no such integration
      await send(live.id, forged), // wrong signature
      await send(live.id, unsigned), // no signature
      await send(off.id, hook), // switched off
      await send(noSecret.id, hook), // no webhook secret set
      await send(amazon.id, hook), // a platform without webhooks
    ];
    const seen = await Promise.all(answers.map(async (r) => ({ status: r.status, body: await r.text() })));
    for (const a of seen) {
      expect(a).toEqual(seen[0]);
      expect(a.body).not.toContain("Tigist");
      expect(a.body).not.toContain("Spice");
      expect(a.body.toLowerCase()).not.toContain("shopify");
    }
    expect(seen[0].status).toBe(401);
    expect(JSON.parse(seen[0].body)).toMatchObject({ code: "UNAUTHORIZED", message: "Webhook refused" });
    // Correctly signed but not an order: a 400 that names nothing either.
    const body = JSON.stringify({ hello: "world" });
    const { createHmac } = await import("node:crypto");
    const junk = await send(live.id, {
      body,
      headers: {
        "Content-Type": "application/json",
        "X-Shopify-Hmac-Sha256": createHmac("sha256", "sandbox").update(body).digest("base64"),
      },
    });
    expect(junk.status).toBe(400);
    const junkText = await junk.text();
    expect(junkText).not.toContain("Tigist");
    expect(junkText.toLowerCase()).not.toContain("shopify");
    expect((await orders()).total).toBe(0);
    // The owner's webhook still works.
    expect((await send(live.id, hook)).status).toBe(200);
  });
});

/** An order a truck can take from the Addis Ababa warehouse: placed on the map, and not across an ocean (the US). */
const byRoad = (o: TOrder) =>
  o.shippingCountry !== "ZZ" && o.shippingCountry !== "US" && o.shippingCity !== "Smallville";

describe("converting an order", () => {
  const syncShop = async () => {
    const shop = await addStore("shopify");
    await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`);
    return shop;
  };

  test("an order becomes a posted load from the warehouse to the customer's city, once, even when asked twice at once", async () => {
    await syncShop();
    const order = (await orders()).items.find(byRoad)!;
    const [a, b] = await Promise.all([
      shipper.post(`/api/ecommerce/orders/${order.id}/convert`),
      shipper.post(`/api/ecommerce/orders/${order.id}/convert`),
    ]);
    const statuses = [a.status, b.status].sort();
    expect(statuses).toEqual([200, 409]);
    const won = a.status === 200 ? a : b;
    const lost = a.status === 200 ? b : a;
    expect(lost.json.message).toBe(`Order ${order.orderNumber} is already a load`);
    expect(won.json.order).toMatchObject({ status: "converted", isConvertedToLoad: true });
    expect(won.json.load).toMatchObject({
      status: "posted",
      pickupCity: "Addis Ababa",
      deliveryCity: order.shippingCity,
      source: { type: "mytess" },
    });
    expect(won.json.load.title).toStartWith(`Order ${order.orderNumber}:`);
    expect(won.json.load.weight).toBeGreaterThan(0);
    expect(won.json.load.budgetAmount).toBeGreaterThan(0);
    const loads = await t.rows<{ n: number }>("select CAST(count(*) AS INTEGER) n from loads");
    expect(loads[0]!.n).toBe(1);
    // The warehouse's country as its code, for queries by country (the landing's loads near the visitor).
    expect(await t.rows("select pickup_country_code AS code from loads")).toEqual([{ code: "ET" }]);
    const after = (await orders()).items.find((o) => o.id === order.id)!;
    expect(after).toMatchObject({ status: "converted", isConvertedToLoad: true, loadId: won.json.load.id });
    expect((await shipper.post(`/api/ecommerce/orders/${order.id}/convert`)).status).toBe(409);
    // On the board for everyone.
    expect((await driver.get(`/api/loads/${won.json.load.id}`)).json.title).toBe(won.json.load.title);
  });

  test("an address the map does not know: the answer names it, and the shipper completes the load from the draft", async () => {
    const shop = await addStore("shopify");
    const lost = emu.controls.shopify.add({
      status: "ready",
      address: {
        ...emu.controls.shopify.orders()[0]!.address,
        city: "Smallville",
        country: "ZZ",
        latitude: null,
        longitude: null,
      },
    });
    await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`);
    const order = (await orders()).items.find((o) => o.orderNumber === lost.number)!;
    const res = await shipper.post(`/api/ecommerce/orders/${order.id}/convert`);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      `The delivery address of order ${order.orderNumber} cannot be placed on the map: complete the load`,
    );
    expect((res.json.issues as { path: string }[]).map((i) => i.path)).toContain("deliveryLatitude");
    const draft = (await shipper.get(`/api/ecommerce/orders/${order.id}/draft`)).json;
    expect(draft.missing).toEqual(["deliveryLatitude", "deliveryLongitude"]);
    expect(draft.load).toMatchObject({ pickupCity: "Addis Ababa", deliveryCity: "Smallville", deliveryLatitude: null });
    const done = await shipper.post(`/api/ecommerce/orders/${order.id}/convert`, {
      load: {
        ...draft.load,
        deliveryCity: "Adama",
        deliveryCountry: "Ethiopia",
        deliveryLatitude: 8.54,
        deliveryLongitude: 39.27,
      },
    });
    expect(done.status).toBe(200);
    expect(done.json.load).toMatchObject({ deliveryCity: "Adama" });
    expect(done.json.order.status).toBe("converted");
  });

  test("an ocean crossing: refused as a truck load naming the delivery country, posted once the shipper confirms", async () => {
    await syncShop();
    const order = (await orders()).items.find((o) => o.shippingCountry === "US")!;
    expect(order).toBeDefined();
    const refused = await shipper.post(`/api/ecommerce/orders/${order.id}/convert`);
    expect(refused.status).toBe(400);
    const message =
      "No road joins Ethiopia and United States: this order needs ocean freight, not a truck load. Confirm to post it as a truck load all the same";
    expect(refused.json.message).toBe(message);
    expect(refused.json.messageId).toBe("error.ecommerce.oceanCrossing");
    expect(refused.json.issues).toEqual([{ path: "deliveryCountry", message }]);
    // In the caller's language.
    expect((await shipper.put("/api/user/language", { language: "am" })).status).toBe(200);
    const am = await shipper.post(`/api/ecommerce/orders/${order.id}/convert`);
    expect(am.status).toBe(400);
    expect(am.json.message).toStartWith("Ethiopia እና United Statesን የሚያገናኝ መንገድ የለም");
    expect((await shipper.put("/api/user/language", { language: "en" })).status).toBe(200);
    // Nothing written: no load, the order still to convert.
    expect(await t.rows("SELECT id FROM loads")).toEqual([]);
    expect((await orders()).items.find((o) => o.id === order.id)).toMatchObject({ isConvertedToLoad: false });
    // The completed draft says the same (the form's path), and a bad flag is named.
    const draft = (await shipper.get(`/api/ecommerce/orders/${order.id}/draft`)).json;
    const load = draft.load;
    const completed = await shipper.post(`/api/ecommerce/orders/${order.id}/convert`, { load });
    expect(completed.status).toBe(400);
    expect(completed.json.issues).toEqual([{ path: "deliveryCountry", message }]);
    const bad = await shipper.post(`/api/ecommerce/orders/${order.id}/convert`, { confirmOceanCrossing: "yes" });
    expect(bad.status).toBe(400);
    expect((bad.json.issues as { path: string }[]).map((i) => i.path)).toEqual(["confirmOceanCrossing"]);
    // Confirmed: the shipper posts it as a truck load all the same.
    const done = await shipper.post(`/api/ecommerce/orders/${order.id}/convert`, { load, confirmOceanCrossing: true });
    expect(done.status).toBe(200);
    expect(done.json.load).toMatchObject({ pickupCountry: "Ethiopia", deliveryCountry: "United States" });
    // A European order from the same warehouse goes by road: no question asked.
    const europe = (await orders()).items.find((o) =>
      ["NL", "DE", "FR", "IT", "BE", "ES"].includes(o.shippingCountry ?? ""),
    );
    if (europe) expect((await shipper.post(`/api/ecommerce/orders/${europe.id}/convert`)).status).toBe(200);
  });

  test("an account without a proven contact: converted orders count with hand-posted loads toward its 3", async () => {
    const unproven = createClient(t, "10.0.0.9");
    await registerUser(unproven, "shipper", {}, { verified: false });
    const shop = await addStore("shopify", {}, unproven);
    expect((await unproven.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    const convertible = (await orders(unproven)).items.filter(byRoad);
    expect(convertible.length).toBeGreaterThanOrEqual(2);
    for (const title of ["Teff 1", "Teff 2"])
      expect((await unproven.post("/api/loads", loadInput({ title }))).status).toBe(201);
    expect((await unproven.post(`/api/ecommerce/orders/${convertible[0]!.id}/convert`)).status).toBe(200);
    // The fourth, by either door, waits for a proven contact; the order stays to convert later.
    const refused = await unproven.post(`/api/ecommerce/orders/${convertible[1]!.id}/convert`);
    expect(refused.status).toBe(403);
    expect(refused.json.messageId).toBe("error.contact.requiredToPostMore");
    expect((await orders(unproven)).items.find((o) => o.id === convertible[1]!.id)).toMatchObject({
      isConvertedToLoad: false,
      loadId: null,
    });
    const byHand = await unproven.post("/api/loads", loadInput({ title: "Teff 4" }));
    expect(byHand.status).toBe(403);
    expect(byHand.json.messageId).toBe("error.contact.requiredToPostMore");
    const n = await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) n FROM loads");
    expect(n[0]!.n).toBe(3);
  });

  test("only the shipper who owns the order converts it", async () => {
    await syncShop();
    const order = (await orders()).items[0]!;
    expect((await other.post(`/api/ecommerce/orders/${order.id}/convert`)).status).toBe(404);
    const driverShop = await addStore("shopify", {}, driver);
    await driver.post(`/api/ecommerce/integrations/${driverShop.id}/sync`);
    const driverOrder = (await orders(driver)).items[0]!;
    const res = await driver.post(`/api/ecommerce/orders/${driverOrder.id}/convert`);
    expect(res.status).toBe(403);
    expect(res.json.message).toBe("Only a shipper account can post an order as a load");
  });

  test("a scheduled sync runs as a job and records a failing store on the integration", async () => {
    const shop = await addStore("alibaba");
    const w = startWorker({
      db: t.db,
      log: logger,
      handlers: jobHandlers({
        notifiers: t.services.notifiers,
        baseUrl: "https://mytess.example",
        stores: t.services.stores,
      }),
      schedules: [{ kind: "store_sync_due", everyMs: 60_000 }],
      autoStart: false,
    });
    await w.runOnce();
    await w.runOnce();
    expect((await orders()).total).toBeGreaterThan(0);
    expect((await shipper.get("/api/ecommerce/integrations")).json[0]).toMatchObject({ id: shop.id, lastError: null });
    // The next slot's job, against a store that is down.
    emu.controls.alibaba.outage = true;
    await enqueue(t.db, { kind: "store_sync", payload: { integrationId: shop.id } });
    expect(await w.runOnce()).toBe(1);
    expect((await shipper.get("/api/ecommerce/integrations")).json[0].lastError).toContain("alibaba shop");
  });
});

describe("after premium ends", () => {
  test("orders stop coming in: no activation, no manual sync, the schedule records why once, webhooks write nothing; imported orders stay", async () => {
    const shop = await addStore("shopify");
    const idle = await addStore("alibaba", { isActive: false });
    expect((await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`)).status).toBe(200);
    const imported = (await orders()).total;
    expect(imported).toBeGreaterThan(0);
    const shipperId = (await shipper.get("/api/auth/user")).json.user.id;
    await t.rows("update users set trial_ends_at = ? where id = ?", Date.now() - 86_400_000, shipperId);

    const activate = await shipper.put(`/api/ecommerce/integrations/${idle.id}`, { isActive: true });
    expect(activate.status).toBe(402);
    const manual = await shipper.post(`/api/ecommerce/integrations/${shop.id}/sync`);
    expect(manual.status).toBe(402);
    expect(manual.json.message).toBe(
      "Importing store orders needs MyTess Premium, and this account's free period has ended: the orders already imported stay",
    );
    // Renaming stays open.
    expect((await shipper.put(`/api/ecommerce/integrations/${shop.id}`, { name: "Renamed" })).status).toBe(200);

    // A signed webhook is answered (the store does not retry) and writes nothing.
    const hook = signedWebhook("orders/create", emu.controls.shopify.add({ status: "ready" }), "sandbox");
    const res = await t.app.handle(
      new Request(`http://localhost/api/ecommerce/webhooks/${shop.id}`, {
        method: "POST",
        headers: hook.headers,
        body: hook.body,
      }),
    );
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ accepted: true, created: 0 });

    // The schedule: one job that records why (not retried), then no more while premium stays ended.
    const w = (now: number) =>
      startWorker({
        db: t.db,
        log: logger,
        handlers: jobHandlers({ notifiers: t.services.notifiers, baseUrl: "", stores: t.services.stores }),
        schedules: [],
        autoStart: false,
        clock: () => now,
      });
    const start = Date.now() + 31 * 60_000;
    expect(await enqueueDueStoreSyncs(t.db, start)).toEqual({ queued: 1 });
    expect(await w(start).runOnce()).toBe(1);
    expect((await shipper.get("/api/ecommerce/integrations")).json[0]).toMatchObject({
      id: shop.id,
      lastError: manual.json.message,
    });
    expect(await enqueueDueStoreSyncs(t.db, start + 31 * 60_000)).toEqual({ queued: 0 });
    expect((await listJobs(t.db)).map((j) => [j.kind, j.status])).toEqual([["store_sync", "done"]]);
    expect((await orders()).total).toBe(imported);
  });
});
