import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startWebhookReceiver } from "../../../emulators/webhooks/receiver";
import { runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { jobRegistry } from "../modules/jobs";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

// Demo mode with the launcher's Sandbox receiver; no SANDBOX_ORIGINS, so loopback is allowed nowhere else.
const dir = mkdtempSync(join(tmpdir(), "mytess-webhook-sandbox-"));
const receiver = startWebhookReceiver({ dir });
let t: TTestApp;
let plain: TTestApp;
let shipper: ReturnType<typeof createClient>;
let driver: ReturnType<typeof createClient>;

const token = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");

beforeAll(async () => {
  t = await createTestApp({ demo: true, webhooks: { sandboxUrl: receiver.url, sandboxDir: dir } });
  plain = await createTestApp({ demo: false, webhooks: { sandboxUrl: receiver.url, sandboxDir: dir } });
  shipper = createClient(t, "10.82.0.1");
  driver = createClient(t, "10.82.0.2");
  await registerUser(shipper, "shipper");
  await registerUser(driver, "driver");
});
afterAll(async () => {
  await receiver.close();
  await closeTestApps();
  rmSync(dir, { recursive: true, force: true });
});

const RECEIVER_URL = /^http:\/\/127\.0\.0\.1:\d+\/r\/[A-Za-z0-9_-]{43}$/;

test("demo mode: a signed-in user gets a fresh receiver address of their own each time", async () => {
  const a = await shipper.get("/api/dev/webhook-receiver");
  const b = await shipper.get("/api/dev/webhook-receiver");
  expect(a.status).toBe(200);
  expect(a.json.url).toMatch(RECEIVER_URL);
  expect(a.json.url.startsWith(`${receiver.url}/r/`)).toBe(true);
  expect(b.json.url).toMatch(RECEIVER_URL);
  expect(b.json.url).not.toBe(a.json.url);
});

test("the web app learns whether the Sandbox receiver runs: its origin in demo mode, null otherwise", async () => {
  const here = await shipper.get("/api/dev/webhook-sandbox");
  expect(here.status).toBe(200);
  expect(here.json).toEqual({ receiverOrigin: receiver.url });
  const someone = createClient(plain, "10.82.0.5");
  await registerUser(someone, "shipper");
  const there = await someone.get("/api/dev/webhook-sandbox");
  expect(there.status).toBe(200);
  expect(there.json).toEqual({ receiverOrigin: null });
});

test("signed out, the receiver address and the received list are 401", async () => {
  const anon = createClient(t, "10.82.0.9");
  expect((await anon.get("/api/dev/webhook-sandbox")).status).toBe(401);
  expect((await anon.get("/api/dev/webhook-receiver")).status).toBe(401);
  expect((await anon.get("/api/dev/webhooks")).status).toBe(401);
});

test("outside demo mode there is no Sandbox receiver: both routes answer 404 saying so", async () => {
  const someone = createClient(plain, "10.82.0.4");
  await registerUser(someone, "shipper");
  for (const path of ["/api/dev/webhook-receiver", "/api/dev/webhooks"]) {
    const res = await someone.get(path);
    expect(res.status).toBe(404);
    expect(res.json).toMatchObject({
      messageId: "error.webhooks.noSandbox",
      message: "The Sandbox webhook receiver exists in demo mode only",
    });
  }
});

test("a receiver address not made for the registering user is refused (400 naming url), another user's included", async () => {
  const theirs = (await driver.get("/api/dev/webhook-receiver")).json.url as string;
  for (const url of [theirs, `${receiver.url}/r/${token()}`]) {
    const res = await shipper.post("/api/webhook-endpoints", { url, events: ["load.bid_received"] });
    expect(res.status).toBe(400);
    expect(res.json.issues?.[0]?.path).toBe("url");
  }
});

test("demo mode: an endpoint at a Sandbox receiver gets signed deliveries that verify there, logged as 2xx, listed for its owner only", async () => {
  const url = (await shipper.get("/api/dev/webhook-receiver")).json.url as string;
  const tok = url.split("/r/")[1]!;
  expect((await shipper.get("/api/dev/webhooks")).json).toEqual({ received: [] });
  const res = await shipper.post("/api/webhook-endpoints", { url, events: ["load.bid_received"] });
  expect(res.status).toBe(201);
  const load = (await shipper.post("/api/loads", loadInput())).json;
  expect((await driver.post(`/api/loads/${load.id}/bids`, { amount: 900 })).status).toBe(201);
  const before = receiver.received.length;
  await runWorker({
    db: t.db,
    log: logger,
    handlers: jobRegistry(t.services, ""),
    schedules: [],
    autoStart: false,
  }).runOnce();
  const got = await receiver.waitFor(tok, { after: before });
  expect(got).toMatchObject({ event: "load.bid_received", signatureValid: true });
  expect(JSON.parse(got.body).data.loadId).toBe(load.id);
  const log = (await shipper.get(`/api/webhook-endpoints/${res.json.id}/deliveries`)).json;
  expect(log[0]).toMatchObject({ event: "load.bid_received", status: "delivered", lastStatusCode: 200 });
  expect(log[0].attempts[0]).toMatchObject({ statusCode: 200, error: null });

  const seen = await shipper.get("/api/dev/webhooks");
  expect(seen.status).toBe(200);
  expect(seen.json.received).toHaveLength(1);
  expect(seen.json.received[0]).toMatchObject({
    url,
    event: "load.bid_received",
    signatureValid: true,
    body: got.body,
  });
  expect(new Date(seen.json.received[0].receivedAt).getTime()).toBe(got.receivedAt);
  // The driver's own list holds nothing of the shipper's receiver.
  expect((await driver.get("/api/dev/webhooks")).json).toEqual({ received: [] });
});

test("a typed loopback or private address is still refused, so is any other path of the receiver (400 naming url)", async () => {
  const port = new URL(receiver.url).port;
  for (const url of [
    `http://127.0.0.1:${port}/hooks`,
    `http://127.0.0.1:${Number(port) + 1}/r/${token()}`,
    `${receiver.url}/r/${token()}/secrets`,
    `${receiver.url}/r/${token()}?x=1`,
    `http://localhost:${port}/r/${token()}`,
    `http://10.0.0.7/r/${token()}`,
  ]) {
    const res = await shipper.post("/api/webhook-endpoints", { url, events: ["load.bid_received"] });
    expect(res.status).toBe(400);
    expect(res.json.issues?.[0]?.path).toBe("url");
  }
});

test("outside demo mode the Sandbox receiver's address is refused like any loopback address", async () => {
  const someone = createClient(plain, "10.82.0.3");
  await registerUser(someone, "shipper");
  const res = await someone.post("/api/webhook-endpoints", {
    url: `${receiver.url}/r/${token()}`,
    events: ["load.bid_received"],
  });
  expect(res.status).toBe(400);
  expect(res.json.issues?.[0]?.path).toBe("url");
});
