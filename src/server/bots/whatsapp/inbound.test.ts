import { afterAll, afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { NOTIFY_EMULATOR_CREDENTIALS, startNotifyEmulators } from "../../../../emulators/notifiers/server";
import { notifiersFromEnv } from "../../integrations/notifiers/registry";
import { verifyWhatsApp } from "../../modules/notifications/testing";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const emu = startNotifyEmulators();
afterAll(() => emu.stop());
const notifiers = notifiersFromEnv(
  { ...emu.env(), VAPID_SUBJECT: "mailto:ops@mytess.example" },
  { vapidKeyFile: null },
);
type TClient = ReturnType<typeof createClient>;

let t: TTestApp;
let server: ReturnType<typeof Bun.serve>;
let shipper: TClient;
let driver: TClient;
let seq = 0;
const number = () => `+2519220${String(10_000 + ++seq).padStart(5, "0")}`;
const digits = (p: string) => p.replace(/\D/g, "");
const lastWhatsApp = (p: string) => emu.whatsapp.sent(digits(p)).at(-1)?.text;

beforeEach(async () => {
  t = await createTestApp({}, undefined, notifiers);
  // Meta calls us over HTTP: the app listens on a loopback port for the emulator.
  server = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: (r) => t.app.handle(r) });
  emu.whatsapp.setWebhookUrl(`http://127.0.0.1:${server.port}/api/whatsapp/webhook`);
  shipper = createClient(t);
  driver = createClient(t);
  await registerUser(shipper, "shipper");
  await registerUser(driver, "driver");
});
afterEach(async () => {
  emu.whatsapp.setWebhookUrl(null);
  server.stop(true);
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
/** The person writes to the business number; resolves with the reply they get. */
const say = async (phone: string, text: string) => {
  const before = emu.whatsapp.sent(digits(phone)).length;
  const status = await emu.whatsapp.userSays(digits(phone), text);
  expect(status).toBe(200);
  await emu.whatsapp.settle();
  const reply = emu.whatsapp.sent(digits(phone))[before];
  expect(reply).toBeDefined();
  return reply;
};

test("Meta's subscription check answers the challenge with the right verify token only", async () => {
  expect(await emu.whatsapp.verifySubscription(NOTIFY_EMULATOR_CREDENTIALS.whatsapp.verifyToken)).toEqual({
    status: 200,
    echoed: true,
  });
  const wrong = await emu.whatsapp.verifySubscription("guess");
  expect(wrong.echoed).toBe(false);
  expect(wrong.status).toBe(403);
});

test("an unsigned or wrongly signed delivery is refused and nothing is answered", async () => {
  const phone = number();
  const body = JSON.stringify({
    object: "whatsapp_business_account",
    entry: [
      {
        changes: [
          {
            field: "messages",
            value: {
              messages: [{ from: digits(phone), id: "x", timestamp: "1", type: "text", text: { body: "help" } }],
            },
          },
        ],
      },
    ],
  });
  for (const signature of [null, "sha256=00", `sha256=${"a".repeat(64)}`]) {
    const res = await fetch(`http://127.0.0.1:${server.port}/api/whatsapp/webhook`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(signature ? { "X-Hub-Signature-256": signature } : {}) },
      body,
    });
    expect(res.status).toBe(401);
  }
  expect(emu.whatsapp.sent(digits(phone))).toEqual([]);
});

