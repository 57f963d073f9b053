import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startNotifyEmulators } from "../../../emulators/notifiers/server";
import { notifiersFromEnv } from "../integrations/notifiers/registry";
import { logger } from "../logger";
import { jobHandlers, startWorker } from "../modules/jobs";
import { closeTestApps, createClient, createTestApp, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const emu = startNotifyEmulators();
afterAll(() => emu.stop());
afterEach(closeTestApps);

const notifiers = notifiersFromEnv(
  { ...emu.env(), VAPID_SUBJECT: "mailto:ops@mytess.example" },
  { vapidKeyFile: null },
);
const BASE = "https://mytess.example";
type TClient = ReturnType<typeof createClient>;
const DAY = 24 * 3600_000;

let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let driver2: TClient;
let ids: Record<string, number>;

beforeEach(async () => {
  t = await createTestApp({}, undefined, notifiers);
  shipper = createClient(t);
  driver = createClient(t);
  driver2 = createClient(t);
  ids = {
    shipper: (await registerUser(shipper, "shipper")).id,
    driver: (await registerUser(driver, "driver")).id,
    driver2: (await registerUser(driver2, "driver")).id,
  };
});

/** A browser subscribing with the server's key, as the settings panel does. */
const browser = () => emu.push.subscribe({ applicationServerKey: notifiers.vapidPublicKey! });
const subscribeAs = async (c: TClient) => {
  const b = browser();
  const res = await c.post("/api/push/subscribe", b.subscription);
  expect(res.status).toBe(201);
  return b;
};
const count = async (table: string) =>
  (await t.rows<{ n: number }>(`SELECT CAST(count(*) AS INTEGER) n FROM ${table}`))[0].n;
const worker = () =>
  startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({ notifiers, baseUrl: BASE }),
    schedules: [],
    autoStart: false,
  });
const received = (id: string) => emu.push.received(id).map((m) => JSON.parse(m.text));

const postLoad = async () => {
  const res = await shipper.post("/api/loads", {
    title: "Cement, 40 t",
    equipmentType: "flatbed",
    pickupAddress: "Kality Customs Terminal",
    pickupCity: "Addis Ababa",
    pickupCountry: "Ethiopia",
    pickupLatitude: 8.9,
    pickupLongitude: 38.77,
    deliveryAddress: "Adama Industrial Park",
    deliveryCity: "Adama",
    deliveryCountry: "Ethiopia",
    deliveryLatitude: 8.54,
    deliveryLongitude: 39.27,
    pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
    deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
    weight: 40000,
    budgetAmount: 1000,
    budgetCurrency: "USD",
  });
  expect(res.status).toBe(201);
  // The load's alert matching (a job of its own, written with the load) runs first, as a worker would; no driver
  // here has load alerts, so it sends nothing and the jobs below are the notifications alone.
  await drainLoadAlerts();
  return res.json.id as number;
};
const drainLoadAlerts = async () => {
  await startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({ notifiers, baseUrl: BASE }),
    schedules: [],
    autoStart: false,
  }).runOnce();
  // Two matching jobs come with a load: the drivers' load alerts and the saved searches.
  await t.rows("DELETE FROM jobs WHERE kind IN ('load_alerts', 'saved_search_alerts') AND status = 'done'");
};
const bid = async (c: TClient, loadId: number, amount = 900) => {
  const res = await c.post(`/api/loads/${loadId}/bids`, { amount, currency: "USD" });
  expect(res.status).toBe(201);
  return res.json.bid.id as number;
};

describe("GET /api/push/vapid-key", () => {
  test("the key browsers subscribe with, to anyone", async () => {
    const res = await createClient(t).get("/api/push/vapid-key");
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ publicKey: notifiers.vapidPublicKey, sandbox: true });
  });
});

