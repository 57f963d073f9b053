import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { marketplaceConfigs, users } from "../../../db/tables";
import { answerSandboxAuthorize } from "../../../emulators/boards/loadboard123";
import { BOARD_SANDBOX_CREDENTIALS, startBoardEmulators } from "../../../emulators/boards/server";
import { ensureDemoBoards } from "../../demo/boards";
import { countryCodeOf } from "../../shared/countries";
import { haversineMiles } from "../../shared/geo";
import { logger } from "../logger";
import { adapterOf } from "../modules/boards/configs";
import { startConnect } from "../modules/boards/connect";
import { enqueueDueSyncs, runSync, syncLanes, upsertExternalLoads } from "../modules/boards/sync";
import { jobHandlers, startWorker } from "../modules/jobs";
import {
  closeTestApps,
  createClient,
  createTestApp,
  loadInput,
  registerUser,
  sandboxApp,
  type TTestApp,
  testBoardServices,
} from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

type TClient = ReturnType<typeof createClient>;
const CHICAGO = { latitude: 41.85, longitude: -87.65 };

let emu: ReturnType<typeof startBoardEmulators>;
beforeAll(() => {
  emu = startBoardEmulators();
});
afterAll(() => emu.stop());

let t: TTestApp;
let driver: TClient;
let other: TClient;
let ids: { driver: number; other: number };
beforeEach(async () => {
  for (const c of Object.values(emu.controls)) c.reset();
  const app = await sandboxApp(Object.values(emu.urls), ["driver", "driver"], {
    boards: { deadlineMs: 1500, timeoutMs: 3000 },
  });
  ({ t } = app);
  [driver, other] = app.clients as [TClient, TClient];
  ids = { driver: app.ids[0]!, other: app.ids[1]! };
  expect((await driver.post("/api/drivers/location", CHICAGO)).status).toBe(200);
  expect((await other.post("/api/drivers/location", CHICAGO)).status).toBe(200);
});
afterEach(closeTestApps);

type TProvider = keyof typeof BOARD_SANDBOX_CREDENTIALS;
const addBoard = async (provider: TProvider, over: Record<string, unknown> = {}, who = driver) => {
  const res = await who.post("/api/marketplaces", {
    provider,
    name: `${provider} sandbox`,
    apiBaseUrl: emu.urls[provider],
    config: BOARD_SANDBOX_CREDENTIALS[provider],
    ...over,
  });
  if (res.status !== 201) throw new Error(`add ${provider}: ${res.status} ${res.text}`);
  return res.json as { id: number; [k: string]: unknown };
};
/**
 * Connect 123Loadboard as a browser does it: the app's Connect gives 123Loadboard's authorize address; there Approve
 * (or Deny) sends the browser to our callback, which answers with where to go next.
 */
const connect123 = async (id: number, who = driver, decision: "approve" | "deny" = "approve") => {
  const started = await who.post(`/api/marketplaces/${id}/connect`);
  if (started.status !== 200) throw new Error(`connect ${id}: ${started.status} ${started.text}`);
  const back = await answerSandboxAuthorize(started.json.url, decision);
  const res = await who.get(`${back.pathname}${back.search}`);
  return { authorizeUrl: started.json.url as string, callback: back, res, location: res.headers.get("location") };
};
const board = async (who: TClient, input: Record<string, unknown>) =>
  (await who.get(`/trpc/loads.search?input=${encodeURIComponent(JSON.stringify(input))}`)).json.result.data as {
    items: {
      id: number;
      title: string;
      source: { type: string; externalId: string | null; contact: unknown };
      board: { name: string; poweredBy: string | null; live: boolean } | null;
      distance: number | null;
    }[];
    boards: { name: string; state: string; count: number; unreadable: number; error: string | null }[];
  };
const worker = (services = t.services) =>
  startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({
      notifiers: services.notifiers,
      baseUrl: "https://mytess.example",
      boards: services.boards,
    }),
    schedules: [],
    autoStart: false,
  });

