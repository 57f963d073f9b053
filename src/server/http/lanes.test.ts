import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { SAVED_LANES_MAX } from "../../shared/constants";
import { closeTestApps, createClient, createTestApp, registerUser, type TTestApp } from "../testing";

// Saved lanes over REST and tRPC: a driver's lanes, checked field by field, their owner's alone, at most
// SAVED_LANES_MAX of them.
setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;
let t: TTestApp;
let driver: TClient;
let other: TClient;
let ids: { driver: number; other: number };
beforeEach(async () => {
  t = await createTestApp();
  driver = createClient(t);
  other = createClient(t, "10.0.0.2");
  ids = { driver: (await registerUser(driver, "driver")).id, other: (await registerUser(other, "driver")).id };
});

const ADDIS_DJIBOUTI = {
  name: "Port run",
  originName: "Addis Ababa, Ethiopia",
  originLatitude: 9.0108,
  originLongitude: 38.7613,
  originRadiusMiles: 150,
  destinationName: "Djibouti, Djibouti",
  destinationLatitude: 11.5721,
  destinationLongitude: 43.1456,
  destinationRadiusMiles: 50,
  equipmentTypes: ["dry_van"],
};
const paths = (r: { json: { issues?: { path: string }[] } }) => (r.json.issues ?? []).map((i) => i.path);
const laneCount = async () =>
  (await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) n FROM saved_lanes"))[0]!.n;

