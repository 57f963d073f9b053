import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startNotifyEmulators } from "../../../emulators/notifiers/server";
import { notifiersFromEnv } from "../integrations/notifiers/registry";
import { logger } from "../logger";
import { jobHandlers, startWorker } from "../modules/jobs";
import { linkTelegram, verifyWhatsApp } from "../modules/notifications/testing";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const emu = startNotifyEmulators();
afterAll(() => emu.stop());
afterEach(closeTestApps);

const notifiers = notifiersFromEnv(
  { ...emu.env(), VAPID_SUBJECT: "mailto:ops@mytess.example" },
  { vapidKeyFile: null },
);
const BASE = "https://mytess.example";
type TClient = ReturnType<typeof createClient>;

let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let ids: Record<string, number>;
// Chat ids and numbers differ per test: the emulators live for the whole file.
let seq = 0;
const chat = () => 5_000_000 + ++seq * 10;
const phone = () => `+2519110${String(100_00 + ++seq).padStart(5, "0")}`;

beforeEach(async () => {
  t = await createTestApp({}, undefined, notifiers);
  shipper = createClient(t);
  driver = createClient(t);
  ids = {
    shipper: (await registerUser(shipper, "shipper")).id,
    driver: (await registerUser(driver, "driver")).id,
  };
});

const prefs = (over: Record<string, unknown> = {}) => ({
  whatsappEnabled: false,
  whatsappNumber: "",
  telegramEnabled: false,
  telegramChatId: "",
  notificationTypes: { loadAssigned: true, loadUpdates: true, paymentReceived: true, systemAlerts: false },
  language: "en",
  ...over,
});
const worker = () =>
  startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({ notifiers, baseUrl: BASE }),
    schedules: [],
    autoStart: false,
  });
const postLoad = async () => {
  const res = await shipper.post("/api/loads", loadInput({ title: "Coffee, 20 t" }));
  expect(res.status).toBe(201);
  // The load's alert matching (a job of its own, written with the load) runs first, as a worker would; no driver
  // here has load alerts, so it sends nothing and the jobs below are the notifications alone.
  await drainLoadAlerts();
  return res.json.id as number;
};
const drainLoadAlerts = async () => {
  await startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({ notifiers, baseUrl: BASE }),
    schedules: [],
    autoStart: false,
  }).runOnce();
  // Two matching jobs come with a load: the drivers' load alerts and the saved searches.
  await t.rows("DELETE FROM jobs WHERE kind IN ('load_alerts', 'saved_search_alerts') AND status = 'done'");
};
const bid = async (c: TClient, loadId: number, amount = 900) => {
  const res = await c.post(`/api/loads/${loadId}/bids`, { amount, currency: "USD" });
  expect(res.status).toBe(201);
  return res.json.bid.id as number;
};
const digits = (p: string) => p.replace(/\D/g, "");
/** The text of the last WhatsApp message that reached a number (the code, when one was just asked for). */
const lastWhatsApp = (p: string) => emu.whatsapp.sent(digits(p)).at(-1)?.text;
/** A chat that started the bot and was linked through the deep link. */
const linkChat = async (c: TClient, chatId: number, name = "User") => {
  emu.telegram.addUser({ id: chatId, firstName: name });
  await linkTelegram(t.db, c, chatId);
};