describe("configurations", () => {
  test("added with defaults; credentials sealed at rest and shown only as set / not set", async () => {
    const res = await driver.post("/api/marketplaces", {
      provider: "truckstop",
      name: "Truckstop (Chicago desk)",
      apiBaseUrl: `${emu.urls.truckstop}/`,
      syncIntervalMinutes: "",
      rateLimitPerHour: "lots",
      config: { username: "sandbox", password: "s3cret-pass", integrationId: "sandbox" },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      provider: "truckstop",
      name: "Truckstop (Chicago desk)",
      apiBaseUrl: emu.urls.truckstop,
      isActive: true,
      syncEnabled: false,
      syncIntervalMinutes: 30,
      rateLimitPerHour: 1000,
      config: { username: true, password: true, integrationId: true },
      sandbox: true,
    });
    expect(res.text).not.toContain("s3cret-pass");
    const [row] = await t.rows<{ credentials: string }>("select credentials from marketplace_configs");
    expect(row!.credentials).not.toContain("s3cret-pass");
    expect(row!.credentials.startsWith("v1.")).toBe(true);
    expect((await driver.get("/api/marketplaces")).json).toHaveLength(1);
  });

  test("required fields are named: provider, name, apiBaseUrl and the provider's credentials", async () => {
    const missing = await driver.post("/api/marketplaces", { config: {} });
    expect(missing.status).toBe(400);
    const paths = (missing.json.issues as { path: string }[]).map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(["provider", "name", "apiBaseUrl"]));
    const creds = await driver.post("/api/marketplaces", {
      provider: "truckstop",
      name: "TS",
      apiBaseUrl: emu.urls.truckstop,
      config: { username: "sandbox", password: "sandbox" },
    });
    expect(creds.status).toBe(400);
    expect(creds.json.issues).toEqual([
      { path: "config.integrationId", message: "config.integrationId is required for Truckstop" },
    ]);
    const stray = await driver.post("/api/marketplaces", {
      provider: "dat",
      name: "DAT",
      apiBaseUrl: emu.urls.dat,
      config: { ...BOARD_SANDBOX_CREDENTIALS.dat, password: "x" },
    });
    expect(stray.status).toBe(400);
    expect(stray.json.issues).toEqual([
      {
        path: "config.password",
        message: "password is not a credential of DAT; it takes clientId, clientSecret, userEmail",
      },
    ]);
    const url = await driver.post("/api/marketplaces", { provider: "other", name: "Feed", apiBaseUrl: "ftp://x" });
    expect(url.status).toBe(400);
    expect(url.json.issues[0].path).toBe("apiBaseUrl");
    expect(await t.rows("select id from marketplace_configs")).toEqual([]);
  });

  test("a deployment refuses plain http and private addresses for a board (the server is not pointed at its own network)", async () => {
    const strict = await createTestApp({}, undefined, undefined, testBoardServices());
    const c = createClient(strict);
    await registerUser(c, "driver");
    for (const apiBaseUrl of [
      "http://api.123loadboard.com",
      "https://127.0.0.1:8443",
      "https://10.1.2.3",
      "https://localhost",
    ]) {
      const res = await c.post("/api/marketplaces", {
        provider: "123loadboard",
        name: "123",
        apiBaseUrl,
        config: BOARD_SANDBOX_CREDENTIALS["123loadboard"],
      });
      expect(res.status).toBe(400);
      expect(res.json.issues[0]).toEqual({
        path: "apiBaseUrl",
        message:
          "apiBaseUrl must be an https address of 123Loadboard: https://api.123loadboard.com, https://api.dev.123loadboard.com",
      });
    }
    const ok = await c.post("/api/marketplaces", {
      provider: "123loadboard",
      name: "123",
      apiBaseUrl: "https://api.123loadboard.com",
      config: BOARD_SANDBOX_CREDENTIALS["123loadboard"],
    });
    expect(ok.status).toBe(201);
    expect(ok.json.sandbox).toBe(false);
  });

  test("DAT is never synced, whatever the form says", async () => {
    const dat = await addBoard("dat", { syncEnabled: true });
    expect(dat).toMatchObject({ syncEnabled: false, canSync: false });
    const res = await driver.put(`/api/marketplaces/${dat.id}`, { syncEnabled: true });
    expect(res.json.syncEnabled).toBe(false);
  });

  test("update keeps credentials left out and replaces those given; another user gets 404 for everything", async () => {
    const ts = await addBoard("truckstop");
    const res = await driver.put(`/api/marketplaces/${ts.id}`, { name: "Renamed", config: { password: "wrong" } });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      name: "Renamed",
      config: { username: true, password: true, integrationId: true },
    });
    const failed = await driver.post(`/api/marketplaces/${ts.id}/test`);
    expect(failed.status).toBe(400);
    expect(failed.json.message).toContain("Renamed");
    expect((await driver.put(`/api/marketplaces/${ts.id}`, { config: { password: "sandbox" } })).status).toBe(200);
    expect((await driver.post(`/api/marketplaces/${ts.id}/test`)).json).toMatchObject({ connected: true });

    expect((await other.get("/api/marketplaces")).json).toEqual([]);
    expect((await other.put(`/api/marketplaces/${ts.id}`, { name: "Mine now" })).status).toBe(404);
    expect((await other.post(`/api/marketplaces/${ts.id}/test`)).status).toBe(404);
    expect((await other.post(`/api/marketplaces/${ts.id}/search`, {})).status).toBe(404);
    expect((await other.del(`/api/marketplaces/${ts.id}`)).status).toBe(404);
    expect((await driver.get("/api/marketplaces")).json[0].name).toBe("Renamed");
    expect((await driver.del(`/api/marketplaces/${ts.id}`)).status).toBe(200);
    expect((await driver.get("/api/marketplaces")).json).toEqual([]);
  });
});

describe("connection test and search", () => {
  test("every board's connection test proves the sandbox credentials and names the board when they are wrong", async () => {
    for (const provider of ["dat", "truckstop", "123loadboard", "other"] as const) {
      const good = await addBoard(provider);
      // 123Loadboard searches with the user's own authorization: connected first (a wrong client never gets one).
      if (provider === "123loadboard") await connect123(good.id);
      expect((await driver.post(`/api/marketplaces/${good.id}/test`)).json).toMatchObject({
        connected: true,
        message: "Successfully connected to the marketplace API.",
      });
      const field = Object.keys(BOARD_SANDBOX_CREDENTIALS[provider])[0]!;
      const bad = await addBoard(provider, {
        name: `${provider} wrong`,
        config: { ...BOARD_SANDBOX_CREDENTIALS[provider], [field]: "not-sandbox" },
      });
      const res = await driver.post(`/api/marketplaces/${bad.id}/test`);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.json.message).toContain(`${provider} wrong`);
      const [row] = await t.rows<{ last_error: string | null }>(
        "select last_error from marketplace_configs where id = ?",
        bad.id,
      );
      expect(row!.last_error).toContain(`${provider} wrong`);
    }
  });

  test("search answers live from the board with the product's fields, within the radius, with defaults for a bad radius and limit", async () => {
    const ts = await addBoard("truckstop");
    const res = await driver.post(`/api/marketplaces/${ts.id}/search`, {
      originLatitude: CHICAGO.latitude,
      originLongitude: CHICAGO.longitude,
      radiusMiles: "far",
      limit: -3,
    });
    expect(res.status).toBe(200);
    const results = res.json as {
      title: string;
      origin: { city: string };
      destination: { city: string };
      equipmentType: string;
      distance: number;
      rate: number;
      source: { contact: { phone: string | null } };
    }[];
    expect(results.length).toBeGreaterThan(0);
    expect(results.length).toBeLessThanOrEqual(20);
    for (const r of results) {
      expect(r.title.length).toBeGreaterThan(0);
      expect(r.origin.city.length).toBeGreaterThan(0);
      expect(r.destination.city.length).toBeGreaterThan(0);
      expect(r.distance).toBeLessThanOrEqual(50);
      expect(typeof r.rate).toBe("number");
      expect(r.source.contact).not.toBeNull();
    }
    const reefer = await driver.post(`/api/marketplaces/${ts.id}/search`, {
      radiusMiles: 250,
      equipmentType: "refrigerated",
      limit: 5,
    });
    expect(reefer.json.length).toBeGreaterThan(0);
    expect(reefer.json.length).toBeLessThanOrEqual(5);
    expect(reefer.json.every((r: { equipmentType: string }) => r.equipmentType === "refrigerated")).toBe(true);
  });

  test("a board that is down, limiting or refusing: the search fails naming it", async () => {
    const dat = await addBoard("dat", { name: "DAT One" });
    emu.controls.dat.outage = true;
    const down = await driver.post(`/api/marketplaces/${dat.id}/search`, {});
    expect(down.status).toBe(502);
    expect(down.json.message).toContain("DAT One");
    emu.controls.dat.outage = false;
    emu.controls.dat.rateLimit = true;
    const limited = await driver.post(`/api/marketplaces/${dat.id}/search`, {});
    expect(limited.status).toBe(429);
    expect(limited.json.message).toContain("DAT One");
  });
});

