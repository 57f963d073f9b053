import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { housekeeping } from "../modules/platform/housekeeping";
import { thin } from "../modules/tracking/eta";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

type TClient = ReturnType<typeof createClient>;
const MIN = 60_000;

let t: TTestApp;
let shipper: TClient;
let otherShipper: TClient;
let driver: TClient;
let driver2: TClient;
let anon: TClient;

beforeAll(async () => {
  t = await createTestApp();
  shipper = createClient(t);
  otherShipper = createClient(t);
  driver = createClient(t);
  driver2 = createClient(t);
  anon = createClient(t);
  await registerUser(shipper, "shipper");
  await registerUser(otherShipper, "shipper");
  await registerUser(driver, "driver");
  await registerUser(driver2, "driver");
});
afterAll(closeTestApps);

/** A load from Addis Ababa (Kality) to Adama awarded to `driver` a day ago, optionally picked up. */
const awarded = async (pickedUp = true) => {
  const load = (await shipper.post("/api/loads", loadInput())).json;
  const bid = (await driver.post(`/api/loads/${load.id}/bids`, { amount: 900 })).json.bid;
  expect((await shipper.post(`/api/bids/${bid.id}/accept`)).status).toBe(200);
  // Awarded a day ago, so the points a test sends from the last hours lie inside the trip.
  await t.rows("UPDATE bids SET updated_at = ? WHERE id = ?", Date.now() - 24 * 60 * MIN, bid.id);
  if (pickedUp) expect((await driver.post(`/api/loads/${load.id}/pickup`)).status).toBe(200);
  return load.id as number;
};

const at = (msAgo: number) => new Date(Date.now() - msAgo).toISOString();
const point = (latitude: number, longitude: number, msAgo: number, extra: Record<string, unknown> = {}) => ({
  latitude,
  longitude,
  recordedAt: at(msAgo),
  ...extra,
});
const countPoints = async (loadId: number) =>
  (await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) n FROM trip_points WHERE load_id = ?", loadId))[0].n;