describe("GET/PUT /api/messaging/preferences", () => {
  test("defaults, the live one-time Telegram deep link to the bot, channels in the sandbox; signed out is 401", async () => {
    const res = await shipper.get("/api/messaging/preferences");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      whatsappEnabled: false,
      whatsappNumber: null,
      whatsappVerified: false,
      telegramEnabled: false,
      telegramChatId: null,
      notificationTypes: { loadAssigned: true, loadUpdates: true, paymentReceived: true, systemAlerts: false },
      language: "en",
      telegramBlocked: false,
      channels: { telegram: "sandbox", whatsapp: "sandbox" },
    });
    expect(res.json.telegramLinkUrl).toMatch(/^https:\/\/t\.me\/mytess_sandbox_bot\?start=[A-Za-z0-9_-]{43}$/);
    // The live link is shown again, not a new one per page view.
    const again = await shipper.get("/api/messaging/preferences");
    expect(again.json.telegramLinkUrl).toBe(res.json.telegramLinkUrl);
    // Only hashes are kept, and the random id the token is derived from: never the token.
    const token = new URL(res.json.telegramLinkUrl).searchParams.get("start")!;
    const tokens = await t.rows<{ token_hash: string; nonce: string }>(
      "SELECT token_hash, nonce FROM telegram_link_tokens",
    );
    expect(tokens).toHaveLength(1);
    expect(tokens[0].token_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(tokens)).not.toContain(token);
    expect((await createClient(t).get("/api/messaging/preferences")).status).toBe(401);
    expect((await createClient(t).put("/api/messaging/preferences", prefs())).status).toBe(401);
  });

  test("saves and reads back; an Ethiopian number typed locally is stored as E.164, unverified", async () => {
    await linkChat(shipper, 123456789);
    const res = await shipper.put(
      "/api/messaging/preferences",
      prefs({
        whatsappEnabled: true,
        whatsappNumber: "0911 23-45-67",
        telegramEnabled: true,
        telegramChatId: "123456789",
        notificationTypes: { loadAssigned: false, loadUpdates: true, paymentReceived: false, systemAlerts: true },
        language: "am",
      }),
    );
    expect(res.status).toBe(200);
    const got = (await shipper.get("/api/messaging/preferences")).json;
    expect(got).toMatchObject({
      whatsappEnabled: true,
      whatsappNumber: "+251911234567",
      whatsappVerified: false,
      telegramEnabled: true,
      telegramChatId: "123456789",
      notificationTypes: { loadAssigned: false, loadUpdates: true, paymentReceived: false, systemAlerts: true },
      language: "am",
    });
    // The driver's own preferences are untouched by the shipper's.
    expect((await driver.get("/api/messaging/preferences")).json).toMatchObject({
      whatsappNumber: null,
      telegramChatId: null,
    });
  });

  test("bad input names the field and saves nothing", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ whatsappEnabled: true, whatsappNumber: "" }, "whatsappNumber"],
      [{ whatsappEnabled: true, whatsappNumber: "091123456" }, "whatsappNumber"],
      [{ whatsappEnabled: true, whatsappNumber: "+0123456789" }, "whatsappNumber"],
      [{ telegramChatId: "@mytess" }, "telegramChatId"],
      // A well-formed chat id that the bot never linked to this account.
      [{ telegramEnabled: true, telegramChatId: "123456789" }, "telegramChatId"],
      [{ language: "fr" }, "language"],
      [{ telegramEnabled: "yes" }, "telegramEnabled"],
      [{ notificationTypes: { loadAssigned: true } }, "notificationTypes.loadUpdates"],
    ];
    for (const [over, field] of cases) {
      const res = await shipper.put("/api/messaging/preferences", prefs(over));
      expect(res.status).toBe(400);
      expect(res.json.issues.map((i: { path: string }) => i.path)).toContain(field);
    }
    expect(await t.rows("SELECT user_id FROM messaging_preferences")).toEqual([]);
  });

  test("another account's chat id is refused (naming the field); its number reserves nothing until proven, and stays with its owner", async () => {
    const number = phone();
    const chatId = chat();
    await linkChat(driver, chatId);
    await verifyWhatsApp(driver, number, lastWhatsApp);
    expect(
      (
        await driver.put(
          "/api/messaging/preferences",
          prefs({
            whatsappEnabled: true,
            whatsappNumber: number,
            telegramEnabled: true,
            telegramChatId: String(chatId),
          }),
        )
      ).status,
    ).toBe(200);
    const t1 = await shipper.put(
      "/api/messaging/preferences",
      prefs({ telegramEnabled: true, telegramChatId: String(chatId) }),
    );
    expect(t1.status).toBe(400);
    expect(t1.json).toMatchObject({ code: "BAD_REQUEST", issues: [{ path: "telegramChatId" }] });
    // Typing a number proves nothing: it is saved for the shipper as unverified and takes nothing from the driver.
    const w1 = await shipper.put(
      "/api/messaging/preferences",
      prefs({ whatsappEnabled: true, whatsappNumber: number }),
    );
    expect(w1.status).toBe(200);
    expect(w1.json).toMatchObject({ whatsappNumber: number, whatsappVerified: false, telegramChatId: null });
    expect((await driver.get("/api/messaging/preferences")).json).toMatchObject({
      whatsappNumber: number,
      whatsappVerified: true,
      telegramChatId: String(chatId),
    });
  });
});