describe("the load board with external boards", () => {
  test("MyTess loads and live DAT results in one list, sorted by distance, DAT attributed; never shown to another user", async () => {
    const shipper = createClient(t, "10.0.0.3");
    await registerUser(shipper, "shipper");
    const chicagoLoad = loadInput({
      title: "Steel coils, Chicago",
      pickupCity: "Chicago",
      pickupState: "IL",
      pickupCountry: "United States",
      pickupLatitude: 41.86,
      pickupLongitude: -87.64,
      deliveryCity: "Detroit",
      deliveryState: "MI",
      deliveryCountry: "United States",
      deliveryLatitude: 42.33,
      deliveryLongitude: -83.05,
    });
    expect((await shipper.post("/api/loads", chicagoLoad)).status).toBe(201);
    await addBoard("dat", { name: "DAT One" });
    const page = await board(driver, { ...CHICAGO, radius: 100, pageSize: 100 });
    const external = page.items.filter((l) => l.source.type === "external");
    expect(external.length).toBeGreaterThan(0);
    expect(page.items.some((l) => l.title === "Steel coils, Chicago")).toBe(true);
    expect(external.every((l) => l.board?.name === "DAT One" && l.board.poweredBy === "DAT" && l.board.live)).toBe(
      true,
    );
    const distances = page.items.map((l) => l.distance!);
    expect(distances).toEqual([...distances].sort((a, b) => a - b));
    expect(page.boards).toEqual([expect.objectContaining({ name: "DAT One", state: "ok", count: external.length })]);
    // The counters include the live board's loads.
    const stats = (await driver.get("/api/loads/stats?latitude=41.85&longitude=-87.65&radius=100")).json;
    expect(stats.external).toBe(external.length);
    expect(stats.total).toBe(page.items.length);

    const mytessOnly = await board(driver, { ...CHICAGO, radius: 100, sourceType: "mytess" });
    expect(mytessOnly.items.every((l) => l.source.type === "mytess")).toBe(true);
    const externalOnly = await board(driver, {
      ...CHICAGO,
      radius: 100,
      sourceType: "external",
      equipmentType: "flatbed",
    });
    expect(externalOnly.items.every((l) => l.source.type === "external")).toBe(true);

    const theirs = await board(other, { ...CHICAGO, radius: 100, pageSize: 100 });
    expect(theirs.items.every((l) => l.source.type === "mytess")).toBe(true);
    expect(theirs.boards).toEqual([]);
    // The REST board is the same list.
    const rest = await driver.get("/api/loads?latitude=41.85&longitude=-87.65&radius=100&pageSize=100");
    expect(rest.json.length).toBe(page.items.length);
  });

  test("a slow board is dropped after the deadline and a failing one is named; the rest of the board still answers", async () => {
    await addBoard("dat", { name: "Slow DAT" });
    await connect123((await addBoard("123loadboard", { name: "Broken 123" })).id);
    await addBoard("other", { name: "Feed" });
    emu.controls.dat.delayMs = 2500;
    emu.controls["123loadboard"].outage = true;
    const page = await board(driver, { ...CHICAGO, radius: 100 });
    const state = Object.fromEntries(page.boards.map((b) => [b.name, b.state]));
    expect(state).toEqual({ "Slow DAT": "timeout", "Broken 123": "failed", Feed: "ok" });
    expect(page.boards.find((b) => b.name === "Broken 123")!.error).toContain("Broken 123");
    expect(page.items.every((l) => l.board?.name !== "Slow DAT" && l.board?.name !== "Broken 123")).toBe(true);
  });

  test("external loads take no bids and open no conversation", async () => {
    const ts = await addBoard("truckstop", { syncEnabled: true });
    await runSync(t.db, t.services.boards, ts.id, "manual");
    const [row] = await t.rows<{ id: number }>("select id from loads where source_config_id = ? limit 1", ts.id);
    // Imported loads carry their pickup country's code too, from the board's country.
    const countries = await t.rows<{ country: string; code: string | null }>(
      "select pickup_country AS country, pickup_country_code AS code from loads where source_config_id = ?",
      ts.id,
    );
    expect(countries.length).toBeGreaterThan(0);
    for (const c of countries) expect([c.country, c.code]).toEqual([c.country, countryCodeOf(c.country) ?? "none"]);
    const bid = await driver.post(`/api/loads/${row!.id}/bids`, { amount: 1200 });
    expect(bid.status).toBe(409);
    expect(bid.json.message).toBe(
      "Bids are not taken on loads from external boards: contact the poster through the board",
    );
    expect((await other.post(`/api/loads/${row!.id}/bids`, { amount: 1200 })).status).toBe(404);
    expect((await other.get(`/api/loads/${row!.id}`)).status).toBe(404);
    expect((await driver.get(`/api/loads/${row!.id}`)).json.source.type).toBe("external");
    expect((await driver.post(`/api/loads/${row!.id}/messages`, { body: "Still available?" })).status).toBe(404);
  });
});