describe("POST /api/loads/:id/positions", () => {
  test("the assigned driver's batch joins the track; a batch sent again adds nothing", async () => {
    const loadId = await awarded();
    const batch = [
      point(8.88, 38.8, 40_000, { accuracy: 12, speed: 20, heading: 120 }),
      point(8.86, 38.84, 20_000),
      point(8.84, 38.88, 1_000),
    ];
    const first = await driver.post(`/api/loads/${loadId}/positions`, { positions: batch });
    expect(first.status).toBe(200);
    expect(first.json).toMatchObject({ stored: 3, ignored: 0, lastPosition: { latitude: 8.84, longitude: 38.88 } });
    const again = await driver.post(`/api/loads/${loadId}/positions`, { positions: batch });
    expect(again.json).toMatchObject({ stored: 0, ignored: 3, lastPosition: null });
    expect(await countPoints(loadId)).toBe(3);
    const [stored] = await t.rows<{ accuracy: number; speed: number; heading: number }>(
      "SELECT accuracy, speed, heading FROM trip_points WHERE load_id = ? ORDER BY recorded_at LIMIT 1",
      loadId,
    );
    expect(stored).toEqual({ accuracy: 12, speed: 20, heading: 120 });
    // The driver's own position follows the newest point.
    expect((await driver.get("/api/auth/user")).json.user.location).toMatchObject({ latitude: 8.84, longitude: 38.88 });
  });

  test("a batch moves the driver's load-alert area to its newest point and writes one live event for the shipper", async () => {
    expect(
      (await driver.put("/api/messaging/load-alerts", { enabled: true, radiusMiles: 50, equipmentTypes: [] })).status,
    ).toBe(200);
    const loadId = await awarded();
    const driverId = (await driver.get("/api/auth/user")).json.user.id as number;
    const shipperId = (await shipper.get("/api/auth/user")).json.user.id as number;
    const liveEvents = async () =>
      (
        await t.rows<{ n: number }>(
          "SELECT CAST(count(*) AS INTEGER) n FROM live_events WHERE user_id = ? AND kind = 'load' AND payload = ?",
          shipperId,
          JSON.stringify({ loadId }),
        )
      )[0].n;
    const before = await liveEvents();
    // Earlier tests left the driver at a newer point than these; the area follows the driver's own newest position.
    await t.rows("UPDATE users SET location_updated_at = NULL WHERE id = ?", driverId);
    const res = await driver.post(`/api/loads/${loadId}/positions`, {
      positions: [point(8.61, 39.1, 10_000), point(8.7, 39.0, 30_000)],
    });
    expect(res.json).toMatchObject({ stored: 2 });
    const [area] = await t.rows<{ latitude: number; longitude: number; minLat: number; maxLat: number }>(
      'SELECT latitude, longitude, min_lat AS "minLat", max_lat AS "maxLat" FROM load_alerts WHERE user_id = ?',
      driverId,
    );
    // The newest point (not the last one in the batch) is where the alerts now look from, 50 miles around it.
    // (PostgreSQL keeps these as single-precision reals.)
    expect(area.latitude).toBeCloseTo(8.61, 4);
    expect(area.longitude).toBeCloseTo(39.1, 4);
    expect(area.minLat).toBeLessThan(8.61 - 0.7);
    expect(area.maxLat).toBeGreaterThan(8.61 + 0.7);
    expect(await liveEvents()).toBe(before + 1);
    expect(
      (await driver.put("/api/messaging/load-alerts", { enabled: false, radiusMiles: 50, equipmentTypes: [] })).status,
    ).toBe(200);
  });

  test("between award and pickup the driver may share too", async () => {
    const loadId = await awarded(false);
    const res = await driver.post(`/api/loads/${loadId}/positions`, { positions: [point(8.95, 38.7, 1000)] });
    expect(res.json.stored).toBe(1);
  });

  test("another driver, the shipper and a signed-out caller cannot add points", async () => {
    const loadId = await awarded();
    const body = { positions: [point(8.88, 38.8, 1000)] };
    expect((await driver2.post(`/api/loads/${loadId}/positions`, body)).status).toBe(404);
    expect((await driver2.post("/api/loads/999999/positions", body)).status).toBe(404);
    expect((await shipper.post(`/api/loads/${loadId}/positions`, body)).status).toBe(403);
    expect((await anon.post(`/api/loads/${loadId}/positions`, body)).status).toBe(401);
    expect(await countPoints(loadId)).toBe(0);
  });

  test.each([
    ["positions", {}, "positions must be a list"],
    ["positions", { positions: [] }, "positions must hold at least one point"],
    [
      "positions",
      { positions: Array.from({ length: 101 }, (_, i) => point(8.8, 38.8, 1000 + i)) },
      "positions must hold at most 100 points",
    ],
    ["positions.1.latitude", { positions: [point(8.8, 38.8, 1000), point(91, 38.8, 500)] }, "between -90 and 90"],
    ["positions.0.longitude", { positions: [point(8.8, -181, 500)] }, "between -180 and 180"],
    [
      "positions.0.recordedAt",
      { positions: [{ latitude: 8.8, longitude: 38.8, recordedAt: "soon" }] },
      "date and time",
    ],
    ["positions.0.accuracy", { positions: [point(8.8, 38.8, 500, { accuracy: -1 })] }, "accuracy must be between"],
    [
      "positions.3.recordedAt",
      { positions: [0, 1, 2].map((i) => point(8.8, 38.8, 1000 + i)).concat(point(8.8, 38.8, -60 * MIN)) },
      "must not be in the future",
    ],
    ["positions.0.recordedAt", { positions: [point(8.8, 38.8, 30 * 24 * 60 * MIN)] }, "before the load was awarded"],
  ])("a bad %s is a 400 naming it, and nothing is stored", async (path, body, message) => {
    const loadId = await awarded();
    const res = await driver.post(`/api/loads/${loadId}/positions`, body);
    expect(res.status).toBe(400);
    const issue = res.json.issues.find((i: { path: string }) => i.path === path);
    expect(issue?.message).toContain(message);
    expect(await countPoints(loadId)).toBe(0);
  });

  test("a delivered load keeps the points from before the delivery and ignores the later ones", async () => {
    const loadId = await awarded();
    await driver.post(`/api/loads/${loadId}/deliver`);
    // The queue held these while the phone was offline: one before the delivery, one after.
    const res = await driver.post(`/api/loads/${loadId}/positions`, {
      positions: [point(8.6, 39.2, 5 * 1000), point(8.54, 39.27, -30_000)],
    });
    expect(res.json).toMatchObject({ stored: 1, ignored: 1 });
  });

  test("a cancelled load is not tracked: 409", async () => {
    const loadId = await awarded(false);
    await shipper.post(`/api/loads/${loadId}/cancel`, { reason: "Order postponed" });
    const res = await driver.post(`/api/loads/${loadId}/positions`, { positions: [point(8.8, 38.8, 1000)] });
    expect(res.status).toBe(409);
    expect(res.json.message).toContain("not being tracked");
  });

  test("POST /api/drivers/location keeps working and feeds the track in transit, once per time", async () => {
    const loadId = await awarded();
    const res = await driver.post("/api/drivers/location", { latitude: 8.8, longitude: 38.9 });
    expect(res.status).toBe(200);
    expect(res.json.trackedLoadIds).toContain(loadId);
    expect(await countPoints(loadId)).toBe(1);
  });
});

