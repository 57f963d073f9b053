import { afterAll, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { startWebhookReceiver } from "../../../emulators/webhooks/receiver";
import { runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { jobRegistry } from "../modules/jobs";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

// Demo mode with the launcher's Sandbox receiver; no SANDBOX_ORIGINS, so loopback is allowed nowhere else.
const receiver = startWebhookReceiver();
let t: TTestApp;
let plain: TTestApp;
let shipper: ReturnType<typeof createClient>;
let driver: ReturnType<typeof createClient>;

const token = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");

beforeAll(async () => {
  t = await createTestApp({ demo: true, webhooks: { sandboxUrl: receiver.url } });
  plain = await createTestApp({ demo: false, webhooks: { sandboxUrl: receiver.url } });
  shipper = createClient(t, "10.82.0.1");
  driver = createClient(t, "10.82.0.2");
  await registerUser(shipper, "shipper");
  await registerUser(driver, "driver");
});
afterAll(async () => {
  await receiver.close();
  await closeTestApps();
});

test("demo mode: an endpoint at a Sandbox receiver gets signed deliveries that verify there, logged as 2xx", async () => {
  const tok = token();
  const res = await shipper.post("/api/webhook-endpoints", {
    url: `${receiver.url}/r/${tok}`,
    events: ["load.bid_received"],
  });
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
