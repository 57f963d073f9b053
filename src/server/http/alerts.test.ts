import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { logger } from "../logger";
import { jobHandlers, startWorker } from "../modules/jobs";
import { alertBox } from "../modules/loads/alerts";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

type TClient = ReturnType<typeof createClient>;
let t: TTestApp;
let shipper: TClient;

beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t);
  await registerUser(shipper, "shipper");
});
afterEach(closeTestApps);

const driverAt = async (lat: number, lng: number, alerts?: Record<string, unknown>) => {
  const c = createClient(t);
  const id = (await registerUser(c, "driver")).id;
  expect((await c.post("/api/drivers/location", { latitude: lat, longitude: lng })).status).toBe(200);
  if (alerts)
    expect(
      (await c.put("/api/messaging/load-alerts", { enabled: true, radiusMiles: 50, equipmentTypes: [], ...alerts }))
        .status,
    ).toBe(200);
  return { c, id };
};
const run = () =>
  startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({ notifiers: t.services.notifiers, baseUrl: "https://mytess.example" }),
    schedules: [],
    autoStart: false,
  }).runOnce();
const alerted = async (loadId: number) =>
  (
    await t.rows<{ user_id: number }>(
      "SELECT user_id FROM notifications WHERE channel = 'in_app' AND load_id = ? ORDER BY user_id",
      loadId,
    )
  ).map((r) => r.user_id);