describe("saved lanes", () => {
  test("added, listed, changed and deleted; the answer is what was saved", async () => {
    expect((await driver.get("/api/marketplaces/lanes")).json).toEqual([]);
    const created = await driver.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI);
    expect(created.status).toBe(201);
    const id = created.json.id as number;
    expect(id).toBeGreaterThan(0);
    expect(created.json).toMatchObject(ADDIS_DJIBOUTI);
    expect(Date.parse(created.json.createdAt)).toBeGreaterThan(0);

    // Defaults: no name, a 100-mile origin, no destination, any equipment.
    const plain = await driver.post("/api/marketplaces/lanes", {
      originName: "Chicago, IL",
      originLatitude: 41.8781,
      originLongitude: -87.6298,
    });
    expect(plain.status).toBe(201);
    expect(plain.json).toMatchObject({
      name: null,
      originRadiusMiles: 100,
      destinationName: null,
      destinationLatitude: null,
      destinationRadiusMiles: null,
      equipmentTypes: [],
    });
    const list = (await driver.get("/api/marketplaces/lanes")).json as { id: number }[];
    expect(list.map((l) => l.id)).toEqual([id, plain.json.id]);

    // Changed fields only; the rest stays.
    const put = await driver.put(`/api/marketplaces/lanes/${id}`, {
      originRadiusMiles: 200,
      equipmentTypes: ["flatbed", "dry_van"],
    });
    expect(put.status).toBe(200);
    expect(put.json).toMatchObject({
      ...ADDIS_DJIBOUTI,
      originRadiusMiles: 200,
      equipmentTypes: ["dry_van", "flatbed"],
    });
    // The destination removed, then the name.
    const noDestination = await driver.put(`/api/marketplaces/lanes/${id}`, {
      destinationName: null,
      destinationLatitude: null,
      destinationLongitude: null,
    });
    expect(noDestination.json).toMatchObject({
      originName: "Addis Ababa, Ethiopia",
      destinationName: null,
      destinationLatitude: null,
      destinationLongitude: null,
      destinationRadiusMiles: null,
    });
    expect((await driver.put(`/api/marketplaces/lanes/${id}`, { name: "" })).json.name).toBeNull();

    const del = await driver.del(`/api/marketplaces/lanes/${id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ success: true });
    expect(((await driver.get("/api/marketplaces/lanes")).json as { id: number }[]).map((l) => l.id)).toEqual([
      plain.json.id,
    ]);
    expect((await driver.del(`/api/marketplaces/lanes/${id}`)).status).toBe(404);
  });

  test("bad input names the field and saves nothing", async () => {
    const empty = await driver.post("/api/marketplaces/lanes", {});
    expect(empty.status).toBe(400);
    expect(paths(empty)).toEqual(expect.arrayContaining(["originName", "originLatitude", "originLongitude"]));

    const ranges = await driver.post("/api/marketplaces/lanes", {
      ...ADDIS_DJIBOUTI,
      originLatitude: 91,
      originLongitude: -181,
      originRadiusMiles: 0,
      destinationRadiusMiles: 501,
      equipmentTypes: ["dry_van", "hovercraft"],
    });
    expect(ranges.status).toBe(400);
    expect(ranges.json.issues).toEqual(
      expect.arrayContaining([
        { path: "originLatitude", message: "originLatitude must be between -90 and 90" },
        { path: "originLongitude", message: "originLongitude must be between -180 and 180" },
        { path: "originRadiusMiles", message: "originRadiusMiles must be between 1 and 500 miles" },
        { path: "destinationRadiusMiles", message: "destinationRadiusMiles must be between 1 and 500 miles" },
        expect.objectContaining({ path: "equipmentTypes.1" }),
      ]),
    );

    const halfDestination = await driver.post("/api/marketplaces/lanes", {
      ...ADDIS_DJIBOUTI,
      destinationLongitude: undefined,
    });
    expect(halfDestination.status).toBe(400);
    expect(paths(halfDestination)).toEqual(["destinationLongitude"]);
    const unnamed = await driver.post("/api/marketplaces/lanes", { ...ADDIS_DJIBOUTI, destinationName: "" });
    expect(paths(unnamed)).toEqual(["destinationName"]);
    const words = await driver.post("/api/marketplaces/lanes", { ...ADDIS_DJIBOUTI, originLatitude: "north" });
    expect(words.json.issues).toEqual([{ path: "originLatitude", message: "originLatitude must be a number" }]);
    const long = await driver.post("/api/marketplaces/lanes", { ...ADDIS_DJIBOUTI, name: "x".repeat(81) });
    expect(paths(long)).toEqual(["name"]);
    expect(await laneCount()).toBe(0);

    // An update is checked as a whole once merged: half a destination is refused, and nothing changes.
    const lane = (await driver.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI)).json;
    const half = await driver.put(`/api/marketplaces/lanes/${lane.id}`, {
      destinationLatitude: null,
      destinationLongitude: 40,
    });
    expect(half.status).toBe(400);
    expect(paths(half)).toEqual(["destinationLatitude"]);
    const badRadius = await driver.put(`/api/marketplaces/lanes/${lane.id}`, { originRadiusMiles: 1000 });
    expect(badRadius.status).toBe(400);
    expect(paths(badRadius)).toEqual(["originRadiusMiles"]);
    expect((await driver.get("/api/marketplaces/lanes")).json).toEqual([lane]);
    // The same over tRPC: a 400 with the field named, not a server error.
    const trpc = await driver.post("/trpc/boards.updateLane", {
      id: lane.id,
      destinationName: null,
      destinationLongitude: 40,
    });
    expect(trpc.status).toBe(400);
    expect(trpc.json.error.data.issues.map((i: { path: string }) => i.path)).toEqual(["destinationName"]);
  });

  test("another user's lane answers 404 and is never shown, changed or deleted", async () => {
    const lane = (await driver.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI)).json;
    expect((await other.get("/api/marketplaces/lanes")).json).toEqual([]);
    const put = await other.put(`/api/marketplaces/lanes/${lane.id}`, { name: "Mine now" });
    expect(put.status).toBe(404);
    expect(put.json).toMatchObject({ code: "NOT_FOUND", message: "Saved lane not found" });
    expect((await other.del(`/api/marketplaces/lanes/${lane.id}`)).status).toBe(404);
    expect((await other.put("/api/marketplaces/lanes/999999", { name: "x" })).status).toBe(404);
    expect((await driver.get("/api/marketplaces/lanes")).json).toEqual([lane]);
    // Deleting the account takes its lanes with it.
    await t.rows("DELETE FROM users WHERE id = ?", ids.driver);
    expect(await laneCount()).toBe(0);
  });

  test(`at most ${SAVED_LANES_MAX} lanes each, with a clear error; another user is not counted`, async () => {
    for (let i = 0; i < SAVED_LANES_MAX; i++) {
      const r = await driver.post("/api/marketplaces/lanes", { ...ADDIS_DJIBOUTI, originRadiusMiles: 10 + i });
      expect(r.status).toBe(201);
    }
    const over = await driver.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI);
    expect(over.status).toBe(409);
    expect(over.json).toMatchObject({
      code: "CONFLICT",
      messageId: "error.lane.limit",
      message: `You can save at most ${SAVED_LANES_MAX} lanes: delete one you no longer run first`,
    });
    // In the account's language.
    expect((await driver.put("/api/user/language", { language: "am" })).status).toBe(200);
    const am = await driver.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI);
    expect(am.status).toBe(409);
    expect(am.json.message).toBe(`ቢበዛ ${SAVED_LANES_MAX} መስመሮችን ማስቀመጥ ይችላሉ፤ መጀመሪያ ከእንግዲህ የማይሄዱበትን አንዱን ይሰርዙ`);
    expect(await laneCount()).toBe(SAVED_LANES_MAX);
    expect((await other.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI)).status).toBe(201);
    // Deleting one makes room again, for one lane only, however many ask at once.
    const first = (await driver.get("/api/marketplaces/lanes")).json[0];
    await driver.del(`/api/marketplaces/lanes/${first.id}`);
    const racing = await Promise.all([1, 2, 3].map(() => driver.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI)));
    expect(racing.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await laneCount()).toBe(SAVED_LANES_MAX + 1);
  });

  test("adding needs premium, as connecting a board does; reading, changing and deleting do not", async () => {
    const lane = (await driver.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI)).json;
    await t.rows("UPDATE users SET trial_ends_at = ? WHERE id = ?", Date.now() - 86_400_000, ids.driver);
    const add = await driver.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI);
    expect(add.status).toBe(402);
    expect(add.json.code).toBe("SUBSCRIPTION_REQUIRED");
    expect((await driver.get("/api/marketplaces/lanes")).json).toHaveLength(1);
    expect((await driver.put(`/api/marketplaces/lanes/${lane.id}`, { originRadiusMiles: 75 })).status).toBe(200);
    expect((await driver.del(`/api/marketplaces/lanes/${lane.id}`)).status).toBe(200);
  });

  test("signed out: 401 for every lane route", async () => {
    const anon = createClient(t, "10.0.0.3");
    expect((await anon.get("/api/marketplaces/lanes")).status).toBe(401);
    expect((await anon.post("/api/marketplaces/lanes", ADDIS_DJIBOUTI)).status).toBe(401);
    expect((await anon.put("/api/marketplaces/lanes/1", { name: "x" })).status).toBe(401);
    expect((await anon.del("/api/marketplaces/lanes/1")).status).toBe(401);
  });
});
