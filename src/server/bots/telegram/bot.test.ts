import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { emulatorEnv, startCarrierEmulators } from "../../../../emulators/carriers/server";
import { NOTIFY_EMULATOR_CREDENTIALS, startNotifyEmulators } from "../../../../emulators/notifiers/server";
import { carriersFromEnv } from "../../integrations/carriers/registry";
import { notifiersFromEnv } from "../../integrations/notifiers/registry";
import { logger } from "../../logger";
import { jobHandlers, startWorker } from "../../modules/jobs";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../../testing";
import { createTelegramBot } from "./bot";
import { startTelegramPoller, takeLease } from "./poller";
import { telegramWebhookHandler } from "./webhook";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const emu = startNotifyEmulators();
const carrierEmu = startCarrierEmulators();
afterAll(() => {
  emu.stop();
  carrierEmu.stop();
});

const notifiers = notifiersFromEnv(
  { ...emu.env(), VAPID_SUBJECT: "mailto:ops@mytess.example" },
  { vapidKeyFile: null },
);
const carriers = carriersFromEnv(emulatorEnv(carrierEmu.urls));
const BASE = "https://mytess.example";
type TClient = ReturnType<typeof createClient>;

let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let ids: Record<string, number>;
let poller: ReturnType<typeof startTelegramPoller>;
let seq = 0;
const chat = () => 7_100_000 + ++seq * 10;

beforeEach(async () => {
  t = await createTestApp({}, carriers, notifiers);
  shipper = createClient(t);
  driver = createClient(t);
  ids = {
    shipper: (await registerUser(shipper, "shipper")).id,
    driver: (await registerUser(driver, "driver")).id,
  };
  const bot = createTelegramBot(
    { token: NOTIFY_EMULATOR_CREDENTIALS.telegram.token, apiRoot: emu.urls.telegram },
    { db: t.db, services: t.services, baseUrl: BASE },
  );
  poller = startTelegramPoller({ db: t.db, bot, log: logger, holder: `test-${seq}`, leaseMs: 30_000 });
});
afterEach(async () => {
  await poller.stop();
  await closeTestApps();
});

const waitFor = async <T>(get: () => T | undefined | null | false, ms = 8000): Promise<T> => {
  const until = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > until) throw new Error("timed out waiting");
    await Bun.sleep(40);
  }
};
/** The user writes to the bot; resolves with the bot's next message in that chat. */
const say = async (chatId: number, text: string) => {
  const before = emu.telegram.sent(chatId).length;
  emu.telegram.userSays(chatId, text);
  return waitFor(() => emu.telegram.sent(chatId)[before]);
};
const linkUrl = async (c: TClient) => (await c.get("/api/messaging/preferences")).json.telegramLinkUrl as string;
const link = async (c: TClient, chatId: number, name = "User") => {
  emu.telegram.addUser({ id: chatId, firstName: name });
  const token = new URL(await linkUrl(c)).searchParams.get("start")!;
  return say(chatId, `/start ${token}`);
};
const worker = () =>
  startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({ notifiers, baseUrl: BASE }),
    schedules: [],
    autoStart: false,
  });

describe("linking by deep link", () => {
  test("/start <token> links the chat once, in the user's language; the token cannot be used again", async () => {
    expect((await shipper.put("/api/user/language", { language: "am" })).status).toBe(200);
    const chatId = chat();
    const first = new URL(await linkUrl(shipper)).searchParams.get("start");
    const m = await link(shipper, chatId, "Selam");
    expect(m.text).toContain("MyTess"); // Amharic text naming the account
    expect(m.text).not.toContain("Linked to the MyTess account");
    const prefs = (await shipper.get("/api/messaging/preferences")).json;
    expect(prefs).toMatchObject({ telegramEnabled: true, telegramChatId: String(chatId), language: "am" });
    // The same link from another chat: refused, nothing moves.
    const other = chat();
    emu.telegram.addUser({ id: other, firstName: "Someone" });
    const token = new URL(prefs.telegramLinkUrl).searchParams.get("start");
    // The page shows the live link again (a new one, since the first was used up) until it is used.
    const used = new URL(await linkUrl(shipper)).searchParams.get("start");
    expect(token).toBe(used);
    expect(used).not.toBe(first);
    await say(other, `/start ${used}`);
    const again = await say(other, `/start ${used}`);
    expect(again.text).toContain("expired or was used");
    expect((await shipper.get("/api/messaging/preferences")).json.telegramChatId).toBe(String(other));
  });

  test("a chat moves from one account to another; /stop unlinks; unlinked chats are told how to link", async () => {
    const chatId = chat();
    await link(shipper, chatId);
    await link(driver, chatId);
    expect((await shipper.get("/api/messaging/preferences")).json).toMatchObject({
      telegramEnabled: false,
      telegramChatId: null,
    });
    expect((await driver.get("/api/messaging/preferences")).json.telegramChatId).toBe(String(chatId));
    const stop = await say(chatId, "/stop");
    expect(stop.text).toContain("unlinked");
    expect((await driver.get("/api/messaging/preferences")).json.telegramEnabled).toBe(false);
    const loads = await say(chatId, "/loads");
    expect(loads.text).toContain("not linked to a MyTess account");
    // Typing a chat id into the app links nothing, so the bot does not offer one.
    expect(loads.text).not.toContain(String(chatId));
    expect(loads.text).toContain("Connect Telegram");
    const start = await say(chatId, "/start");
    expect(start.text).toContain("Connect Telegram");
  });
});

