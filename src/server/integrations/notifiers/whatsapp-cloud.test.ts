import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { NOTIFY_EMULATOR_CREDENTIALS, startNotifyEmulators } from "../../../../emulators/notifiers/server";
import { notifiersFromEnv } from "./registry";
import type { TNotification } from "./types";
import { whatsappOutcome } from "./whatsapp-cloud";
import {
  parseWhatsAppWebhook,
  verifyWhatsAppSignature,
  whatsappChallenge,
  whatsappSignature,
} from "./whatsapp-webhook";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const emu = startNotifyEmulators();
const { appSecret, verifyToken } = NOTIFY_EMULATOR_CREDENTIALS.whatsapp;

// A stand-in for the webhook route the next step adds: it uses only the pure helpers.
const received: { verified: boolean; body: unknown }[] = [];
const hook = Bun.serve({
  port: 0,
  hostname: "127.0.0.1",
  fetch: async (req) => {
    const url = new URL(req.url);
    if (req.method === "GET") {
      const challenge = whatsappChallenge(url.searchParams, verifyToken);
      return challenge === null ? new Response("Forbidden", { status: 403 }) : new Response(challenge);
    }
    const raw = new Uint8Array(await req.arrayBuffer());
    const verified = verifyWhatsAppSignature(raw, req.headers.get("x-hub-signature-256"), appSecret);
    received.push({ verified, body: JSON.parse(new TextDecoder().decode(raw)) });
    return new Response(null, { status: verified ? 200 : 401 });
  },
});
afterAll(() => {
  hook.stop(true);
  emu.stop();
});
// Status webhooks of one test must not land in the next one's list.
afterEach(() => emu.whatsapp.settle());
beforeEach(() => {
  emu.whatsapp.setWebhookUrl(`http://127.0.0.1:${hook.port}/webhooks/whatsapp`);
  emu.whatsapp.setAllowedRecipients(null);
  received.length = 0;
});

const whatsapp = (over: Record<string, string> = {}) =>
  notifiersFromEnv({ ...emu.env(), ...over }, { vapidKeyFile: null }).get("whatsapp")!;
let nextNumber = 251911000001;
const newNumber = () => String(nextNumber++);
const note: TNotification = {
  title: "Load assigned",
  body: "Addis Ababa → Adama, pickup 08:00",
  url: "https://mytess.example/loads/42",
  whatsappTemplate: {
    name: "mytess_notification",
    languageCode: "en",
    bodyParams: ["Load assigned", "Addis Ababa → Adama, pickup 08:00"],
  },
};

describe("WhatsApp Cloud API notifier", () => {
  test("inside the 24-hour window the user reads our text", async () => {
    const phone = newNumber();
    await emu.whatsapp.userSays(phone, "hi");
    const result = await whatsapp().send({ phone: `+${phone}`, lastInboundAt: Date.now() - 3600_000 }, note);
    expect(result.status).toBe("delivered");
    const [msg] = emu.whatsapp.sent(phone);
    expect(result).toEqual({ status: "delivered", messageId: msg.id });
    expect(msg.id).toStartWith("wamid.");
    expect(msg).toMatchObject({
      type: "text",
      text: "*Load assigned*\nAddis Ababa → Adama, pickup 08:00\nhttps://mytess.example/loads/42",
    });
  });

  test("outside the window the approved template goes instead, with its parameters", async () => {
    const phone = newNumber();
    const result = await whatsapp().send({ phone, lastInboundAt: Date.now() - 25 * 3600_000 }, note);
    expect(result.status).toBe("delivered");
    expect(emu.whatsapp.sent(phone)).toEqual([
      expect.objectContaining({
        type: "template",
        text: "MyTess: Load assigned\nAddis Ababa → Adama, pickup 08:00",
        template: {
          name: "mytess_notification",
          language: "en",
          params: ["Load assigned", "Addis Ababa → Adama, pickup 08:00"],
        },
      }),
    ]);
  });

  test("outside the window without a template nothing is sent, and the job fails visibly", async () => {
    const { whatsappTemplate: _, ...plain } = note;
    const result = await whatsapp().send({ phone: newNumber() }, plain);
    expect(result.status).toBe("failed");
  });

  test("Graph API errors: unknown template and wrong parameter count fail, rate limits retry, bad token fails", async () => {
    const phone = newNumber();
    const t = note.whatsappTemplate!;
    const unknown = await whatsapp().send({ phone }, { ...note, whatsappTemplate: { ...t, name: "nope" } });
    expect(unknown).toEqual({
      status: "failed",
      reason:
        "WhatsApp: (#132001) Template name does not exist in the translation (template name (nope) does not exist in en)",
    });
    const count = await whatsapp().send({ phone }, { ...note, whatsappTemplate: { ...t, bodyParams: ["one"] } });
    expect(count.status).toBe("failed");
    expect(count.status === "failed" && count.reason).toStartWith("WhatsApp: (#132000)");

    emu.whatsapp.setMode(phone, "pair_rate_limit");
    const pair = await whatsapp().send({ phone }, note);
    expect(pair.status).toBe("retry");
    emu.whatsapp.setMode(phone, "throughput");
    expect((await whatsapp().send({ phone }, note)).status).toBe("retry");
    emu.whatsapp.setMode(phone, "ok");

    const badToken = await whatsapp({ WHATSAPP_ACCESS_TOKEN: "expired" }).send({ phone }, note);
    expect(badToken).toEqual({
      status: "failed",
      reason: "WhatsApp refused the access token: Invalid OAuth access token - Cannot parse access token",
    });
    const badId = await whatsapp({ WHATSAPP_PHONE_NUMBER_ID: "42" }).send({ phone }, note);
    expect(badId.status === "failed" && badId.reason).toContain("Object with ID '42' does not exist");

    emu.whatsapp.setAllowedRecipients(["15550001111"]);
    const notAllowed = await whatsapp().send({ phone }, note);
    expect(notAllowed.status === "failed" && notAllowed.reason).toStartWith(
      "WhatsApp: (#131030) Recipient phone number not in allowed list",
    );
    expect(emu.whatsapp.sent(phone)).toEqual([]);
  });

  test("outcomes from status and body alone: 5xx and HTML pages retry, 131026 is gone", () => {
    const h = new Headers({ "retry-after": "30" });
    expect(whatsappOutcome(503, h, null)).toEqual({
      status: "retry",
      reason: "WhatsApp: HTTP 503",
      retryAfterSeconds: 30,
    });
    expect(
      whatsappOutcome(400, new Headers(), { error: { message: "(#131026) Message undeliverable", code: 131026 } })
        .status,
    ).toBe("gone");
    expect(whatsappOutcome(200, new Headers(), { messages: [] }).status).toBe("failed");
  });
});