describe("test messages", () => {
  test("Telegram: the product's fixed text in the user's messaging language to the linked chat", async () => {
    const chatId = chat();
    await linkChat(shipper, chatId, "Abebe");
    await shipper.put("/api/messaging/preferences", prefs({ language: "om" }));
    const res = await shipper.post("/api/messaging/telegram/send", {
      chatId: String(chatId),
      message: "x",
      type: "test",
    });
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ sent: true, channel: "telegram" });
    const [m] = emu.telegram.sent(chatId);
    expect(m.text).toContain("MyTess");
    expect(m.text).not.toContain("This is a test message");
    const history = (await shipper.get("/api/push/notifications")).json;
    expect(history).toMatchObject([{ channel: "telegram", type: "test", status: "sent" }]);
  });

  test("Telegram: a chat not linked to the account or one that blocked the bot is a 400 naming chatId; bad input; the limit per hour", async () => {
    // A stranger's chat (it started the bot, but not through this account's link) gets nothing.
    const stranger = chat();
    emu.telegram.addUser({ id: stranger, firstName: "Stranger" });
    const notLinked = await shipper.post("/api/messaging/telegram/send", { chatId: String(stranger), type: "test" });
    expect(notLinked.status).toBe(400);
    expect(notLinked.json.issues[0].path).toBe("chatId");
    expect(emu.telegram.sent(stranger)).toEqual([]);
    const chatId = chat();
    await linkChat(shipper, chatId, "Abebe");
    emu.telegram.setMode(chatId, { kind: "blocked" });
    const res = await shipper.post("/api/messaging/telegram/send", { chatId: String(chatId), type: "test" });
    expect(res.status).toBe(400);
    expect(res.json.issues[0].path).toBe("chatId");
    expect(res.json.message).toContain("Start");
    emu.telegram.setMode(chatId, { kind: "ok" });
    const bad = await shipper.post("/api/messaging/telegram/send", { chatId: "abc", type: "test" });
    expect(bad.status).toBe(400);
    expect(bad.json.issues[0].path).toBe("chatId");
    const noType = await shipper.post("/api/messaging/telegram/send", { chatId: "1" });
    expect(noType.json.issues[0].path).toBe("type");
    // One failed try is counted already; four more, then the sixth is refused.
    for (let i = 0; i < 4; i++)
      expect((await shipper.post("/api/messaging/telegram/send", { chatId, type: "test" })).status).toBe(200);
    const limited = await shipper.post("/api/messaging/telegram/send", { chatId, type: "test" });
    expect(limited.status).toBe(429);
    expect(emu.telegram.sent(chatId)).toHaveLength(4);
    // The driver's own limit is their own (once the chat is theirs).
    await linkChat(driver, chatId, "Abebe");
    expect((await driver.post("/api/messaging/telegram/send", { chatId, type: "test" })).status).toBe(200);
  });

  test("WhatsApp: only the verified number; one that never wrote gets the approved template; bad numbers are refused", async () => {
    const number = phone();
    await shipper.put("/api/messaging/preferences", prefs({ language: "am", whatsappNumber: number }));
    const unverified = await shipper.post("/api/messaging/whatsapp/send", { phoneNumber: number, type: "test" });
    expect(unverified.status).toBe(400);
    expect(unverified.json.issues[0].path).toBe("phoneNumber");
    expect(emu.whatsapp.sent(digits(number))).toEqual([]);
    await verifyWhatsApp(shipper, number, lastWhatsApp);
    const res = await shipper.post("/api/messaging/whatsapp/send", { phoneNumber: number, message: "x", type: "test" });
    expect(res.status).toBe(200);
    const m = emu.whatsapp.sent(digits(number)).at(-1)!;
    expect(m.type).toBe("template");
    expect(m.template).toMatchObject({ name: "mytess_notification", language: "am" });
    expect(m.text).toStartWith("MyTess: ");
    const other = phone();
    emu.whatsapp.setMode(digits(other), "not_on_whatsapp");
    // WhatsApp takes a message for a number it cannot reach and reports the failure later, in a status webhook.
    expect((await shipper.post("/api/messaging/whatsapp/code", { phoneNumber: other })).status).toBe(200);
    expect(emu.whatsapp.sent(digits(other))).toEqual([]);
    const bad = await shipper.post("/api/messaging/whatsapp/send", { phoneNumber: "12", type: "test" });
    expect(bad.json.issues[0].path).toBe("phoneNumber");
    expect(
      (await createClient(t).post("/api/messaging/whatsapp/send", { phoneNumber: number, type: "test" })).status,
    ).toBe(401);
  });
});

