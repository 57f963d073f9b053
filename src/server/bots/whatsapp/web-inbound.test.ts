import { afterAll, afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { createBridge, listen } from "../../../../workers/whatsapp-web/bridge.mjs";
import { createFakeClient } from "../../../../workers/whatsapp-web/fake-client";
import { signedHeaders } from "../../../../workers/whatsapp-web/protocol.mjs";
import { notifiersFromEnv } from "../../integrations/notifiers/registry";
import { codeIn, verifyWhatsApp } from "../../modules/notifications/testing";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../../testing";
import { WHATSAPP_WEB_INBOUND_PATH } from "./web-inbound";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

// The whole loop on loopback: a person writes to the linked phone (the fake client), the bridge posts it to MyTess,
// MyTess answers through its WhatsApp Web notifier, which asks the bridge to send, which hands it to the client.
const SECRET = "inbound-test-secret-0123456789";
let t: TTestApp | null = null;
const mytess = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: (r) => (t ? t.app.handle(r) : new Response("starting", { status: 503 })),
});
const fake = createFakeClient();
const bridge = createBridge({
  client: fake.client,
  secret: SECRET,
  inboundUrl: `http://127.0.0.1:${mytess.port}${WHATSAPP_WEB_INBOUND_PATH}`,
  log: () => {},
});
const bridgeServer = await listen(bridge, { host: "127.0.0.1", port: 0 });
const notifiers = notifiersFromEnv(
  {
    WHATSAPP_TRANSPORT: "web",
    WHATSAPP_WEB_SECRET: SECRET,
    WHATSAPP_WEB_BRIDGE_URL: `http://127.0.0.1:${(bridgeServer.address() as AddressInfo).port}`,
  },
  { vapidKeyFile: null },
);
fake.link("251900000000");
afterAll(() => {
  bridgeServer.close();
  mytess.stop(true);
});

type TClient = ReturnType<typeof createClient>;
let shipper: TClient;
let driver: TClient;
let seq = 0;
const number = () => `+2519330${String(10_000 + ++seq).padStart(5, "0")}`;
const digits = (p: string) => p.replace(/\D/g, "");

beforeEach(async () => {
  t = await createTestApp({}, undefined, notifiers);
  shipper = createClient(t);
  driver = createClient(t);
  await registerUser(shipper, "shipper");
  await registerUser(driver, "driver");
});
afterEach(async () => {
  t = null;
  await closeTestApps();
});

const prefs = (phone: string, language = "en") => ({
  whatsappEnabled: true,
  whatsappNumber: phone,
  telegramEnabled: false,
  telegramChatId: null,
  notificationTypes: { loadAssigned: true, loadUpdates: true, paymentReceived: true, systemAlerts: false },
  language,
});
/** The person writes to the linked number; resolves with the reply they get in that chat. */
const say = async (phone: string, text: string) => {
  fake.register(digits(phone));
  const chat = `${digits(phone)}@c.us`;
  const reply = fake.nextSentTo(chat);
  fake.receive({ from: chat, body: text });
  return (await reply).text;
};
const rows = (sql: string) => t!.rows<{ n: number }>(sql);
/** What the linked phone last sent to a number (the code, right after one was asked for). */
const lastSentTo = (phone: string) => fake.sent.filter((m) => m.chatId === `${digits(phone)}@c.us`).at(-1)?.text;
/** Saves the number and proves it with the code the bridge delivered. */
const saveVerified = async (c: TClient, phone: string, language = "en") => {
  fake.register(digits(phone));
  expect((await c.put("/api/messaging/preferences", prefs(phone, language))).status).toBe(200);
  await verifyWhatsApp(c, phone, lastSentTo);
};

test("the text commands answer the account that verified the number, in its language, back in the same chat", async () => {
  const phone = number();
  await saveVerified(driver, phone);
  const loadId = (await shipper.post("/api/loads", loadInput({ title: "Coffee, 18 t" }))).json.id as number;
  expect((await driver.post("/api/drivers/location", { latitude: 8.95, longitude: 38.76 })).status).toBe(200);

  const help = await say(phone, "help");
  expect(help).toContain("loads");
  expect(help).toContain("bid <load number> <amount>");
  expect(await say(phone, "loads")).toContain(`#${loadId} Coffee, 18 t`);
  expect(await say(phone, `bid ${loadId} 900`)).toContain("Bid placed");
  expect((await rows("SELECT CAST(count(*) AS INTEGER) AS n FROM bids"))[0].n).toBe(1);

  expect((await driver.put("/api/messaging/preferences", prefs(phone, "am"))).status).toBe(200);
  expect(await say(phone, "help")).toContain("የMyTess ትዕዛዞች");
  await driver.put("/api/messaging/preferences", prefs(phone, "om"));
  expect(await say(phone, "help")).toContain("Ajajawwan MyTess:");
});