describe("sync", () => {
  const counts = async (configId: number) =>
    (
      await t.rows<{ n: number; d: number }>(
        "select CAST(count(*) AS INTEGER) n, CAST(count(distinct source_external_id) AS INTEGER) d from loads where source_config_id = ?",
        configId,
      )
    )[0]!;

  test("a manual sync runs as a job: loads upserted for the owner only, re-runs change nothing, changes and removals follow the board", async () => {
    const ts = await addBoard("truckstop", { syncEnabled: true, syncIntervalMinutes: 15 });
    const started = await driver.post("/api/sync/manual");
    expect(started.json).toMatchObject({ message: "Manual synchronization has been started.", queued: 1 });
    expect((await driver.get("/api/sync/status")).json).toMatchObject({ isRunning: true, intervalMinutes: 15 });
    expect(await worker().runOnce()).toBe(1);
    const status = (await driver.get("/api/sync/status")).json;
    expect(status).toMatchObject({ isRunning: false, nextSyncInMinutes: 15 });
    expect(Object.keys(status.lastSyncTimes)).toEqual([String(ts.id)]);

    const first = (await driver.get("/api/marketplaces/sync-runs")).json[0];
    expect(first).toMatchObject({ configId: ts.id, trigger: "manual", error: null, updated: 0, expired: 0 });
    expect(first.created).toBeGreaterThan(0);
    expect(first.found).toBe(first.created);
    const { n, d } = await counts(ts.id);
    expect(n).toBe(first.created);
    expect(d).toBe(n);

    // Shown to the owner on the board (synced, not live), never to anyone else.
    const mine = await board(driver, { ...CHICAGO, radius: 100, sourceType: "external", pageSize: 100 });
    expect(mine.items.length).toBeGreaterThan(0);
    expect(mine.items.every((l) => l.board?.name === "truckstop sandbox" && !l.board.live)).toBe(true);
    expect(mine.boards).toEqual([expect.objectContaining({ state: "synced" })]);
    expect((await board(other, { ...CHICAGO, radius: 100, sourceType: "external" })).items).toEqual([]);
    expect((await other.get("/api/loads/stats?latitude=41.85&longitude=-87.65&radius=100")).json.external).toBe(0);
    expect(
      (await driver.get("/api/loads/stats?latitude=41.85&longitude=-87.65&radius=100")).json.external,
    ).toBeGreaterThan(0);

    // Again: nothing new. Then the board books one load and re-prices another.
    const again = await runSync(t.db, t.services.boards, ts.id, "schedule");
    expect(again).toMatchObject({ created: 0, updated: 0, expired: 0, error: null });
    const [gone, repriced] = (
      await t.rows<{ source_external_id: string }>(
        "select source_external_id from loads where source_config_id = ? order by id limit 2",
        ts.id,
      )
    ).map((r) => r.source_external_id);
    expect(emu.controls.truckstop.remove(gone!)).toBe(true);
    expect(emu.controls.truckstop.setRate(repriced!, 4321)).toBe(true);
    const third = await runSync(t.db, t.services.boards, ts.id, "schedule");
    expect(third).toMatchObject({ created: 0, updated: 1, expired: 1, error: null });
    expect((await counts(ts.id)).n).toBe(n - 1);
    const [price] = await t.rows<{ budget_minor: number }>(
      "select CAST(budget_minor AS INTEGER) budget_minor from loads where source_config_id = ? and source_external_id = ?",
      ts.id,
      repriced!,
    );
    expect(price!.budget_minor).toBe(432100);
  });

  test("two syncs of one board at once never duplicate a load", async () => {
    const feed = await addBoard("truckstop", { syncEnabled: true });
    const runs = await Promise.all([
      runSync(t.db, t.services.boards, feed.id, "manual"),
      runSync(t.db, t.services.boards, feed.id, "schedule"),
      runSync(t.db, t.services.boards, feed.id, "schedule"),
    ]);
    expect(runs.every((r) => r?.error === null)).toBe(true);
    const { n, d } = await counts(feed.id);
    expect(n).toBe(d);
    expect(n).toBeGreaterThan(0);
    expect(n).toBe(runs[0]!.found);
    expect(runs.reduce((sum, r) => sum + r!.created, 0)).toBeGreaterThanOrEqual(n);
    // An empty list from the board expires every load of the configuration.
    const cfg = { id: feed.id, userId: ids.driver, provider: "truckstop" };
    expect(await upsertExternalLoads(t.db, cfg, [])).toMatchObject({ expired: n });
    expect((await counts(feed.id)).n).toBe(0);
  });

  test("a failing board is recorded on the run and the configuration; the scheduled job does not fail", async () => {
    const ts = await addBoard("123loadboard", { syncEnabled: true, name: "123 desk" });
    await connect123(ts.id);
    emu.controls["123loadboard"].rateLimit = true;
    const run = await runSync(t.db, t.services.boards, ts.id, "schedule");
    expect(run!.error).toContain("123 desk");
    const list = (await driver.get("/api/marketplaces")).json;
    expect(list[0].lastError).toContain("123 desk");
    expect((await driver.get("/api/marketplaces/sync-runs")).json[0].error).toContain("123 desk");
  });

  test("scheduled sync runs each interval once; DAT and boards with sync off are not synced; switching sync off removes the copy", async () => {
    const ts = await addBoard("truckstop", { syncEnabled: true, syncIntervalMinutes: 30 });
    await addBoard("dat");
    await addBoard("other", { syncEnabled: false });
    const w = startWorker({
      db: t.db,
      log: logger,
      handlers: jobHandlers({
        notifiers: t.services.notifiers,
        baseUrl: "https://mytess.example",
        boards: t.services.boards,
      }),
      schedules: [{ kind: "board_sync_due", everyMs: 60_000 }],
      autoStart: false,
    });
    await w.runOnce();
    await w.runOnce();
    const runs = await t.rows<{ config_id: number }>("select config_id from sync_runs");
    expect(runs.map((r) => r.config_id)).toEqual([ts.id]);
    expect((await counts(ts.id)).n).toBeGreaterThan(0);
    await driver.put(`/api/marketplaces/${ts.id}`, { syncEnabled: false });
    expect((await counts(ts.id)).n).toBe(0);
    const none = await driver.post("/api/sync/manual");
    expect(none.status).toBe(400);
    expect(none.json.message).toContain("No board has sync switched on");
  });

  test("after premium ends: sync cannot be switched back on or run by hand; the schedule records why once, removes the copy, and resumes with premium", async () => {
    const ts = await addBoard("truckstop", { syncEnabled: true, syncIntervalMinutes: 30 });
    const feed = await addBoard("other", { syncEnabled: false });
    const spare = await addBoard("123loadboard", { syncEnabled: true });
    await runSync(t.db, t.services.boards, ts.id, "schedule");
    expect((await counts(ts.id)).n).toBeGreaterThan(0);
    const DAY = 86_400_000;
    await t.rows("update users set trial_ends_at = ? where id = ?", Date.now() - DAY, ids.driver);
    // Switching sync on, reactivating a synced board and Manual Sync: 402 with premium's rule; nothing changes.
    for (const res of [
      await driver.put(`/api/marketplaces/${feed.id}`, { syncEnabled: true }),
      await driver.post("/api/sync/manual"),
    ]) {
      expect(res.status).toBe(402);
      expect(res.json.code).toBe("SUBSCRIPTION_REQUIRED");
    }
    expect((await driver.get("/api/marketplaces")).json.map((c: { syncEnabled: boolean }) => c.syncEnabled)).toEqual([
      true,
      false,
      true,
    ]);
    // Switching off and renaming stay open; reactivating a synced board does not.
    expect((await driver.put(`/api/marketplaces/${spare.id}`, { isActive: false })).status).toBe(200);
    expect((await driver.put(`/api/marketplaces/${spare.id}`, { isActive: true })).status).toBe(402);
    expect((await driver.put(`/api/marketplaces/${feed.id}`, { name: "Feed, renamed" })).status).toBe(200);

    // The schedule: one run that says why and removes the synced loads, then none while premium stays ended.
    const scheduled = async (now: number) => {
      await enqueueDueSyncs(t.db, now);
      await startWorker({
        db: t.db,
        log: logger,
        handlers: jobHandlers({ notifiers: t.services.notifiers, baseUrl: "", boards: t.services.boards }),
        schedules: [],
        autoStart: false,
        clock: () => now,
      }).runOnce();
    };
    const start = Date.now() + 31 * 60_000;
    await scheduled(start);
    const [last] = (await driver.get("/api/marketplaces/sync-runs")).json;
    expect(last).toMatchObject({ configId: ts.id, trigger: "schedule", found: 0, created: 0 });
    expect(last.error).toBe(
      "Sync needs MyTess Premium, and this account's free period has ended: the synced loads are removed until premium is active again",
    );
    expect(last.expired).toBeGreaterThan(0);
    expect((await counts(ts.id)).n).toBe(0);
    expect((await driver.get("/api/marketplaces")).json[0].lastError).toBe(last.error);
    await scheduled(start + 31 * 60_000);
    await scheduled(start + 62 * 60_000);
    expect((await driver.get("/api/marketplaces/sync-runs")).json).toHaveLength(2);

    // Premium again (a payment, or support's grant): the next slot syncs.
    await t.rows("update users set paid_until = ? where id = ?", Date.now() + 30 * DAY, ids.driver);
    await scheduled(start + 93 * 60_000);
    const runs = (await driver.get("/api/marketplaces/sync-runs")).json;
    expect(runs).toHaveLength(3);
    expect(runs[0]).toMatchObject({ configId: ts.id, error: null });
    expect((await counts(ts.id)).n).toBeGreaterThan(0);
  });

  test("a user with no location and no saved lane gets a run that says so", async () => {
    const shipper = createClient(t, "10.0.0.9");
    await registerUser(shipper, "shipper");
    const feed = await addBoard("other", { syncEnabled: true }, shipper);
    const run = await runSync(t.db, t.services.boards, feed.id, "manual");
    expect(run!.error).toBe(
      "Sync needs your location or a saved lane: share your location on the load board, or save a lane on the Marketplaces page",
    );
  });

  test("a saved lane is synced for a user with no location: its loads only, origin to destination, of its equipment", async () => {
    const nomad = createClient(t, "10.0.0.9");
    const nomadId = (await registerUser(nomad, "driver")).id;
    const feed = await addBoard("other", { syncEnabled: true, name: "Corridor feed" }, nomad);
    const lane = {
      origin: { latitude: 9.0108, longitude: 38.7613 },
      destination: { latitude: 11.5721, longitude: 43.1456 },
    };
    const added = await nomad.post("/api/marketplaces/lanes", {
      name: "Port run",
      originName: "Addis Ababa, Ethiopia",
      originLatitude: lane.origin.latitude,
      originLongitude: lane.origin.longitude,
      originRadiusMiles: 150,
      destinationName: "Djibouti, Djibouti",
      destinationLatitude: lane.destination.latitude,
      destinationLongitude: lane.destination.longitude,
      destinationRadiusMiles: 50,
      equipmentTypes: ["container", "dry_van"],
    });
    expect(added.status).toBe(201);
    const progress: number[] = [];
    const run = await runSync(t.db, t.services.boards, feed.id, "manual", (p) => progress.push(p.lanes));
    expect(run).toMatchObject({ error: null, updated: 0, expired: 0 });
    // One search per equipment type of the lane.
    expect(progress).toEqual([2, 2]);

    // Exactly the board's loads on the lane.
    const onLane = emu.controls.other
      .loads()
      .filter(
        (l) =>
          haversineMiles(lane.origin.latitude, lane.origin.longitude, l.origin.latitude, l.origin.longitude) <= 150 &&
          haversineMiles(
            lane.destination.latitude,
            lane.destination.longitude,
            l.destination.latitude,
            l.destination.longitude,
          ) <= 50 &&
          (l.equipment === "container" || l.equipment === "dry_van"),
      )
      .map((l) => l.id)
      .sort();
    expect(onLane.length).toBeGreaterThan(0);
    const synced = await t.rows<{ ext: string; owner: number }>(
      "select source_external_id ext, CAST(source_owner_id AS INTEGER) owner from loads where source_config_id = ? order by source_external_id",
      feed.id,
    );
    expect(synced.map((r) => r.ext)).toEqual(onLane);
    expect(synced.every((r) => r.owner === nomadId)).toBe(true);
    expect(run!.created).toBe(onLane.length);

    // Shown on the owner's board around the lane's origin; never to anyone else.
    const page = await board(nomad, { ...lane.origin, radius: 250, sourceType: "external", pageSize: 100 });
    expect(page.items.map((l) => l.source.externalId).sort()).toEqual(onLane);
    expect((await board(driver, { ...lane.origin, radius: 250, sourceType: "external" })).items).toEqual([]);

    // The lane deleted: the next run has nothing to search and says so, and its loads leave the board.
    await nomad.del(`/api/marketplaces/lanes/${added.json.id}`);
    const after = await runSync(t.db, t.services.boards, feed.id, "schedule");
    expect(after).toMatchObject({ found: 0, created: 0, expired: onLane.length });
    expect(after!.error).toContain("saved lane");
    expect(await t.rows("select id from loads where source_config_id = ?", feed.id)).toEqual([]);
  });

  test("overlapping lanes never duplicate a load, and a lane saved twice is searched once", async () => {
    const ts = await addBoard("truckstop", { syncEnabled: true });
    const joliet = {
      originName: "Joliet, IL",
      originLatitude: 41.525,
      originLongitude: -88.0817,
      originRadiusMiles: 100,
    };
    for (const body of [
      joliet,
      { ...joliet, name: "Same again" },
      {
        originName: "Chicago, IL",
        originLatitude: 41.8781,
        originLongitude: -87.6298,
        originRadiusMiles: 150,
        destinationName: "Dallas, TX",
        destinationLatitude: 32.7767,
        destinationLongitude: -96.797,
        destinationRadiusMiles: 100,
      },
    ])
      expect((await driver.post("/api/marketplaces/lanes", body)).status).toBe(201);

    // The driver's location (Chicago, 100 miles), Joliet once, and Chicago to Dallas.
    const lanes = await syncLanes(t.db, ids.driver);
    expect(lanes).toHaveLength(3);
    expect(lanes[2]).toMatchObject({
      radiusMiles: 150,
      destination: { latitude: 32.7767 },
      destinationRadiusMiles: 100,
    });
    const [cfg] = await t.db.select().from(marketplaceConfigs).where(eq(marketplaceConfigs.id, ts.id));
    const each = (await Promise.all(lanes.map((q) => adapterOf(t.db, t.services.boards, cfg!).search(q)))).map(
      (r) => r.loads,
    );
    const union = new Set(each.flat().map((l) => l.externalId));
    // Chicago and Joliet overlap: some loads are found by both.
    expect(each[0]!.length + each[1]!.length + each[2]!.length).toBeGreaterThan(union.size);

    const before = emu.controls.truckstop.searchCalls;
    const run = await runSync(t.db, t.services.boards, ts.id, "manual");
    expect(run).toMatchObject({ error: null, found: union.size, created: union.size });
    expect(emu.controls.truckstop.searchCalls - before).toBe(3);
    const { n, d } = await counts(ts.id);
    expect(n).toBe(union.size);
    expect(d).toBe(n);
    // Again, as two workers would: still one row per load.
    await Promise.all([
      runSync(t.db, t.services.boards, ts.id, "schedule"),
      runSync(t.db, t.services.boards, ts.id, "schedule"),
    ]);
    expect(await counts(ts.id)).toEqual({ n: union.size, d: union.size });
  });

  test("the feed syncs loads around Addis Ababa for a driver there", async () => {
    expect((await driver.post("/api/drivers/location", { latitude: 9.0108, longitude: 38.7613 })).status).toBe(200);
    const feed = await addBoard("other", { syncEnabled: true, name: "Horn of Africa feed" });
    const run = await runSync(t.db, t.services.boards, feed.id, "manual");
    expect(run).toMatchObject({ error: null });
    expect(run!.created).toBeGreaterThan(0);
    const page = await board(driver, { latitude: 9.0108, longitude: 38.7613, radius: 100, sourceType: "external" });
    expect(page.items.length).toBeGreaterThan(0);
    expect(page.items.every((l) => l.distance! <= 100 && l.board?.name === "Horn of Africa feed")).toBe(true);
  });

  test("deleting a configuration removes its loads and its history", async () => {
    const feed = await addBoard("truckstop", { syncEnabled: true });
    await runSync(t.db, t.services.boards, feed.id, "manual");
    expect((await counts(feed.id)).n).toBeGreaterThan(0);
    await driver.del(`/api/marketplaces/${feed.id}`);
    expect((await counts(feed.id)).n).toBe(0);
    expect(await t.rows("select id from sync_runs")).toEqual([]);
  });
});