describe("after premium ends", () => {
  const expire = (id: number) => t.rows("UPDATE users SET trial_ends_at = ? WHERE id = ?", Date.now() - 86_400_000, id);

  test("/start <token> links the chat but keeps alerts off, and says why in the user's language", async () => {
    await expire(ids.shipper);
    const chatId = chat();
    const m = await link(shipper, chatId, "Selam");
    expect(m.text).toContain("Alerts stay off: they are part of MyTess Premium");
    expect((await shipper.get("/api/messaging/preferences")).json).toMatchObject({
      telegramChatId: String(chatId),
      telegramEnabled: false,
    });
    // Commands work: reading stays open.
    expect((await say(chatId, "/help")).text).toContain("/loads");

    await expire(ids.driver);
    expect((await driver.put("/api/user/language", { language: "om" })).status).toBe(200);
    const om = await link(driver, chat(), "Abebe");
    expect(om.text).toContain("MyTess Pireemiyemii");
    expect(om.text).not.toContain("Alerts stay off");
    expect((await driver.get("/api/messaging/preferences")).json.telegramEnabled).toBe(false);
  });

  test("alerts to a chat linked during the trial stop when it ends; the bell still gets them", async () => {
    const shipperChat = chat();
    await link(shipper, shipperChat, "Selam");
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    await worker().runOnce();
    await expire(ids.shipper);
    const sentBefore = emu.telegram.sent(shipperChat).length;
    expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" })).status).toBe(201);
    await worker().runOnce();
    expect(emu.telegram.sent(shipperChat)).toHaveLength(sentBefore);
    const rows = await t.rows<{ channel: string; title: string }>(
      "SELECT channel, title FROM notifications WHERE user_id = ? ORDER BY id",
      ids.shipper,
    );
    expect(rows).toEqual([{ channel: "in_app", title: "New bid on your load" }]);
    const [job] = await t.rows<{ status: string }>(
      "SELECT status FROM jobs WHERE kind = 'notify' AND unique_key LIKE '%:telegram'",
    );
    expect(job).toEqual({ status: "done" });
  });
});

