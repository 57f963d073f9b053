import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createBridge, listen, waitForLink } from "./bridge.mjs";
import { createFakeClient } from "./fake-client";
import { INBOUND_PATH, signedHeaders, verifySignature } from "./protocol.mjs";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const SECRET = "bridge-test-secret-0123456789";
const logs: { level: string; msg: string }[] = [];
const log = (level: "info" | "warn" | "error", msg: string) => {
  logs.push({ level, msg });
};

const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
});
const serve = async (bridge: ReturnType<typeof createBridge>) => {
  const server = await listen(bridge, { host: "127.0.0.1", port: 0 });
  servers.push(server);
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const call = (base: string, method: string, path: string, body = "", headers: Record<string, string> = {}) =>
  fetch(`${base}${path}`, {
    method,
    headers: { "Content-Type": "application/json", ...headers },
    body: method === "GET" ? undefined : body,
  });
const signed = (base: string, method: string, path: string, body = "") =>
  call(base, method, path, body, signedHeaders(SECRET, method, path, body));

describe("login", () => {
  test("each new QR code is shown once; the link resolves with the number when the client is ready", async () => {
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: SECRET, log });
    const shown: string[] = [];
    const linked = waitForLink(bridge, (qr) => shown.push(qr));
    expect(bridge.snapshot().state).toBe("starting");
    fake.showQr("2@first-code");
    fake.showQr("2@first-code");
    fake.showQr("2@second-code");
    expect(bridge.snapshot()).toMatchObject({ state: "qr", qr: "2@second-code" });
    fake.link("251911223344");
    expect(await linked).toBe("+251911223344");
    expect(shown).toEqual(["2@first-code", "2@second-code"]);
    expect(bridge.snapshot()).toEqual({ state: "ready", qr: null, number: "+251911223344", detail: null });
  });

  test("a refused session ends the login with WhatsApp's reason", async () => {
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: SECRET, log });
    const linked = waitForLink(bridge, () => {});
    fake.showQr("2@code");
    fake.refuse("session restore failed");
    await expect(linked).rejects.toThrow("authentication failed: session restore failed");
  });
});

describe("sending", () => {
  test("a number on WhatsApp gets the text in its private chat; the answer carries WhatsApp's message id", async () => {
    const fake = createFakeClient({ registered: ["251911000001"] });
    const bridge = createBridge({ client: fake.client, secret: SECRET, log });
    fake.link("251900000000");
    const r = await bridge.send("+251 91 100 0001", "*Bid received*\nLoad #4");
    expect(r).toEqual({ status: "delivered", messageId: "true_251911000001@c.us_FAKE1" });
    expect(fake.sent).toEqual([{ chatId: "251911000001@c.us", text: "*Bid received*\nLoad #4" }]);
  });

  test("a number not on WhatsApp is gone; nothing is sent", async () => {
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: SECRET, log });
    fake.link("251900000000");
    const r = await bridge.send("+251911000002", "hello");
    expect(r.status).toBe("gone");
    expect(fake.sent).toEqual([]);
  });

  test("before the phone is linked, after a disconnect or when the page fails, sends are to be tried again", async () => {
    const fake = createFakeClient({ registered: ["251911000003"] });
    const bridge = createBridge({ client: fake.client, secret: SECRET, log });
    expect(await bridge.send("+251911000003", "x")).toMatchObject({ status: "retry" });
    fake.showQr("2@code");
    expect(await bridge.send("+251911000003", "x")).toEqual({
      status: "retry",
      reason: "WhatsApp Web is not linked to a phone: run `mytess whatsapp login`",
    });
    fake.link("251900000000");
    fake.failNext(new Error("Evaluation failed: page crashed"));
    expect(await bridge.send("+251911000003", "x")).toMatchObject({
      status: "retry",
      reason: expect.stringContaining("page crashed"),
    });
    fake.disconnect("NAVIGATION");
    expect(await bridge.send("+251911000003", "x")).toMatchObject({ status: "retry" });
    expect(fake.sent).toEqual([]);
  });

  test("a look-up that never answers is reported as passing trouble, not waited on for ever", async () => {
    const fake = createFakeClient();
    fake.client.getNumberId = () => new Promise(() => {});
    const bridge = createBridge({ client: fake.client, secret: SECRET, log, sendTimeoutMs: 50 });
    fake.link("251900000000");
    expect(await bridge.send("+251911000004", "x")).toMatchObject({ status: "retry" });
  });

  test("what cannot be a phone number, or an empty text, fails without asking WhatsApp", async () => {
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: SECRET, log });
    fake.link("251900000000");
    expect((await bridge.send("12", "x")).status).toBe("failed");
    expect((await bridge.send("+251911000005", "  ")).status).toBe("failed");
    expect(fake.state.lookups).toBe(0);
  });
});