describe("a configuration's errors name its board", () => {
  test("a refused connection test: 'Truckstop refused the credentials of …', recorded alike", async () => {
    const ts = await addBoard("truckstop", {
      name: "Mine",
      config: { ...BOARD_SANDBOX_CREDENTIALS.truckstop, password: "x" },
    });
    const res = await driver.post(`/api/marketplaces/${ts.id}/test`);
    expect(res.status).toBe(400);
    expect(res.json.message).toBe(
      "Truckstop refused the credentials of 'Mine': Invalid Integration Id, UserName or Password",
    );
    expect((await driver.get("/api/marketplaces")).json[0].lastError).toBe(res.json.message);
    // Every other failure names both too.
    const dat = await addBoard("dat", { name: "Office" });
    emu.controls.dat.outage = true;
    const down = await driver.post(`/api/marketplaces/${dat.id}/search`, {});
    expect(down.json.message).toStartWith("DAT 'Office' failed: ");
    // In the caller's language, with the names as they are.
    const am = await driver.post(`/api/marketplaces/${ts.id}/test`, undefined, { "Accept-Language": "am" });
    expect(am.json.message).toContain("Truckstop");
    expect(am.json.message).toContain("Mine");
  });
});

describe("loads a board answers that cannot be read", () => {
  test("DAT's unreadable matches are counted on the board's answer and in the Search Loads answer; the others are shown", async () => {
    const dat = await addBoard("dat", { name: "DAT One" });
    const page = await board(driver, { ...CHICAGO, radius: 250, pageSize: 100 });
    const answer = page.boards.find((b) => b.name === "DAT One")!;
    expect(answer.state).toBe("ok");
    expect(answer.count).toBeGreaterThan(0);
    expect(answer.unreadable).toBeGreaterThan(0);
    const res = await driver.post("/trpc/boards.search", { id: dat.id, radiusMiles: 250, limit: 100 });
    const data = res.json.result.data as { results: unknown[]; unreadable: number };
    expect(data.results.length).toBeGreaterThan(0);
    expect(data.unreadable).toBeGreaterThan(0);
  });

  test("a synced board's run counts what it could not read", async () => {
    const feed = await addBoard("other", { syncEnabled: true });
    expect((await driver.post("/api/drivers/location", { latitude: 9.0108, longitude: 38.7613 })).status).toBe(200);
    emu.controls.other.extraRaw = [{ id: "BROKEN-1", pickup: { city: "Addis Ababa", country: "ET" } }];
    const run = await runSync(t.db, t.services.boards, feed.id, "manual");
    expect(run).toMatchObject({ error: null, unreadable: 1 });
    expect((await driver.get("/api/marketplaces/sync-runs")).json[0]).toMatchObject({ unreadable: 1, lanesOutside: 0 });
  });
});

