import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { loads } from "../../../db/tables";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// The board's map: every load the filters match as a point (not only the page shown), with the board's visibility,
// at most a bounded number; and the map's place labels in the viewer's language.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

const DAY = 86_400_000;
const ADDIS = { latitude: 9.01, longitude: 38.76, radius: 50 };

type TClient = ReturnType<typeof createClient>;
let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let other: TClient;
let otherId: number;
let near: number[];

const qs = (params: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)])).toString();
const paths = (r: { json: { issues?: { path: string }[] } }) => (r.json.issues ?? []).map((i) => i.path);

/** A synced load of an outside board, kept for its owner alone. */
const syncedRow = (ownerId: number, i: number, now: number) => ({
  title: `Synced ${i}`,
  pickupAddress: "Bole",
  pickupCity: "Addis Ababa",
  pickupCountry: "Ethiopia",
  pickupLatitude: 9.0 + (i % 10) / 1000,
  pickupLongitude: 38.8,
  deliveryAddress: "Adama",
  deliveryCity: "Adama",
  deliveryCountry: "Ethiopia",
  deliveryLatitude: 8.55,
  deliveryLongitude: 39.28,
  pickupDate: now + 2 * DAY,
  deliveryDate: now + 3 * DAY,
  weightLbs: 20_000,
  equipmentType: "flatbed" as const,
  budgetMinor: 90_000,
  budgetCurrency: "USD",
  tripMiles: 50,
  status: "posted" as const,
  sourceType: "external" as const,
  sourceProvider: "feed",
  sourceExternalId: `x-${ownerId}-${i}`,
  sourceOwnerId: ownerId,
  createdAt: now,
  updatedAt: now,
});

beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t, "10.0.0.1");
  driver = createClient(t, "10.0.0.2");
  other = createClient(t, "10.0.0.3");
  await registerUser(shipper, "shipper");
  await registerUser(driver, "driver");
  otherId = (await registerUser(other, "driver")).id;
  near = [];
  for (let i = 0; i < 12; i++) {
    const res = await shipper.post(
      "/api/loads",
      loadInput({ title: `Near ${i}`, pickupLatitude: 8.9 + i / 100, pickupLongitude: 38.77 }),
    );
    expect(res.status).toBe(201);
    near.push(res.json.id);
  }
  // Dire Dawa: about 215 miles from Addis, outside a 50-mile radius.
  const far = await shipper.post(
    "/api/loads",
    loadInput({ title: "Far", pickupCity: "Dire Dawa", pickupLatitude: 9.6, pickupLongitude: 41.85 }),
  );
  expect(far.status).toBe(201);
});

