// The emulators' own wire behaviour, checked with plain fetch: what a client other than our adapters would see.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { createECDH, randomBytes } from "node:crypto";
import webpush from "web-push";
import { decryptAes128gcm, verifyVapid } from "./push-crypto";
import { NOTIFY_EMULATOR_CREDENTIALS, startNotifyEmulators } from "./server";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const emu = startNotifyEmulators();
afterAll(() => emu.stop());
const bot = (method: string) => `${emu.urls.telegram}/bot${NOTIFY_EMULATOR_CREDENTIALS.telegram.token}/${method}`;
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
  });

describe("Telegram emulator", () => {
  test("wrong token, unknown method and bad buttons answer like the Bot API", async () => {
    const wrong = await fetch(`${emu.urls.telegram}/bot1:nope/getMe`);
    expect(wrong.status).toBe(401);
    expect(await wrong.json()).toEqual({ ok: false, error_code: 401, description: "Unauthorized" });
    expect((await fetch(bot("sendSticker"))).status).toBe(404);
    emu.telegram.addUser({ id: 42, firstName: "Tola" });
    const bad = await post(bot("sendMessage"), {
      chat_id: 42,
      text: "x",
      reply_markup: { inline_keyboard: [[{ text: "A", callback_data: "x".repeat(65) }]] },
    });
    expect(await bad.json()).toEqual({ ok: false, error_code: 400, description: "Bad Request: BUTTON_DATA_INVALID" });
    const form = await fetch(bot("sendMessage"), {
      method: "POST",
      body: new URLSearchParams({ chat_id: "42", text: "form" }),
    });
    expect(((await form.json()) as { result: { text: string } }).result.text).toBe("form");
  });

  test("with a webhook set, updates are POSTed with the secret token and getUpdates is a conflict", async () => {
    const got: { secret: string | null; body: { message?: { text: string } } }[] = [];
    const hook = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (r) => {
        got.push({ secret: r.headers.get("x-telegram-bot-api-secret-token"), body: await r.json() });
        return new Response("ok");
      },
    });
    await post(bot("setWebhook"), { url: `http://127.0.0.1:${hook.port}/tg`, secret_token: "s3cret" });
    expect((await post(bot("getUpdates"), {})).status).toBe(409);
    emu.telegram.userSays(43, "hello");
    await emu.telegram.settle();
    expect(got).toEqual([
      { secret: "s3cret", body: expect.objectContaining({ message: expect.objectContaining({ text: "hello" }) }) },
    ]);
    await post(bot("deleteWebhook"), {});
    hook.stop(true);
  });
});

describe("WhatsApp emulator", () => {
  test("errors carry Graph's shape: message, type, code, error_data, fbtrace_id", async () => {
    const { phoneNumberId, accessToken } = NOTIFY_EMULATOR_CREDENTIALS.whatsapp;
    const res = await post(
      `${emu.urls.whatsapp}/v23.0/${phoneNumberId}/messages`,
      { messaging_product: "whatsapp", to: "251911000000", type: "text", text: { body: "x".repeat(4097) } },
      { authorization: `Bearer ${accessToken}` },
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({
      error: {
        message: "(#100) Param text['body'] must be at most 4096 characters long.",
        type: "OAuthException",
        code: 100,
        fbtrace_id: expect.any(String),
      },
    });
  });
});

describe("push service cryptography", () => {
  test("decrypts web-push's aes128gcm, and rejects a body meant for another subscriber", () => {
    const ua = createECDH("prime256v1");
    ua.generateKeys();
    const auth = randomBytes(16);
    const sub = {
      endpoint: "https://127.0.0.1/push/x",
      keys: { p256dh: ua.getPublicKey("base64url"), auth: auth.toString("base64url") },
    };
    const vapid = webpush.generateVAPIDKeys();
    const d = webpush.generateRequestDetails(sub, "ሰላም, Akkam!", {
      vapidDetails: { subject: "mailto:a@example.com", ...vapid },
    });
    expect(decryptAes128gcm(d.body!, ua, auth).toString()).toBe("ሰላም, Akkam!");
    const other = createECDH("prime256v1");
    other.generateKeys();
    expect(() => decryptAes128gcm(d.body!, other, auth)).toThrow();
    expect(verifyVapid(d.headers.Authorization, "https://127.0.0.1")).toMatchObject({
      ok: true,
      publicKey: vapid.publicKey.replace(/=+$/, ""),
    });
    expect(verifyVapid(d.headers.Authorization, "https://push.example")).toMatchObject({ ok: false });
    expect(
      verifyVapid(d.headers.Authorization, "https://127.0.0.1", Math.floor(Date.now() / 1000) + 2 * 86400),
    ).toMatchObject({ ok: false });
  });

  test("a push without VAPID is 401", async () => {
    const { subscription } = emu.push.subscribe();
    const res = await fetch(subscription.endpoint, {
      method: "POST",
      headers: { TTL: "60" },
      tls: { ca: emu.ca },
    } as RequestInit);
    expect(res.status).toBe(401);
  });
});

describe("HTTP controls for the standalone emulators", () => {
  test("a user writes over /_emulator and a bot reads it with getUpdates", async () => {
    await post(`${emu.urls.telegram}/_emulator/chats/777/messages`, { text: "/start" });
    const updates = (await (await post(bot("getUpdates"), { timeout: 0 })).json()) as {
      result: { message?: { text: string } }[];
    };
    expect(updates.result.map((u) => u.message?.text)).toContain("/start");
    const sub = (await (
      await fetch(`${emu.urls.push}/_emulator/subscriptions`, {
        method: "POST",
        body: "{}",
        tls: { ca: emu.ca },
      } as RequestInit)
    ).json()) as { id: string; subscription: { endpoint: string } };
    expect(sub.subscription.endpoint).toBe(`${emu.urls.push}/push/${sub.id}`);
  });
});
