import { afterAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import webpush from "web-push";
import { startNotifyEmulators } from "../../../../emulators/notifiers/server";
import { notifiersFromEnv, vapidKeyFileFor } from "./registry";
import { loadVapidKeys } from "./vapid-keys";
import { pushOutcome } from "./web-push";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const emu = startNotifyEmulators();
const dir = mkdtempSync(join(tmpdir(), "mytess-push-"));
afterAll(() => {
  emu.stop();
  rmSync(dir, { recursive: true, force: true });
});

const registry = () =>
  notifiersFromEnv(
    { ...emu.env(), VAPID_SUBJECT: "mailto:ops@mytess.example" },
    { vapidKeyFile: join(dir, "vapid-keys.json") },
  );
let reg = registry();
beforeEach(() => {
  reg = registry();
});
// The browser subscribes with the server's public key, as the page will after GET /api/push/vapid-key.
const subscribe = () => emu.push.subscribe({ applicationServerKey: reg.vapidPublicKey! });

describe("Web push through an HTTPS push service that decrypts", () => {
  test("the user agent decrypts exactly what we sent, with TTL, urgency and a VAPID subject", async () => {
    const { id, subscription } = subscribe();
    const result = await reg.get("web_push")!.send(subscription, {
      title: "Payment received",
      body: "1 500 ETB for load #42 — ክፍያ ደርሷል",
      url: "https://mytess.example/loads/42",
      urgency: "high",
      ttlSeconds: 600,
    });
    expect(result.status).toBe("delivered");
    const [msg] = emu.push.received(id);
    expect(result).toEqual({ status: "delivered", messageId: `${emu.urls.push}/m/${msg.id}` });
    expect(JSON.parse(msg.text)).toEqual({
      title: "Payment received",
      body: "1 500 ETB for load #42 — ክፍያ ደርሷል",
      url: "https://mytess.example/loads/42",
    });
    expect(msg).toMatchObject({ ttl: 600, urgency: "high", vapidSubject: "mailto:ops@mytess.example" });
  });

  test("a newer message with the same topic replaces the undelivered one", async () => {
    const { id, subscription } = subscribe();
    const push = reg.get("web_push")!;
    await push.send(subscription, { title: "Bids", body: "1 new bid", topic: "bids-42" });
    await push.send(subscription, { title: "Bids", body: "2 new bids", topic: "bids-42" });
    expect(emu.push.received(id).map((m) => JSON.parse(m.text).body)).toEqual(["2 new bids"]);
  });

  test("410 and 404 are gone: the subscription is deleted", async () => {
    const a = subscribe();
    emu.push.setMode(a.id, { kind: "gone" });
    const gone = await reg.get("web_push")!.send(a.subscription, { body: "x" });
    expect(gone.status).toBe("gone");
    expect(gone.status === "gone" && gone.reason).toStartWith("Push service: HTTP 410");
    const b = subscribe();
    emu.push.forget(b.id);
    expect((await reg.get("web_push")!.send(b.subscription, { body: "x" })).status).toBe("gone");
  });

  test("429 retries after Retry-After; 503 retries", async () => {
    const { id, subscription } = subscribe();
    emu.push.setMode(id, { kind: "flood", retryAfter: 120 });
    const flood = await reg.get("web_push")!.send(subscription, { body: "x" });
    expect(flood).toMatchObject({ status: "retry", retryAfterSeconds: 120 });
    emu.push.setMode(id, { kind: "down" });
    expect((await reg.get("web_push")!.send(subscription, { body: "x" })).status).toBe("retry");
  });

  test("a subscription made for another server key is refused: our failure, not the user's", async () => {
    const { subscription } = emu.push.subscribe({ applicationServerKey: webpush.generateVAPIDKeys().publicKey });
    const result = await reg.get("web_push")!.send(subscription, { body: "x" });
    expect(result.status).toBe("failed");
    expect(result.status === "failed" && result.reason).toContain("HTTP 403");
  });

  test("without the emulator's CA the certificate is not trusted: certificate checks stay on", async () => {
    const { WEB_PUSH_CA_FILE: _, ...env } = emu.env();
    const strict = notifiersFromEnv(env, { vapidKeyFile: join(dir, "vapid-keys.json") });
    const { id, subscription } = subscribe();
    expect((await strict.get("web_push")!.send(subscription, { body: "x" })).status).toBe("retry");
    expect(emu.push.received(id)).toEqual([]);
  });

  test("endpoints that are not https and malformed keys are gone without a request", async () => {
    const { subscription } = subscribe();
    const push = reg.get("web_push")!;
    expect(
      (await push.send({ ...subscription, endpoint: subscription.endpoint.replace("https:", "http:") }, { body: "x" }))
        .status,
    ).toBe("gone");
    expect((await push.send({ ...subscription, keys: { p256dh: "abc", auth: "def" } }, { body: "x" })).status).toBe(
      "gone",
    );
  });

  test("outcomes by status: 413 and 401 fail, 201 delivers", () => {
    expect(pushOutcome(413, new Headers(), "").status).toBe("failed");
    expect(pushOutcome(401, new Headers(), "").status).toBe("failed");
    expect(pushOutcome(201, new Headers(), "")).toEqual({ status: "delivered", messageId: undefined });
  });
});

describe("VAPID keys", () => {
  test("made once into a private file beside the database, then reused", () => {
    const file = vapidKeyFileFor(join(dir, "keys", "mytess.db"))!;
    expect(file).toBe(join(dir, "keys", "vapid-keys.json"));
    const first = loadVapidKeys({}, file);
    expect(loadVapidKeys({}, file)).toEqual(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, "utf8"))).toMatchObject(first);
    expect(vapidKeyFileFor(":memory:")).toBeNull();
  });

  test("from the environment when both are set; one without the other is refused", () => {
    const keys = webpush.generateVAPIDKeys();
    expect(loadVapidKeys({ VAPID_PUBLIC_KEY: keys.publicKey, VAPID_PRIVATE_KEY: keys.privateKey }, null)).toEqual(keys);
    expect(() => loadVapidKeys({ VAPID_PUBLIC_KEY: keys.publicKey }, null)).toThrow(/must both be set/);
  });
});