describe("GET /api/loads/:id/track", () => {
  test("the shipper and the driver see positions, the last one, miles left and an ETA at the recent speed", async () => {
    const loadId = await awarded();
    // From Kality toward Adama: about 0.1° of latitude and longitude per 10 minutes, some 60 mph.
    const positions = [0, 1, 2, 3].map((i) => point(8.9 - 0.1 * i * 0.4, 38.77 + 0.1 * i, (30 - i * 10) * MIN));
    await driver.post(`/api/loads/${loadId}/positions`, { positions });
    for (const who of [shipper, driver]) {
      const res = await who.get(`/api/loads/${loadId}/track`);
      expect(res.status).toBe(200);
      expect(res.json.status).toBe("in_transit");
      expect(res.json.positions).toHaveLength(4);
      expect(res.json.lastPosition).toMatchObject({ latitude: positions[3].latitude, longitude: 39.07 });
      // About 21.5 great-circle miles left, times Ethiopia's road factor of 1.4.
      expect(res.json.remainingMiles).toBeGreaterThan(29);
      expect(res.json.remainingMiles).toBeLessThan(31);
      const eta = Date.parse(res.json.eta) - Date.parse(res.json.etaComputedAt);
      const mph = res.json.remainingMiles / (eta / 3_600_000);
      expect(mph).toBeGreaterThan(30);
      expect(mph).toBeLessThan(90);
      expect(res.json.events).toEqual([]);
    }
  });

  test("without points: no position, the whole road left, no ETA yet", async () => {
    const loadId = await awarded(false);
    const res = await driver.get(`/api/loads/${loadId}/track`);
    expect(res.json).toMatchObject({ status: "assigned", positions: [], lastPosition: null, eta: null });
    expect(res.json.remainingMiles).toBeGreaterThan(50);
  });

  test("another shipper, another driver and unknown loads are 404; signed out is 401; a bad id is 400", async () => {
    const loadId = await awarded();
    expect((await otherShipper.get(`/api/loads/${loadId}/track`)).status).toBe(404);
    expect((await driver2.get(`/api/loads/${loadId}/track`)).status).toBe(404);
    expect((await driver2.get("/api/loads/999999/track")).status).toBe(404);
    expect((await anon.get(`/api/loads/${loadId}/track`)).status).toBe(401);
    const bad = await shipper.get("/api/loads/abc/track");
    expect(bad.status).toBe(400);
    expect(bad.json.message).toContain("id must be a positive integer");
  });

  test("a long trip's track is thinned to at most 500 points, first and last kept", async () => {
    const loadId = await awarded();
    const start = Date.now() - 12 * 60 * MIN;
    for (let b = 0; b < 7; b++) {
      const positions = Array.from({ length: 100 }, (_, i) => {
        const n = b * 100 + i;
        return {
          latitude: 8.9 - n * 0.0005,
          longitude: 38.77 + n * 0.0007,
          recordedAt: new Date(start + n * MIN).toISOString(),
        };
      });
      expect((await driver.post(`/api/loads/${loadId}/positions`, { positions })).json.stored).toBe(100);
    }
    const res = await shipper.get(`/api/loads/${loadId}/track`);
    expect(res.json.positions).toHaveLength(500);
    expect(res.json.positions[0].recordedAt).toBe(new Date(start).toISOString());
    expect(res.json.lastPosition.recordedAt).toBe(new Date(start + 699 * MIN).toISOString());
    expect(res.json.positions.at(-1)).toEqual(res.json.lastPosition);
    // Exactly the points an even spread over all 700 picks (the database picks them), in time order.
    const all = Array.from({ length: 700 }, (_, n) => new Date(start + n * MIN).toISOString());
    const picked = thin(all, 500);
    expect(res.json.positions.map((p: { recordedAt: string }) => p.recordedAt)).toEqual(picked);
    // The load's page draws the same line over the whole trip, not the last 500 points.
    const page = await shipper.get(`/api/loads/${loadId}`);
    expect(page.json.track.points.map((p: { recordedAt: string }) => p.recordedAt)).toEqual(picked);
  });
});