describe("POST/DELETE /api/push/subscribe", () => {
  test("bad input is refused naming the field, and nothing is written", async () => {
    const { subscription } = browser();
    const http = await shipper.post("/api/push/subscribe", { ...subscription, endpoint: "http://push.example/x" });
    expect(http.status).toBe(400);
    expect(http.json.issues[0].path).toBe("endpoint");
    const keys = await shipper.post("/api/push/subscribe", {
      ...subscription,
      keys: { ...subscription.keys, p256dh: "abc" },
    });
    expect(keys.status).toBe(400);
    expect(keys.json.issues[0].path).toBe("keys.p256dh");
    const auth = await shipper.post("/api/push/subscribe", {
      ...subscription,
      keys: { p256dh: subscription.keys.p256dh },
    });
    expect(auth.status).toBe(400);
    expect(auth.json.issues[0].path).toBe("keys.auth");
    expect((await createClient(t).post("/api/push/subscribe", subscription)).status).toBe(401);
    const del = await shipper.del("/api/push/subscribe", {});
    expect(del.status).toBe(400);
    expect(del.json.issues[0].path).toBe("endpoint");
    expect(await count("push_subscriptions")).toBe(0);
  });

  test("subscribing again updates the same endpoint; another user can neither take it nor delete it", async () => {
    const { subscription } = await subscribeAs(shipper);
    expect(
      (await shipper.post("/api/push/subscribe", { ...subscription, expirationTime: 1_900_000_000_000 })).status,
    ).toBe(201);
    const rows = () =>
      t.rows<{ user_id: number; expiration_time: string | null }>(
        "SELECT user_id, CAST(expiration_time AS TEXT) expiration_time FROM push_subscriptions",
      );
    expect(await rows()).toEqual([{ user_id: ids.shipper, expiration_time: "1900000000000" }]);

    const other = browser().subscription;
    const steal = await driver.post("/api/push/subscribe", { ...subscription, keys: other.keys });
    expect(steal.status).toBe(409);
    expect((await driver.del("/api/push/subscribe", { endpoint: subscription.endpoint })).status).toBe(404);
    expect(await rows()).toEqual([{ user_id: ids.shipper, expiration_time: "1900000000000" }]);

    const mine = await shipper.get("/api/push/preferences");
    expect(mine.json.subscriptions.map((s: { endpoint: string }) => s.endpoint)).toEqual([subscription.endpoint]);
    expect((await driver.get("/api/push/preferences")).json.subscriptions).toEqual([]);

    expect((await shipper.del("/api/push/subscribe", { endpoint: subscription.endpoint })).status).toBe(200);
    expect(await count("push_subscriptions")).toBe(0);
  });
});

describe("POST /api/push/test", () => {
  test("bad input names the field and sends nothing", async () => {
    const b = await subscribeAs(shipper);
    const res = await shipper.post("/api/push/test", { title: "", message: "hi" });
    expect(res.status).toBe(400);
    expect(res.json.issues[0].path).toBe("title");
    const res2 = await shipper.post("/api/push/test", { title: "Hi" });
    expect(res2.json.issues[0].path).toBe("message");
    expect(received(b.id)).toEqual([]);
    expect(await count("notifications")).toBe(0);
  });

  test("reaches every subscription of the caller and no one else's", async () => {
    const a = await subscribeAs(shipper);
    const b = await subscribeAs(shipper);
    const theirs = await subscribeAs(driver);
    const res = await shipper.post("/api/push/test", { title: "Test", message: "Hello from MyTess" });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sent: 2, total: 2, removed: 0 });
    expect(received(a.id)).toEqual([{ title: "Test", body: "Hello from MyTess" }]);
    expect(received(b.id)).toEqual([{ title: "Test", body: "Hello from MyTess" }]);
    expect(received(theirs.id)).toEqual([]);
    // A user without subscriptions is told so.
    expect((await driver2.post("/api/push/test", { title: "T", message: "m" })).status).toBe(404);
  });
});

describe("GET/PUT /api/push/preferences", () => {
  const prefs = {
    enabled: true,
    notificationTypes: {
      loadAssigned: true,
      loadUpdates: false,
      paymentReceived: true,
      systemAlerts: true,
      marketing: false,
    },
    quietHours: { enabled: true, start: "21:30", end: "06:15", timezone: "Africa/Addis_Ababa" },
  };

  test("the product's defaults until saved; saved ones come back; another user's stay their own", async () => {
    const before = await shipper.get("/api/push/preferences");
    expect(before.json).toEqual({
      enabled: true,
      notificationTypes: {
        loadAssigned: true,
        loadUpdates: true,
        paymentReceived: true,
        systemAlerts: false,
        marketing: false,
      },
      quietHours: { enabled: false, start: "22:00", end: "08:00", timezone: "UTC" },
      subscriptions: [],
    });
    const put = await shipper.put("/api/push/preferences", prefs);
    expect(put.status).toBe(200);
    expect((await shipper.get("/api/push/preferences")).json).toEqual({ ...prefs, subscriptions: [] });
    expect((await driver.get("/api/push/preferences")).json.quietHours.enabled).toBe(false);
    expect((await createClient(t).get("/api/push/preferences")).status).toBe(401);
  });

  test("bad times and time zones are refused naming the field; nothing is written", async () => {
    const badTime = await shipper.put("/api/push/preferences", {
      ...prefs,
      quietHours: { ...prefs.quietHours, start: "25:00" },
    });
    expect(badTime.status).toBe(400);
    expect(badTime.json.issues[0].path).toBe("quietHours.start");
    const badTz = await shipper.put("/api/push/preferences", {
      ...prefs,
      quietHours: { ...prefs.quietHours, timezone: "Mars/Olympus_Mons" },
    });
    expect(badTz.status).toBe(400);
    expect(badTz.json.issues[0].path).toBe("quietHours.timezone");
    const badType = await shipper.put("/api/push/preferences", {
      ...prefs,
      notificationTypes: { loadAssigned: "yes" },
    });
    expect(badType.status).toBe(400);
    expect(badType.json.issues[0].path).toStartWith("notificationTypes.");
    expect(await count("push_preferences")).toBe(0);
  });
});

