import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync, statSync } from "node:fs";
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createBridge, listen } from "../../../../workers/whatsapp-web/bridge.mjs";
import { createFakeClient } from "../../../../workers/whatsapp-web/fake-client";
import { notifiersFromEnv } from "./registry";
import {
  createWhatsAppWebNotifier,
  loadWhatsAppWebSecret,
  whatsappWebSecretFileFor,
  whatsappWebSessionDir,
  whatsappWebState,
} from "./whatsapp-web";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const SECRET = "notifier-test-secret-0123456789";
const dir = mkdtempSync(join(tmpdir(), "mytess-wa-web-"));
const servers: Server[] = [];
afterAll(() => {
  for (const s of servers) s.close();
  rmSync(dir, { recursive: true, force: true });
});

/** A bridge with a fake WhatsApp Web client, listening on a loopback port; the phone already linked. */
const startBridge = async (opts: { registered?: string[]; linked?: boolean } = {}) => {
  const fake = createFakeClient({ registered: opts.registered });
  const bridge = createBridge({ client: fake.client, secret: SECRET, log: () => {} });
  if (opts.linked !== false) fake.link("251900000000");
  const server = await listen(bridge, { host: "127.0.0.1", port: 0 });
  servers.push(server);
  return { fake, bridgeUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
};

describe("the WhatsApp Web notifier", () => {
  test("sends the rendered notification through the bridge to the number's chat, free text at any time", async () => {
    const { fake, bridgeUrl } = await startBridge({ registered: ["251911000101"] });
    const whatsapp = createWhatsAppWebNotifier({ bridgeUrl, secret: SECRET });
    // Never written to us (no 24-hour window) and no template: WhatsApp Web sends the text anyway.
    const r = await whatsapp.send(
      { phone: "+251911000101", lastInboundAt: null },
      { title: "Bid received", body: "Abebe bid 850 USD on load #12", url: "https://mytess.example/loads/12" },
    );
    expect(r).toEqual({ status: "delivered", messageId: "true_251911000101@c.us_FAKE1" });
    expect(fake.sent).toEqual([
      {
        chatId: "251911000101@c.us",
        text: "*Bid received*\nAbebe bid 850 USD on load #12\nhttps://mytess.example/loads/12",
      },
    ]);
  });

  test("a number not on WhatsApp is gone; an unlinked bridge, or none at all, means try again later", async () => {
    const { bridgeUrl } = await startBridge();
    const whatsapp = createWhatsAppWebNotifier({ bridgeUrl, secret: SECRET });
    expect(await whatsapp.send({ phone: "+251911000102" }, { body: "x" })).toMatchObject({ status: "gone" });

    const unlinked = await startBridge({ registered: ["251911000102"], linked: false });
    const early = createWhatsAppWebNotifier({ bridgeUrl: unlinked.bridgeUrl, secret: SECRET });
    expect(await early.send({ phone: "+251911000102" }, { body: "x" })).toMatchObject({ status: "retry" });
    expect(unlinked.fake.sent).toEqual([]);

    // A port nothing listens on: the bridge is down (restarting, or the worker is not running).
    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    const down = createWhatsAppWebNotifier({ bridgeUrl: `http://127.0.0.1:${port}`, secret: SECRET });
    expect(await down.send({ phone: "+251911000102" }, { body: "x" })).toMatchObject({
      status: "retry",
      reason: expect.stringContaining("could not be reached"),
    });
  });

  test("a secret that differs from the bridge's fails the send (no retry helps) and nothing goes out", async () => {
    const { fake, bridgeUrl } = await startBridge({ registered: ["251911000103"] });
    const whatsapp = createWhatsAppWebNotifier({ bridgeUrl, secret: "a-different-secret-0123456" });
    expect(await whatsapp.send({ phone: "+251911000103" }, { body: "x" })).toMatchObject({
      status: "failed",
      reason: expect.stringContaining("WHATSAPP_WEB_SECRET"),
    });
    expect(fake.sent).toEqual([]);
    await expect(whatsappWebState({ bridgeUrl, secret: "a-different-secret-0123456" })).rejects.toThrow(
      "WHATSAPP_WEB_SECRET",
    );
  });

  test("the bridge's state: linked number, and null where no bridge answers", async () => {
    const { bridgeUrl } = await startBridge();
    expect(await whatsappWebState({ bridgeUrl, secret: SECRET })).toEqual({
      state: "ready",
      qr: null,
      number: "+251900000000",
      detail: null,
    });
    expect(await whatsappWebState({ bridgeUrl: "http://127.0.0.1:9", secret: SECRET }, 500)).toBeNull();
  });
});

describe("registry and settings", () => {
  test("WHATSAPP_TRANSPORT=web picks WhatsApp Web (Active, not Sandbox); cloud stays the default", async () => {
    const { fake, bridgeUrl } = await startBridge({ registered: ["251911000104"] });
    const web = notifiersFromEnv(
      { WHATSAPP_TRANSPORT: "web", WHATSAPP_WEB_BRIDGE_URL: `${bridgeUrl}/`, WHATSAPP_WEB_SECRET: SECRET },
      { vapidKeyFile: null },
    );
    expect(web.states().find((s) => s.channel === "whatsapp")).toEqual({
      channel: "whatsapp",
      name: "WhatsApp",
      state: "active",
    });
    expect(web.whatsappWeb).toEqual({ bridgeUrl, secret: SECRET });
    expect(await web.get("whatsapp")!.send({ phone: "+251911000104" }, { body: "hello" })).toMatchObject({
      status: "delivered",
    });
    expect(fake.sent).toEqual([{ chatId: "251911000104@c.us", text: "hello" }]);

    const cloud = { WHATSAPP_ACCESS_TOKEN: "t", WHATSAPP_PHONE_NUMBER_ID: "1" };
    for (const env of [cloud, { ...cloud, WHATSAPP_TRANSPORT: "cloud" }]) {
      const r = notifiersFromEnv(env, { vapidKeyFile: null });
      expect(r.whatsappWeb).toBeNull();
      expect(r.states().find((s) => s.channel === "whatsapp")?.state).toBe("active");
    }
    expect(() => notifiersFromEnv({ WHATSAPP_TRANSPORT: "webjs" }, { vapidKeyFile: null })).toThrow(
      'WHATSAPP_TRANSPORT must be cloud or web (got "webjs")',
    );
  });

  test("the shared secret: WHATSAPP_WEB_SECRET, else a file beside the database made once and kept private", () => {
    expect(() => loadWhatsAppWebSecret({ WHATSAPP_WEB_SECRET: "short" }, null)).toThrow("at least 16");
    const file = whatsappWebSecretFileFor(join(dir, "data", "mytess.db"))!;
    expect(file).toBe(join(dir, "data", "whatsapp-web-secret"));
    const first = loadWhatsAppWebSecret({}, file);
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadWhatsAppWebSecret({}, file)).toBe(first);
    expect(
      notifiersFromEnv({ WHATSAPP_TRANSPORT: "web" }, { vapidKeyFile: null, whatsappWebSecretFile: file }).whatsappWeb
        ?.secret,
    ).toBe(first);
    expect(whatsappWebSecretFileFor(":memory:")).toBeNull();
    expect(whatsappWebSessionDir({}, "/srv/mytess/data/mytess.db")).toBe("/srv/mytess/data/whatsapp-web");
    expect(whatsappWebSessionDir({ WHATSAPP_WEB_SESSION_DIR: "/var/lib/wa" }, "/x/y.db")).toBe("/var/lib/wa");
  });
});