describe("commands through the app's router", () => {
  test("/loads near the driver's last location with Bid buttons; /bid places a bid; the shipper accepts with the alert's button", async () => {
    const driverChat = chat();
    const shipperChat = chat();
    await link(driver, driverChat, "Abebe");
    await link(shipper, shipperChat, "Selam");
    const loadId = (await shipper.post("/api/loads", loadInput({ title: "Cement, 40 t" }))).json.id as number;
    // No position yet.
    expect((await say(driverChat, "/loads")).text).toContain("Share your location");
    expect((await driver.post("/api/drivers/location", { latitude: 8.95, longitude: 38.76 })).status).toBe(200);
    const list = await say(driverChat, "/loads");
    expect(list.text).toContain(`#${loadId} Cement, 40 t`);
    expect(list.text).toContain("Addis Ababa");
    expect(list.text).toContain("$1,000.00");
    // Distances in the account's units: miles for this account.
    expect(list.text).toMatch(/\n\d+ mi away · /);
    const bidButton = list.reply_markup?.inline_keyboard.flat().find((b) => b.callback_data === `bid:${loadId}`);
    expect(bidButton).toBeDefined();
    const before = emu.telegram.sent(driverChat).length;
    emu.telegram.pressButton(driverChat, list.message_id, `bid:${loadId}`);
    expect((await waitFor(() => emu.telegram.sent(driverChat)[before])).text).toContain(`/bid ${loadId}`);

    expect((await say(driverChat, `/bid ${loadId} 0`)).text).toContain("bid 123 500");
    const placed = await say(driverChat, `/bid ${loadId} 900 usd`);
    expect(placed.text).toContain("Bid placed");
    const [bid] = await t.rows<{ id: number; amount_minor: number }>("SELECT id, amount_minor FROM bids");
    expect(Number(bid.amount_minor)).toBe(90000);

    // The shipper's alert, with Accept / Reject, through the job worker.
    await worker().runOnce();
    const alert = await waitFor(() =>
      emu.telegram
        .sent(shipperChat)
        .find((m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.callback_data === `accept:${bid.id}`)),
    );
    const q = emu.telegram.pressButton(shipperChat, alert.message_id, `accept:${bid.id}`);
    await waitFor(() => emu.telegram.callbackAnswer(q)?.answered);
    expect(emu.telegram.callbackAnswer(q)?.text).toContain("Bid accepted");
    const [load] = await t.rows<{ status: string; assigned_driver_id: number }>(
      "SELECT status, assigned_driver_id FROM loads WHERE id = ?",
      loadId,
    );
    expect(load).toEqual({ status: "assigned", assigned_driver_id: ids.driver });
    // The buttons go (the bot edits the alert just after answering the press): it cannot be acted on twice.
    const hasButtons = () =>
      emu.telegram
        .sent(shipperChat)
        .find((m) => m.message_id === alert.message_id)
        ?.reply_markup?.inline_keyboard.flat()
        .some((b) => b.callback_data) ?? false;
    await waitFor(() => !hasButtons()).catch(() => undefined);
    expect(hasButtons()).toBe(false);
  });

  test("/loads shows an external load with its board's contact and no Bid button", async () => {
    const driverChat = chat();
    await link(driver, driverChat, "Abebe");
    expect((await driver.post("/api/drivers/location", { latitude: 8.95, longitude: 38.76 })).status).toBe(200);
    const ours = (await shipper.post("/api/loads", loadInput({ title: "Teff, 10 t" }))).json.id as number;
    const theirs = (await shipper.post("/api/loads", loadInput({ title: "Coffee from a board" }))).json.id as number;
    // A load synced from the driver's own board: theirs alone, booked by calling its poster.
    const contact = {
      company: "Abay Freight",
      name: "Hana",
      phone: "+251 911 000 111",
      email: "hana@abay.example",
      mcNumber: null,
    };
    await t.rows(
      "UPDATE loads SET source_type = 'external', source_owner_id = ?, source_contact = ?, shipper_id = NULL WHERE id = ?",
      ids.driver,
      JSON.stringify(contact),
      theirs,
    );
    const list = await say(driverChat, "/loads");
    expect(list.text).toContain(`#${theirs} Coffee from a board`);
    expect(list.text).toContain("Call: +251 911 000 111 · Email: hana@abay.example");
    const buttons = list.reply_markup?.inline_keyboard.flat().map((b) => b.callback_data) ?? [];
    expect(buttons).toContain(`bid:${ours}`);
    expect(buttons).not.toContain(`bid:${theirs}`);
    // Typed anyway: refused with the reason, nothing stored.
    expect((await say(driverChat, `/bid ${theirs} 900 usd`)).text).toContain("external boards");
    expect(await t.rows("SELECT id FROM bids WHERE load_id = ?", theirs)).toEqual([]);
  });

  test("a counter-offer reaches the driver's chat with Accept / Decline; Accept awards the load at the offer", async () => {
    const driverChat = chat();
    await link(driver, driverChat, "Abebe");
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    const bidId = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" })).json.bid
      .id as number;
    expect((await shipper.post(`/api/bids/${bidId}/counter`, { amount: 820, currency: "USD" })).status).toBe(201);
    await worker().runOnce();
    const alert = await waitFor(() =>
      emu.telegram
        .sent(driverChat)
        .find((m) => m.reply_markup?.inline_keyboard.flat().some((b) => b.callback_data === `caccept:${bidId}`)),
    );
    expect(alert.text).toContain("$820.00");
    expect(alert.reply_markup?.inline_keyboard.flat().map((b) => b.callback_data)).toContain(`cdecline:${bidId}`);
    const q = emu.telegram.pressButton(driverChat, alert.message_id, `caccept:${bidId}`);
    await waitFor(() => emu.telegram.callbackAnswer(q)?.answered);
    expect(emu.telegram.callbackAnswer(q)?.text).toContain("Offer accepted");
    const [load] = await t.rows<{ status: string; agreed_amount_minor: number }>(
      "SELECT status, agreed_amount_minor FROM loads WHERE id = ?",
      loadId,
    );
    expect({ ...load, agreed_amount_minor: Number(load.agreed_amount_minor) }).toEqual({
      status: "assigned",
      agreed_amount_minor: 82000,
    });
    // Pressed again (a second tap, another device): the app's refusal, nothing changes.
    const again = emu.telegram.pressButton(driverChat, alert.message_id, `cdecline:${bidId}`);
    await waitFor(() => emu.telegram.callbackAnswer(again)?.answered);
    expect(emu.telegram.callbackAnswer(again)).toMatchObject({ show_alert: true });
    expect(emu.telegram.callbackAnswer(again)?.text).toContain("no open counter-offer");
  });

  test("/offers shows the shipper's counter on the driver's bid; /counter answers it, /decline and /accept end the next ones", async () => {
    const driverChat = chat();
    await link(driver, driverChat, "Abebe");
    expect((await say(driverChat, "/offers")).text).toContain("no pending bids");
    const loadId = (await shipper.post("/api/loads", loadInput({ title: "Malt, 20 t" }))).json.id as number;
    const bidId = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" })).json.bid
      .id as number;
    expect((await say(driverChat, "/offers")).text).toContain(`Bid ${bidId} on load #${loadId} Malt, 20 t: $900.00`);
    expect((await shipper.post(`/api/bids/${bidId}/counter`, { amount: 800, currency: "USD" })).status).toBe(201);
    const offers = await say(driverChat, "/offers");
    expect(offers.text).toContain(`The shipper offers $800.00. Reply: accept ${bidId}, decline ${bidId}`);
    expect(offers.reply_markup?.inline_keyboard.flat().map((b) => b.callback_data)).toEqual([
      `caccept:${bidId}`,
      `cdecline:${bidId}`,
    ]);

    // Bad input: the usage; the app's own field error for a bad currency.
    expect((await say(driverChat, "/counter")).text).toContain("counter 12 850 ETB");
    expect((await say(driverChat, `/counter ${bidId} 850 XYZ`)).text).toContain("urrency");
    expect((await say(driverChat, `/counter ${bidId} 850`)).text).toContain("Counter-offer sent: $850.00");
    const open = () =>
      t.rows<{ side: string; amount_minor: number }>(
        "SELECT side, amount_minor FROM bid_counters WHERE bid_id = ? AND status = 'open'",
        bidId,
      );
    expect((await open()).map((c) => [c.side, Number(c.amount_minor)])).toEqual([["driver", 85000]]);
    expect((await say(driverChat, "/offers")).text).toContain("Your counter-offer of $850.00 waits for the shipper.");
    // Not the driver's turn: the app refuses, nothing moves.
    expect((await say(driverChat, `/accept ${bidId}`)).text).not.toContain("Offer accepted");
    expect((await open()).length).toBe(1);

    // The shipper counters again; the driver declines, then accepts the one after.
    expect((await shipper.post(`/api/bids/${bidId}/counter`, { amount: 820, currency: "USD" })).status).toBe(201);
    expect((await say(driverChat, `/decline ${bidId}`)).text).toContain(`Offer declined. Your bid ${bidId} stays`);
    expect(await open()).toEqual([]);
    expect((await shipper.post(`/api/bids/${bidId}/counter`, { amount: 830, currency: "USD" })).status).toBe(201);
    expect((await say(driverChat, `/accept ${bidId}`)).text).toContain(`load #${loadId} is yours at $830.00`);
    const [load] = await t.rows<{ status: string; agreed_amount_minor: number }>(
      "SELECT status, agreed_amount_minor FROM loads WHERE id = ?",
      loadId,
    );
    expect({ ...load, agreed_amount_minor: Number(load.agreed_amount_minor) }).toEqual({
      status: "assigned",
      agreed_amount_minor: 83000,
    });
  });

  test("another account's bid: /accept, /decline and /counter get the bid's not-found and change nothing", async () => {
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    const bidId = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" })).json.bid
      .id as number;
    expect((await shipper.post(`/api/bids/${bidId}/counter`, { amount: 800, currency: "USD" })).status).toBe(201);
    const other = createClient(t);
    await registerUser(other, "driver");
    const otherChat = chat();
    await link(other, otherChat, "Other");
    for (const text of [`/accept ${bidId}`, `/decline ${bidId}`, `/counter ${bidId} 700`])
      expect((await say(otherChat, text)).text).toContain("Bid not found");
    const rows = await t.rows<{ status: string }>("SELECT status FROM bid_counters WHERE bid_id = ?", bidId);
    expect(rows.map((r) => r.status)).toEqual(["open"]);
    expect((await t.rows<{ status: string }>("SELECT status FROM loads WHERE id = ?", loadId))[0].status).toBe(
      "posted",
    );
  });

  test("another shipper's Accept is refused with the app's error; a driver cannot bid as a shipper", async () => {
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    const bidId = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" })).json.bid
      .id as number;
    const intruder = createClient(t);
    await registerUser(intruder, "shipper");
    const intruderChat = chat();
    await link(intruder, intruderChat);
    // A button for someone else's bid (as if forged into the chat).
    await notifiers
      .get("telegram")!
      .send({ chatId: intruderChat }, { body: "bid", buttons: [{ label: "Accept", data: `accept:${bidId}` }] });
    const msg = emu.telegram.sent(intruderChat).at(-1)!;
    const q = emu.telegram.pressButton(intruderChat, msg.message_id, `accept:${bidId}`);
    await waitFor(() => emu.telegram.callbackAnswer(q)?.answered);
    expect(emu.telegram.callbackAnswer(q)).toMatchObject({ show_alert: true });
    expect(emu.telegram.callbackAnswer(q)?.text).toContain("not found");
    expect((await t.rows<{ status: string }>("SELECT status FROM loads WHERE id = ?", loadId))[0].status).toBe(
      "posted",
    );
    expect((await say(intruderChat, `/bid ${loadId} 100`)).text).toContain("drivers");
    expect((await say(intruderChat, "/loads")).text).toContain("Only drivers");
  });

  test("a driver without premium bidding through the bot gets the 402 rule in their language, and no bid is placed", async () => {
    const driverChat = chat();
    await link(driver, driverChat, "Abebe");
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    // The bot writes in the language chosen for messages (the messaging preferences' language).
    await t.rows("update messaging_preferences set language = 'am' where user_id = ?", ids.driver);
    await t.rows("update users set trial_ends_at = ? where id = ?", Date.now() - 86_400_000, ids.driver);
    const refused = await say(driverChat, `/bid ${loadId} 900`);
    expect(refused.text).toContain("ይህ MyTess ፕሪሚየም ይፈልጋል");
    expect(await t.rows("SELECT id FROM bids")).toEqual([]);
    // Reading still works without premium.
    expect((await driver.post("/api/drivers/location", { latitude: 8.95, longitude: 38.76 })).status).toBe(200);
    expect((await say(driverChat, "/loads")).text).toContain(`#${loadId}`);
  });

  test("/track through the carriers, /language switches to Afaan Oromo, /help lists the commands", async () => {
    const chatId = chat();
    await link(driver, chatId);
    const tracked = await say(chatId, "/track 1Z4E5R120000348212");
    expect(tracked.text).toContain("UPS 1Z4E5R120000348212: Delivered");
    expect((await say(chatId, "/track 12345")).text).toContain("does not match");
    const choose = await say(chatId, "/language");
    const before = emu.telegram.sent(chatId).length;
    emu.telegram.pressButton(chatId, choose.message_id, "lang:om");
    expect((await waitFor(() => emu.telegram.sent(chatId)[before])).text).toContain("Afaan Oromoo");
    expect((await driver.get("/api/messaging/preferences")).json.language).toBe("om");
    const help = await say(chatId, "/help");
    expect(help.text).toContain("/loads");
    expect(help.text).not.toContain("MyTess commands:");
  });
});

