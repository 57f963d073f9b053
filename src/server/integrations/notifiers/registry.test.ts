import { describe, expect, setDefaultTimeout, test } from "bun:test";
import { notifiersFromEnv } from "./registry";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

describe("notifier registry", () => {
  test("nothing set: Telegram and WhatsApp are not configured; push works with keys made for this process", () => {
    const r = notifiersFromEnv({}, { vapidKeyFile: null });
    expect(r.states()).toEqual([
      { channel: "telegram", name: "Telegram", state: "not_configured" },
      { channel: "whatsapp", name: "WhatsApp", state: "not_configured" },
      { channel: "web_push", name: "Web Push", state: "active" },
    ]);
    expect(r.get("telegram")).toBeNull();
    expect(Buffer.from(r.vapidPublicKey!, "base64url")).toHaveLength(65);
    expect(r.whatsappWebhook).toBeNull();
  });

  test("production hosts are Active, loopback hosts Sandbox", () => {
    const creds = { TELEGRAM_BOT_TOKEN: "1:x", WHATSAPP_ACCESS_TOKEN: "t", WHATSAPP_PHONE_NUMBER_ID: "1" };
    const real = notifiersFromEnv(creds, { vapidKeyFile: null });
    expect(real.states().map((s) => s.state)).toEqual(["active", "active", "active"]);
    const local = notifiersFromEnv(
      { ...creds, TELEGRAM_API_ROOT: "http://127.0.0.1:4201/", WHATSAPP_API_ROOT: "http://localhost:4202" },
      { vapidKeyFile: null },
    );
    expect(local.states().map((s) => s.state)).toEqual(["sandbox", "sandbox", "active"]);
  });

  test("a VAPID subject that push services would refuse stops start-up", () => {
    expect(() => notifiersFromEnv({ VAPID_SUBJECT: "ops@mytess.example" }, { vapidKeyFile: null })).toThrow(
      /VAPID_SUBJECT/,
    );
  });
});