test("a number no account verified is told how to link, and nothing is done for it", async () => {
  const reply = await say(number(), "loads");
  expect(reply).toContain("not linked to a MyTess account");
  // Saved but not proven: the same.
  const typed = number();
  expect((await driver.put("/api/messaging/preferences", prefs(typed))).status).toBe(200);
  const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
  expect(await say(typed, `bid ${loadId} 900`)).toContain("not linked to a MyTess account");
  expect((await rows("SELECT CAST(count(*) AS INTEGER) AS n FROM bids"))[0].n).toBe(0);
});

test("14. a signed request replayed within its window does nothing the second time", async () => {
  const phone = number();
  await saveVerified(driver, phone);
  const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
  const body = JSON.stringify({
    from: digits(phone),
    text: `bid ${loadId} 900`,
    messageId: "wamid-replayed-1",
    at: Date.now(),
  });
  const headers = {
    "Content-Type": "application/json",
    ...signedHeaders(SECRET, "POST", WHATSAPP_WEB_INBOUND_PATH, body),
  };
  const post = () =>
    fetch(`http://127.0.0.1:${mytess.port}${WHATSAPP_WEB_INBOUND_PATH}`, { method: "POST", headers, body });
  const reply = fake.nextSentTo(`${digits(phone)}@c.us`);
  expect((await post()).status).toBe(200);
  expect((await reply).text).toContain("Bid placed");
  const sent = fake.sent.length;
  // The same signed bytes again (captured, or the bridge trying again): accepted, and nothing happens.
  expect((await post()).status).toBe(200);
  // The same message id under a fresh signature: nothing either.
  const again = await fetch(`http://127.0.0.1:${mytess.port}${WHATSAPP_WEB_INBOUND_PATH}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...signedHeaders(SECRET, "POST", WHATSAPP_WEB_INBOUND_PATH, body) },
    body,
  });
  expect(again.status).toBe(200);
  expect(fake.sent.length).toBe(sent);
  expect((await rows("SELECT CAST(count(*) AS INTEGER) AS n FROM bids"))[0].n).toBe(1);
});

test("an unsigned or wrongly signed post is refused with 401 and nothing is sent", async () => {
  const phone = number();
  expect((await driver.put("/api/messaging/preferences", prefs(phone))).status).toBe(200);
  fake.register(digits(phone));
  const before = fake.sent.length;
  const body = JSON.stringify({ from: digits(phone), text: "help", messageId: "x1", at: Date.now() });
  const post = (headers: Record<string, string>) =>
    fetch(`http://127.0.0.1:${mytess.port}${WHATSAPP_WEB_INBOUND_PATH}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body,
    });
  for (const headers of [
    {},
    signedHeaders("someone-elses-secret-012345", "POST", WHATSAPP_WEB_INBOUND_PATH, body),
    signedHeaders(SECRET, "POST", WHATSAPP_WEB_INBOUND_PATH, body.replace("help", "loads")),
    signedHeaders(SECRET, "POST", WHATSAPP_WEB_INBOUND_PATH, body, Date.now() - 3_600_000),
  ]) {
    const res = await post(headers);
    expect(res.status).toBe(401);
    expect((await res.json()).code).toBe("UNAUTHORIZED");
  }
  // A signed post that is not a message names the field.
  const junk = JSON.stringify({ from: "not a number", text: "help", messageId: "x2", at: Date.now() });
  const bad = await fetch(`http://127.0.0.1:${mytess.port}${WHATSAPP_WEB_INBOUND_PATH}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...signedHeaders(SECRET, "POST", WHATSAPP_WEB_INBOUND_PATH, junk) },
    body: junk,
  });
  expect(bad.status).toBe(400);
  expect(JSON.stringify(await bad.json())).toContain("from");
  expect(fake.sent.length).toBe(before);
});

test("the messaging page's test message goes out through WhatsApp Web as free text, without a template", async () => {
  const phone = number();
  await saveVerified(driver, phone);
  const view = await driver.get("/api/messaging/preferences");
  expect(view.json.channels.whatsapp).toBe("active");
  const reply = fake.nextSentTo(`${digits(phone)}@c.us`);
  const res = await driver.post("/api/messaging/whatsapp/send", { phoneNumber: phone, message: "x", type: "test" });
  expect(res.status).toBe(200);
  expect((await reply).text).toContain("MyTess");
});

test("without WHATSAPP_TRANSPORT=web the route does not exist", async () => {
  const plain = await createTestApp();
  const res = await plain.app.handle(
    new Request(`http://localhost${WHATSAPP_WEB_INBOUND_PATH}`, { method: "POST", body: "{}" }),
  );
  expect(res.status).toBe(404);
});

