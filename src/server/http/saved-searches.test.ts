import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startNotifyEmulators } from "../../../emulators/notifiers/server";
import { SAVED_SEARCHES_MAX } from "../../shared/constants";
import { notifiersFromEnv } from "../integrations/notifiers/registry";
import { logger } from "../logger";
import { jobHandlers, startWorker } from "../modules/jobs";
import { linkTelegram } from "../modules/notifications/testing";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Saved searches over REST: the board's parameters as GET /api/loads takes them, their owner's alone, an alert per new
// matching load through the notify fan-out, and "N new" since the search was last opened.
setDefaultTimeout(60_000);
const emu = startNotifyEmulators();
afterAll(() => emu.stop());
afterEach(closeTestApps);
const notifiers = notifiersFromEnv(
  { ...emu.env(), VAPID_SUBJECT: "mailto:ops@mytess.example" },
  { vapidKeyFile: null },
);

type TClient = ReturnType<typeof createClient>;
let t: TTestApp;
let driver: TClient;
let other: TClient;
let shipper: TClient;
let ids: { driver: number; other: number };
beforeEach(async () => {
  t = await createTestApp({}, undefined, notifiers);
  driver = createClient(t);
  other = createClient(t, "10.0.0.2");
  shipper = createClient(t, "10.0.0.3");
  ids = { driver: (await registerUser(driver, "driver")).id, other: (await registerUser(other, "driver")).id };
  await registerUser(shipper, "shipper");
});

// Around Addis Ababa (50 mi) to around Adama (100 mi): loadInput's Kality → Adama load matches.
const ADDIS_ADAMA = {
  latitude: "9.0108",
  longitude: "38.7613",
  radius: "50",
  destinationLatitude: "8.54",
  destinationLongitude: "39.27",
  destinationRadius: "100",
  equipmentType: "flatbed,dry_van",
};
const run = () =>
  startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({ notifiers, baseUrl: "https://mytess.example" }),
    schedules: [],
    autoStart: false,
  }).runOnce();
/** Runs the saved-search job and then the notify jobs it wrote. */
const runAll = async () => {
  for (let i = 0; i < 4; i++) await run();
};
const bell = async (userId: number) =>
  t.rows<{ title: string; body: string; load_id: number }>(
    "SELECT title, body, load_id FROM notifications WHERE channel = 'in_app' AND user_id = ? ORDER BY id",
    userId,
  );
const paths = (r: { json: { issues?: { path: string }[] } }) => (r.json.issues ?? []).map((i) => i.path);