describe("WhatsApp webhook helpers", () => {
  test("the subscription check echoes the challenge only for our verify token", async () => {
    expect(await emu.whatsapp.verifySubscription(verifyToken)).toEqual({ status: 200, echoed: true });
    expect(await emu.whatsapp.verifySubscription("guess")).toEqual({ status: 403, echoed: false });
    const q = (mode: string) =>
      new URLSearchParams({ "hub.mode": mode, "hub.verify_token": verifyToken, "hub.challenge": "c" });
    expect(whatsappChallenge(q("unsubscribe"), verifyToken)).toBeNull();
  });

  test("an inbound message arrives signed; it verifies, parses, and a tampered body does not verify", async () => {
    const phone = newNumber();
    expect(await emu.whatsapp.userSays(phone, "ACCEPT 42", "Chaltu")).toBe(200);
    const [{ verified, body }] = received;
    expect(verified).toBe(true);
    const parsed = parseWhatsAppWebhook(body);
    expect(parsed.statuses).toEqual([]);
    expect(parsed.messages).toEqual([
      expect.objectContaining({
        from: phone,
        name: "Chaltu",
        text: "ACCEPT 42",
        phoneNumberId: NOTIFY_EMULATOR_CREDENTIALS.whatsapp.phoneNumberId,
      }),
    ]);
    expect(Math.abs(parsed.messages[0].at - Date.now())).toBeLessThan(5000);

    const raw = JSON.stringify(body);
    const good = whatsappSignature(raw, appSecret);
    expect(verifyWhatsAppSignature(raw, good, appSecret)).toBe(true);
    expect(verifyWhatsAppSignature(raw.replace("ACCEPT", "REJECT"), good, appSecret)).toBe(false);
    expect(verifyWhatsAppSignature(raw, good, "another secret")).toBe(false);
    expect(verifyWhatsAppSignature(raw, null, appSecret)).toBe(false);
    expect(verifyWhatsAppSignature(raw, good.replace("sha256=", "sha1="), appSecret)).toBe(false);
    expect(verifyWhatsAppSignature(raw, "sha256=00", appSecret)).toBe(false);
  });

  test("delivery failures come later in a status webhook: 131026 for a number not on WhatsApp", async () => {
    const phone = newNumber();
    emu.whatsapp.setMode(phone, "not_on_whatsapp");
    const result = await whatsapp().send({ phone }, note);
    expect(result.status).toBe("delivered");
    await emu.whatsapp.settle();
    const statuses = received.flatMap((r) => parseWhatsAppWebhook(r.body).statuses);
    expect(statuses).toEqual([
      expect.objectContaining({
        messageId: result.status === "delivered" ? result.messageId : "",
        status: "failed",
        recipient: phone,
        errorCodes: [131026],
      }),
    ]);
  });

  test("button replies and unknown kinds: the payload is read, media is skipped, junk gives nothing", () => {
    const body = {
      object: "whatsapp_business_account",
      entry: [
        {
          id: "1",
          changes: [
            {
              field: "messages",
              value: {
                messaging_product: "whatsapp",
                messages: [
                  {
                    from: "251900",
                    id: "wamid.a",
                    timestamp: "1700000000",
                    type: "button",
                    button: { payload: "accept:42", text: "Accept" },
                  },
                  { from: "251900", id: "wamid.b", timestamp: "1700000001", type: "image", image: { id: "m1" } },
                ],
              },
            },
          ],
        },
      ],
    };
    expect(parseWhatsAppWebhook(body).messages).toEqual([
      {
        from: "251900",
        name: undefined,
        messageId: "wamid.a",
        at: 1700000000000,
        text: "Accept",
        buttonPayload: "accept:42",
        phoneNumberId: undefined,
      },
    ]);
    expect(parseWhatsAppWebhook({ object: "page" })).toEqual({ messages: [], statuses: [] });
    expect(parseWhatsAppWebhook("nonsense")).toEqual({ messages: [], statuses: [] });
  });
});

