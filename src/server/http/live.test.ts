import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";
import { createApp } from "./app";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

type TClient = ReturnType<typeof createClient>;
let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let ids: Record<string, number>;
const streams: AbortController[] = [];

beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t);
  driver = createClient(t);
  ids = {
    shipper: (await registerUser(shipper, "shipper")).id,
    driver: (await registerUser(driver, "driver")).id,
  };
});
afterEach(async () => {
  for (const s of streams.splice(0)) s.abort();
  await closeTestApps();
});

/** Opens GET /api/live on an app as a browser's EventSource would, and collects the events it sends. */
const listen = async (app: { handle: (r: Request) => Promise<Response> }, cookie: string) => {
  const abort = new AbortController();
  streams.push(abort);
  const res = await app.handle(
    new Request("http://localhost/api/live", { headers: { Cookie: cookie }, signal: abort.signal }),
  );
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toStartWith("text/event-stream");
  const events: { event: string; data: Record<string, unknown> }[] = [];
  let text = "";
  const reader = res.body!.getReader();
  void (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += new TextDecoder().decode(value);
        const parts = text.split("\n\n");
        text = parts.pop() ?? "";
        for (const p of parts) {
          const event = /^event: (.*)$/m.exec(p)?.[1];
          const data = /^data: (.*)$/m.exec(p)?.[1];
          if (event && data) events.push({ event, data: JSON.parse(data) });
        }
      }
    } catch {}
  })();
  // The tail starts at the feed's end on its first tick.
  await Bun.sleep(700);
  return { events, close: () => abort.abort() };
};
const waitFor = async (check: () => boolean, ms = 5000) => {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) return false;
    await Bun.sleep(50);
  }
  return true;
};

describe("GET /api/live", () => {
  test("signed out is 401", async () => {
    const res = await createClient(t).get("/api/live");
    expect(res.status).toBe(401);
  });

  test("a bid placed through another server process reaches the shipper's stream, and only the shipper's", async () => {
    // A second app on the same database: another machine of the same deployment, with its own tail.
    const other = createApp({
      db: t.db,
      config: t.config,
      notifiers: t.services.notifiers,
      carriers: t.services.carriers,
    });
    const onOther = { ...driver, handle: other.handle };
    const shipperStream = await listen(t.app, shipper.cookie);
    const driverStream = await listen(t.app, driver.cookie);
    const created = await shipper.post("/api/loads", loadInput());
    const loadId = created.json.id as number;
    const res = await other.handle(
      new Request(`http://localhost/api/loads/${loadId}/bids`, {
        method: "POST",
        headers: { Cookie: onOther.cookie, "Content-Type": "application/json", "X-Forwarded-For": "10.0.0.2" },
        body: JSON.stringify({ amount: 900, currency: "USD" }),
      }),
    );
    expect(res.status).toBe(201);
    expect(await waitFor(() => shipperStream.events.length > 0)).toBe(true);
    expect(shipperStream.events[0]).toMatchObject({ event: "notification", data: { loadId } });
    await Bun.sleep(600);
    expect(driverStream.events).toEqual([]);
    await other.live.stop();
  });

  test("a change made just before the stream opened still reaches it, whether or not the tail was running", async () => {
    const created = await shipper.post("/api/loads", loadInput());
    const loadId = created.json.id as number;
    // The bid lands while the shipper's page is loading, before its stream opens (no tail runs yet on this server).
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" })).status).toBe(201);
    const first = await listen(t.app, shipper.cookie);
    expect(await waitFor(() => first.events.some((e) => e.event === "notification"))).toBe(true);
    expect(first.events.find((e) => e.event === "notification")).toMatchObject({ data: { loadId } });

    // With the tail already running (the first stream is open), a second tab opened after the next change gets it too.
    const second = createClient(t);
    await registerUser(second, "driver");
    expect((await second.post(`/api/loads/${loadId}/bids`, { amount: 950, currency: "USD" })).status).toBe(201);
    expect(await waitFor(() => first.events.filter((e) => e.event === "notification").length === 2)).toBe(true);
    const tab = await listen(t.app, shipper.cookie);
    expect(await waitFor(() => tab.events.filter((e) => e.event === "notification").length === 2)).toBe(true);
    // Each event once per stream: the replay and the tail do not both send it.
    await Bun.sleep(600);
    expect(first.events.filter((e) => e.event === "notification")).toHaveLength(2);
    expect(tab.events.filter((e) => e.event === "notification")).toHaveLength(2);
  });

  test("a stream opened later is not sent changes older than the replay window", async () => {
    const { publishLive } = await import("../live/publish");
    const { LIVE_REPLAY_MS } = await import("../live/hub");
    await publishLive(t.db, [ids.shipper], "load", { loadId: 1 }, Date.now() - LIVE_REPLAY_MS - 5_000);
    await publishLive(t.db, [ids.shipper], "load", { loadId: 2 });
    const stream = await listen(t.app, shipper.cookie);
    expect(await waitFor(() => stream.events.length > 0)).toBe(true);
    await Bun.sleep(600);
    expect(stream.events.map((e) => e.data.loadId)).toEqual([2]);
  });

  test("an event committed after the tail read past its id (a slower transaction's) still reaches the stream", async () => {
    const { liveEvents } = await import("../../../db/tables");
    const { max } = await import("drizzle-orm");
    const stream = await listen(t.app, shipper.cookie);
    const seen = stream.events.length;
    const [row] = await t.db.select({ id: max(liveEvents.id) }).from(liveEvents);
    const top = Number(row?.id ?? 0);
    const event = (id: number, loadId: number) => ({
      id,
      userId: ids.shipper,
      kind: "load",
      payload: JSON.stringify({ loadId }),
      createdAt: Date.now(),
    });
    // The later id is committed first, as a quick transaction does beside a slow one; the tail reads past the earlier.
    await t.db.insert(liveEvents).values(event(top + 2, 902));
    expect(await waitFor(() => stream.events.length > seen)).toBe(true);
    await t.db.insert(liveEvents).values(event(top + 1, 901));
    expect(await waitFor(() => stream.events.some((e) => e.data.loadId === 901))).toBe(true);
    await Bun.sleep(600);
    expect(stream.events.slice(seen).map((e) => e.data.loadId)).toEqual([902, 901]);
  });

  test("a message reaches the other party live; reading the bell tells the user's other tabs", async () => {
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" });
    const driverStream = await listen(t.app, driver.cookie);
    const shipperTab = await listen(t.app, shipper.cookie);
    // The shipper's tab opened just after the bid, so it was told of it; nothing else yet.
    expect(shipperTab.events).toEqual([{ event: "notification", data: expect.objectContaining({ loadId }) }]);
    const driverSeen = driverStream.events.length;
    expect((await shipper.post(`/api/loads/${loadId}/messages`, { body: "Ready?", driverId: ids.driver })).status).toBe(
      201,
    );
    expect(await waitFor(() => driverStream.events.length > driverSeen)).toBe(true);
    expect(driverStream.events[driverSeen]).toMatchObject({ event: "notification", data: { loadId } });
    // The shipper wrote the message: nothing for them.
    await Bun.sleep(600);
    expect(shipperTab.events).toHaveLength(1);
    expect((await shipper.post("/api/notifications/read-all")).json).toEqual({ marked: 1 });
    expect(await waitFor(() => shipperTab.events.length > 1)).toBe(true);
  });
});