describe("saved searches", () => {
  test("saved, listed, renamed, opened and deleted; the search is kept as GET /api/loads takes it", async () => {
    expect((await driver.get("/api/saved-searches")).json).toEqual([]);
    const created = await driver.post("/api/saved-searches", {
      name: "  Addis to Adama ",
      search: { ...ADDIS_ADAMA, pickupFrom: "", page: "3", pageSize: "20", sort: "rate" },
      originName: "Addis Ababa, Ethiopia",
      destinationName: "Adama, Ethiopia",
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: "Addis to Adama",
      // Blanks and paging left out; text as a query string holds it.
      search: { ...ADDIS_ADAMA, sort: "rate" },
      originName: "Addis Ababa, Ethiopia",
      destinationName: "Adama, Ethiopia",
      newCount: 0,
    });
    const id = created.json.id as number;
    // The kept search is a board query as it is.
    const query = new URLSearchParams(created.json.search).toString();
    expect((await driver.get(`/api/loads?${query}`)).status).toBe(200);

    // tRPC-style values (numbers, a list) are kept as the same text.
    const numbers = await driver.post("/api/saved-searches", {
      name: "Flatbeds anywhere",
      search: { equipmentType: ["flatbed"], minRate: 2 },
    });
    expect(numbers.status).toBe(201);
    expect(numbers.json.search).toEqual({ equipmentType: "flatbed", minRate: "2" });
    expect(numbers.json.originName).toBeNull();

    const list = (await driver.get("/api/saved-searches")).json as { id: number }[];
    expect(list.map((s) => s.id)).toEqual([id, numbers.json.id]);

    const renamed = await driver.put(`/api/saved-searches/${id}`, { name: "Port run" });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ id, name: "Port run", search: { ...ADDIS_ADAMA, sort: "rate" } });

    const opened = await driver.post(`/api/saved-searches/${id}/open`);
    expect(opened.status).toBe(200);
    expect(opened.json.newCount).toBe(0);

    const del = await driver.del(`/api/saved-searches/${id}`);
    expect(del.status).toBe(200);
    expect(del.json).toEqual({ deleted: true });
    expect(((await driver.get("/api/saved-searches")).json as { id: number }[]).map((s) => s.id)).toEqual([
      numbers.json.id,
    ]);
    expect((await driver.del(`/api/saved-searches/${id}`)).status).toBe(404);
  });

  test("another account's search is not found, and stays as it was", async () => {
    const mine = (await driver.post("/api/saved-searches", { name: "Mine", search: ADDIS_ADAMA })).json;
    for (const r of [
      await other.put(`/api/saved-searches/${mine.id}`, { name: "Taken" }),
      await other.post(`/api/saved-searches/${mine.id}/open`),
      await other.del(`/api/saved-searches/${mine.id}`),
    ]) {
      expect(r.status).toBe(404);
      expect(r.json.message).toBe("Saved search not found");
    }
    expect((await other.get("/api/saved-searches")).json).toEqual([]);
    expect((await driver.get("/api/saved-searches")).json).toMatchObject([{ id: mine.id, name: "Mine" }]);
  });

  test("signed out: 401 on every route", async () => {
    const anon = createClient(t, "10.0.0.9");
    expect((await anon.get("/api/saved-searches")).status).toBe(401);
    expect((await anon.post("/api/saved-searches", { name: "x", search: {} })).status).toBe(401);
    expect((await anon.put("/api/saved-searches/1", { name: "x" })).status).toBe(401);
    expect((await anon.post("/api/saved-searches/1/open")).status).toBe(401);
    expect((await anon.del("/api/saved-searches/1")).status).toBe(401);
  });

  test("bad input names the field and saves nothing", async () => {
    const empty = await driver.post("/api/saved-searches", {});
    expect(empty.status).toBe(400);
    expect(paths(empty)).toEqual(expect.arrayContaining(["name", "search"]));

    const bad = await driver.post("/api/saved-searches", {
      name: "x".repeat(61),
      search: { latitude: "91", longitude: "38", radius: "7", equipmentType: "hovercraft", pickupFrom: "soon" },
    });
    expect(bad.status).toBe(400);
    expect(bad.json.issues).toEqual(
      expect.arrayContaining([
        { path: "name", message: "name must be at most 60 characters" },
        { path: "search.latitude", message: "latitude must be between -90 and 90" },
        { path: "search.radius", message: expect.stringContaining("radius must be one of") },
        { path: "search.equipmentType.0", message: expect.stringContaining("equipmentType must be among") },
        { path: "search.pickupFrom", message: "pickupFrom must be a date or a date and time" },
      ]),
    );
    const half = await driver.post("/api/saved-searches", { name: "Half", search: { latitude: "9" } });
    expect(half.status).toBe(400);
    expect(half.json.issues).toEqual([{ path: "search.longitude", message: "latitude and longitude go together" }]);
    const notObject = await driver.post("/api/saved-searches", { name: "List", search: ["a"] });
    expect(notObject.status).toBe(400);
    expect(paths(notObject)).toEqual(["search"]);

    const mine = (await driver.post("/api/saved-searches", { name: "Mine", search: {} })).json;
    const blank = await driver.put(`/api/saved-searches/${mine.id}`, { name: "  " });
    expect(blank.status).toBe(400);
    expect(paths(blank)).toEqual(["name"]);
    const badId = await driver.del("/api/saved-searches/abc");
    expect(badId.status).toBe(400);
    expect((await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) n FROM saved_searches"))[0]!.n).toBe(1);
  });

  test(`at most ${SAVED_SEARCHES_MAX} per account`, async () => {
    for (let i = 0; i < SAVED_SEARCHES_MAX; i++)
      expect((await driver.post("/api/saved-searches", { name: `S${i}`, search: {} })).status).toBe(201);
    const over = await driver.post("/api/saved-searches", { name: "One more", search: {} });
    expect(over.status).toBe(409);
    expect(over.json.message).toContain(`at most ${SAVED_SEARCHES_MAX} searches`);
    expect((await other.post("/api/saved-searches", { name: "Other's", search: {} })).status).toBe(201);
  });

  test("a new matching load alerts once, and counts as new until the search is opened", async () => {
    const lane = (await driver.post("/api/saved-searches", { name: "Addis to Adama", search: ADDIS_ADAMA })).json;
    // A second search of the same driver that the load also matches: still one alert.
    const anyFlatbed = (
      await driver.post("/api/saved-searches", { name: "Flatbeds", search: { equipmentType: "flatbed" } })
    ).json;
    // Other drivers' searches the load does not match: origin elsewhere, equipment, destination, pickup window, weight.
    const misses = [
      { latitude: "9.6", longitude: "41.85", radius: "25" },
      { equipmentType: "refrigerated" },
      { destinationLatitude: "11.57", destinationLongitude: "43.15", destinationRadius: "50" },
      { pickupTo: new Date(Date.now() + 86_400_000).toISOString().slice(0, 10) },
      { maxWeight: "1000" },
      { sourceType: "external" },
      { minRate: "1000" },
    ];
    for (const search of misses)
      expect((await other.post("/api/saved-searches", { name: "Miss", search })).status).toBe(201);

    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await runAll();
    const mine = await bell(ids.driver);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({ title: "New load for your saved search", load_id: loadId });
    expect(mine[0]!.body).toBe("Addis to Adama: Cement, 40 t, Addis Ababa, Ethiopia → Adama, Ethiopia.");
    expect(await bell(ids.other)).toEqual([]);

    // Running the job again adds nothing: no second alert, no second count.
    await t.rows("UPDATE jobs SET status = 'pending', run_at = 0 WHERE kind = 'saved_search_alerts'");
    await runAll();
    expect(await bell(ids.driver)).toHaveLength(1);
    const counts = async () =>
      Object.fromEntries(
        ((await driver.get("/api/saved-searches")).json as { id: number; newCount: number }[]).map((s) => [
          s.id,
          s.newCount,
        ]),
      );
    expect(await counts()).toEqual({ [lane.id]: 1, [anyFlatbed.id]: 1 });

    // A second load; then opening one search clears only its count.
    const second = (await shipper.post("/api/loads", loadInput({ title: "Steel" }))).json.id as number;
    await runAll();
    expect((await bell(ids.driver)).map((n) => n.load_id)).toEqual([loadId, second]);
    expect(await counts()).toEqual({ [lane.id]: 2, [anyFlatbed.id]: 2 });
    expect((await driver.post(`/api/saved-searches/${lane.id}/open`)).status).toBe(200);
    expect(await counts()).toEqual({ [lane.id]: 0, [anyFlatbed.id]: 2 });

    // A shipper's own load never alerts the shipper's own searches.
    expect((await shipper.post("/api/saved-searches", { name: "Own", search: {} })).status).toBe(201);
    await shipper.post("/api/loads", loadInput({ title: "Own" }));
    await runAll();
    const shipperId = (await shipper.get("/api/auth/user")).json.user.id as number;
    expect(await bell(shipperId)).toEqual([]);
  });

  test("the alert reaches the user's Telegram chat through the notify fan-out, once", async () => {
    await driver.post("/api/saved-searches", { name: "Addis to Adama", search: ADDIS_ADAMA });
    const chatId = 7_770_001;
    emu.telegram.addUser({ id: chatId, firstName: "Dawit" });
    await linkTelegram(t.db, driver, chatId);
    const prefs = await driver.put("/api/messaging/preferences", {
      whatsappEnabled: false,
      whatsappNumber: "",
      telegramEnabled: true,
      telegramChatId: String(chatId),
      notificationTypes: { loadAssigned: true, loadUpdates: true, paymentReceived: true, systemAlerts: false },
      language: "en",
    });
    expect(prefs.status).toBe(200);
    await shipper.post("/api/loads", loadInput());
    await runAll();
    await t.rows("UPDATE jobs SET status = 'pending', run_at = 0 WHERE kind = 'saved_search_alerts'");
    await runAll();
    const sent = emu.telegram.sent(chatId);
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain("New load for your saved search");
    expect(sent[0]!.text).toContain("Addis to Adama: Cement, 40 t");
  });
});