test("under Node, as in production: the bridge's post is accepted and MyTess's reply goes out through it", async () => {
  // The bridge module run by Node (its HTTP server and fetch are Node's), with a client stand-in written inline.
  const bridgeModule = Bun.pathToFileURL(join(import.meta.dir, "../../../../workers/whatsapp-web/bridge.mjs")).href;
  // MyTess listens first (the bridge needs its address), and is made once the bridge's port is known.
  const server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response("starting", { status: 503 }) });
  const node = Bun.spawn(
    [
      "node",
      "--input-type=module",
      "-e",
      `import { EventEmitter } from "node:events";
       import { createBridge, listen } from ${JSON.stringify(bridgeModule)};
       const events = new EventEmitter();
       const say = (o) => console.log(JSON.stringify(o));
       const client = {
         on: (e, f) => events.on(e, f),
         initialize: async () => {},
         getNumberId: async (n) => ({ _serialized: n + "@c.us" }),
         sendMessage: async (chatId, text) => { say({ sent: { chatId, text } }); return { id: { _serialized: "n1" } }; },
         destroy: async () => {},
         info: { wid: { user: "251900000000" } },
       };
       const bridge = createBridge({ client, secret: process.env.SECRET, inboundUrl: process.env.INBOUND, log: () => {} });
       const s = await listen(bridge, { host: "127.0.0.1", port: 0 });
       events.emit("ready");
       say({ port: s.address().port });
       process.stdin.on("data", (d) => events.emit("message", JSON.parse(d.toString())));`,
    ],
    {
      env: { ...process.env, SECRET, INBOUND: `http://127.0.0.1:${server.port}${WHATSAPP_WEB_INBOUND_PATH}` },
      stdin: "pipe",
      stdout: "pipe",
    },
  );
  try {
    const lines = node.stdout.getReader();
    let buf = "";
    const next = async () => {
      while (!buf.includes("\n")) {
        const { done, value } = await lines.read();
        if (done) throw new Error("the bridge ended");
        buf += new TextDecoder().decode(value);
      }
      const line = buf.slice(0, buf.indexOf("\n"));
      buf = buf.slice(buf.indexOf("\n") + 1);
      return JSON.parse(line);
    };
    const { port } = await next();
    // MyTess's side, pointed at the Node bridge.
    const viaNode = notifiersFromEnv(
      { WHATSAPP_TRANSPORT: "web", WHATSAPP_WEB_SECRET: SECRET, WHATSAPP_WEB_BRIDGE_URL: `http://127.0.0.1:${port}` },
      { vapidKeyFile: null },
    );
    const appViaNode = await createTestApp({}, undefined, viaNode);
    server.reload({ fetch: (r) => appViaNode.app.handle(r) });
    const client = createClient(appViaNode);
    await registerUser(client, "driver");
    const phone = number();
    expect((await client.put("/api/messaging/preferences", prefs(phone, "am"))).status).toBe(200);
    // The code goes out through the Node bridge, and comes back typed in the app.
    expect((await client.post("/api/messaging/whatsapp/code", { phoneNumber: phone })).status).toBe(200);
    const code = await next();
    expect(code.sent.chatId).toBe(`${digits(phone)}@c.us`);
    expect((await client.post("/api/messaging/whatsapp/verify", { code: codeIn(code.sent.text) })).status).toBe(200);
    node.stdin.write(JSON.stringify({ from: `${digits(phone)}@c.us`, type: "chat", body: "help", timestamp: 1 }));
    node.stdin.flush();
    const { sent } = await next();
    expect(sent.chatId).toBe(`${digits(phone)}@c.us`);
    expect(sent.text).toContain("የMyTess ትዕዛዞች");
  } finally {
    node.kill();
    server.stop(true);
  }
});