describe("the HTTP API", () => {
  test("answers signed requests only: no signature, a wrong one, another body or an old one are 401", async () => {
    const fake = createFakeClient({ registered: ["251911000010"] });
    const bridge = createBridge({ client: fake.client, secret: SECRET, log });
    fake.link("251900000000");
    const base = await serve(bridge);
    const body = JSON.stringify({ phone: "+251911000010", text: "hi" });
    expect((await call(base, "POST", "/send", body)).status).toBe(401);
    const other = signedHeaders("another-secret-0123456789", "POST", "/send", body);
    expect((await call(base, "POST", "/send", body, other)).status).toBe(401);
    const forOtherBody = signedHeaders(SECRET, "POST", "/send", "{}");
    expect((await call(base, "POST", "/send", body, forOtherBody)).status).toBe(401);
    const old = signedHeaders(SECRET, "POST", "/send", body, Date.now() - 10 * 60_000);
    expect((await call(base, "POST", "/send", body, old)).status).toBe(401);
    expect((await call(base, "GET", "/state")).status).toBe(401);
    expect(fake.sent).toEqual([]);

    const state = await signed(base, "GET", "/state");
    expect(state.status).toBe(200);
    expect(await state.json()).toEqual({ state: "ready", qr: null, number: "+251900000000", detail: null });
    const sent = await signed(base, "POST", "/send", body);
    expect(await sent.json()).toMatchObject({ status: "delivered" });
    expect(fake.sent).toEqual([{ chatId: "251911000010@c.us", text: "hi" }]);
  });

  test("14. the same signed request sent again within its window sends nothing and gets the first answer", async () => {
    const fake = createFakeClient({ registered: ["251911000012"] });
    const bridge = createBridge({ client: fake.client, secret: SECRET, log });
    fake.link("251900000000");
    const base = await serve(bridge);
    const body = JSON.stringify({ phone: "+251911000012", text: "Your bid was accepted" });
    const headers = signedHeaders(SECRET, "POST", "/send", body);
    const first = await call(base, "POST", "/send", body, headers);
    const firstAnswer = await first.json();
    expect(firstAnswer).toMatchObject({ status: "delivered" });
    // Replayed twice at once and once after: the signature is still inside its five minutes.
    const replays = await Promise.all([1, 2].map(() => call(base, "POST", "/send", body, headers)));
    replays.push(await call(base, "POST", "/send", body, headers));
    for (const r of replays) {
      expect(r.status).toBe(200);
      expect(await r.json()).toEqual(firstAnswer);
    }
    expect(fake.sent).toHaveLength(1);
    // A new request for the same text (a new signature) is a new send.
    expect(await (await signed(base, "POST", "/send", body)).json()).toMatchObject({ status: "delivered" });
    expect(fake.sent).toHaveLength(2);
  });

  test("a body without phone and text is 400; other paths are 404", async () => {
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: SECRET, log });
    const base = await serve(bridge);
    const bad = await signed(base, "POST", "/send", JSON.stringify({ phone: 251911000011 }));
    expect(bad.status).toBe(400);
    expect((await bad.json()).message).toContain("phone, text");
    expect((await signed(base, "GET", "/other")).status).toBe(404);
  });
});