describe("live location", () => {
  /** A load from Addis Ababa to Adama awarded to the driver an hour ago (so points from now on lie in the trip). */
  const awarded = async (pickedUp: boolean) => {
    const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
    const bid = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" })).json.bid;
    expect((await shipper.post(`/api/bids/${bid.id}/accept`)).status).toBe(200);
    await t.rows("UPDATE bids SET updated_at = ? WHERE id = ?", Date.now() - 3600_000, bid.id);
    if (pickedUp) expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
    return loadId;
  };
  const points = async (loadId: number) =>
    t.rows<{ latitude: number; recorded_at: number; accuracy: number | null; heading: number | null }>(
      "SELECT latitude, recorded_at, accuracy, heading FROM trip_points WHERE load_id = ? ORDER BY recorded_at",
      loadId,
    );
  const until = async (check: () => Promise<boolean>) => {
    const end = Date.now() + 8000;
    while (!(await check())) {
      if (Date.now() > end) throw new Error("timed out waiting");
      await Bun.sleep(40);
    }
  };
  const stored = async (loadId: number, n: number) => {
    await until(async () => (await points(loadId)).length === n);
    await until(async () => emu.telegram.pendingUpdates() === 0);
  };
  /** The user shares a live location; resolves with the bot's answer. */
  const share = async (chatId: number, at: { latitude: number; longitude: number }, livePeriod = 3600) => {
    const before = emu.telegram.sent(chatId).length;
    const messageId = emu.telegram.userSharesLiveLocation(chatId, { ...at, horizontalAccuracy: 25 }, livePeriod);
    const answer = await waitFor(() => emu.telegram.sent(chatId)[before]);
    return { messageId, answer };
  };

  test("a driver's live location feeds the trip in transit: the first point is answered, the moves are silent and stored once", async () => {
    const loadId = await awarded(true);
    const chatId = chat();
    await link(driver, chatId, "Dawit");
    const { messageId, answer } = await share(chatId, { latitude: 8.88, longitude: 38.8 });
    expect(answer.text).toContain("Location sharing is on");
    expect(answer.text).toContain(`#${loadId}`);
    expect(answer.text).toContain("Addis Ababa");
    expect(answer.text).toContain("Stop sharing");
    expect(await points(loadId)).toMatchObject([{ latitude: 8.88, accuracy: 25 }]);
    const sent = emu.telegram.sent(chatId).length;
    const start = Math.floor(Date.now() / 1000);
    emu.telegram.userMovesLiveLocation(
      chatId,
      messageId,
      { latitude: 8.86, longitude: 38.84, heading: 120 },
      { editDate: start + 5 },
    );
    // The same edit again (a redelivered update): stored once.
    emu.telegram.userMovesLiveLocation(
      chatId,
      messageId,
      { latitude: 8.86, longitude: 38.84, heading: 120 },
      { editDate: start + 5 },
    );
    emu.telegram.userMovesLiveLocation(
      chatId,
      messageId,
      { latitude: 8.84, longitude: 38.88 },
      { editDate: start + 10 },
    );
    await stored(loadId, 3);
    const three = await points(loadId);
    expect(three.map((p) => p.latitude)).toEqual([8.88, 8.86, 8.84]);
    expect(three[1]).toMatchObject({ heading: 120 });
    // Each point's time is the edit's (PostgreSQL's raw bigint comes back as text).
    expect(Number(three[1].recorded_at)).toBe((start + 5) * 1000);
    // The shipper's track shows them, and the driver's position follows.
    expect((await shipper.get(`/api/loads/${loadId}/track`)).json.lastPosition).toMatchObject({ latitude: 8.84 });
    // Stopping (an edit without live_period) and a point in the future are not stored; nothing is said in the chat.
    emu.telegram.userMovesLiveLocation(
      chatId,
      messageId,
      { latitude: 8.8, longitude: 38.9 },
      { editDate: start + 15, stopped: true },
    );
    emu.telegram.userMovesLiveLocation(
      chatId,
      messageId,
      { latitude: 8.79, longitude: 38.91 },
      { editDate: start + 3600 },
    );
    emu.telegram.userMovesLiveLocation(
      chatId,
      messageId,
      { latitude: 8.78, longitude: 38.92 },
      { editDate: start + 20 },
    );
    await stored(loadId, 4);
    expect((await points(loadId)).map((p) => p.latitude)).toEqual([8.88, 8.86, 8.84, 8.78]);
    expect(emu.telegram.sent(chatId)).toHaveLength(sent);
  });

  test("before pickup it feeds the awarded load; past the chosen period the moves are not stored", async () => {
    const loadId = await awarded(false);
    const chatId = chat();
    await link(driver, chatId, "Dawit");
    const { messageId, answer } = await share(chatId, { latitude: 8.95, longitude: 38.75 }, 60);
    expect(answer.text).toContain(`#${loadId}`);
    const date = Math.floor(Date.now() / 1000);
    emu.telegram.userMovesLiveLocation(
      chatId,
      messageId,
      { latitude: 8.94, longitude: 38.76 },
      { editDate: date + 600 },
    );
    emu.telegram.userMovesLiveLocation(chatId, messageId, { latitude: 8.93, longitude: 38.77 }, { editDate: date + 1 });
    await stored(loadId, 2);
    expect((await points(loadId)).map((p) => p.latitude)).toEqual([8.95, 8.93]);
  });

  test("no trip under way, a shipper, an unlinked chat: told why, in their language, and nothing is stored", async () => {
    const chatId = chat();
    await link(driver, chatId, "Dawit");
    expect((await share(chatId, { latitude: 8.9, longitude: 38.8 })).answer.text).toBe(
      "You have no trip under way, so your location is not recorded",
    );
    const shipperChat = chat();
    expect((await shipper.put("/api/user/language", { language: "am" })).status).toBe(200);
    await link(shipper, shipperChat, "Selam");
    const refused = (await share(shipperChat, { latitude: 8.9, longitude: 38.8 })).answer.text;
    expect(refused).not.toContain("Location sharing is on");
    expect(refused).not.toBe("Only drivers can do this");
    const stranger = chat();
    emu.telegram.addUser({ id: stranger, firstName: "Someone" });
    expect((await share(stranger, { latitude: 8.9, longitude: 38.8 })).answer.text).toContain("MyTess");
    expect(await t.rows("SELECT id FROM trip_points")).toEqual([]);
  });
});

