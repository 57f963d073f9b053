import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp, registerUser, type TTestApp, testBoardServices } from "../testing";

// Every route added for boards, stores and premium: bad input is a 4xx naming the field and writes nothing; another
// user's configuration, integration, order or payment answers 404 and changes nothing.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;
let t: TTestApp;
let owner: TClient;
let other: TClient;
beforeEach(async () => {
  // The board and the store point at a closed loopback port: allowed only as an operator's Sandbox origin.
  t = await createTestApp({}, undefined, undefined, testBoardServices({ sandbox: ["http://127.0.0.1:9"] }));
  owner = createClient(t);
  other = createClient(t, "10.0.0.2");
  await registerUser(owner, "shipper");
  await registerUser(other, "shipper");
});

const count = async (table: string) =>
  (await t.rows<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) n FROM ${table}`))[0]!.n;
const paths = (r: { json: { issues?: { path: string }[] } }) => (r.json.issues ?? []).map((i) => i.path);

const board = () =>
  owner.post("/api/marketplaces", {
    provider: "other",
    name: "Feed",
    apiBaseUrl: "http://127.0.0.1:9",
    config: { apiKey: "k" },
  });
const store = () =>
  owner.post("/api/ecommerce/integrations", {
    platform: "shopify",
    name: "Shop",
    credentials: { shopDomain: "sandbox", accessToken: "sandbox" },
    settings: {
      warehouse: { address: "Dock", city: "Addis Ababa", country: "Ethiopia", latitude: 9, longitude: 38.7 },
      apiBaseUrl: "http://127.0.0.1:9",
    },
  });

describe("marketplace routes", () => {
  test("bad input names the field and changes nothing", async () => {
    const id = (await board()).json.id as number;
    const put = await owner.put(`/api/marketplaces/${id}`, { name: "", isActive: "yes" });
    expect(put.status).toBe(400);
    expect(paths(put)).toEqual(expect.arrayContaining(["name", "isActive"]));
    expect((await owner.get("/api/marketplaces")).json[0].name).toBe("Feed");
    const search = await owner.post(`/api/marketplaces/${id}/search`, { originLatitude: 120, originLongitude: 10 });
    expect(search.status).toBe(400);
    expect(paths(search)).toContain("originLatitude");
    for (const r of [
      await owner.put("/api/marketplaces/abc", { name: "x" }),
      await owner.del("/api/marketplaces/0"),
      await owner.post("/api/marketplaces/-1/test"),
    ]) {
      expect(r.status).toBe(400);
      expect(r.json.message).toBe("id must be a positive integer");
    }
    expect(await count("marketplace_configs")).toBe(1);
  });

  test("another user sees none of it and can start no sync of it", async () => {
    await board();
    expect((await other.get("/api/marketplaces/sync-runs")).json).toEqual([]);
    expect((await other.get("/api/sync/status")).json).toMatchObject({ isRunning: false, lastSyncTimes: {} });
    expect((await other.post("/api/sync/manual")).status).toBe(400);
    expect(await count("jobs")).toBe(0);
  });
});

const lane = () =>
  owner.post("/api/marketplaces/lanes", {
    originName: "Addis Ababa, Ethiopia",
    originLatitude: 9.0108,
    originLongitude: 38.7613,
    originRadiusMiles: 150,
    destinationName: "Djibouti, Djibouti",
    destinationLatitude: 11.5721,
    destinationLongitude: 43.1456,
    equipmentTypes: ["dry_van"],
  });

describe("saved lane routes", () => {
  test("bad input names the field and changes nothing", async () => {
    const id = (await lane()).json.id as number;
    const post = await owner.post("/api/marketplaces/lanes", {
      originName: "",
      originLatitude: 95,
      originLongitude: 38.7,
      originRadiusMiles: 501,
      equipmentTypes: ["boat"],
    });
    expect(post.status).toBe(400);
    expect(paths(post)).toEqual(
      expect.arrayContaining(["originName", "originLatitude", "originRadiusMiles", "equipmentTypes.0"]),
    );
    const put = await owner.put(`/api/marketplaces/lanes/${id}`, {
      destinationLongitude: 190,
      destinationRadiusMiles: 0,
      name: 7,
    });
    expect(put.status).toBe(400);
    expect(paths(put)).toEqual(expect.arrayContaining(["destinationLongitude", "destinationRadiusMiles", "name"]));
    for (const r of [
      await owner.put("/api/marketplaces/lanes/abc", { name: "x" }),
      await owner.del("/api/marketplaces/lanes/0"),
    ]) {
      expect(r.status).toBe(400);
      expect(r.json.message).toBe("id must be a positive integer");
    }
    const [saved] = (await owner.get("/api/marketplaces/lanes")).json;
    expect(saved).toMatchObject({ id, originLatitude: 9.0108, destinationLongitude: 43.1456, name: null });
    expect(await count("saved_lanes")).toBe(1);
  });

  test("another user's lane answers 404, is not listed, and is neither changed nor deleted", async () => {
    const id = (await lane()).json.id as number;
    expect((await other.get("/api/marketplaces/lanes")).json).toEqual([]);
    expect((await other.put(`/api/marketplaces/lanes/${id}`, { originRadiusMiles: 25 })).status).toBe(404);
    expect((await other.del(`/api/marketplaces/lanes/${id}`)).status).toBe(404);
    // Not reachable as a board configuration either.
    expect((await other.put(`/api/marketplaces/${id}`, { name: "x" })).status).toBe(404);
    expect((await owner.get("/api/marketplaces/lanes")).json[0]).toMatchObject({ id, originRadiusMiles: 150 });
    expect(await count("saved_lanes")).toBe(1);
  });
});

describe("e-commerce routes", () => {
  test("bad input names the field and changes nothing", async () => {
    const id = (await store()).json.id as number;
    const put = await owner.put(`/api/ecommerce/integrations/${id}`, {
      settings: { warehouse: { city: "Adama" } },
    });
    expect(put.status).toBe(400);
    expect(paths(put)).toEqual(expect.arrayContaining(["settings.warehouse.address", "settings.warehouse.latitude"]));
    const list = await owner.get("/api/ecommerce/orders?status=lost");
    expect(list.status).toBe(400);
    expect(paths(list)).toContain("status");
    const convert = await owner.post("/api/ecommerce/orders/1/convert", { load: { title: "" } });
    expect(convert.status).toBe(400);
    expect(paths(convert)).toContain("load.title");
    expect((await owner.get("/api/ecommerce/orders/x/draft")).status).toBe(400);
    expect((await owner.get("/api/ecommerce/integrations")).json[0].settings.warehouse.city).toBe("Addis Ababa");
    expect(await count("loads")).toBe(0);
  });

  test("another user's integration and orders answer 404; webhooks for an unknown integration are refused", async () => {
    const id = (await store()).json.id as number;
    const now = Date.now();
    await t.rows(
      `INSERT INTO ecommerce_orders (integration_id, user_id, external_order_id, order_number, order_date, store_updated_at,
         status, store_status, currency, total_minor, items, created_at, updated_at)
       SELECT id, user_id, 'gid://1', '#1', ?, ?, 'pending', 'UNFULFILLED', 'USD', 1000, '[]', ?, ? FROM ecommerce_integrations`,
      now,
      now,
      now,
      now,
    );
    const [{ id: orderId }] = (await t.rows<{ id: number }>("SELECT CAST(id AS INTEGER) id FROM ecommerce_orders")) as [
      { id: number },
    ];
    expect((await other.get("/api/ecommerce/orders")).json).toMatchObject({ items: [], total: 0 });
    expect((await other.get(`/api/ecommerce/orders/${orderId}/draft`)).status).toBe(404);
    expect((await other.post(`/api/ecommerce/orders/${orderId}/convert`)).status).toBe(404);
    expect((await other.put(`/api/ecommerce/integrations/${id}`, { name: "Mine" })).status).toBe(404);
    // Refused like a wrong signature, so the answer does not tell which integration ids exist.
    const hook = await other.post("/api/ecommerce/webhooks/999999", { id: 1 });
    expect(hook.status).toBe(401);
    expect(hook.json.message).toBe("Webhook refused");
    expect(await count("loads")).toBe(0);
    expect((await owner.get("/api/ecommerce/integrations")).json[0].name).toBe("Shop");
  });
});

describe("subscription routes", () => {
  test("bad input names the field and changes nothing", async () => {
    const checkout = await owner.post("/api/subscription/checkout", { currency: "GBP" });
    expect(checkout.status).toBe(400);
    expect(paths(checkout)).toContain("currency");
    // No provider is configured here: a good currency is refused naming it too.
    const unavailable = await owner.post("/api/subscription/checkout", { currency: "USD" });
    expect(unavailable.status).toBe(400);
    expect(paths(unavailable)).toContain("currency");
    const cancel = await owner.post("/api/subscription/cancel", { refund: "yes" });
    expect(cancel.status).toBe(400);
    expect(paths(cancel)).toContain("refund");
    const confirm = await owner.post("/api/subscription/confirm", { txRef: "" });
    expect(confirm.status).toBe(400);
    expect(paths(confirm)).toContain("txRef");
    expect(await count("payments")).toBe(0);
  });

  test("another user's payment cannot be confirmed or seen", async () => {
    const [{ id: ownerId }] = (await t.rows<{ id: number }>(
      "SELECT CAST(id AS INTEGER) id FROM users ORDER BY id LIMIT 1",
    )) as [{ id: number }];
    const now = Date.now();
    await t.rows(
      `INSERT INTO payments (user_id, provider, provider_ref, status, amount_minor, currency, months, created_at, updated_at)
       VALUES (?, 'chapa', 'tx-owner', 'pending', 406000, 'ETB', 1, ?, ?)`,
      ownerId,
      now,
      now,
    );
    expect((await other.get("/api/subscription/payments")).json).toEqual([]);
    expect((await other.post("/api/subscription/confirm", { txRef: "tx-owner" })).status).toBe(404);
    expect((await t.rows<{ status: string }>("SELECT status FROM payments"))[0]!.status).toBe("pending");
    expect((await owner.get("/api/subscription/payments")).json).toHaveLength(1);
  });
});