describe("messages people send", () => {
  // MyTess's side, reduced to what the bridge sees: a route that checks the signature and records what came.
  const received: { verified: boolean; body: Record<string, unknown> }[] = [];
  let failNext = 0;
  const mytess = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      if (failNext > 0) {
        failNext--;
        return new Response("busy", { status: 503 });
      }
      const body = await req.text();
      const verified = verifySignature(SECRET, {
        method: req.method,
        path: new URL(req.url).pathname,
        body,
        timestamp: req.headers.get("x-mytess-timestamp"),
        signature: req.headers.get("x-mytess-signature"),
      });
      received.push({ verified, body: JSON.parse(body) });
      return Response.json({ ok: true }, { status: verified ? 200 : 401 });
    },
  });
  afterAll(() => mytess.stop(true));
  const inboundUrl = `http://127.0.0.1:${mytess.port}${INBOUND_PATH}`;

  test("private text messages are posted to MyTess, signed; own, group, status and media messages are not", async () => {
    received.length = 0;
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: SECRET, inboundUrl, log });
    fake.link("251900000000");
    await bridge.forward({ from: "251911000020@c.us", type: "chat", body: "loads", timestamp: 1_700_000_000 });
    for (const m of [
      { from: "251911000020@c.us", type: "chat", body: "mine", fromMe: true },
      { from: "120363000000000000@g.us", type: "chat", body: "group" },
      { from: "status@broadcast", type: "chat", body: "status", isStatus: true },
      { from: "251911000020@c.us", type: "image", body: "" },
    ])
      await bridge.forward(m);
    expect(received).toEqual([
      {
        verified: true,
        body: {
          from: "251911000020",
          text: "loads",
          messageId: "251911000020-1700000000",
          at: 1_700_000_000_000,
        },
      },
    ]);
  });

  test("14. a message the client reports twice is posted to MyTess once", async () => {
    received.length = 0;
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: SECRET, inboundUrl, log });
    const m = {
      id: { _serialized: "false_251911000024@c.us_3EB0TWICE" },
      from: "251911000024@c.us",
      type: "chat",
      body: "bid 12 900",
      timestamp: 1_700_000_100,
    };
    await Promise.all([bridge.forward(m), bridge.forward({ ...m })]);
    await bridge.forward({ ...m });
    expect(received.map((r) => r.body.messageId)).toEqual(["false_251911000024@c.us_3EB0TWICE"]);
  });

  test("a sender behind a linked id is posted with the number WhatsApp maps it to", async () => {
    received.length = 0;
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: SECRET, inboundUrl, log });
    const lid = fake.hideBehindLid("251911000021");
    await bridge.forward({ from: lid, type: "chat", body: "help" });
    expect(received.map((r) => r.body.from)).toEqual(["251911000021"]);
  });

  test("while MyTess cannot answer, the message is posted again", async () => {
    received.length = 0;
    failNext = 2;
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: SECRET, inboundUrl, log, retryDelaysMs: [10, 10, 10] });
    await bridge.forward({ from: "251911000022@c.us", type: "chat", body: "help" });
    expect(received.map((r) => r.body.text)).toEqual(["help"]);
    expect(failNext).toBe(0);
  });

  test("a MyTess that refuses the signature gets no retries and the operator is told why", async () => {
    received.length = 0;
    logs.length = 0;
    const fake = createFakeClient();
    const bridge = createBridge({ client: fake.client, secret: "not-what-mytess-has-0123", inboundUrl, log });
    await bridge.forward({ from: "251911000023@c.us", type: "chat", body: "help" });
    expect(received).toEqual([{ verified: false, body: expect.objectContaining({ text: "help" }) }]);
    expect(logs).toContainEqual({
      level: "error",
      msg: "mytess refused the bridge's signature: WHATSAPP_WEB_SECRET differs between them",
    });
  });
});