describe("events → jobs → worker → the push service", () => {
  test("a bid reaches the shipper once, in Amharic, with a link to the load; a notifications row says sent", async () => {
    expect((await shipper.put("/api/user/language", { language: "am" })).status).toBe(200);
    const b = await subscribeAs(shipper);
    const loadId = await postLoad();
    await bid(driver, loadId);
    expect(await count("jobs")).toBe(1);
    const w = worker();
    expect(await w.runOnce()).toBe(1);
    expect(received(b.id)).toEqual([
      {
        title: "በጭነትዎ ላይ አዲስ ጨረታ",
        body: "Dawit በCement, 40 t ላይ ጨረታ አቅርበዋል።",
        url: `${BASE}/loads/${loadId}`,
        // The job's push Topic, which is also the notification's tag: a second send replaces, never repeats.
        tag: emu.push.received(b.id)[0]!.topic,
      },
    ]);
    expect(emu.push.received(b.id)[0]!.topic).toMatch(/^[\w-]{32}$/);
    expect(await w.runOnce()).toBe(0);
    expect(received(b.id)).toHaveLength(1);
    const [row] = await t.rows(
      "SELECT user_id, type, channel, status, url FROM notifications WHERE channel = 'web_push'",
    );
    expect(row).toEqual({
      user_id: ids.shipper,
      type: "loadUpdates",
      channel: "web_push",
      status: "sent",
      url: `${BASE}/loads/${loadId}`,
    });
    // Each user sees only their own history.
    const mine = await shipper.get("/api/push/notifications");
    expect(mine.json).toMatchObject([
      { type: "loadUpdates", channel: "web_push", status: "sent", title: "በጭነትዎ ላይ አዲስ ጨረታ" },
    ]);
    expect((await driver.get("/api/push/notifications")).json).toEqual([]);
    expect((await createClient(t).get("/api/push/notifications")).status).toBe(401);
  });

  test("award and the trip: the winner (Afaan Oromo) is assigned, the loser is told, the shipper follows the trip", async () => {
    expect((await driver.put("/api/user/language", { language: "om" })).status).toBe(200);
    const loadId = await postLoad();
    const winner = await bid(driver, loadId);
    await bid(driver2, loadId, 950);
    const s = await subscribeAs(shipper);
    const d = await subscribeAs(driver);
    const d2 = await subscribeAs(driver2);
    expect((await shipper.post(`/api/bids/${winner}/accept`)).status).toBe(200);
    expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
    expect((await driver.post(`/api/loads/${loadId}/deliver`)).status).toBe(200);
    await worker().runOnce();
    expect(received(d.id)).toEqual([
      {
        title: "Caalbaasiin keessan fudhatameera",
        body: "Cement, 40 t amma isiniif ramadameera.",
        url: `${BASE}/loads/${loadId}`,
        tag: emu.push.received(d.id)[0]!.topic,
      },
    ]);
    expect(received(d2.id).map((m) => m.title)).toEqual(["Your bid was not accepted"]);
    // The bids came before the shipper subscribed (no push job then; the bell has them); pickup and delivery after.
    expect(received(s.id).map((m) => m.title)).toEqual(["Load picked up", "Load delivered"]);
    const bell = await t.rows<{ title: string }>(
      "SELECT title FROM notifications WHERE user_id = ? AND channel = 'in_app' ORDER BY id",
      ids.shipper,
    );
    expect(bell.map((r) => r.title)).toEqual([
      "New bid on your load",
      "New bid on your load",
      "Load picked up",
      "Load delivered",
    ]);
    const types = await t.rows<{ type: string }>(
      "SELECT type FROM notifications WHERE user_id = ? AND channel = 'web_push' ORDER BY id",
      ids.driver,
    );
    expect(types.map((r) => r.type)).toEqual(["loadAssigned"]);
  });

  test("completion reaches the driver; cancelling reaches the pending bidders; nothing is enqueued for the actor", async () => {
    const d = await subscribeAs(driver);
    const d2 = await subscribeAs(driver2);
    const s = await subscribeAs(shipper);
    const loadId = await postLoad();
    const won = await bid(driver, loadId);
    expect((await shipper.post(`/api/bids/${won}/accept`)).status).toBe(200);
    for (const step of ["pickup", "deliver"])
      expect((await driver.post(`/api/loads/${loadId}/${step}`)).status).toBe(200);
    expect((await shipper.post(`/api/loads/${loadId}/complete`)).status).toBe(200);
    const other = await postLoad();
    await bid(driver2, other);
    expect((await shipper.post(`/api/loads/${other}/cancel`, {})).status).toBe(200);
    await worker().runOnce();
    expect(received(d.id).map((m) => m.title)).toEqual(["Your bid was accepted", "Load completed"]);
    expect(received(d2.id).map((m) => [m.title, m.url])).toEqual([["Load cancelled", `${BASE}/loads/${other}`]]);
    expect(received(s.id).map((m) => m.title)).toEqual([
      "New bid on your load",
      "Load picked up",
      "Load delivered",
      "New bid on your load",
    ]);
  });

  test("a type turned off sends nothing", async () => {
    const b = await subscribeAs(shipper);
    const prefs = (await shipper.get("/api/push/preferences")).json;
    prefs.notificationTypes.loadUpdates = false;
    expect((await shipper.put("/api/push/preferences", prefs)).status).toBe(200);
    await bid(driver, await postLoad());
    expect(await worker().runOnce()).toBe(1);
    expect(received(b.id)).toEqual([]);
    // The bell still has it; only the push was turned off.
    expect(await t.rows("SELECT channel FROM notifications")).toEqual([{ channel: "in_app" }]);
    expect((await t.rows<{ status: string }>("SELECT status FROM jobs"))[0].status).toBe("done");
  });

  test("quiet hours hold the notification until they end, then it is sent once", async () => {
    const b = await subscribeAs(shipper);
    const hhmm = (ms: number) => new Date(ms).toISOString().slice(11, 16);
    const now = Date.now();
    const prefs = (await shipper.get("/api/push/preferences")).json;
    prefs.quietHours = { enabled: true, start: hhmm(now - 3600_000), end: hhmm(now + 2 * 3600_000), timezone: "UTC" };
    expect((await shipper.put("/api/push/preferences", prefs)).status).toBe(200);
    await bid(driver, await postLoad());
    const w = worker();
    await w.runOnce();
    expect(received(b.id)).toEqual([]);
    const [job] = await t.rows<{ status: string; run_at: number; attempts: number }>(
      "SELECT status, run_at, attempts FROM jobs",
    );
    expect(job.status).toBe("pending");
    expect(job.attempts).toBe(0);
    const end = Math.floor(now / 60_000) * 60_000 + 2 * 3600_000;
    expect(Math.abs(Number(job.run_at) - end)).toBeLessThanOrEqual(60_000);
    expect(await t.rows("SELECT status FROM notifications WHERE channel = 'web_push'")).toEqual([{ status: "held" }]);
    expect(await w.runOnce()).toBe(0);

    // Time passes: the quiet hours are over.
    prefs.quietHours.enabled = false;
    expect((await shipper.put("/api/push/preferences", prefs)).status).toBe(200);
    await t.rows("UPDATE jobs SET run_at = ?", Date.now() - 1);
    expect(await w.runOnce()).toBe(1);
    expect(received(b.id).map((m) => m.title)).toEqual(["New bid on your load"]);
    expect(await t.rows("SELECT status FROM notifications WHERE channel = 'web_push'")).toEqual([{ status: "sent" }]);
  });

  test("a gone subscription is deleted; 5xx retries through the queue without sending twice", async () => {
    const gone = await subscribeAs(shipper);
    const down = await subscribeAs(shipper);
    const ok = await subscribeAs(shipper);
    emu.push.setMode(gone.id, { kind: "gone" });
    emu.push.setMode(down.id, { kind: "down" });
    await bid(driver, await postLoad());
    const w = worker();
    await w.runOnce();
    expect(await t.rows("SELECT endpoint FROM push_subscriptions ORDER BY id")).toEqual([
      { endpoint: down.subscription.endpoint },
      { endpoint: ok.subscription.endpoint },
    ]);
    const [job] = await t.rows<{ status: string; last_error: string }>("SELECT status, last_error FROM jobs");
    expect(job.status).toBe("pending");
    expect(job.last_error).toStartWith("Push service: HTTP 503");
    expect(received(ok.id)).toHaveLength(1);

    emu.push.setMode(down.id, { kind: "ok" });
    await t.rows("UPDATE jobs SET run_at = ?", Date.now() - 1);
    expect(await w.runOnce()).toBe(1);
    expect(received(down.id)).toHaveLength(1);
    expect(received(ok.id)).toHaveLength(1);
    expect((await t.rows<{ status: string }>("SELECT status FROM jobs"))[0].status).toBe("done");
  });
});