test("dates in the bot follow the account's calendar and language: the Ethiopian calendar in Amharic", async () => {
  const { formatDate } = await import("../../../shared/dates");
  expect((await driver.put("/api/user/calendar", { calendar: "ethiopic" })).status).toBe(200);
  expect((await driver.put("/api/user/language", { language: "am" })).status).toBe(200);
  expect((await driver.put("/api/user/units", { units: "metric" })).status).toBe(200);
  const chatId = chat();
  await link(driver, chatId);
  const created = await shipper.post("/api/loads", loadInput({ title: "Teff, 10 t" }));
  await driver.post("/api/drivers/location", { latitude: 8.95, longitude: 38.76 });
  const list = await say(chatId, "/loads");
  const when = formatDate(created.json.pickupDate, {
    language: "am",
    calendar: "ethiopic",
    dateStyle: "medium",
    timeStyle: "short",
  });
  expect(when).toContain("ዓ.ም.");
  expect(list.text).toContain(when);
  expect(list.text).toContain("በአቅራቢያዎ የተለጠፉ ጭነቶች");
  // The account reads kilometres: the distance to the pickup in kilometres, with the Amharic unit word.
  expect(list.text).toMatch(/\d+ ኪ\.ሜ/);
  expect(list.text).not.toContain("ማይል");
});