describe("arrival and delay", () => {
  type TNote = { title: string; body: string };
  const notes = async (who: TClient) =>
    ((await who.get("/api/notifications")).json.items as TNote[]).filter((n) =>
      /pickup point|delivery point|running late/.test(n.title),
    );

  test("within 500 m of the pickup point the shipper is told once; of the delivery point after pickup, once", async () => {
    const before = (await notes(shipper)).length;
    const loadId = await awarded(false);
    // Kality is at 8.9, 38.77: 0.003° north is about 330 m; 0.01° is over a kilometre.
    await driver.post(`/api/loads/${loadId}/positions`, { positions: [point(8.91, 38.77, 60_000)] });
    expect((await driver.get(`/api/loads/${loadId}/track`)).json.events).toEqual([]);
    await driver.post(`/api/loads/${loadId}/positions`, { positions: [point(8.903, 38.77, 30_000)] });
    await driver.post(`/api/loads/${loadId}/positions`, { positions: [point(8.9, 38.77, 20_000)] });
    const track = (await shipper.get(`/api/loads/${loadId}/track`)).json;
    expect(track.events.map((e: { kind: string }) => e.kind)).toEqual(["arrived_pickup"]);
    const told = await notes(shipper);
    expect(told.length).toBe(before + 1);
    expect(told[0]).toMatchObject({ title: "Driver at the pickup point" });
    expect(told[0].body).toContain("is within 500 m of the pickup point of Cement, 40 t");

    await driver.post(`/api/loads/${loadId}/pickup`);
    await driver.post(`/api/loads/${loadId}/positions`, { positions: [point(8.541, 39.271, 10_000)] });
    await driver.post(`/api/loads/${loadId}/positions`, { positions: [point(8.5405, 39.27, 5_000)] });
    const kinds = (await shipper.get(`/api/loads/${loadId}/track`)).json.events.map((e: { kind: string }) => e.kind);
    expect(kinds).toEqual(["arrived_pickup", "arrived_delivery"]);
    expect((await notes(shipper))[0]).toMatchObject({ title: "Driver at the delivery point" });
  });

  test("an ETA past the delivery date is told once, and again only when it slips another hour", async () => {
    const { recordPositions } = await import("../modules/tracking/positions");
    const loadId = await awarded();
    const driverId = (await driver.get("/api/auth/user")).json.user.id as number;
    // Due two hours ago: any ETA is late.
    await t.rows("UPDATE loads SET delivery_date = ? WHERE id = ?", Date.now() - 2 * 60 * MIN, loadId);
    const before = (await notes(shipper)).length;
    // About 60 mph, some 30 road miles from Adama.
    await driver.post(`/api/loads/${loadId}/positions`, {
      positions: [point(8.9, 38.77, 20 * MIN), point(8.8, 38.9, 10 * MIN)],
    });
    let events = (await shipper.get(`/api/loads/${loadId}/track`)).json.events;
    expect(events.map((e: { kind: string }) => e.kind)).toEqual(["delayed"]);
    expect(Date.parse(events[0].eta)).toBeGreaterThan(Date.now());
    const late = await notes(shipper);
    expect(late.length).toBe(before + 1);
    expect(late[0].title).toBe("Load running late");
    expect(late[0].body).toMatch(/Cement, 40 t is now expected about \d+ hours? after its delivery date\./);

    // A minute later, a little further: the ETA moved by minutes, nothing new is told.
    await driver.post(`/api/loads/${loadId}/positions`, { positions: [point(8.79, 38.91, 9 * MIN)] });
    expect((await shipper.get(`/api/loads/${loadId}/track`)).json.events).toHaveLength(1);

    // Two hours on, the truck has not moved: at the default pace the ETA slipped past the hour, told again.
    const later = Date.now() + 2 * 60 * MIN;
    await recordPositions(
      t.db,
      { id: driverId },
      loadId,
      [{ latitude: 8.79, longitude: 38.91, recordedAt: later - MIN, accuracy: null, speed: null, heading: null }],
      later,
    );
    events = (await shipper.get(`/api/loads/${loadId}/track`)).json.events;
    expect(events.map((e: { kind: string }) => e.kind)).toEqual(["delayed", "delayed"]);
    expect(Date.parse(events[1].eta) - Date.parse(events[0].eta)).toBeGreaterThanOrEqual(60 * MIN);
    expect((await notes(shipper)).length).toBe(before + 2);
  });
});

