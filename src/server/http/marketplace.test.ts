import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;

let t: TTestApp;
let shipper: TClient;
let otherShipper: TClient;
let driver: TClient;
let driver2: TClient;
let anon: TClient;
let ids: Record<string, number>;

beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t);
  otherShipper = createClient(t);
  driver = createClient(t);
  driver2 = createClient(t);
  anon = createClient(t);
  ids = {
    shipper: (await registerUser(shipper, "shipper")).id,
    otherShipper: (await registerUser(otherShipper, "shipper")).id,
    driver: (await registerUser(driver, "driver")).id,
    driver2: (await registerUser(driver2, "driver")).id,
  };
});

const postLoad = async (over: Record<string, unknown> = {}, who = shipper) => {
  const res = await who.post("/api/loads", loadInput(over));
  if (res.status !== 201) throw new Error(`post load: ${res.status} ${res.text}`);
  return res.json as { id: number; [k: string]: unknown };
};

const countLoads = async () => (await t.rows<{ n: number }>("select CAST(count(*) AS INTEGER) n from loads"))[0].n;

describe("posting loads", () => {
  test("a shipper posts a load: 201, posted, source mytess, computed distance and rate per mile", async () => {
    const res = await shipper.post("/api/loads", loadInput());
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      title: "Cement, 40 t",
      status: "posted",
      source: { type: "mytess" },
      budgetAmount: 1000,
      budgetCurrency: "USD",
      weight: 40000,
      pickupLocation: "Addis Ababa, Ethiopia",
      isUrgent: false,
    });
    expect(res.json.tripMiles).toBeGreaterThan(40);
    expect(res.json.tripMiles).toBeLessThan(50);
    expect(res.json.ratePerMile).toBeCloseTo(1000 / res.json.tripMiles, 1);
  });

  test("drivers cannot post loads and signed-out callers must sign in", async () => {
    expect((await driver.post("/api/loads", loadInput())).status).toBe(403);
    expect((await anon.post("/api/loads", loadInput())).status).toBe(401);
    expect(await countLoads()).toBe(0);
  });

  test.each([
    ["title", { title: "" }, "title is required"],
    ["equipmentType", { equipmentType: "rocket" }, "equipmentType must be one of"],
    ["pickupCity", { pickupCity: undefined }, "pickupCity is required"],
    ["pickupLatitude", { pickupLatitude: 91 }, "pickupLatitude must be between -90 and 90"],
    ["deliveryLongitude", { deliveryLongitude: -181 }, "deliveryLongitude must be between -180 and 180"],
    ["weight", { weight: "40000" }, "weight must be a number"],
    ["weight", { weight: 0 }, "weight must be greater than 0"],
    ["budgetAmount", { budgetAmount: -5 }, "budgetAmount must be greater than 0"],
    ["budgetAmount", { budgetAmount: 10.005 }, "budgetAmount must have at most 2 decimals"],
    ["budgetCurrency", { budgetCurrency: "XYZ" }, "currency must be one of"],
    ["pickupDate", { pickupDate: "tomorrow-ish" }, "pickupDate must be a date and time"],
    ["pickupDate", { pickupDate: new Date(Date.now() - DAY).toISOString() }, "pickupDate must not be in the past"],
    [
      "deliveryDate",
      { deliveryDate: new Date(Date.now() + 2 * DAY).toISOString() },
      "deliveryDate must be after pickupDate",
    ],
  ])("an invalid %s is a 400 naming it, and nothing is written", async (field, over, message) => {
    const res = await shipper.post("/api/loads", loadInput(over));
    expect(res.status).toBe(400);
    const issue = res.json.issues.find((i: { path: string }) => i.path === field);
    expect(issue?.message).toContain(message);
    expect(await countLoads()).toBe(0);
  });

  test("budgets may be in ETB, EUR, GBP or CAD; USD is the default", async () => {
    for (const budgetCurrency of ["ETB", "EUR", "GBP", "CAD"]) {
      expect((await postLoad({ budgetCurrency })).budgetCurrency).toBe(budgetCurrency);
    }
    const { budgetCurrency: _omit, ...noCurrency } = loadInput();
    expect((await shipper.post("/api/loads", noCurrency)).json.budgetCurrency).toBe("USD");
  });
});