test("one poller per deployment: a second holder does not get the lease while the first renews it", async () => {
  // The poller takes the lease as it starts, asynchronously: wait until it holds it.
  for (let i = 0; i < 100; i++) {
    const [row] = await t.rows<{ locked_by: string | null }>("select locked_by from jobs where kind = 'lease'");
    if (row?.locked_by) break;
    await Bun.sleep(20);
  }
  expect(await takeLease(t.db, "other", 30_000)).toBe(false);
  await poller.stop();
  expect(await takeLease(t.db, "other", 30_000)).toBe(true);
});

test("webhook mode: the secret header is required; an update posted to /api/telegram/webhook is answered", async () => {
  const { createApp } = await import("../../http/app");
  const app = createApp({
    db: t.db,
    config: t.config,
    carriers,
    notifiers,
    env: {
      TELEGRAM_BOT_TOKEN: NOTIFY_EMULATOR_CREDENTIALS.telegram.token,
      TELEGRAM_API_ROOT: emu.urls.telegram,
      TELEGRAM_WEBHOOK_URL: "https://mytess.example/api/telegram/webhook",
      TELEGRAM_WEBHOOK_SECRET: "webhook-secret-1",
    },
  });
  const chatId = chat();
  emu.telegram.addUser({ id: chatId, firstName: "Hook" });
  const update = {
    update_id: 9_000_001,
    message: {
      message_id: 1,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: "private", first_name: "Hook" },
      from: { id: chatId, is_bot: false, first_name: "Hook" },
      text: "/help",
      entities: [{ type: "bot_command", offset: 0, length: 5 }],
    },
  };
  const post = (secret?: string) =>
    app.handle(
      new Request("http://localhost/api/telegram/webhook", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          ...(secret ? { "X-Telegram-Bot-Api-Secret-Token": secret } : {}),
        },
        body: JSON.stringify(update),
      }),
    );
  expect((await post()).status).toBe(401);
  expect((await post("wrong")).status).toBe(401);
  expect(emu.telegram.sent(chatId)).toEqual([]);
  expect((await post("webhook-secret-1")).status).toBe(200);
  expect((await waitFor(() => emu.telegram.sent(chatId)[0])).text).toContain("/loads");
  // Without a webhook configured the path does not exist.
  expect((await t.app.handle(new Request("http://localhost/api/telegram/webhook", { method: "POST" }))).status).toBe(
    404,
  );
});