describe("GET /api/loads/points", () => {
  test("every load within the radius, not only the page, as ids and pickup points", async () => {
    const page = await driver.get(`/api/loads?${qs({ ...ADDIS, pageSize: 5 })}`);
    expect(page.status).toBe(200);
    expect(page.json).toHaveLength(5);

    const res = await driver.get(`/api/loads/points?${qs({ ...ADDIS, pageSize: 5, page: 2 })}`);
    expect(res.status).toBe(200);
    expect(res.json.truncated).toBe(false);
    expect(res.json.limit).toBe(1000);
    const ids = (res.json.points as { id: number }[]).map((p) => p.id);
    expect(ids.toSorted((a, b) => a - b)).toEqual(near.toSorted((a, b) => a - b));
    // The page's loads are among them, in the board's order (nearest first).
    expect(ids.slice(0, 5)).toEqual(page.json.map((l: { id: number }) => l.id));
    const first = res.json.points[0];
    expect(Object.keys(first).sort()).toEqual(["external", "id", "latitude", "longitude"]);
    expect(first.external).toBe(false);
    const byId = new Map(page.json.map((l: { id: number; pickupLatitude: number }) => [l.id, l.pickupLatitude]));
    expect(first.latitude).toBe(byId.get(first.id) as number);

    // The same filters as the board: a wider radius finds Dire Dawa too; another equipment type finds nothing.
    const wide = await driver.get(`/api/loads/points?${qs({ ...ADDIS, radius: 250 })}`);
    expect(wide.json.points).toHaveLength(13);
    const none = await driver.get(`/api/loads/points?${qs({ ...ADDIS, equipmentType: "refrigerated" })}`);
    expect(none.json.points).toEqual([]);
  });

  test("another account's synced loads are its owner's alone", async () => {
    await t.db.insert(loads).values(syncedRow(otherId, 1, Date.now()));
    const mine = await driver.get(`/api/loads/points?${qs(ADDIS)}`);
    expect(mine.json.points).toHaveLength(12);
    expect(mine.json.points.some((p: { external: boolean }) => p.external)).toBe(false);
    const theirs = await other.get(`/api/loads/points?${qs(ADDIS)}`);
    expect(theirs.json.points).toHaveLength(13);
    expect(theirs.json.points.filter((p: { external: boolean }) => p.external)).toHaveLength(1);
  });

  test("at most 1,000 points, and says when more matched", async () => {
    const now = Date.now();
    const rows = Array.from({ length: 1000 }, (_, i) => syncedRow(otherId, i, now));
    for (let i = 0; i < rows.length; i += 200) await t.db.insert(loads).values(rows.slice(i, i + 200));
    const res = await other.get(`/api/loads/points?${qs(ADDIS)}`);
    expect(res.status).toBe(200);
    expect(res.json.points).toHaveLength(1000);
    expect(res.json.truncated).toBe(true);
    // The driver, who cannot see those, gets all of theirs and no more.
    const driverRes = await driver.get(`/api/loads/points?${qs(ADDIS)}`);
    expect(driverRes.json.points).toHaveLength(12);
    expect(driverRes.json.truncated).toBe(false);
  });

  test("signed out is 401; bad filters are 400 naming the field", async () => {
    const anon = createClient(t, "10.0.0.9");
    expect((await anon.get(`/api/loads/points?${qs(ADDIS)}`)).status).toBe(401);
    const radius = await driver.get(`/api/loads/points?${qs({ ...ADDIS, radius: 7 })}`);
    expect(radius.status).toBe(400);
    expect(paths(radius)).toContain("radius");
    const half = await driver.get(`/api/loads/points?${qs({ latitude: 9 })}`);
    expect(half.status).toBe(400);
    expect(paths(half)).toContain("longitude");
    const kind = await driver.get(`/api/loads/points?${qs({ equipmentType: "spaceship" })}`);
    expect(kind.status).toBe(400);
    expect(paths(kind).some((p) => p.startsWith("equipmentType"))).toBe(true);
  });
});

describe("GET /api/places/labels", () => {
  const addis = (labels: { name: string; latitude: number; longitude: number; rank: number }[]) =>
    labels.find((l) => Math.abs(l.latitude - 9.02) < 0.05 && Math.abs(l.longitude - 38.75) < 0.05);

  test("capitals first, Ethiopia's towns, names in the viewer's language where one is known", async () => {
    const en = await driver.get("/api/places/labels?language=en");
    expect(en.status).toBe(200);
    expect(en.json.length).toBeGreaterThan(500);
    expect(en.json[0].rank).toBe(1);
    expect(addis(en.json)).toMatchObject({ name: "Addis Ababa", rank: 1 });
    // Common spellings, not GeoNames' transliterations.
    expect(en.json.some((l: { name: string }) => l.name === "Adama")).toBe(true);
    expect(en.json.some((l: { name: string }) => l.name === "Nazrēt")).toBe(false);
    expect((await driver.get("/api/places/labels?language=am")).json.map((l: { name: string }) => l.name)).toEqual(
      expect.arrayContaining(["አዲስ አበባ", "አዳማ", "ድሬ ዳዋ"]),
    );
    const om = await driver.get("/api/places/labels?language=om");
    expect(addis(om.json)?.name).toBe("Finfinnee");
    // A town with no Oromo name here keeps its common name.
    expect(om.json.some((l: { name: string }) => l.name === "Gondar")).toBe(true);
    // Without a language: English.
    expect(addis((await driver.get("/api/places/labels")).json)?.name).toBe("Addis Ababa");
  });

  test("public (shared loads' maps show them to visitors); an unknown language is 400 naming the field", async () => {
    const anon = await createClient(t, "10.0.0.9").get("/api/places/labels?language=am");
    expect(anon.status).toBe(200);
    expect(anon.json.map((l: { name: string }) => l.name)).toContain("አዲስ አበባ");
    const bad = await driver.get("/api/places/labels?language=fr");
    expect(bad.status).toBe(400);
    expect(paths(bad)).toEqual(["language"]);
  });
});