describe("pruning", () => {
  const DAY = 24 * 60 * MIN;
  /** A trip with `n` points a minute apart over the last hours, then marked completed `daysAgo` days ago. */
  const endedTrip = async (n: number, daysAgo: number) => {
    const loadId = await awarded();
    const start = Date.now() - 20 * 60 * MIN;
    for (let b = 0; b < n / 100; b++) {
      const positions = Array.from({ length: 100 }, (_, i) => ({
        latitude: 8.9 - (b * 100 + i) * 0.0005,
        longitude: 38.77 + (b * 100 + i) * 0.0007,
        recordedAt: new Date(start + (b * 100 + i) * MIN).toISOString(),
      }));
      expect((await driver.post(`/api/loads/${loadId}/positions`, { positions })).json.stored).toBe(100);
    }
    await t.rows(
      "UPDATE loads SET status = 'completed', completed_at = ? WHERE id = ?",
      Date.now() - daysAgo * DAY,
      loadId,
    );
    return { loadId, start };
  };

  test("90 days after the trip ended its track is cut to a 100-point outline, once; a newer trip keeps every point", async () => {
    const old = await endedTrip(300, 91);
    const recent = await endedTrip(200, 89);
    const first = await housekeeping(t.db);
    expect(first.trackPoints).toBeGreaterThanOrEqual(200);
    expect(await countPoints(old.loadId)).toBe(100);
    expect(await countPoints(recent.loadId)).toBe(200);
    // The outline still runs from the first point to the last, and the track answer draws it.
    const res = await shipper.get(`/api/loads/${old.loadId}/track`);
    expect(res.json.positions).toHaveLength(100);
    expect(res.json.positions[0].recordedAt).toBe(new Date(old.start).toISOString());
    expect(res.json.lastPosition.recordedAt).toBe(new Date(old.start + 299 * MIN).toISOString());
    // Done once: a later run takes nothing more from it.
    await housekeeping(t.db);
    expect(await countPoints(old.loadId)).toBe(100);
    // Two days later the newer trip is past 90 days too.
    await housekeeping(t.db, Date.now() + 2 * DAY);
    expect(await countPoints(recent.loadId)).toBe(100);
  });
});
