import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { loads, users } from "../../../db/tables";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// The board's lane search over REST: origin and destination with their radii, a pickup window, several equipment
// types, full or partial; a viewer never finds another account's synced loads; bad input names its field.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

const DAY = 86_400_000;
const ADDIS = { latitude: 9.01, longitude: 38.76 };
const ADAMA = { destinationLatitude: 8.54, destinationLongitude: 39.27 };
const DIRE_DAWA = { pickupLatitude: 9.6, pickupLongitude: 41.85, pickupCity: "Dire Dawa" };
const DJIBOUTI = {
  deliveryLatitude: 11.57,
  deliveryLongitude: 43.15,
  deliveryCity: "Djibouti",
  deliveryCountry: "Djibouti",
};

type TClient = ReturnType<typeof createClient>;
let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let other: TClient;
let otherId: number;

const q = (params: Record<string, string | number>) =>
  `/api/loads?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`;
const titles = async (c: TClient, params: Record<string, string | number>) => {
  const res = await c.get(q(params));
  expect(res.status).toBe(200);
  return res.json.map((l: { title: string }) => l.title) as string[];
};
const paths = (r: { json: { issues?: { path: string }[] } }) => (r.json.issues ?? []).map((i) => i.path);

beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t, "10.0.0.1");
  driver = createClient(t, "10.0.0.2");
  other = createClient(t, "10.0.0.3");
  await registerUser(shipper, "shipper");
  await registerUser(driver, "driver");
  otherId = (await registerUser(other, "driver")).id;
  const now = Date.now();
  const post = async (title: string, over: Record<string, unknown>) => {
    const res = await shipper.post("/api/loads", loadInput({ title, ...over }));
    expect(res.status).toBe(201);
    return res.json;
  };
  // Addis → Adama, flatbed, in 3 days (loadInput's defaults).
  await post("Soon flatbed", { pickupDate: new Date(now + 3 * DAY).toISOString() });
  await post("Port reefer", { ...DJIBOUTI, equipmentType: "refrigerated", loadSize: "partial" });
  await post("Late van", {
    equipmentType: "dry_van",
    pickupDate: new Date(now + 10 * DAY).toISOString(),
    deliveryDate: new Date(now + 11 * DAY).toISOString(),
  });
  await post("East flatbed", { ...DIRE_DAWA, pickupDate: new Date(now + 3 * DAY + 60_000).toISOString() });
});