describe("Truckstop outside North America", () => {
  test("the board answer says Truckstop was not asked, and nothing was sent", async () => {
    expect((await driver.post("/api/drivers/location", { latitude: 9.0108, longitude: 38.7613 })).status).toBe(200);
    await addBoard("truckstop", { name: "TS live" });
    const page = await board(driver, { latitude: 9.0108, longitude: 38.7613, radius: 100 });
    expect(page.boards).toEqual([
      expect.objectContaining({
        name: "TS live",
        state: "outside_area",
        count: 0,
        error:
          "Truckstop searches North America only: the search must start in a US state, a Canadian province or a Mexican state",
      }),
    ]);
    expect(emu.controls.truckstop.searchCalls).toBe(0);
    const ts = (await driver.get("/api/marketplaces")).json[0];
    expect(ts.lastError).toBeNull();
    // The Search Loads tab refuses it the same way, without recording it against the board.
    const res = await driver.post(`/api/marketplaces/${ts.id}/search`, {});
    expect(res.status).toBe(400);
    expect(res.json.message).toStartWith("Truckstop searches North America only");
    expect(emu.controls.truckstop.searchCalls).toBe(0);
    expect((await driver.get("/api/marketplaces")).json[0].lastError).toBeNull();
  });

  test("a sync searches only the lanes that start in North America, and the run says how many it left out", async () => {
    const ts = await addBoard("truckstop", { syncEnabled: true, name: "TS sync" });
    const lane = {
      originName: "Addis Ababa, Ethiopia",
      originLatitude: 9.0108,
      originLongitude: 38.7613,
      originRadiusMiles: 100,
    };
    expect((await driver.post("/api/marketplaces/lanes", lane)).status).toBe(201);
    const run = await runSync(t.db, t.services.boards, ts.id, "manual");
    // Chicago (the driver's location) is searched; Addis Ababa is not.
    expect(run).toMatchObject({ error: null, lanesOutside: 1 });
    expect(run!.created).toBeGreaterThan(0);
    expect(emu.controls.truckstop.searchCalls).toBe(1);
    // A driver in Addis Ababa with only that lane (the same search as the location, asked once): nothing to search,
    // what earlier runs found goes, and the run says why.
    expect((await driver.post("/api/drivers/location", { latitude: 9.0108, longitude: 38.7613 })).status).toBe(200);
    const none = await runSync(t.db, t.services.boards, ts.id, "manual");
    expect(none).toMatchObject({ lanesOutside: 1, found: 0, expired: run!.created });
    expect(none!.error).toBe(
      "Truckstop searches North America only, and neither your location nor any saved lane starts there: nothing was searched",
    );
    expect(emu.controls.truckstop.searchCalls).toBe(1);
  });

  test("a driver in Toronto searches Truckstop with the province", async () => {
    expect((await driver.post("/api/drivers/location", { latitude: 43.6532, longitude: -79.3832 })).status).toBe(200);
    const ts = await addBoard("truckstop");
    const res = await driver.post(`/api/marketplaces/${ts.id}/search`, { radiusMiles: 100 });
    expect(res.status).toBe(200);
    expect(res.json.length).toBeGreaterThan(0);
    expect(emu.controls.truckstop.lastRequest?.criteria).toMatchObject({ OriginState: "ON", OriginCountry: "CAN" });
  });
});