describe("7. webhook deliveries", () => {
  const SECRET = "webhook-secret-7";
  const env = () => ({
    TELEGRAM_BOT_TOKEN: NOTIFY_EMULATOR_CREDENTIALS.telegram.token,
    TELEGRAM_API_ROOT: emu.urls.telegram,
    TELEGRAM_WEBHOOK_URL: "https://mytess.example/api/telegram/webhook",
    TELEGRAM_WEBHOOK_SECRET: SECRET,
  });
  /** The route's handler, as a server process has it; two calls make two processes on one database. */
  const hook = () => telegramWebhookHandler(env(), { db: t.db, services: t.services, baseUrl: BASE })!;
  let updateId = 9_100_000;
  const helpUpdate = (chatId: number, id = ++updateId) => ({
    update_id: id,
    message: {
      message_id: id,
      date: Math.floor(Date.now() / 1000),
      chat: { id: chatId, type: "private", first_name: "Hook" },
      from: { id: chatId, is_bot: false, first_name: "Hook" },
      text: "/help",
      entities: [{ type: "bot_command", offset: 0, length: 5 }],
    },
  });
  const deliver = (h: ReturnType<typeof hook>, body: unknown) =>
    h(
      new Request("http://localhost/api/telegram/webhook", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Telegram-Bot-Api-Secret-Token": SECRET },
        body: typeof body === "string" ? body : JSON.stringify(body),
      }),
    );

  test("a chat that blocked the bot and a body that is not JSON are answered 200, so Telegram does not deliver again", async () => {
    const h = hook();
    const chatId = chat();
    emu.telegram.addUser({ id: chatId, firstName: "Hook" });
    emu.telegram.setMode(chatId, { kind: "blocked" });
    expect((await deliver(h, helpUpdate(chatId))).status).toBe(200);
    expect((await deliver(h, "{not json")).status).toBe(200);
    expect((await deliver(h, { no: "update_id" })).status).toBe(200);
    await h.idle();
    expect(emu.telegram.sent(chatId)).toEqual([]);
  });

  test("a slow handler does not hold the answer; the update delivered again meanwhile, to any process, runs once", async () => {
    const first = hook();
    const second = hook();
    const chatId = chat();
    emu.telegram.addUser({ id: chatId, firstName: "Hook" });
    emu.telegram.setMode(chatId, { kind: "hold" });
    const update = helpUpdate(chatId);
    // Answered while the reply is still waiting on Telegram.
    expect((await deliver(first, update)).status).toBe(200);
    await waitFor(() => emu.telegram.heldSends(chatId) === 1);
    // Telegram gave up waiting and delivers again, to this process and to another.
    expect((await deliver(first, update)).status).toBe(200);
    expect((await deliver(second, update)).status).toBe(200);
    emu.telegram.setMode(chatId, { kind: "ok" });
    await Promise.all([first.idle(), second.idle()]);
    expect(emu.telegram.sent(chatId)).toHaveLength(1);
    expect(emu.telegram.sent(chatId)[0].text).toContain("/loads");
    // Recorded once, and pruned by housekeeping after a week.
    const { housekeeping } = await import("../../modules/platform/housekeeping");
    expect(await t.rows("SELECT source, external_id FROM inbound_updates")).toEqual([
      { source: "telegram", external_id: String(update.update_id) },
    ]);
    await housekeeping(t.db, Date.now() + 8 * 24 * 60 * 60_000);
    expect(await t.rows("SELECT source FROM inbound_updates")).toEqual([]);
  });

  test("a wrong secret is 401 and records nothing", async () => {
    const h = hook();
    const res = await h(
      new Request("http://localhost/api/telegram/webhook", {
        method: "POST",
        headers: { "X-Telegram-Bot-Api-Secret-Token": "webhook-secret-8" },
        body: JSON.stringify(helpUpdate(chat())),
      }),
    );
    expect(res.status).toBe(401);
    expect(await t.rows("SELECT source FROM inbound_updates")).toEqual([]);
  });
});