describe("finding loads", () => {
  const here = { latitude: 8.99, longitude: 38.79 }; // Bole, Addis Ababa
  const q = (params: Record<string, string | number>) =>
    `/api/loads?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;

  beforeEach(async () => {
    await postLoad({
      title: "Near",
      pickupLatitude: 9.0,
      pickupLongitude: 38.8,
      budgetAmount: 500,
      pickupDate: new Date(Date.now() + 1 * DAY).toISOString(),
      deliveryDate: new Date(Date.now() + 2 * DAY).toISOString(),
    });
    await postLoad({
      title: "Adama",
      pickupCity: "Adama",
      pickupLatitude: 8.54,
      pickupLongitude: 39.27,
      budgetAmount: 4000,
      equipmentType: "refrigerated",
      weight: 12000,
    });
    await postLoad({
      title: "Dire Dawa",
      pickupCity: "Dire Dawa",
      pickupLatitude: 9.6,
      pickupLongitude: 41.85,
      deliveryLatitude: 11.59,
      deliveryLongitude: 43.15,
      deliveryCity: "Djibouti",
      deliveryCountry: "Djibouti",
    });
    await postLoad({
      title: "Chicago",
      pickupCity: "Chicago",
      pickupState: "IL",
      pickupCountry: "USA",
      pickupLatitude: 41.88,
      pickupLongitude: -87.63,
      deliveryLatitude: 32.78,
      deliveryLongitude: -96.8,
      deliveryCity: "Dallas",
      deliveryCountry: "USA",
    });
  });

  test("near me: within the radius, nearest first, with distance and urgency", async () => {
    const res = await driver.get(q({ ...here, radius: 50 }));
    expect(res.status).toBe(200);
    expect(res.json.map((l: { title: string }) => l.title)).toEqual(["Near", "Adama"]);
    expect(res.json[0].distance).toBeLessThan(2);
    expect(res.json[1].distance).toBeGreaterThan(40);
    expect(res.json[0].isUrgent).toBe(true);
    expect(res.json[1].isUrgent).toBe(false);
    const wide = await driver.get(q({ ...here, radius: 250 }));
    expect(wide.json.map((l: { title: string }) => l.title)).toEqual(["Near", "Adama", "Dire Dawa"]);
  });

  test("the radius defaults to 50 and must be one of the options", async () => {
    expect((await driver.get(q(here))).json).toHaveLength(2);
    const bad = await driver.get(q({ ...here, radius: 30 }));
    expect(bad.status).toBe(400);
    expect(bad.json.issues[0].path).toBe("radius");
  });

  test("filters: equipment, weight, minimum rate per mile, location, source, status", async () => {
    const titles = async (params: Record<string, string | number>) =>
      (await driver.get(q(params))).json.map((l: { title: string }) => l.title).sort();
    expect(await titles({ ...here, radius: 500, equipmentType: "refrigerated" })).toEqual(["Adama"]);
    expect(await titles({ ...here, radius: 500, maxWeight: 20000 })).toEqual(["Adama"]);
    expect(await titles({ location: "dallas" })).toEqual(["Chicago"]);
    expect(await titles({ location: "Ethiopia" })).toEqual(["Adama", "Dire Dawa", "Near"]);
    expect(await titles({ sourceType: "external" })).toEqual([]);
    expect(await titles({ sourceType: "mytess" })).toHaveLength(4);
    expect(await titles({ status: "completed" })).toEqual([]);
    const rates = (await driver.get(q({ minRate: 50 }))).json;
    expect(rates.map((l: { title: string }) => l.title)).toEqual(["Adama"]);
  });

  test("near me follows a load's changes of equipment, weight and status", async () => {
    const titles = async (params: Record<string, string | number>) =>
      (await driver.get(q(params))).json.map((l: { title: string }) => l.title);
    const flatbedLight = { ...here, radius: 500, equipmentType: "flatbed", maxWeight: 6000 };
    expect(await titles(flatbedLight)).toEqual([]);
    // No route edits these columns today; the index must follow whatever does (a sync's upsert, an operator).
    await t.rows("UPDATE loads SET equipment_type = 'flatbed', weight_lbs = 5000 WHERE title = 'Near' RETURNING id");
    expect(await titles(flatbedLight)).toEqual(["Near"]);
    await t.rows("UPDATE loads SET status = 'assigned' WHERE title = 'Near' RETURNING id");
    expect(await titles(flatbedLight)).toEqual([]);
    expect(await titles({ ...here, radius: 500 })).toEqual(["Adama", "Dire Dawa"]);
  });

  test("sorts by rate per mile (highest first) and by pickup date (soonest first)", async () => {
    const byRate = (await driver.get(q({ sort: "rate" }))).json;
    const perMile = byRate.map((l: { ratePerMile: number }) => l.ratePerMile);
    expect(perMile).toEqual([...perMile].sort((a, b) => b - a));
    const byDate = (await driver.get(q({ sort: "date" }))).json;
    expect(byDate[0].title).toBe("Near");
  });

  test("pages", async () => {
    const first = await driver.get(q({ sort: "date", pageSize: 3 }));
    const second = await driver.get(q({ sort: "date", pageSize: 3, page: 2 }));
    expect(first.json).toHaveLength(3);
    expect(second.json).toHaveLength(1);
    const all = [...first.json, ...second.json].map((l: { id: number }) => l.id);
    expect(new Set(all).size).toBe(4);
  });

  test("the board's figures count every match", async () => {
    const stats = await driver.get(`/api/loads/stats?latitude=${here.latitude}&longitude=${here.longitude}&radius=100`);
    expect(stats.json).toMatchObject({ total: 2, urgent: 1, external: 0 });
    expect(stats.json.avgRatePerMileUsd).toBeGreaterThan(0);
  });

  test("signed-out callers cannot search", async () => {
    expect((await anon.get("/api/loads")).status).toBe(401);
  });
});

describe("bids and award", () => {
  let loadId: number;
  beforeEach(async () => {
    loadId = (await postLoad()).id;
    await driver.post("/api/drivers/location", { latitude: 8.95, longitude: 38.8 });
    await driver2.post("/api/drivers/location", { latitude: 9.6, longitude: 41.85 });
  });

  test("a driver bids; a second bid replaces the pending one", async () => {
    const first = await driver.post(`/api/loads/${loadId}/bids`, {
      amount: 950,
      currency: "USD",
      notes: "Ready tomorrow",
    });
    expect(first.status).toBe(201);
    expect(first.json.bid).toMatchObject({ amount: 950, currency: "USD", status: "pending", notes: "Ready tomorrow" });
    const second = await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 });
    expect(second.json.replaced).toBe(true);
    expect(second.json.bid.id).toBe(first.json.bid.id);
    const mine = await driver.get("/api/bids/driver");
    expect(mine.json).toHaveLength(1);
    expect(mine.json[0]).toMatchObject({ amount: 900, currency: "USD", status: "pending", load: { id: loadId } });
  });

  test("only drivers bid; bids need a valid amount; signed-out is 401", async () => {
    expect((await shipper.post(`/api/loads/${loadId}/bids`, { amount: 900 })).status).toBe(403);
    expect((await anon.post(`/api/loads/${loadId}/bids`, { amount: 900 })).status).toBe(401);
    const bad = await driver.post(`/api/loads/${loadId}/bids`, { amount: "lots" });
    expect(bad.status).toBe(400);
    expect(bad.json.issues[0]).toEqual({ path: "amount", message: "amount must be a number" });
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "JPY" })).status).toBe(400);
    expect((await driver.post("/api/loads/99999/bids", { amount: 900 })).status).toBe(404);
    expect((await driver.get("/api/bids/driver")).json).toEqual([]);
  });

  test("the shipper sees the bids with who bid, how close they are, and the amount in the shipper's currency", async () => {
    await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" });
    await driver2.post(`/api/loads/${loadId}/bids`, { amount: 800, currency: "EUR" });
    await shipper.put("/api/user/currency", { currency: "ETB" });
    const res = await shipper.get(`/api/loads/${loadId}/bids`);
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(2);
    const near = res.json.find((b: { driverId: number }) => b.driverId === ids.driver);
    const far = res.json.find((b: { driverId: number }) => b.driverId === ids.driver2);
    expect(near).toMatchObject({
      driverName: "Dawit Alemu",
      initials: "DA",
      rating: 0,
      trips: 0,
      isClosest: true,
      viewerCurrency: "ETB",
    });
    expect(near.distance).toBeLessThan(5);
    expect(far.isClosest).toBe(false);
    expect(near.amountInViewerCurrency).toBeCloseTo(900 * 60.5, 0);
    expect(far.amountInViewerCurrency).toBeCloseTo((800 / 0.85) * 60.5, 0);
  });

  test("nobody else sees a load's bids", async () => {
    await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 });
    expect((await otherShipper.get(`/api/loads/${loadId}/bids`)).status).toBe(404);
    expect((await driver.get(`/api/loads/${loadId}/bids`)).status).toBe(403);
    expect((await driver2.get("/api/bids/driver")).json).toEqual([]);
  });

  test("accepting assigns the load and rejects the other bids together", async () => {
    const b1 = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid;
    const b2 = (await driver2.post(`/api/loads/${loadId}/bids`, { amount: 950 })).json.bid;
    const res = await shipper.post(`/api/bids/${b1.id}/accept`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "assigned", assignedDriverId: ids.driver, rejected: 1 });
    const load = await shipper.get(`/api/loads/${loadId}`);
    expect(load.json).toMatchObject({ status: "assigned", assignedDriverId: ids.driver });
    const theirs = (await driver2.get("/api/bids/driver")).json[0];
    expect(theirs.id).toBe(b2.id);
    expect(theirs.status).toBe("rejected");
    expect((await shipper.post(`/api/bids/${b2.id}/accept`)).status).toBe(409);
    expect((await driver2.post(`/api/loads/${loadId}/bids`, { amount: 700 })).status).toBe(409);
  });

  test("near-me search follows a load's status: awarded loads leave the posted board", async () => {
    const near = () => driver2.get("/api/loads?latitude=8.9&longitude=38.77&radius=25");
    expect((await near()).json.map((l: { id: number }) => l.id)).toEqual([loadId]);
    const b1 = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid;
    await shipper.post(`/api/bids/${b1.id}/accept`);
    expect((await near()).json).toEqual([]);
    // An awarded load is its parties' business: the assigned driver finds it, the other bidder does not.
    const assigned = "/api/loads?latitude=8.9&longitude=38.77&radius=25&status=assigned";
    expect((await driver.get(assigned)).json.map((l: { id: number; distance: number }) => l.id)).toEqual([loadId]);
    expect((await driver2.get(assigned)).json).toEqual([]);
  });

  test("two accepts at once never award the load twice", async () => {
    const b1 = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid;
    const b2 = (await driver2.post(`/api/loads/${loadId}/bids`, { amount: 950 })).json.bid;
    const results = await Promise.all([
      shipper.post(`/api/bids/${b1.id}/accept`),
      shipper.post(`/api/bids/${b2.id}/accept`),
    ]);
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    const [{ n: accepted }] = await t.rows<{ n: number }>(
      "select CAST(count(*) AS INTEGER) n from bids where status = 'accepted'",
    );
    expect(accepted).toBe(1);
  });

  test("accepts of different bids racing through both doors award the load once, to one driver", async () => {
    const b1 = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid;
    const b2 = (await driver2.post(`/api/loads/${loadId}/bids`, { amount: 950 })).json.bid;
    const results = await Promise.all([
      shipper.post("/trpc/bids.accept", { bidId: b1.id }),
      shipper.post(`/api/bids/${b2.id}/accept`),
      shipper.post("/trpc/bids.accept", { bidId: b2.id }),
      shipper.post(`/api/bids/${b1.id}/accept`),
    ]);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(3);
    const bidsNow = await t.rows<{ id: number; status: string }>(
      "select id, status from bids where load_id = ? order by id",
      loadId,
    );
    expect(bidsNow.map((b) => b.status).sort()).toEqual(["accepted", "rejected"]);
    const winner = bidsNow.find((b) => b.status === "accepted")!.id;
    const [load] = await t.rows<{ status: string; accepted_bid_id: number; assigned_driver_id: number }>(
      "select status, accepted_bid_id, assigned_driver_id from loads where id = ?",
      loadId,
    );
    expect(load).toMatchObject({ status: "assigned", accepted_bid_id: winner });
    expect(load.assigned_driver_id).toBe(winner === b1.id ? ids.driver : ids.driver2);
    const [{ n: awards }] = await t.rows<{ n: number }>(
      "select CAST(count(*) AS INTEGER) n from activity_events where kind = 'bid_accepted' and load_id = ?",
      loadId,
    );
    expect(awards).toBe(2); // one event for the driver, one for the shipper: a single award
  });

  test("two bids at once from one driver leave one pending bid (the second replaces the first)", async () => {
    const results = await Promise.all([
      driver.post(`/api/loads/${loadId}/bids`, { amount: 900 }),
      driver.post(`/api/loads/${loadId}/bids`, { amount: 880 }),
    ]);
    expect(results.map((r) => r.status)).toEqual([201, 201]);
    const pending = await t.rows<{ n: number }>(
      "select CAST(count(*) AS INTEGER) n from bids where load_id = ? and driver_id = ? and status = 'pending'",
      loadId,
      ids.driver,
    );
    expect(pending[0].n).toBe(1);
  });

  test("only the owning shipper accepts or rejects; only the bidder withdraws", async () => {
    const b1 = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid;
    expect((await otherShipper.post(`/api/bids/${b1.id}/accept`)).status).toBe(404);
    expect((await otherShipper.post(`/api/bids/${b1.id}/reject`)).status).toBe(404);
    expect((await driver.post(`/api/bids/${b1.id}/accept`)).status).toBe(403);
    expect((await driver2.del(`/api/bids/${b1.id}`)).status).toBe(404);
    expect((await shipper.get(`/api/loads/${loadId}`)).json.status).toBe("posted");
    const rejected = await shipper.post(`/api/bids/${b1.id}/reject`);
    expect(rejected.json.status).toBe("rejected");
    expect((await driver.del(`/api/bids/${b1.id}`)).status).toBe(409);
    const b2 = (await driver2.post(`/api/loads/${loadId}/bids`, { amount: 990 })).json.bid;
    expect((await driver2.del(`/api/bids/${b2.id}`)).json.status).toBe("withdrawn");
    expect((await shipper.get(`/api/loads/${loadId}/bids`)).json.map((b: { id: number }) => b.id)).toEqual([b1.id]);
  });
});

describe("the trip", () => {
  let loadId: number;
  let bidId: number;
  beforeEach(async () => {
    loadId = (await postLoad({ budgetAmount: 1000 })).id;
    bidId = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 })).json.bid.id;
    await driver2.post(`/api/loads/${loadId}/bids`, { amount: 950 });
  });

  test("picked up, delivered, completed; each move only from the right status", async () => {
    expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(404); // not assigned yet
    await shipper.post(`/api/bids/${bidId}/accept`);
    const early = await driver.post(`/api/loads/${loadId}/deliver`);
    expect(early.status).toBe(409);
    expect(early.json.message).toBe("Cannot move this load to delivered: it is assigned, and must be in_transit");
    expect((await driver2.post(`/api/loads/${loadId}/pickup`)).status).toBe(404);
    expect((await shipper.post(`/api/loads/${loadId}/pickup`)).status).toBe(403);
    expect((await driver.post(`/api/loads/${loadId}/pickup`)).json.status).toBe("in_transit");
    expect((await shipper.post(`/api/loads/${loadId}/complete`)).status).toBe(409);
    expect((await driver.post(`/api/loads/${loadId}/deliver`)).json.status).toBe("delivered");
    expect((await otherShipper.post(`/api/loads/${loadId}/complete`)).status).toBe(404);
    expect((await shipper.post(`/api/loads/${loadId}/complete`)).json.status).toBe("completed");
    expect((await driver.get("/api/auth/user")).json.user.totalTrips).toBe(1);
  });

  test("locations in transit form the track; the shipper sees the last position", async () => {
    await shipper.post(`/api/bids/${bidId}/accept`);
    await driver.post("/api/drivers/location", { latitude: 8.9, longitude: 38.77 }); // before pickup: not tracked
    await driver.post(`/api/loads/${loadId}/pickup`);
    await driver.post("/api/drivers/location", { latitude: 8.8, longitude: 38.9 });
    // A point is known by its time (the server's clock here, in milliseconds): a second one in the same millisecond
    // counts as the same point and is ignored, and two requests can take less than that on a fast machine.
    await Bun.sleep(2);
    const last = await driver.post("/api/drivers/location", { latitude: 8.7, longitude: 39.0 });
    expect(last.json.trackedLoadIds).toEqual([loadId]);
    const seen = await shipper.get(`/api/loads/${loadId}`);
    expect(seen.json.track.points).toHaveLength(2);
    expect(seen.json.track.lastPosition).toMatchObject({ latitude: 8.7, longitude: 39.0 });
    const mine = (await shipper.get("/api/loads/shipper")).json.find((l: { id: number }) => l.id === loadId);
    expect(mine.lastPosition).toMatchObject({ latitude: 8.7, longitude: 39.0 });
    expect(mine.assignedDriverName).toBe("Dawit Alemu");
    expect((await otherShipper.get(`/api/loads/${loadId}`)).status).toBe(404);
    expect((await driver2.get(`/api/loads/${loadId}`)).status).toBe(404);
  });

  test("location updates are drivers' only and validated", async () => {
    expect((await shipper.post("/api/drivers/location", { latitude: 9, longitude: 38 })).status).toBe(403);
    const bad = await driver.post("/api/drivers/location", { latitude: 95, longitude: 38 });
    expect(bad.status).toBe(400);
    expect(bad.json.issues[0].path).toBe("latitude");
  });

  test("cancelling: a posted load freely, an assigned one with a reason, never once it moves", async () => {
    const other = (await postLoad()).id;
    await driver.post(`/api/loads/${other}/bids`, { amount: 10 });
    expect((await otherShipper.post(`/api/loads/${other}/cancel`, {})).status).toBe(404);
    const cancelled = await shipper.post(`/api/loads/${other}/cancel`, {});
    expect(cancelled.json.status).toBe("cancelled");
    expect((await driver.get("/api/bids/driver")).json.find((b: { loadId: number }) => b.loadId === other).status).toBe(
      "rejected",
    );

    await shipper.post(`/api/bids/${bidId}/accept`);
    const noReason = await shipper.post(`/api/loads/${loadId}/cancel`, {});
    expect(noReason.status).toBe(400);
    expect(noReason.json.issues[0].path).toBe("reason");
    const withReason = await shipper.post(`/api/loads/${loadId}/cancel`, { reason: "Customer postponed the order" });
    expect(withReason.json.status).toBe("cancelled");
    const [row] = await t.rows<{ cancelled_by_id: number; cancel_reason: string }>(
      "select cancelled_by_id, cancel_reason from loads where id = ?",
      loadId,
    );
    expect(row).toEqual({ cancelled_by_id: ids.shipper, cancel_reason: "Customer postponed the order" });
    expect((await driver.get(`/api/loads/${loadId}`)).json.cancelReason).toBe("Customer postponed the order");
    expect((await shipper.post(`/api/loads/${loadId}/cancel`, { reason: "again" })).status).toBe(409);
  });

  test("after completion each side rates the other once", async () => {
    await shipper.post(`/api/bids/${bidId}/accept`);
    expect((await shipper.post(`/api/loads/${loadId}/rating`, { score: 5 })).status).toBe(409);
    await driver.post(`/api/loads/${loadId}/pickup`);
    await driver.post(`/api/loads/${loadId}/deliver`);
    await shipper.post(`/api/loads/${loadId}/complete`);
    expect((await shipper.post(`/api/loads/${loadId}/rating`, { score: 6 })).status).toBe(400);
    const rated = await shipper.post(`/api/loads/${loadId}/rating`, { score: 4 });
    expect(rated.json.ratee).toEqual({ id: ids.driver, rating: 4, totalRatings: 1 });
    expect((await shipper.post(`/api/loads/${loadId}/rating`, { score: 5 })).status).toBe(409);
    expect((await driver2.post(`/api/loads/${loadId}/rating`, { score: 1 })).status).toBe(404);
    await driver.post(`/api/loads/${loadId}/rating`, { score: 5 });
    expect((await shipper.get("/api/auth/user")).json.user).toMatchObject({ rating: 5, totalRatings: 1 });
    expect((await driver.get("/api/auth/user")).json.user).toMatchObject({ rating: 4, totalRatings: 1 });
  });
});

describe("conversations", () => {
  let loadId: number;
  beforeEach(async () => {
    loadId = (await postLoad()).id;
    await driver.post(`/api/loads/${loadId}/bids`, { amount: 900 });
  });

  test("a bidder and the shipper talk; unread counts show until read", async () => {
    expect((await driver.post(`/api/loads/${loadId}/messages`, { body: "Can you load at 7?" })).status).toBe(201);
    await driver.post(`/api/loads/${loadId}/messages`, { body: "I have a tarp." });
    const mine = (await shipper.get("/api/loads/shipper")).json.find((l: { id: number }) => l.id === loadId);
    expect(mine.unreadMessages).toBe(2);
    const convs = await shipper.get(`/api/loads/${loadId}/conversations`);
    expect(convs.json).toEqual([
      expect.objectContaining({ driverId: ids.driver, driverName: "Dawit Alemu", unread: 2 }),
    ]);
    const read = await shipper.get(`/api/loads/${loadId}/messages?driverId=${ids.driver}`);
    expect(read.json.messages.map((m: { body: string }) => m.body)).toEqual(["Can you load at 7?", "I have a tarp."]);
    expect(read.json.with.name).toBe("Dawit Alemu");
    expect(
      (await shipper.get("/api/loads/shipper")).json.find((l: { id: number }) => l.id === loadId).unreadMessages,
    ).toBe(0);
    await shipper.post(`/api/loads/${loadId}/messages`, { body: "Yes, 7 is fine.", driverId: ids.driver });
    const driverView = await driver.get(`/api/loads/${loadId}/messages`);
    expect(driverView.json.messages.at(-1)).toMatchObject({ body: "Yes, 7 is fine.", fromMe: false });
  });

  test("only the two parties see a conversation", async () => {
    await driver.post(`/api/loads/${loadId}/messages`, { body: "Hello" });
    expect((await driver2.get(`/api/loads/${loadId}/messages`)).status).toBe(404);
    expect((await driver2.post(`/api/loads/${loadId}/messages`, { body: "me too" })).status).toBe(404);
    expect((await otherShipper.get(`/api/loads/${loadId}/messages?driverId=${ids.driver}`)).status).toBe(404);
    expect((await shipper.get(`/api/loads/${loadId}/messages?driverId=${ids.driver2}`)).status).toBe(404);
    const noDriver = await shipper.get(`/api/loads/${loadId}/messages`);
    expect(noDriver.status).toBe(400);
    expect((await anon.get(`/api/loads/${loadId}/messages`)).status).toBe(401);
    expect((await driver.post(`/api/loads/${loadId}/messages`, { body: "" })).status).toBe(400);
  });
});

describe("dashboards", () => {
  test("driver and shipper figures follow real events, and the feed records them", async () => {
    const a = (await postLoad({ budgetAmount: 1000 })).id;
    const b = (await postLoad({ budgetAmount: 2000 })).id;
    const bidA = (await driver.post(`/api/loads/${a}/bids`, { amount: 900 })).json.bid.id;
    await driver.post(`/api/loads/${b}/bids`, { amount: 1500 });
    await driver2.post(`/api/loads/${b}/bids`, { amount: 1900 });
    let stats = (await driver.get("/api/drivers/stats")).json;
    expect(stats).toMatchObject({
      activeBids: 2,
      totalTrips: 0,
      rating: 0,
      monthlyEarnings: { amount: 0, currency: "USD" },
    });
    await shipper.post(`/api/bids/${bidA}/accept`);
    await driver.post(`/api/loads/${a}/pickup`);
    await driver.post(`/api/loads/${a}/deliver`);
    await shipper.post(`/api/loads/${a}/complete`);
    stats = (await driver.get("/api/drivers/stats")).json;
    expect(stats).toMatchObject({ activeBids: 1, totalTrips: 1, monthlyEarnings: { amount: 900, currency: "USD" } });
    const s = (await shipper.get("/api/dashboard")).json;
    expect(s.shipper).toEqual({ active: 1, totalBids: 3, avgSavings: 0.1, awardedLoads: 1, completed: 1 });
    expect(s.activity.map((e: { kind: string }) => e.kind)).toEqual(
      expect.arrayContaining([
        "load_posted",
        "bid_received",
        "bid_accepted",
        "load_picked_up",
        "load_delivered",
        "load_completed",
      ]),
    );
    const d = (await driver.get("/api/dashboard")).json;
    expect(d.activity[0]).toMatchObject({ kind: "load_completed", load: { id: a, title: "Cement, 40 t" } });
    expect((await driver2.get("/api/dashboard")).json.activity.map((e: { kind: string }) => e.kind)).toEqual([
      "bid_placed",
    ]);
    expect((await shipper.get("/api/drivers/stats")).status).toBe(403);
  });
});

describe("sharing and places", () => {
  test("a posted load has a public preview without the parties; other loads do not", async () => {
    const load = await postLoad();
    const preview = await anon.get(`/api/loads/${load.id}/preview`);
    expect(preview.status).toBe(200);
    expect(preview.json).toMatchObject({
      id: load.id,
      title: "Cement, 40 t",
      pickupLocation: "Addis Ababa, Ethiopia",
    });
    expect(preview.json.shipperId).toBeUndefined();
    expect(preview.json.pickupAddress).toBeUndefined();
    expect((await anon.get(`/api/loads/${load.id}`)).status).toBe(401);
    await shipper.post(`/api/loads/${load.id}/cancel`, {});
    expect((await anon.get(`/api/loads/${load.id}/preview`)).status).toBe(404);
    expect((await anon.get("/api/loads/abc/preview")).status).toBe(400);
  });

  test("city suggestions come from the offline gazetteer with coordinates", async () => {
    const res = await shipper.get("/api/places?q=Addis");
    expect(res.json[0]).toMatchObject({ city: "Addis Ababa", country: "Ethiopia", countryCode: "ET" });
    expect(res.json[0].latitude).toBeCloseTo(9.02, 1);
    const us = await shipper.get("/api/places?q=Chicago&limit=1");
    expect(us.json[0]).toMatchObject({ city: "Chicago", state: "IL", country: "United States" });
    expect((await anon.get("/api/places?q=Addis")).status).toBe(401);
  });
});

describe("places as names", () => {
  test("a position is told by the nearest known town, how far and which way", async () => {
    const t = await createTestApp();
    const c = createClient(t);
    await registerUser(c, "driver");
    const near = async (latitude: number, longitude: number) =>
      (await c.get(`/trpc/places.near?input=${encodeURIComponent(JSON.stringify({ latitude, longitude }))}`)).json
        .result.data;
    expect(await near(8.62, 39.4)).toEqual({ town: "Adama", country: "Ethiopia", distanceMiles: 10, direction: "NE" });
    expect(await near(9.03, 38.74)).toMatchObject({ town: "Addis Ababa", direction: null });
    // The middle of the Pacific has no town to name.
    expect(await near(0, -140)).toBeNull();
    expect(
      (await createClient(t).get(`/trpc/places.near?input=${encodeURIComponent('{"latitude":9,"longitude":38}')}`))
        .status,
    ).toBe(401);
  }, 30_000);
});

describe("my loads, paged", () => {
  test("a shipper pages through their loads, filters by status and searches titles and places", async () => {
    const t = await createTestApp();
    const shipper = createClient(t);
    const other = createClient(t);
    await registerUser(shipper, "shipper");
    await registerUser(other, "shipper");
    const post = async (who: typeof shipper, title: string, deliveryCity = "Adama") => {
      const res = await who.post("/api/loads", { ...loadInput({ title, deliveryCity }) });
      expect(res.status).toBe(201);
      return res.json.id as number;
    };
    for (let i = 1; i <= 23; i++) await post(shipper, `Teff lot ${i}`);
    const cement = await post(shipper, "Cement", "Hawassa");
    await post(other, "Someone else's cement", "Hawassa");
    expect((await shipper.post(`/api/loads/${cement}/cancel`, { reason: "Plans changed" })).status).toBe(200);
    const page = async (input: Record<string, unknown>) =>
      (await shipper.get(`/trpc/loads.minePage?input=${encodeURIComponent(JSON.stringify(input))}`)).json.result.data;

    const first = await page({ page: 1, pageSize: 20 });
    expect(first).toMatchObject({ page: 1, pageSize: 20, total: 24, hasMore: true });
    expect(first.items[0].title).toBe("Cement");
    const second = await page({ page: 2, pageSize: 20 });
    expect(second.items).toHaveLength(4);
    expect(second.hasMore).toBe(false);
    expect((await page({ status: "cancelled" })).items.map((l: { title: string }) => l.title)).toEqual(["Cement"]);
    expect((await page({ q: "hawassa" })).items.map((l: { title: string }) => l.title)).toEqual(["Cement"]);
    expect((await page({ q: "lot 1" })).total).toBe(11);
    const bad = await shipper.get(`/trpc/loads.minePage?input=${encodeURIComponent('{"status":"lost"}')}`);
    expect(bad.status).toBe(400);
  }, 60_000);
});

describe("my loads: bids waiting", () => {
  test("each load shows how many bids wait and the lowest of them, compared across currencies", async () => {
    const loadId = (await postLoad({ title: "Sesame" })).id;
    const quiet = (await postLoad({ title: "No bids yet" })).id;
    const near = await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" });
    // 800 EUR is about 941 USD at the table's 0.85: dearer than 900 USD although the number is smaller.
    const far = await driver2.post(`/api/loads/${loadId}/bids`, { amount: 800, currency: "EUR" });
    expect(far.status).toBe(201);
    const mine = async () => {
      const res = await shipper.get(`/trpc/loads.minePage?input=${encodeURIComponent("{}")}`);
      expect(res.status).toBe(200);
      return res.json.result.data.items as { id: number; pendingBids: number; bestBid: unknown }[];
    };
    const row = async (id: number) => (await mine()).find((l) => l.id === id);
    expect(await row(loadId)).toMatchObject({ pendingBids: 2, bestBid: { amount: 900, currency: "USD" } });
    expect((await row(quiet))?.bestBid).toBeNull();

    // The cheaper bid rejected: only the other one waits, and it is the best.
    expect((await shipper.post(`/api/bids/${near.json.bid.id}/reject`)).status).toBe(200);
    expect(await row(loadId)).toMatchObject({ pendingBids: 1, bestBid: { amount: 800, currency: "EUR" } });
    // The same figures in the list of the shipper's loads (GET /api/loads/shipper).
    const listed = (await shipper.get("/api/loads/shipper")).json.find((l: { id: number }) => l.id === loadId);
    expect(listed).toMatchObject({ pendingBids: 1, bestBid: { amount: 800, currency: "EUR" } });
    // Another shipper's loads are not in the list at all.
    expect((await otherShipper.get("/api/loads/shipper")).json).toEqual([]);
  });
});