describe("Connect 123Loadboard", () => {
  const CALLBACK = "/api/marketplaces/123loadboard/callback";

  test("connect through 123Loadboard's page: the callback stores the user's tokens sealed, and searches use them", async () => {
    const lb = await addBoard("123loadboard", { name: "My 123" });
    expect(lb.connection).toBe("not_connected");
    // Not connected: nothing is sent, and the error says what to do.
    const before = await driver.post(`/api/marketplaces/${lb.id}/search`, {});
    expect(before.status).toBe(409);
    expect(before.json.message).toBe(
      "123Loadboard 'My 123' is not connected: use Connect 123Loadboard on the Marketplaces page",
    );
    expect(emu.controls["123loadboard"].searchCalls).toBe(0);

    const c = await connect123(lb.id);
    const authorize = new URL(c.authorizeUrl);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${emu.urls["123loadboard"]}/authorize`);
    expect(Object.fromEntries(authorize.searchParams)).toMatchObject({
      response_type: "code",
      client_id: "sandbox",
      redirect_uri: `http://localhost${CALLBACK}`,
      scope: "loadsearching offline_access",
      code_challenge_method: "S256",
    });
    expect(authorize.searchParams.get("state")).toStartWith(`${lb.id}.`);
    expect(c.res.status).toBe(302);
    expect(c.location).toBe(`/marketplaces?connect=connected&board=${lb.id}`);

    const listed = (await driver.get("/api/marketplaces")).json[0];
    expect(listed).toMatchObject({ connection: "connected", lastError: null });
    expect(JSON.stringify(listed)).not.toContain("lb.user.");
    const [row] = await t.rows<{ oauth_tokens: string; oauth_pending: string | null }>(
      "select oauth_tokens, oauth_pending from marketplace_configs where id = ?",
      lb.id,
    );
    expect(row!.oauth_tokens.startsWith("v1.")).toBe(true);
    expect(row!.oauth_tokens).not.toContain("lb.");
    expect(row!.oauth_pending).toBeNull();

    const res = await driver.post(`/api/marketplaces/${lb.id}/search`, { radiusMiles: 100 });
    expect(res.status).toBe(200);
    expect(res.json.length).toBeGreaterThan(0);
    expect((await driver.post(`/api/marketplaces/${lb.id}/test`)).json).toMatchObject({ connected: true });
    // The same callback again: its state is spent.
    const again = await driver.get(`${c.callback.pathname}${c.callback.search}`);
    expect(again.headers.get("location")).toBe(`/marketplaces?connect=failed&board=${lb.id}`);
    expect((await driver.get("/api/marketplaces")).json[0].connection).toBe("connected");
  });

  test("the state is bound to its user: another signed-in user's callback is refused and connects nothing", async () => {
    const lb = await addBoard("123loadboard");
    const started = await driver.post(`/api/marketplaces/${lb.id}/connect`);
    const back = await answerSandboxAuthorize(started.json.url);
    const stolen = await other.get(`${back.pathname}${back.search}`);
    expect(stolen.headers.get("location")).toBe("/marketplaces?connect=failed");
    // Signed out: refused too.
    const anonymous = createClient(t, "10.0.0.7");
    expect((await anonymous.get(`${back.pathname}${back.search}`)).headers.get("location")).toBe(
      "/marketplaces?connect=failed",
    );
    expect((await driver.get("/api/marketplaces")).json[0].connection).toBe("not_connected");
    // The owner's own callback still works: the others did not spend it.
    const mine = await driver.get(`${back.pathname}${back.search}`);
    expect(mine.headers.get("location")).toBe(`/marketplaces?connect=connected&board=${lb.id}`);
    // Another user cannot start a connection of it either.
    expect((await other.post(`/api/marketplaces/${lb.id}/connect`)).status).toBe(404);
  });

  test("the state is bound to its configuration: moved to another of the user's configurations it connects and spends nothing", async () => {
    const a = await addBoard("123loadboard", { name: "A" });
    const b = await addBoard("123loadboard", { name: "B" });
    const startedA = await driver.post(`/api/marketplaces/${a.id}/connect`);
    const startedB = await driver.post(`/api/marketplaces/${b.id}/connect`);
    const back = await answerSandboxAuthorize(startedA.json.url);
    const state = back.searchParams.get("state")!;
    expect(state).toStartWith(`${a.id}.`);
    // A's code and nonce, with B's id: B's pending connection does not take them.
    const moved = new URLSearchParams(back.search);
    moved.set("state", `${b.id}.${state.slice(state.indexOf(".") + 1)}`);
    const res = await driver.get(`${back.pathname}?${moved}`);
    expect(res.headers.get("location")).toBe(`/marketplaces?connect=failed&board=${b.id}`);
    const connections = async () =>
      Object.fromEntries(
        ((await driver.get("/api/marketplaces")).json as { id: number; connection: string }[]).map((c) => [
          c.id,
          c.connection,
        ]),
      );
    expect(await connections()).toEqual({ [a.id]: "not_connected", [b.id]: "not_connected" });
    // A's own callback, as 123Loadboard sent it, connects A alone.
    const mine = await driver.get(`${back.pathname}${back.search}`);
    expect(mine.headers.get("location")).toBe(`/marketplaces?connect=connected&board=${a.id}`);
    expect(await connections()).toEqual({ [a.id]: "connected", [b.id]: "not_connected" });
    // B's own connection was not spent by the moved state: it still completes.
    const backB = await answerSandboxAuthorize(startedB.json.url);
    const theirs = await driver.get(`${backB.pathname}${backB.search}`);
    expect(theirs.headers.get("location")).toBe(`/marketplaces?connect=connected&board=${b.id}`);
    expect(await connections()).toEqual({ [a.id]: "connected", [b.id]: "connected" });
  });

  test("Deny on 123Loadboard's page: not connected, and the card says why", async () => {
    const lb = await addBoard("123loadboard", { name: "Denied" });
    const c = await connect123(lb.id, driver, "deny");
    expect(c.location).toBe(`/marketplaces?connect=denied&board=${lb.id}`);
    expect((await driver.get("/api/marketplaces")).json[0]).toMatchObject({
      connection: "not_connected",
      lastError: "123Loadboard 'Denied' is not connected: the authorization was denied on 123Loadboard",
    });
  });

  test("an error the callback's address carries is kept in printable characters only, the same on both engines", async () => {
    const lb = await addBoard("123loadboard", { name: "Odd" });
    const started = await driver.post(`/api/marketplaces/${lb.id}/connect`);
    const state = new URL(started.json.url).searchParams.get("state")!;
    const res = await driver.get(
      `${CALLBACK}?${new URLSearchParams({ state, error: `server_error\u0000${"\u{1F69A}".repeat(60)}` })}`,
    );
    expect(res.headers.get("location")).toBe(`/marketplaces?connect=failed&board=${lb.id}`);
    expect((await driver.get("/api/marketplaces")).json[0]).toMatchObject({
      connection: "not_connected",
      lastError: "123Loadboard 'Odd' is not connected: 123Loadboard answered server_error",
    });
  });

  test("a connection not finished within ten minutes is refused", async () => {
    const lb = await addBoard("123loadboard");
    const [me] = await t.db.select().from(users).where(eq(users.id, ids.driver));
    const { url } = await startConnect(
      t.db,
      t.services.boards,
      me!,
      lb.id,
      "http://localhost",
      Date.now() - 11 * 60_000,
    );
    const back = await answerSandboxAuthorize(url);
    const res = await driver.get(`${back.pathname}${back.search}`);
    expect(res.headers.get("location")).toBe(`/marketplaces?connect=failed&board=${lb.id}`);
    expect((await driver.get("/api/marketplaces")).json[0]).toMatchObject({ connection: "not_connected" });
    expect((await driver.get("/api/marketplaces")).json[0].lastError).toContain("expired");
  });

  test("expired access tokens are renewed; a refused renewal asks to reconnect, and reconnecting works", async () => {
    const lb = await addBoard("123loadboard", { syncEnabled: true, name: "Desk" });
    await connect123(lb.id);
    const run = await runSync(t.db, t.services.boards, lb.id, "manual");
    expect(run).toMatchObject({ error: null });
    expect(run!.created).toBeGreaterThan(0);
    emu.controls["123loadboard"].expireTokens();
    expect(await runSync(t.db, t.services.boards, lb.id, "schedule")).toMatchObject({ error: null });
    expect(emu.controls["123loadboard"].issued.refreshes).toBe(1);

    // The user revoked MyTess at 123Loadboard.
    emu.controls["123loadboard"].revokeRefreshTokens();
    emu.controls["123loadboard"].expireTokens();
    const refused = await runSync(t.db, t.services.boards, lb.id, "schedule");
    expect(refused!.error).toBe(
      "123Loadboard 'Desk' no longer accepts the connection (The refresh token is invalid, expired or revoked): use Reconnect 123Loadboard on the Marketplaces page",
    );
    expect((await driver.get("/api/marketplaces")).json[0]).toMatchObject({
      connection: "reconnect",
      lastError: refused!.error,
    });
    // Nothing more is sent until the user reconnects.
    const calls = emu.controls["123loadboard"].calls;
    expect((await driver.post(`/api/marketplaces/${lb.id}/search`, {})).status).toBe(409);
    expect(emu.controls["123loadboard"].calls).toBe(calls);
    await connect123(lb.id);
    expect((await driver.get("/api/marketplaces")).json[0]).toMatchObject({ connection: "connected", lastError: null });
    expect((await driver.post(`/api/marketplaces/${lb.id}/search`, {})).status).toBe(200);
  });

  test("the server's own 123Loadboard app serves configurations without a client; without either, Connect says so", async () => {
    const lb = await addBoard("123loadboard", { config: {} });
    expect(lb.config).toEqual({ clientId: false, clientSecret: false });
    const none = await driver.post(`/api/marketplaces/${lb.id}/connect`);
    expect(none.status).toBe(409);
    expect(none.json.message).toContain("LOADBOARD123_CLIENT_ID");
    // One half of a client is refused, naming the other half.
    const half = await driver.post("/api/marketplaces", {
      provider: "123loadboard",
      name: "Half",
      apiBaseUrl: emu.urls["123loadboard"],
      config: { clientId: "sandbox" },
    });
    expect(half.status).toBe(400);
    expect(half.json.issues[0].path).toBe("config.clientSecret");

    const withApp = await createTestApp(
      {},
      undefined,
      undefined,
      Object.assign(testBoardServices({ sandbox: Object.values(emu.urls) }), {
        loadboard123App: { clientId: "sandbox", clientSecret: "sandbox" },
      }),
    );
    const user = createClient(withApp, "10.0.0.5");
    await registerUser(user, "driver");
    await user.post("/api/drivers/location", CHICAGO);
    const cfg = await user.post("/api/marketplaces", {
      provider: "123loadboard",
      name: "Via the server's app",
      apiBaseUrl: emu.urls["123loadboard"],
    });
    expect(cfg.status).toBe(201);
    const started = await user.post(`/api/marketplaces/${cfg.json.id}/connect`);
    const back = await answerSandboxAuthorize(started.json.url);
    expect((await user.get(`${back.pathname}${back.search}`)).headers.get("location")).toContain("connect=connected");
    expect((await user.post(`/api/marketplaces/${cfg.json.id}/search`, {})).json.length).toBeGreaterThan(0);
  });

  test("changing the board's address drops the connection", async () => {
    const lb = await addBoard("123loadboard");
    await connect123(lb.id);
    await driver.put(`/api/marketplaces/${lb.id}`, { apiBaseUrl: `${emu.urls["123loadboard"]}/` });
    expect((await driver.get("/api/marketplaces")).json[0].connection).toBe("connected");
    await driver.put(`/api/marketplaces/${lb.id}`, { config: { clientSecret: "sandbox" } });
    expect((await driver.get("/api/marketplaces")).json[0].connection).toBe("not_connected");
  });

  test("demo mode: the demo drivers' Sandbox 123Loadboard configurations are connected through the emulator's page", async () => {
    const demo = createClient(t, "10.0.0.8");
    const abebe = await registerUser(demo, "driver", { email: "abebe@demo.mytess.app" });
    const first = await ensureDemoBoards(t.db, t.services.boards, emu.urls, Date.now(), "http://localhost");
    expect(first).toMatchObject({ created: 4, connected: 1 });
    const mine = (await demo.get("/api/marketplaces")).json as { provider: string; connection: string | null }[];
    expect(mine.find((c) => c.provider === "123loadboard")!.connection).toBe("connected");
    expect(emu.controls["123loadboard"].issued.codes).toBe(1);
    // Another start (a new emulator knows no token): connected again, through the page again.
    emu.controls["123loadboard"].reset();
    expect(await ensureDemoBoards(t.db, t.services.boards, emu.urls, Date.now(), "http://localhost")).toMatchObject({
      created: 0,
      connected: 1,
    });
    const lb = mine.find((c) => c.provider === "123loadboard") as unknown as { id: number };
    await demo.post("/api/drivers/location", CHICAGO);
    expect((await demo.post(`/api/marketplaces/${lb.id}/search`, {})).json.length).toBeGreaterThan(0);
    expect(abebe.id).toBeGreaterThan(0);
  });
});