describe("the bell: /api/notifications", () => {
  test("lists the caller's own, counts unread, marks read; another user's ids are untouched; bad input names the field", async () => {
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" });
    await driver.post(`/api/loads/${loadId}/bids`, { amount: 850, currency: "USD" });
    const list = await shipper.get("/api/notifications");
    expect(list.status).toBe(200);
    expect(list.json.unread).toBe(2);
    expect(list.json.items).toHaveLength(2);
    expect(list.json.items[0]).toMatchObject({
      title: "New bid on your load",
      url: `/loads/${loadId}`,
      loadId,
      read: false,
    });
    expect((await driver.get("/api/notifications")).json).toMatchObject({ items: [], unread: 0 });
    const [newest, older] = list.json.items.map((i: { id: number }) => i.id);
    // The driver cannot mark the shipper's notification read.
    expect((await driver.post("/api/notifications/read", { ids: [newest] })).json).toEqual({ marked: 0 });
    expect((await shipper.get("/api/notifications/unread-count")).json).toEqual({ unread: 2 });
    expect((await shipper.post("/api/notifications/read", { ids: [newest] })).json).toEqual({ marked: 1 });
    expect((await shipper.get("/api/notifications/unread-count")).json).toEqual({ unread: 1 });
    const paged = await shipper.get("/api/notifications?pageSize=1&page=2");
    expect(paged.json.items.map((i: { id: number }) => i.id)).toEqual([older]);
    expect(paged.json.items[0].read).toBe(false);
    expect((await shipper.get("/api/notifications?pageSize=1")).json.items[0]).toMatchObject({
      id: newest,
      read: true,
    });
    for (const [body, field] of [
      [{ ids: [] }, "ids"],
      [{ ids: ["x"] }, "ids.0"],
      [{}, "ids"],
    ] as const) {
      const res = await shipper.post("/api/notifications/read", body);
      expect(res.status).toBe(400);
      expect(res.json.issues[0].path).toBe(field);
    }
    expect((await shipper.get("/api/notifications?pageSize=500")).json.issues[0].path).toBe("pageSize");
    expect((await createClient(t).get("/api/notifications")).status).toBe(401);
    expect((await createClient(t).post("/api/notifications/read-all")).status).toBe(401);
  });
});