describe("lane search", () => {
  test("origin and destination with their radii", async () => {
    expect(await titles(driver, { ...ADDIS, radius: 50, ...ADAMA, destinationRadius: 100 })).toEqual([
      "Soon flatbed",
      "Late van",
    ]);
    // Destination alone ("anywhere" to Adama), soonest pickup first.
    expect(await titles(driver, { ...ADAMA, destinationRadius: 100, sort: "date" })).toEqual([
      "Soon flatbed",
      "East flatbed",
      "Late van",
    ]);
    // The destination's radius counts: Djibouti is about 320 miles from Adama.
    expect(await titles(driver, { ...ADDIS, ...ADAMA, destinationRadius: 250 })).not.toContain("Port reefer");
    expect(
      await titles(driver, { ...ADDIS, destinationLatitude: 11.6, destinationLongitude: 43.1, destinationRadius: 25 }),
    ).toEqual(["Port reefer"]);
    // The figures count the same loads.
    const stats = await driver.get(`/api/loads/stats?${new URLSearchParams({ ...str(ADDIS), ...str(ADAMA) })}`);
    expect(stats.status).toBe(200);
    expect(stats.json.total).toBe(2);
  });

  test("pickup window: date-times, or dates through their last millisecond", async () => {
    const now = Date.now();
    const week = { pickupFrom: new Date(now).toISOString(), pickupTo: new Date(now + 7 * DAY).toISOString() };
    expect(await titles(driver, { ...ADDIS, ...ADAMA, ...week })).toEqual(["Soon flatbed"]);
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    expect(
      await titles(driver, { ...ADAMA, sort: "date", pickupFrom: day(now), pickupTo: day(now + 5 * DAY) }),
    ).toEqual(["Soon flatbed", "East flatbed"]);
    expect(await titles(driver, { ...ADDIS, pickupFrom: day(now + 9 * DAY) })).toEqual(["Late van"]);
    expect(await titles(driver, { ...ADDIS, ...ADAMA, pickupTo: day(now + 1 * DAY) })).toEqual([]);
  });

  test("several equipment types, comma-separated, and full or partial", async () => {
    const both = await titles(driver, { ...ADAMA, sort: "date", equipmentType: "flatbed,dry_van" });
    expect(both).toEqual(["Soon flatbed", "East flatbed", "Late van"]);
    expect(await titles(driver, { ...ADAMA, equipmentType: "dry_van" })).toEqual(["Late van"]);
    expect(await titles(driver, { ...ADDIS, radius: 500, loadSize: "partial" })).toEqual(["Port reefer"]);
    const full = await titles(driver, { ...ADDIS, radius: 500, loadSize: "full", sort: "date" });
    expect(full).toEqual(["Soon flatbed", "East flatbed", "Late van"]);
    expect(await titles(driver, { loadSize: "all", equipmentType: "all" })).toHaveLength(4);
    // A load's size is part of its answer.
    const reefer = (await driver.get(q({ loadSize: "partial" }))).json[0];
    expect(reefer).toMatchObject({ title: "Port reefer", loadSize: "partial", equipmentType: "refrigerated" });
  });

  test("the lane index follows a load's changes of status, places and date", async () => {
    const lane = { ...ADDIS, ...ADAMA };
    await t.rows("UPDATE loads SET status = 'assigned' WHERE title = 'Soon flatbed' RETURNING id");
    expect(await titles(driver, lane)).toEqual(["Late van"]);
    await t.rows(
      "UPDATE loads SET delivery_latitude = 11.57, delivery_longitude = 43.15 WHERE title = 'Late van' RETURNING id",
    );
    expect(await titles(driver, lane)).toEqual([]);
    await t.rows(
      "UPDATE loads SET delivery_latitude = 8.54, delivery_longitude = 39.27 WHERE title = 'Port reefer' RETURNING id",
    );
    expect(await titles(driver, lane)).toEqual(["Port reefer"]);
    await t.rows("UPDATE loads SET pickup_date = ? WHERE title = 'Port reefer' RETURNING id", Date.now() + 20 * DAY);
    expect(await titles(driver, { ...lane, pickupTo: new Date(Date.now() + 7 * DAY).toISOString() })).toEqual([]);
    await t.rows("DELETE FROM loads WHERE title = 'Port reefer' RETURNING id");
    expect(await titles(driver, lane)).toEqual([]);
  });

  test("another account's synced loads on the lane are its owner's alone", async () => {
    const now = Date.now();
    await t.db.insert(loads).values({
      title: "Synced for other",
      pickupAddress: "Bole",
      pickupCity: "Addis Ababa",
      pickupCountry: "Ethiopia",
      pickupLatitude: 9.0,
      pickupLongitude: 38.8,
      deliveryAddress: "Adama",
      deliveryCity: "Adama",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: 8.55,
      deliveryLongitude: 39.28,
      pickupDate: now + 2 * DAY,
      deliveryDate: now + 3 * DAY,
      weightLbs: 20_000,
      equipmentType: "flatbed",
      budgetMinor: 90_000,
      budgetCurrency: "USD",
      tripMiles: 50,
      status: "posted",
      sourceType: "external",
      sourceProvider: "feed",
      sourceExternalId: "x-1",
      sourceOwnerId: otherId,
      createdAt: now,
      updatedAt: now,
    });
    const lane = { ...ADDIS, ...ADAMA, sort: "date" };
    expect(await titles(driver, lane)).toEqual(["Soon flatbed", "Late van"]);
    expect(await titles(driver, { ...lane, sourceType: "external" })).toEqual([]);
    expect(await titles(other, lane)).toEqual(["Synced for other", "Soon flatbed", "Late van"]);
    expect(await titles(other, { ...lane, sourceType: "external" })).toEqual(["Synced for other"]);
  });

  test("each MyTess load names its shipper by first name and initial, with the rating, and nothing that reaches them", async () => {
    const me = (await shipper.get("/api/auth/user")).json.user as { id: number };
    const first = await driver.get(q({ ...ADDIS, ...ADAMA }));
    expect(first.status).toBe(200);
    expect(first.json.length).toBeGreaterThan(0);
    for (const l of first.json)
      expect(l.shipper).toMatchObject({ name: "Hana A.", rating: null, ratings: 0, verified: null });
    await t.db.update(users).set({ ratingSum: 14, totalRatings: 3 }).where(eq(users.id, me.id));
    const rated = await driver.get(q({ ...ADDIS, ...ADAMA }));
    for (const l of rated.json) expect(l.shipper).toMatchObject({ name: "Hana A.", rating: 4.7, ratings: 3 });
    expect(JSON.stringify(rated.json)).not.toContain("@");
  });

  test("signed out: 401", async () => {
    const anon = createClient(t, "10.0.0.9");
    expect((await anon.get(q({ ...ADDIS, ...ADAMA }))).status).toBe(401);
  });

  test("bad input is refused naming the field", async () => {
    const bad = async (params: Record<string, string | number>, field: string) => {
      const res = await driver.get(q(params));
      expect(res.status).toBe(400);
      expect(paths(res).some((p) => p === field || p.startsWith(`${field}.`))).toBe(true);
    };
    await bad({ ...ADAMA, destinationRadius: 30 }, "destinationRadius");
    await bad({ destinationLatitude: 8.5 }, "destinationLongitude");
    await bad({ destinationLatitude: 95, destinationLongitude: 39 }, "destinationLatitude");
    await bad({ pickupFrom: "next week" }, "pickupFrom");
    await bad({ pickupFrom: "2026-12-10", pickupTo: "2026-12-01" }, "pickupTo");
    await bad({ equipmentType: "flatbed,boat" }, "equipmentType");
    await bad({ loadSize: "half" }, "loadSize");
    const post = await shipper.post("/api/loads", loadInput({ loadSize: "half" }));
    expect(post.status).toBe(400);
    expect(paths(post)).toEqual(["loadSize"]);
  });
});

function str(o: Record<string, number>) {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, String(v)]));
}