describe("events reach each channel once, in the recipient's language", () => {
  test("a bid: bell, Telegram (with Accept / Reject) and WhatsApp, each once; a second run sends nothing", async () => {
    const chatId = chat();
    const number = phone();
    await linkChat(shipper, chatId, "Shipper");
    await verifyWhatsApp(shipper, number, lastWhatsApp);
    const codes = emu.whatsapp.sent(digits(number)).length;
    expect(
      (
        await shipper.put(
          "/api/messaging/preferences",
          prefs({
            telegramEnabled: true,
            telegramChatId: String(chatId),
            whatsappEnabled: true,
            whatsappNumber: number,
            language: "am",
          }),
        )
      ).status,
    ).toBe(200);
    // The number wrote to us lately (the inbound webhook records it): free text inside WhatsApp's 24-hour window.
    await emu.whatsapp.userSays(digits(number), "hello");
    await t.rows(
      "UPDATE messaging_preferences SET whatsapp_last_inbound_at = ? WHERE user_id = ?",
      Date.now(),
      ids.shipper,
    );
    const loadId = await postLoad();
    const bidId = await bid(driver, loadId);
    const jobs = await t.rows<{ payload: unknown }>("SELECT payload FROM jobs WHERE kind = 'notify' ORDER BY id");
    expect(jobs.map((j) => (typeof j.payload === "string" ? JSON.parse(j.payload) : j.payload)?.channel)).toEqual([
      "telegram",
      "whatsapp",
    ]);
    const bell = await t.rows(
      "SELECT channel, title, load_id, read_at FROM notifications WHERE user_id = ?",
      ids.shipper,
    );
    // The bell speaks the account's language (English here); chat messages the messaging language (Amharic).
    expect(bell).toEqual([{ channel: "in_app", title: "New bid on your load", load_id: loadId, read_at: null }]);
    const w = worker();
    expect(await w.runOnce()).toBe(2);
    expect(await w.runOnce()).toBe(0);
    const tg = emu.telegram.sent(chatId);
    expect(tg).toHaveLength(1);
    expect(tg[0].text).toContain("በጭነትዎ ላይ አዲስ ጨረታ");
    expect(tg[0].text).toContain(`${BASE}/loads/${loadId}`);
    const buttons = tg[0].reply_markup?.inline_keyboard.flat() ?? [];
    expect(buttons.map((b) => b.callback_data).filter(Boolean)).toEqual([`accept:${bidId}`, `reject:${bidId}`]);
    expect(buttons.find((b) => b.url)?.url).toBe(`${BASE}/loads/${loadId}`);
    const wa = emu.whatsapp.sent(digits(number)).slice(codes);
    expect(wa).toHaveLength(1);
    expect(wa[0].type).toBe("text");
    expect(wa[0].text).toContain("በጭነትዎ ላይ አዲስ ጨረታ");
    const history = (await shipper.get("/api/push/notifications")).json;
    expect(history.map((h: { channel: string; status: string }) => `${h.channel}:${h.status}`).sort()).toEqual([
      "telegram:sent",
      "whatsapp:sent",
    ]);
  });

  test("a blocked bot turns Telegram off and says so; WhatsApp still gets it", async () => {
    const chatId = chat();
    const number = phone();
    await linkChat(driver, chatId, "Driver");
    await verifyWhatsApp(driver, number, lastWhatsApp);
    await driver.put(
      "/api/messaging/preferences",
      prefs({ telegramEnabled: true, telegramChatId: String(chatId), whatsappEnabled: true, whatsappNumber: number }),
    );
    emu.telegram.setMode(chatId, { kind: "blocked" });
    const loadId = await postLoad();
    const bidId = await bid(driver, loadId);
    expect((await shipper.post(`/api/bids/${bidId}/accept`)).status).toBe(200);
    await worker().runOnce();
    const got = (await driver.get("/api/messaging/preferences")).json;
    expect(got).toMatchObject({ telegramEnabled: false, telegramBlocked: true, telegramChatId: String(chatId) });
    expect(
      emu.whatsapp
        .sent(digits(number))
        .map((m) => m.text)
        .join(),
    ).toContain("Coffee, 20 t");
    const history = (await driver.get("/api/push/notifications")).json;
    expect(history.map((h: { channel: string; status: string }) => `${h.channel}:${h.status}`).sort()).toEqual([
      "telegram:failed",
      "whatsapp:sent",
    ]);
    // Turning it on again clears the flag.
    emu.telegram.setMode(chatId, { kind: "ok" });
    await driver.put("/api/messaging/preferences", prefs({ telegramEnabled: true, telegramChatId: String(chatId) }));
    expect((await driver.get("/api/messaging/preferences")).json.telegramBlocked).toBe(false);
  });

  test("Telegram's 429 waits retry_after and then sends once", async () => {
    const chatId = chat();
    await linkChat(shipper, chatId, "Shipper");
    await shipper.put("/api/messaging/preferences", prefs({ telegramEnabled: true, telegramChatId: String(chatId) }));
    emu.telegram.setMode(chatId, { kind: "flood", retryAfter: 30 });
    await bid(driver, await postLoad());
    const before = Date.now();
    await worker().runOnce();
    const [job] = await t.rows<{ status: string; run_at: number; attempts: number }>(
      "SELECT status, run_at, attempts FROM jobs WHERE kind = 'notify'",
    );
    expect(job.status).toBe("pending");
    expect(Number(job.run_at)).toBeGreaterThanOrEqual(before + 30_000);
    expect(emu.telegram.sent(chatId)).toHaveLength(0);
    emu.telegram.setMode(chatId, { kind: "ok" });
    await t.rows("UPDATE jobs SET run_at = 0");
    await worker().runOnce();
    expect(emu.telegram.sent(chatId)).toHaveLength(1);
    expect(await worker().runOnce()).toBe(0);
  });

  test("a message reaches the other party only; a type turned off is not sent on chat", async () => {
    const chatId = chat();
    await linkChat(driver, chatId, "Driver");
    await driver.put(
      "/api/messaging/preferences",
      prefs({
        telegramEnabled: true,
        telegramChatId: String(chatId),
        language: "om",
        notificationTypes: { loadAssigned: true, loadUpdates: true, paymentReceived: true, systemAlerts: false },
      }),
    );
    const loadId = await postLoad();
    await bid(driver, loadId);
    const res = await shipper.post(`/api/loads/${loadId}/messages`, {
      body: "Can you load on Monday?",
      driverId: ids.driver,
    });
    expect(res.status).toBe(201);
    await worker().runOnce();
    const [m] = emu.telegram.sent(chatId);
    expect(m.text).toContain("Can you load on Monday?");
    const driverBell = await t.rows<{ title: string }>(
      "SELECT title FROM notifications WHERE user_id = ? AND channel = 'in_app'",
      ids.driver,
    );
    expect(driverBell).toHaveLength(1);
    // The writer is not notified of their own message.
    const shipperBell = await t.rows<{ title: string }>(
      "SELECT title FROM notifications WHERE user_id = ? AND channel = 'in_app' ORDER BY id",
      ids.shipper,
    );
    expect(shipperBell.map((r) => r.title)).toEqual(["New bid on your load"]);
    // loadUpdates off: the next message is in the bell, not on Telegram.
    await driver.put(
      "/api/messaging/preferences",
      prefs({
        telegramEnabled: true,
        telegramChatId: String(chatId),
        notificationTypes: { loadAssigned: true, loadUpdates: false, paymentReceived: true, systemAlerts: false },
      }),
    );
    await shipper.post(`/api/loads/${loadId}/messages`, { body: "Hello?", driverId: ids.driver });
    await worker().runOnce();
    expect(emu.telegram.sent(chatId)).toHaveLength(1);
  });
});

