import { afterAll, beforeAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createHmac, timingSafeEqual } from "node:crypto";
import { useResolver } from "../integrations/http/guard";
import { runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { jobRegistry } from "../modules/jobs";
import { WEBHOOK_ATTEMPTS } from "../modules/webhooks/jobs";
import { closeTestApps, createClient, loadInput, sandboxApp, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

type TClient = ReturnType<typeof createClient>;
type TReceived = { path: string; body: string; signature: string; event: string; verified: boolean };

const MIN = 60_000;
/** How far a receiver lets a signature's time differ from its own clock. */
const TOLERANCE_S = 300;

/** What a receiver does to check `MyTess-Signature` (the README's snippet, as a test's receiver runs it). */
const verify = (secret: string, header: string, body: string, nowS = Math.floor(Date.now() / 1000)) => {
  const parts = Object.fromEntries(header.split(",").map((kv) => kv.split("=", 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(nowS - t) > TOLERANCE_S || !parts.v1) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${body}`).digest();
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
};

// A real receiver on loopback: each path answers with the statuses queued for it (then 200), and records what came.
const received: TReceived[] = [];
const answers = new Map<string, number[]>();
const secrets = new Map<string, string>();
const receiver = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    const path = new URL(req.url).pathname;
    const body = await req.text();
    const signature = req.headers.get("mytess-signature") ?? "";
    received.push({
      path,
      body,
      signature,
      event: req.headers.get("mytess-event") ?? "",
      verified: verify(secrets.get(path) ?? "", signature, body),
    });
    const queued = answers.get(path) ?? [];
    return new Response("ok", { status: queued.shift() ?? 200 });
  },
});
const origin = `http://127.0.0.1:${receiver.port}`;

let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let other: TClient;
let anon: TClient;
let offset = 0;
const worker = () =>
  runWorker({
    db: t.db,
    log: logger,
    handlers: jobRegistry(t.services, ""),
    schedules: [],
    autoStart: false,
    clock: () => Date.now() + offset,
  });
const runJobs = () => worker().runOnce();

beforeAll(async () => {
  // The receiver's origin is the test's Sandbox, as SANDBOX_ORIGINS makes an operator's own host: plain http on
  // loopback is allowed there and nowhere else.
  ({
    t,
    clients: [shipper, driver, other],
  } = await sandboxApp([origin], ["shipper", "driver", "shipper"], { ips: ["10.81.0.1", "10.81.0.2", "10.81.0.3"] }));
  anon = createClient(t, "10.81.0.4");
});
afterAll(async () => {
  receiver.stop(true);
  await closeTestApps();
});

const register = async (client: TClient, path: string, events: string[]) => {
  const res = await client.post("/api/webhook-endpoints", { url: `${origin}${path}`, events });
  expect(res.status).toBe(201);
  secrets.set(path, res.json.secret);
  return res.json as { id: number; secret: string; url: string; events: string[] };
};

/** A load of `shipper`, bid on by `driver` and awarded, optionally picked up. */
const awarded = async (pickedUp: boolean) => {
  const load = (await shipper.post("/api/loads", loadInput())).json;
  const bid = (await driver.post(`/api/loads/${load.id}/bids`, { amount: 900 })).json.bid;
  expect((await shipper.post(`/api/bids/${bid.id}/accept`)).status).toBe(200);
  await t.rows("UPDATE bids SET updated_at = ? WHERE id = ?", Date.now() - 24 * 60 * MIN, bid.id);
  if (pickedUp) expect((await driver.post(`/api/loads/${load.id}/pickup`)).status).toBe(200);
  return { loadId: load.id as number, bidId: bid.id as number };
};

const deliveries = async (client: TClient, endpointId: number) => {
  const res = await client.get(`/api/webhook-endpoints/${endpointId}/deliveries`);
  expect(res.status).toBe(200);
  return res.json as {
    id: number;
    event: string;
    status: string;
    body: string;
    attempts: { statusCode: number | null; error: string | null; resend: boolean; durationMs: number }[];
  }[];
};

describe("webhook endpoints", () => {
  test("registered with a url and events (the secret once, stored sealed), listed without it, deleted", async () => {
    const restore = useResolver(async () => [{ address: "93.184.216.34", family: 4 }]);
    try {
      const res = await other.post("/api/webhook-endpoints", {
        url: "https://hooks.example.com/mytess",
        events: ["load.picked_up", "load.bid_received"],
      });
      expect(res.status).toBe(201);
      expect(res.json.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      expect(res.json).toMatchObject({
        url: "https://hooks.example.com/mytess",
        events: ["load.bid_received", "load.picked_up"],
      });
      const rows = await t.rows<{ secret_sealed: string }>(
        "SELECT secret_sealed FROM webhook_endpoints WHERE id = ?",
        res.json.id,
      );
      expect(rows[0]!.secret_sealed.startsWith("v1.")).toBe(true);
      expect(JSON.stringify(await t.rows("SELECT * FROM webhook_endpoints"))).not.toContain(res.json.secret);
      expect(t.services.secrets.open(rows[0]!.secret_sealed)).toBe(res.json.secret);

      const list = await other.get("/api/webhook-endpoints");
      expect(list.status).toBe(200);
      expect(list.json).toEqual([
        {
          id: res.json.id,
          url: "https://hooks.example.com/mytess",
          events: res.json.events,
          createdAt: res.json.createdAt,
        },
      ]);
      expect((await deliveries(other, res.json.id)).length).toBe(0);
      expect((await other.del(`/api/webhook-endpoints/${res.json.id}`)).status).toBe(200);
      expect((await other.get("/api/webhook-endpoints")).json).toEqual([]);
      expect((await other.del(`/api/webhook-endpoints/${res.json.id}`)).status).toBe(404);
    } finally {
      restore();
    }
  });

  test("another account's endpoint and deliveries are not found (404)", async () => {
    const mine = await register(shipper, "/hidden", ["load.bid_received"]);
    const load = (await shipper.post("/api/loads", loadInput())).json;
    await driver.post(`/api/loads/${load.id}/bids`, { amount: 700 });
    const [delivery] = await deliveries(shipper, mine.id);
    expect(delivery).toBeDefined();
    for (const res of [
      await other.get(`/api/webhook-endpoints/${mine.id}/deliveries`),
      await other.del(`/api/webhook-endpoints/${mine.id}`),
      await other.post(`/api/webhook-deliveries/${delivery!.id}/resend`),
    ]) {
      expect(res.status).toBe(404);
      expect(["error.webhooks.notFound", "error.webhooks.deliveryNotFound"]).toContain(res.json.messageId);
    }
    expect((await other.get("/api/webhook-endpoints")).json).toEqual([]);
    expect((await shipper.del(`/api/webhook-endpoints/${mine.id}`)).status).toBe(200);
    await runJobs();
  });

  test("signed out: 401 on every route", async () => {
    for (const res of [
      await anon.get("/api/webhook-endpoints"),
      await anon.post("/api/webhook-endpoints", { url: "https://hooks.example.com/x", events: ["load.awarded"] }),
      await anon.del("/api/webhook-endpoints/1"),
      await anon.get("/api/webhook-endpoints/1/deliveries"),
      await anon.post("/api/webhook-deliveries/1/resend"),
    ])
      expect(res.status).toBe(401);
  });

  test("bad input: 400 naming the field", async () => {
    const cases: [unknown, string][] = [
      [{ events: ["load.awarded"] }, "url"],
      [{ url: "not a url", events: ["load.awarded"] }, "url"],
      [{ url: "https://hooks.example.com/x", events: [] }, "events"],
      [{ url: "https://hooks.example.com/x", events: ["load.exploded"] }, "events.0"],
      [{ url: "https://hooks.example.com/x", events: ["load.awarded", "load.awarded"] }, "events"],
    ];
    for (const [body, path] of cases) {
      const res = await other.post("/api/webhook-endpoints", body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toContain(path);
    }
    for (const res of [
      await other.get("/api/webhook-endpoints/abc/deliveries"),
      await other.del("/api/webhook-endpoints/0"),
      await other.post("/api/webhook-deliveries/x/resend"),
    ]) {
      expect(res.status).toBe(400);
      expect(JSON.stringify(res.json)).toContain("id");
    }
  });

  test("a private, local or plain-http address is refused at registration, naming url", async () => {
    const restore = useResolver(async (host) =>
      host === "intranet.example.com" ? [{ address: "192.168.1.10", family: 4 }] : [],
    );
    try {
      for (const url of [
        "https://10.0.0.5/hook",
        "https://127.0.0.1:8443/hook",
        "https://[::1]/hook",
        "https://localhost/hook",
        "https://intranet.example.com/hook",
        "http://hooks.example.com/hook",
        "https://nowhere.example.com/hook",
        "https://user:pw@hooks.example.com/hook",
      ]) {
        const res = await other.post("/api/webhook-endpoints", { url, events: ["load.awarded"] });
        expect(res.status, url).toBe(400);
        expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual(["url"]);
      }
      expect((await other.get("/api/webhook-endpoints")).json).toEqual([]);
    } finally {
      restore();
    }
  });
});

describe("webhook deliveries", () => {
  test("each user's endpoints get the events they may see, signed; a 500 is retried with backoff; a resend sends again", async () => {
    received.length = 0;
    const shipperHook = await register(shipper, "/shipper", [
      "load.bid_received",
      "load.awarded",
      "load.picked_up",
      "load.delivered",
    ]);
    const driverHook = await register(driver, "/driver", ["load.awarded", "load.bid_received", "load.picked_up"]);
    const otherHook = await register(other, "/other", ["load.bid_received", "load.awarded", "load.picked_up"]);
    // The shipper's receiver fails twice before it takes the award.
    answers.set("/shipper", []);

    const { loadId, bidId } = await awarded(false);
    await runJobs();
    const byPath = (path: string) => received.filter((r) => r.path === path);
    expect(byPath("/shipper").map((r) => r.event)).toEqual(["load.bid_received", "load.awarded"]);
    // The driver sees the award of their own bid, not the bids on the shipper's load; another shipper sees nothing.
    expect(byPath("/driver").map((r) => r.event)).toEqual(["load.awarded"]);
    expect(byPath("/other")).toEqual([]);
    expect(received.every((r) => r.verified)).toBe(true);
    const award = JSON.parse(byPath("/shipper")[1]!.body);
    expect(award).toMatchObject({
      type: "load.awarded",
      data: { loadId, bidId, status: "assigned", amount: 900, currency: expect.any(String) },
    });
    expect(award.id).toMatch(/^evt_/);
    // Another secret does not verify: the check is real.
    const awardSent = byPath("/shipper")[1]!;
    expect(verify(secrets.get("/driver")!, awardSent.signature, awardSent.body)).toBe(false);
    expect(verify(secrets.get("/shipper")!, awardSent.signature, `${awardSent.body} `)).toBe(false);

    // The pickup: the shipper's receiver answers 500 twice, then 200.
    answers.set("/shipper", [500, 500]);
    received.length = 0;
    expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
    await runJobs();
    expect(byPath("/shipper").length).toBe(1);
    // Nothing more before the backoff's minute has passed.
    await runJobs();
    expect(byPath("/shipper").length).toBe(1);
    offset += 61_000;
    await runJobs();
    expect(byPath("/shipper").length).toBe(2);
    offset += 121_000;
    await runJobs();
    const tries = byPath("/shipper");
    expect(tries.length).toBe(3);
    expect(tries.every((r) => r.verified && r.body === tries[0]!.body && r.event === "load.picked_up")).toBe(true);
    expect(byPath("/driver").map((r) => r.event)).toEqual(["load.picked_up"]);

    const log = await deliveries(shipper, shipperHook.id);
    const pickup = log.find((d) => d.event === "load.picked_up")!;
    expect(pickup.status).toBe("delivered");
    expect(pickup.attempts.map((a) => a.statusCode)).toEqual([200, 500, 500]);
    expect(pickup.attempts.map((a) => a.error)).toEqual([null, "HTTP 500", "HTTP 500"]);
    expect(JSON.parse(pickup.body)).toMatchObject({ type: "load.picked_up", data: { loadId, status: "in_transit" } });

    // Resent by hand: the same body, a fresh signature, logged as a resend.
    received.length = 0;
    const resend = await shipper.post(`/api/webhook-deliveries/${pickup.id}/resend`);
    expect(resend.status).toBe(202);
    expect(resend.json).toEqual({ ok: true, deliveryId: pickup.id });
    await runJobs();
    expect(byPath("/shipper").map((r) => [r.body, r.verified])).toEqual([[pickup.body, true]]);
    const after = (await deliveries(shipper, shipperHook.id)).find((d) => d.id === pickup.id)!;
    expect(after.attempts[0]).toMatchObject({ statusCode: 200, resend: true });
    expect(after.attempts.length).toBe(4);
    expect((await deliveries(other, otherHook.id)).length).toBe(0);
    expect((await deliveries(driver, driverHook.id)).map((d) => d.event)).toEqual(["load.picked_up", "load.awarded"]);
  });

  test("a delivery failing for a day ends as failed after its last attempt", async () => {
    received.length = 0;
    const hook = await register(other, "/down", ["load.bid_received"]);
    answers.set("/down", Array(WEBHOOK_ATTEMPTS + 2).fill(503));
    const load = (await other.post("/api/loads", loadInput())).json;
    await driver.post(`/api/loads/${load.id}/bids`, { amount: 500 });
    const start = offset;
    for (let i = 0; i < WEBHOOK_ATTEMPTS + 2; i++) {
      await runJobs();
      offset += 8 * 60 * MIN + 1000;
    }
    const [d] = await deliveries(other, hook.id);
    expect(d!.status).toBe("failed");
    expect(d!.attempts.length).toBe(WEBHOOK_ATTEMPTS);
    expect(received.filter((r) => r.path === "/down").length).toBe(WEBHOOK_ATTEMPTS);
    // The retries span about a day (waits of 1, 2, 4 … minutes, at most 8 hours).
    expect(offset - start).toBeGreaterThan(24 * 60 * MIN);
    expect((await other.del(`/api/webhook-endpoints/${hook.id}`)).status).toBe(200);
  });

  test("load.position is coalesced: at most one per minute per load, carrying the newest position", async () => {
    // The queue's clock back to the app's own (earlier tests moved it a day ahead).
    offset = 0;
    const hook = await register(shipper, "/positions", ["load.position"]);
    const { loadId } = await awarded(true);
    await runJobs();
    received.length = 0;
    const now = Date.now();
    for (const [i, lat] of [8.8, 8.7, 8.6].entries())
      expect(
        (
          await driver.post(`/api/loads/${loadId}/positions`, {
            positions: [{ latitude: lat, longitude: 39, recordedAt: new Date(now - 30_000 + i * 1000).toISOString() }],
          })
        ).status,
      ).toBe(200);
    const pending = await deliveries(shipper, hook.id);
    expect(pending.length).toBe(1);
    await runJobs();
    const sent = received.filter((r) => r.path === "/positions");
    expect(sent.length).toBe(1);
    expect(JSON.parse(sent[0]!.body).data).toMatchObject({ loadId, latitude: 8.6, longitude: 39 });
    // The next position waits a minute after the last one sent.
    await driver.post(`/api/loads/${loadId}/positions`, {
      positions: [{ latitude: 8.5, longitude: 39, recordedAt: new Date(now - 5000).toISOString() }],
    });
    await runJobs();
    expect(received.filter((r) => r.path === "/positions").length).toBe(1);
    offset += 61_000;
    await runJobs();
    const all = received.filter((r) => r.path === "/positions");
    expect(all.length).toBe(2);
    expect(JSON.parse(all[1]!.body).data.latitude).toBe(8.5);
    expect(all.every((r) => r.verified)).toBe(true);
  });

  test("an endpoint whose name later resolves to a private address is refused at delivery, nothing sent", async () => {
    const restore = useResolver(async () => [{ address: "93.184.216.34", family: 4 }]);
    let hook: { id: number };
    try {
      hook = (
        await other.post("/api/webhook-endpoints", {
          url: "https://rebind.example.com/h",
          events: ["load.bid_received"],
        })
      ).json;
    } finally {
      restore();
    }
    const back = useResolver(async () => [{ address: "127.0.0.1", family: 4 }]);
    try {
      received.length = 0;
      const load = (await other.post("/api/loads", loadInput())).json;
      await driver.post(`/api/loads/${load.id}/bids`, { amount: 500 });
      await runJobs();
      const [d] = await deliveries(other, hook.id);
      expect(d!.attempts[0]).toMatchObject({ statusCode: null, error: "address refused (address)" });
      expect(received.filter((r) => r.path === "/h")).toEqual([]);
    } finally {
      back();
    }
  });
});