describe("WhatsApp usernames (business-scoped user ids)", () => {
  test("a batch with a username-only sender: each message is read on its own, with its user id and username", async () => {
    const phone = newNumber();
    expect(
      await emu.whatsapp.batch([
        { from: phone, text: "loads", name: "Chaltu" },
        { userId: "ET.a1b2c3d4e5f6", username: "abebe.trucks", text: "help", name: "Abebe" },
      ]),
    ).toBe(200);
    const [{ body }] = received;
    // As Meta sends it: no wa_id and no from for the user with a username.
    const value = (body as { entry: { changes: { value: Record<string, unknown[]> }[] }[] }).entry[0].changes[0].value;
    expect(value.contacts[1]).toEqual({
      profile: { name: "Abebe", username: "abebe.trucks" },
      user_id: "ET.a1b2c3d4e5f6",
    });
    expect(value.messages[1]).not.toHaveProperty("from");
    const { messages } = parseWhatsAppWebhook(body);
    expect(messages.map((m) => [m.from, m.userId, m.username, m.name, m.text])).toEqual([
      [phone, expect.stringMatching(/^ET\./), undefined, "Chaltu", "loads"],
      [undefined, "ET.a1b2c3d4e5f6", "abebe.trucks", "Abebe", "help"],
    ]);
  });

  test("a contact or message that cannot be read is skipped, never the rest of the POST", () => {
    const body = {
      object: "whatsapp_business_account",
      entry: [
        {
          changes: [
            {
              field: "messages",
              value: {
                contacts: [{ profile: { name: 7 } }, { user_id: "US.z9" }, { wa_id: "251911", user_id: "ET.q1" }],
                messages: [
                  { from_user_id: "US.z9", id: "wamid.1", timestamp: "1700000000", type: "text", text: { body: "hi" } },
                  { id: "wamid.2", timestamp: "1700000001", type: "text", text: { body: "no sender" } },
                  { from: "251911", id: "wamid.3", timestamp: "1700000002", type: "text", text: { body: "help" } },
                  { from: "251911", timestamp: "x" },
                ],
                statuses: [
                  { id: "wamid.s1", status: "delivered", timestamp: "1700000003", recipient_user_id: "US.z9" },
                  { id: "wamid.s2", status: "read", timestamp: "1700000004" },
                ],
              },
            },
          ],
        },
      ],
    };
    const parsed = parseWhatsAppWebhook(body);
    expect(parsed.messages.map((m) => [m.messageId, m.from, m.userId])).toEqual([
      ["wamid.1", undefined, "US.z9"],
      ["wamid.3", "251911", "ET.q1"],
    ]);
    expect(parsed.statuses).toEqual([
      { messageId: "wamid.s1", status: "delivered", recipientUserId: "US.z9", at: 1700000003000, errorCodes: [] },
    ]);
  });

  test("a reply to a user id goes as `recipient`, not `to`; Meta reports it by user id", async () => {
    const userId = "ET.f00dfeed1234";
    await emu.whatsapp.usernameSays(userId, "abebe.trucks", "help");
    received.length = 0;
    const result = await whatsapp().send({ userId, lastInboundAt: Date.now() }, note);
    expect(result.status).toBe("delivered");
    expect(emu.whatsapp.sent(userId).map((m) => m.type)).toEqual(["text"]);
    await emu.whatsapp.settle();
    const statuses = received.flatMap((r) => parseWhatsAppWebhook(r.body).statuses);
    expect(statuses).toEqual([expect.objectContaining({ status: "sent", recipientUserId: userId })]);
    expect(statuses[0]).not.toHaveProperty("recipient");
    // A malformed user id is Meta's invalid parameter.
    const bad = await whatsapp().send({ userId: "not-a-bsuid", lastInboundAt: Date.now() }, note);
    expect(bad).toMatchObject({ status: "failed", reason: expect.stringContaining("recipient") });
  });
});