describe("broadcasts", () => {
  test("a system alert reaches drivers' bells and their chats where system alerts are on; shippers get nothing", async () => {
    const { broadcast } = await import("../modules/notifications/notify");
    const on = chat();
    const off = chat();
    const driver2 = createClient(t);
    const id2 = (await registerUser(driver2, "driver")).id;
    await linkChat(driver, on, "Driver");
    await linkChat(driver2, off, "Driver 2");
    const types = { loadAssigned: true, loadUpdates: true, paymentReceived: true };
    await driver.put(
      "/api/messaging/preferences",
      prefs({ telegramEnabled: true, telegramChatId: String(on), notificationTypes: { ...types, systemAlerts: true } }),
    );
    await driver2.put(
      "/api/messaging/preferences",
      prefs({
        telegramEnabled: true,
        telegramChatId: String(off),
        notificationTypes: { ...types, systemAlerts: false },
      }),
    );
    const r = await broadcast(t.db, {
      type: "systemAlerts",
      title: "Maintenance tonight",
      message: "MyTess is down 02:00–02:30 UTC.",
      role: "driver",
    });
    expect(r.recipients).toBe(2);
    const w = worker();
    await w.runOnce();
    await w.runOnce();
    expect(emu.telegram.sent(on).map((m) => m.text)).toEqual([
      expect.stringContaining("MyTess is down 02:00–02:30 UTC."),
    ]);
    expect(emu.telegram.sent(off)).toEqual([]);
    const bells = await t.rows<{ user_id: number; title: string }>(
      "SELECT user_id, title FROM notifications WHERE channel = 'in_app' ORDER BY user_id",
    );
    expect(bells).toEqual([
      { user_id: ids.driver, title: "Maintenance tonight" },
      { user_id: id2, title: "Maintenance tonight" },
    ]);
  });
});