describe("load alerts", () => {
  test("a new load reaches drivers whose circle holds its pickup and who want its equipment, once each", async () => {
    // Pickup at Kality (8.9, 38.77).
    const near = await driverAt(8.95, 38.76); // ~4 mi
    const wantsFlatbed = await driverAt(9.0, 38.8, { equipmentTypes: ["flatbed", "tanker"] });
    const wantsReefer = await driverAt(9.0, 38.8, { equipmentTypes: ["refrigerated"] });
    const far = await driverAt(8.54, 39.27); // Adama, ~42 mi: outside 25
    const offAlerts = await driverAt(8.9, 38.77, { enabled: false });
    const wide = await driverAt(9.6, 41.85, { radiusMiles: 250 }); // Dire Dawa, ~215 mi
    await near.c.put("/api/messaging/load-alerts", { enabled: true, radiusMiles: 25, equipmentTypes: [] });
    await far.c.put("/api/messaging/load-alerts", { enabled: true, radiusMiles: 25, equipmentTypes: [] });
    expect(offAlerts.id).toBeGreaterThan(0);
    const loadId = (await shipper.post("/api/loads", loadInput({ equipmentType: "flatbed" }))).json.id as number;
    await run();
    await run();
    expect(await alerted(loadId)).toEqual([near.id, wantsFlatbed.id, wide.id].sort((a, b) => a - b));
    const [n] = await t.rows<{ title: string; body: string }>(
      "SELECT title, body FROM notifications WHERE user_id = ? AND load_id = ?",
      near.id,
      loadId,
    );
    expect(n.title).toBe("New load near you");
    expect(n.body).toContain("Addis Ababa, Ethiopia → Adama, Ethiopia");
    expect(n.body).toContain("4 mi from you");
    // Running the alerts again adds nothing.
    await t.rows("UPDATE jobs SET status = 'pending', run_at = 0 WHERE kind = 'load_alerts'");
    await run();
    await run();
    expect(await alerted(loadId)).toHaveLength(3);
    expect(wantsReefer.id).toBeGreaterThan(0);
  });

  test("the alert says the distance in the driver's units and language", async () => {
    const metric = await driverAt(8.95, 38.76, { radiusMiles: 25 });
    expect((await metric.c.put("/api/user/units", { units: "metric" })).status).toBe(200);
    expect((await metric.c.put("/api/user/language", { language: "om" })).status).toBe(200);
    const imperial = await driverAt(8.95, 38.76, { radiusMiles: 25 });
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await run();
    await run();
    const body = async (userId: number) =>
      (
        await t.rows<{ body: string }>(
          "SELECT body FROM notifications WHERE user_id = ? AND load_id = ? AND channel = 'in_app'",
          userId,
          loadId,
        )
      )[0]?.body;
    // About 4 miles: 6 km.
    expect(await body(metric.id)).toMatch(/\b6 km\b/);
    expect(await body(metric.id)).not.toContain("mi ");
    expect(await body(imperial.id)).toContain("4 mi from you");
  });

  test("the area moves with the driver; an unavailable driver is not alerted", async () => {
    const d = await driverAt(9.6, 41.85, { radiusMiles: 25 }); // Dire Dawa
    let loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await run();
    expect(await alerted(loadId)).toEqual([]);
    expect((await d.c.post("/api/drivers/location", { latitude: 8.92, longitude: 38.75 })).status).toBe(200);
    loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await run();
    await run();
    expect(await alerted(loadId)).toEqual([d.id]);
    expect((await d.c.put("/api/drivers/availability", { isAvailable: false })).status).toBe(200);
    loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await run();
    await run();
    expect(await alerted(loadId)).toEqual([]);
  });

  test("alerts are premium, as bidding is: an expired driver is not alerted and cannot switch them on; changes and off stay open", async () => {
    const keeps = await driverAt(8.95, 38.76, { radiusMiles: 25 });
    const expired = await driverAt(8.95, 38.76, { radiusMiles: 25 });
    const never = await driverAt(8.95, 38.76);
    const past = Date.now() - 86_400_000;
    await t.rows("UPDATE users SET trial_ends_at = ? WHERE id IN (?, ?)", past, expired.id, never.id);
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await run();
    await run();
    expect(await alerted(loadId)).toEqual([keeps.id]);
    // Switching on needs premium; the one whose alerts are on may still change them, or switch them off.
    const on = await never.c.put("/api/messaging/load-alerts", { enabled: true, radiusMiles: 50, equipmentTypes: [] });
    expect(on.status).toBe(402);
    expect(on.json.code).toBe("SUBSCRIPTION_REQUIRED");
    expect((await never.c.get("/api/messaging/load-alerts")).json.enabled).toBe(false);
    const wider = { enabled: true, radiusMiles: 100, equipmentTypes: [] };
    expect((await expired.c.put("/api/messaging/load-alerts", wider)).status).toBe(200);
    expect((await expired.c.put("/api/messaging/load-alerts", { ...wider, enabled: false })).status).toBe(200);
    // A job matched before the premium ended sends nothing when it runs after.
    const late = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await t.rows("UPDATE users SET trial_ends_at = ? WHERE id = ?", past, keeps.id);
    await t.rows("UPDATE jobs SET status = 'done' WHERE kind = 'load_alerts'");
    await t.rows(
      "INSERT INTO jobs (kind, payload, status, run_at, attempts, max_attempts, created_at, updated_at) VALUES ('notify', ?, 'pending', 0, 0, 8, 0, 0)",
      JSON.stringify({ userId: keeps.id, event: "load_nearby", loadId: late, distance: 4 }),
    );
    await run();
    expect(await alerted(late)).toEqual([]);
  });

  test("settings: defaults, saved and read back, the driver's own only; bad input names the field; shippers refused", async () => {
    const d = await driverAt(8.95, 38.76);
    const got = await d.c.get("/api/messaging/load-alerts");
    expect(got.json).toMatchObject({
      enabled: false,
      radiusMiles: 50,
      equipmentTypes: [],
      location: { latitude: 8.95 },
    });
    const saved = await d.c.put("/api/messaging/load-alerts", {
      enabled: true,
      radiusMiles: 100,
      equipmentTypes: ["tanker", "tanker"],
    });
    expect(saved.json).toMatchObject({ enabled: true, radiusMiles: 100, equipmentTypes: ["tanker"] });
    const other = await driverAt(1, 1);
    expect((await other.c.get("/api/messaging/load-alerts")).json.enabled).toBe(false);
    for (const [body, field] of [
      [{ enabled: true, radiusMiles: 30, equipmentTypes: [] }, "radiusMiles"],
      [{ enabled: true, radiusMiles: 50, equipmentTypes: ["boat"] }, "equipmentTypes.0"],
      [{ radiusMiles: 50, equipmentTypes: [] }, "enabled"],
    ] as const) {
      const res = await d.c.put("/api/messaging/load-alerts", body);
      expect(res.status).toBe(400);
      expect(res.json.issues[0].path).toBe(field);
    }
    expect((await d.c.get("/api/messaging/load-alerts")).json.radiusMiles).toBe(100);
    expect((await shipper.get("/api/messaging/load-alerts")).status).toBe(403);
    expect((await createClient(t).get("/api/messaging/load-alerts")).status).toBe(401);
  });

  test("matching reads the index", async () => {
    if (t.engine === "sqlite") {
      const plan = await t.rows<{ detail: string }>(
        `EXPLAIN QUERY PLAN SELECT a.user_id FROM load_alerts_rtree r CROSS JOIN load_alerts a ON a.user_id = r.id
         WHERE r.min_lat <= 9 AND r.max_lat >= 9 AND r.min_lng <= 38 AND r.max_lng >= 38`,
      );
      expect(plan.map((p) => p.detail).join(" ")).toContain("VIRTUAL TABLE INDEX");
    } else {
      await t.rows("SET enable_seqscan = off");
      const plan = await t.rows<{ "QUERY PLAN": string }>(
        `EXPLAIN SELECT a.user_id FROM load_alerts a
         WHERE earth_box(ll_to_earth(a.latitude, a.longitude), a.radius_miles * 1609.344) @> ll_to_earth(9, 38)
           AND a.enabled AND a.latitude IS NOT NULL`,
      );
      expect(plan.map((p) => p["QUERY PLAN"]).join(" ")).toContain("load_alerts_area_idx");
    }
  });
});

test("alert boxes hold their circle, and take every longitude near a pole or across the 180th meridian", () => {
  const b = alertBox(9, 38.7, 50);
  expect(b.minLat).toBeLessThan(9 - 50 / 69.1);
  expect(b.maxLng).toBeGreaterThan(38.7 + 50 / (69.1 * Math.cos((9.8 * Math.PI) / 180)));
  expect(alertBox(89.5, 10, 100)).toMatchObject({ minLng: -180, maxLng: 180, maxLat: 90 });
  expect(alertBox(-17, 179.5, 100)).toMatchObject({ minLng: -180, maxLng: 180 });
});