test("the text commands act for the account that verified the number; other numbers are told how to link", async () => {
  const phone = number();
  expect((await driver.put("/api/messaging/preferences", prefs(phone))).status).toBe(200);
  await verifyWhatsApp(driver, phone, lastWhatsApp);
  const loadId = (await shipper.post("/api/loads", loadInput({ title: "Sesame, 25 t" }))).json.id as number;
  expect((await driver.post("/api/drivers/location", { latitude: 8.95, longitude: 38.76 })).status).toBe(200);

  const help = await say(phone, "help");
  expect(help.text).toContain("loads");
  expect(help.text).toContain("bid <load number> <amount>");
  const [p] = await t.rows<{ whatsapp_last_inbound_at: number }>(
    "SELECT whatsapp_last_inbound_at FROM messaging_preferences",
  );
  expect(Number(p.whatsapp_last_inbound_at)).toBeGreaterThan(Date.now() - 60_000);

  const loads = await say(phone, "loads");
  expect(loads.type).toBe("text");
  expect(loads.text).toContain(`#${loadId} Sesame, 25 t`);
  const placed = await say(phone, `bid ${loadId} 850`);
  expect(placed.text).toContain("Bid placed");
  expect((await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM bids"))[0].n).toBe(1);
  expect((await say(phone, "bid nope")).text).toContain("bid 123 500");

  const stranger = number();
  const unknown = await say(stranger, "loads");
  expect(unknown.text).toContain("not linked to a MyTess account");
  expect((await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM bids"))[0].n).toBe(1);
});

test("a counter-offer answered by text: offers, counter, accept, through the same procedures as the app", async () => {
  const phone = number();
  expect((await driver.put("/api/messaging/preferences", prefs(phone))).status).toBe(200);
  await verifyWhatsApp(driver, phone, lastWhatsApp);
  const loadId = (await shipper.post("/api/loads", loadInput({ title: "Barley, 30 t" }))).json.id as number;
  const bidId = (await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" })).json.bid
    .id as number;
  expect((await shipper.post(`/api/bids/${bidId}/counter`, { amount: 800, currency: "USD" })).status).toBe(201);
  expect((await say(phone, "help")).text).toContain("counter <bid number> <amount>");
  expect((await say(phone, "offers")).text).toContain(`The shipper offers $800.00. Reply: accept ${bidId}`);
  expect((await say(phone, `counter ${bidId} nope`)).text).toContain("counter 12 850 ETB");
  expect((await say(phone, `counter ${bidId} 860`)).text).toContain("Counter-offer sent: $860.00");
  expect((await shipper.post(`/api/bids/${bidId}/counter`, { amount: 840, currency: "USD" })).status).toBe(201);
  expect((await say(phone, `accept ${bidId}`)).text).toContain(`load #${loadId} is yours at $840.00`);
  const [load] = await t.rows<{ status: string; agreed_amount_minor: number }>(
    "SELECT status, agreed_amount_minor FROM loads WHERE id = ?",
    loadId,
  );
  expect({ ...load, agreed_amount_minor: Number(load.agreed_amount_minor) }).toEqual({
    status: "assigned",
    agreed_amount_minor: 84000,
  });
});

test("answers in the messaging language", async () => {
  const phone = number();
  await driver.put("/api/messaging/preferences", prefs(phone, "am"));
  await verifyWhatsApp(driver, phone, lastWhatsApp);
  const help = await say(phone, "help");
  expect(help.text).toContain("የMyTess ትዕዛዞች");
});

test("3. a number saved but not verified acts for no one: its commands do nothing and it is told how to confirm", async () => {
  const phone = number();
  expect((await driver.put("/api/messaging/preferences", prefs(phone))).status).toBe(200);
  const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
  const reply = await say(phone, `bid ${loadId} 850`);
  expect(reply.text).toContain("not linked to a MyTess account");
  expect(reply.text).toContain("code");
  expect((await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM bids"))[0].n).toBe(0);
  // Nor does it open the 24-hour window of the account that typed it.
  const [p] = await t.rows<{ whatsapp_last_inbound_at: number | null }>(
    "SELECT whatsapp_last_inbound_at FROM messaging_preferences",
  );
  expect(p.whatsapp_last_inbound_at).toBeNull();
});

test("a message Meta delivers again is acted on once", async () => {
  const phone = number();
  await driver.put("/api/messaging/preferences", prefs(phone));
  await verifyWhatsApp(driver, phone, lastWhatsApp);
  const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
  expect((await say(phone, `bid ${loadId} 850`)).text).toContain("Bid placed");
  const before = emu.whatsapp.sent(digits(phone)).length;
  expect(await emu.whatsapp.redeliverLast()).toBe(200);
  await emu.whatsapp.settle();
  expect(emu.whatsapp.sent(digits(phone))).toHaveLength(before);
  const [bid] = await t.rows<{ n: number; amount: number }>(
    "SELECT CAST(count(*) AS INTEGER) AS n, CAST(max(amount_minor) AS INTEGER) AS amount FROM bids",
  );
  expect(bid).toEqual({ n: 1, amount: 85000 });
});

test("usernames: a batch with a username-only sender loses no message; that sender is told at its user id to link a number, and acts for no one", async () => {
  const phone = number();
  await driver.put("/api/messaging/preferences", prefs(phone));
  await verifyWhatsApp(driver, phone, lastWhatsApp);
  const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
  const stranger = number();
  const userId = "ET.7f3a9c2e1b4d8a6f0c5e";
  const before = emu.whatsapp.sent(digits(phone)).length;
  // One POST, as Meta batches them: a linked number, a user with a username (no number at all), another number.
  const status = await emu.whatsapp.batch([
    { from: digits(phone), text: `bid ${loadId} 850` },
    { userId, username: "abebe.trucks", text: `bid ${loadId} 1` },
    { from: digits(stranger), text: "loads" },
  ]);
  expect(status).toBe(200);
  await emu.whatsapp.settle();
  expect(emu.whatsapp.sent(digits(phone))[before]?.text).toContain("Bid placed");
  expect(emu.whatsapp.sent(digits(stranger))[0]?.text).toContain("not linked to a MyTess account");
  // Written to by its user id (`recipient`), in the window its message opened.
  const [toUser] = emu.whatsapp.sent(userId);
  expect(toUser?.type).toBe("text");
  expect(toUser?.text).toContain("username hides your phone number");
  expect(toUser?.text).toContain("confirm it with the code");
  // Only the linked number's bid was placed.
  expect(await t.rows("SELECT CAST(amount_minor AS INTEGER) AS amount FROM bids")).toEqual([{ amount: 85000 }]);
  // Meta sends the batch again: nothing is done or answered twice.
  const sentBefore = emu.whatsapp.sent().length;
  expect(await emu.whatsapp.redeliverLast()).toBe(200);
  await emu.whatsapp.settle();
  expect(emu.whatsapp.sent()).toHaveLength(sentBefore);
});
