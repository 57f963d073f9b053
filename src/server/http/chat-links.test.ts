// Chats and numbers are bound to an account only by proof, and the deep link is reused. Regression tests for holes an
// outside probe found: each failed on the code before its fix.
import { Database } from "bun:sqlite";
import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SQL } from "bun";
import { drizzle as drizzlePg } from "drizzle-orm/bun-sql";
import { migrate as migratePg } from "drizzle-orm/bun-sql/migrator";
import { drizzle as drizzleSqlite } from "drizzle-orm/bun-sqlite";
import { migrate as migrateSqlite } from "drizzle-orm/bun-sqlite/migrator";
import { createTestDatabase, MIGRATIONS_FOLDER, PG_MIGRATIONS_FOLDER } from "../../../db/client";
import { ENGINE } from "../../../db/engine";
import { startNotifyEmulators } from "../../../emulators/notifiers/server";
import { notifiersFromEnv } from "../integrations/notifiers/registry";
import { logger } from "../logger";
import { jobHandlers, startWorker } from "../modules/jobs";
import {
  LINK_TOKEN_MIN_LEFT_MS,
  LINK_TOKEN_TTL_MS,
  LINK_TOKENS_PER_USER,
  linkedAccount,
  linkTelegramChat,
  telegramLinkToken,
} from "../modules/notifications/telegram-link";
import { codeIn, linkTelegram, verifyWhatsApp } from "../modules/notifications/testing";
import { CODE_ATTEMPTS, CODE_SENDS_PER_HOUR } from "../modules/notifications/whatsapp-verification";
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
type TClient = ReturnType<typeof createClient>;

let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let ids: Record<string, number>;
let seq = 0;
const chat = () => 6_300_000 + ++seq * 10;
const phone = () => `+2519440${String(10_000 + ++seq).padStart(5, "0")}`;
const digits = (p: string) => p.replace(/\D/g, "");
const lastWhatsApp = (p: string) => emu.whatsapp.sent(digits(p)).at(-1)?.text;

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
const runJobs = async () => {
  const w = startWorker({
    db: t.db,
    log: logger,
    handlers: jobHandlers({ notifiers, baseUrl: "https://mytess.example" }),
    schedules: [],
    autoStart: false,
  });
  while ((await w.runOnce()) > 0);
};
/** A bid on a new load of the shipper's: the shipper is notified on every channel they have set up. */
const bidForShipper = async () => {
  const loadId = (await shipper.post("/api/loads", loadInput())).json.id as number;
  expect((await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" })).status).toBe(201);
  await runJobs();
};
const notifyJobs = async () =>
  (await t.rows<{ payload: unknown }>("SELECT payload FROM jobs WHERE kind = 'notify'")).map(
    (j) => (typeof j.payload === "string" ? JSON.parse(j.payload) : j.payload) as { channel?: string },
  );

describe("3. Telegram chats are linked only through the bot", () => {
  test("a chat id typed into the preferences is refused naming the field; the chat gets nothing and acts for no one", async () => {
    // A stranger who once started the bot: Telegram would deliver to them.
    const stranger = chat();
    emu.telegram.addUser({ id: stranger, firstName: "Stranger" });
    const res = await shipper.put(
      "/api/messaging/preferences",
      prefs({ telegramEnabled: true, telegramChatId: String(stranger) }),
    );
    expect(res.status).toBe(400);
    expect(res.json.issues.map((i: { path: string }) => i.path)).toEqual(["telegramChatId"]);
    expect(await t.rows("SELECT user_id FROM messaging_preferences")).toEqual([]);
    expect(await linkedAccount(t.db, { telegramChatId: String(stranger) })).toBeNull();
    await bidForShipper();
    expect(emu.telegram.sent(stranger)).toEqual([]);
    // The test message cannot reach the stranger either.
    const test1 = await shipper.post("/api/messaging/telegram/send", { chatId: String(stranger), type: "test" });
    expect(test1.status).toBe(400);
    expect(emu.telegram.sent(stranger)).toEqual([]);
  });

  test("the linked chat can be saved again or left out; it stays linked and alerts reach it", async () => {
    const own = chat();
    emu.telegram.addUser({ id: own, firstName: "Selam" });
    await linkTelegram(t.db, shipper, own);
    expect(
      (await shipper.put("/api/messaging/preferences", prefs({ telegramEnabled: true, telegramChatId: String(own) })))
        .status,
    ).toBe(200);
    // A page loaded before the chat was linked sends no chat id: the link stays.
    const stale = await shipper.put("/api/messaging/preferences", prefs({ telegramEnabled: true }));
    expect(stale.status).toBe(200);
    expect(stale.json).toMatchObject({ telegramEnabled: true, telegramChatId: String(own) });
    await bidForShipper();
    expect(emu.telegram.sent(own)).toHaveLength(1);
  });
});

describe("3. WhatsApp numbers are proven with a code", () => {
  test("a typed number is unverified: nothing is sent to it, no test, no commands, and it reserves nothing", async () => {
    const victim = phone();
    const saved = await shipper.put(
      "/api/messaging/preferences",
      prefs({ whatsappEnabled: true, whatsappNumber: victim }),
    );
    expect(saved.status).toBe(200);
    expect(saved.json).toMatchObject({ whatsappEnabled: true, whatsappNumber: victim, whatsappVerified: false });
    await bidForShipper();
    expect((await notifyJobs()).map((j) => j.channel)).not.toContain("whatsapp");
    expect(emu.whatsapp.sent(digits(victim))).toEqual([]);
    const test1 = await shipper.post("/api/messaging/whatsapp/send", { phoneNumber: victim, type: "test" });
    expect(test1.status).toBe(400);
    expect(test1.json.issues[0].path).toBe("phoneNumber");
    expect(emu.whatsapp.sent(digits(victim))).toEqual([]);
    expect(await linkedAccount(t.db, { whatsappNumber: victim })).toBeNull();
    // The number's owner saves it too: not "taken".
    const owner = await driver.put(
      "/api/messaging/preferences",
      prefs({ whatsappEnabled: true, whatsappNumber: victim }),
    );
    expect(owner.status).toBe(200);
  });

  test("the code is the only message; a wrong code counts, the right one verifies; alerts follow", async () => {
    const number = phone();
    await shipper.put("/api/messaging/preferences", prefs({ whatsappEnabled: true, whatsappNumber: number }));
    const sent = await shipper.post("/api/messaging/whatsapp/code", { phoneNumber: number });
    expect(sent.status).toBe(200);
    expect(sent.json).toMatchObject({ sent: true, phoneNumber: number });
    const messages = emu.whatsapp.sent(digits(number));
    expect(messages).toHaveLength(1);
    const code = codeIn(messages[0].text);
    // Only a keyed hash is stored.
    const [row] = await t.rows<{ code_hash: string }>("SELECT code_hash FROM whatsapp_codes");
    expect(row.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(row.code_hash).not.toContain(code);
    const wrongCode = code === "000000" ? "111111" : "000000";
    const wrong = await shipper.post("/api/messaging/whatsapp/verify", { code: wrongCode });
    expect(wrong.status).toBe(400);
    expect(wrong.json.issues[0].path).toBe("code");
    expect(wrong.json.message).toContain(`${CODE_ATTEMPTS - 1} tries left`);
    const bad = await shipper.post("/api/messaging/whatsapp/verify", { code: "12ab" });
    expect(bad.json.issues[0].path).toBe("code");
    // Another account cannot use the code.
    expect((await driver.post("/api/messaging/whatsapp/verify", { code })).status).toBe(400);
    const ok = await shipper.post("/api/messaging/whatsapp/verify", { code: `${code.slice(0, 3)} ${code.slice(3)}` });
    expect(ok.status).toBe(200);
    expect(ok.json).toMatchObject({ whatsappEnabled: true, whatsappNumber: number, whatsappVerified: true });
    // Used up.
    expect((await shipper.post("/api/messaging/whatsapp/verify", { code })).status).toBe(400);
    expect((await shipper.post("/api/messaging/whatsapp/code", { phoneNumber: number })).status).toBe(409);
    expect((await linkedAccount(t.db, { whatsappNumber: number }))?.user.id).toBe(ids.shipper);
    await bidForShipper();
    expect(emu.whatsapp.sent(digits(number))).toHaveLength(2);
    // A new number replaces the verified one and is unverified again: it gets nothing, nor does the old one.
    const next = phone();
    const changed = await shipper.put(
      "/api/messaging/preferences",
      prefs({ whatsappEnabled: true, whatsappNumber: next }),
    );
    expect(changed.json).toMatchObject({ whatsappNumber: next, whatsappVerified: false });
    await bidForShipper();
    expect(emu.whatsapp.sent(digits(number))).toHaveLength(2);
    expect(emu.whatsapp.sent(digits(next))).toEqual([]);
  });

  test("a code expires, and one code takes at most its tries, even guessed in parallel", async () => {
    const number = phone();
    await shipper.post("/api/messaging/whatsapp/code", { phoneNumber: number });
    const code = codeIn(lastWhatsApp(number));
    await t.rows("UPDATE whatsapp_codes SET expires_at = ?", Date.now() - 1);
    expect((await shipper.post("/api/messaging/whatsapp/verify", { code })).status).toBe(400);

    await shipper.post("/api/messaging/whatsapp/code", { phoneNumber: number });
    const fresh = codeIn(lastWhatsApp(number));
    const guesses = Array.from({ length: 20 }, (_, i) => String((Number(fresh) + 1 + i) % 1_000_000).padStart(6, "0"));
    const answers = await Promise.all(guesses.map((g) => shipper.post("/api/messaging/whatsapp/verify", { code: g })));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 400)).toHaveLength(CODE_ATTEMPTS);
    expect(statuses.filter((s) => s === 429)).toHaveLength(20 - CODE_ATTEMPTS);
    // Spent: the right code no longer helps.
    expect((await shipper.post("/api/messaging/whatsapp/verify", { code: fresh })).status).toBe(429);
    expect((await shipper.get("/api/messaging/preferences")).json.whatsappVerified).toBe(false);
  });

  test("codes per account and per number are limited per hour, also when asked for at once", async () => {
    const number = phone();
    const answers = await Promise.all(
      Array.from({ length: CODE_SENDS_PER_HOUR + 3 }, () =>
        shipper.post("/api/messaging/whatsapp/code", { phoneNumber: number }),
      ),
    );
    expect(answers.filter((a) => a.status === 200)).toHaveLength(CODE_SENDS_PER_HOUR);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(3);
    expect(emu.whatsapp.sent(digits(number))).toHaveLength(CODE_SENDS_PER_HOUR);
    // The number has had its share from every account: another account cannot add more.
    expect((await driver.post("/api/messaging/whatsapp/code", { phoneNumber: number })).status).toBe(429);
    // The account's share is spent for other numbers too.
    expect((await shipper.post("/api/messaging/whatsapp/code", { phoneNumber: phone() })).status).toBe(429);
    expect((await driver.post("/api/messaging/whatsapp/code", { phoneNumber: phone() })).status).toBe(200);
  });

  test("a verified number belongs to one account: proving it again elsewhere moves it, and the first keeps it unverified", async () => {
    const number = phone();
    await driver.put("/api/messaging/preferences", prefs({ whatsappEnabled: true, whatsappNumber: number }));
    await verifyWhatsApp(driver, number, lastWhatsApp);
    await shipper.put("/api/messaging/preferences", prefs({ whatsappEnabled: true, whatsappNumber: number }));
    expect((await driver.get("/api/messaging/preferences")).json.whatsappVerified).toBe(true);
    await verifyWhatsApp(shipper, number, lastWhatsApp);
    expect((await shipper.get("/api/messaging/preferences")).json).toMatchObject({ whatsappVerified: true });
    expect((await driver.get("/api/messaging/preferences")).json).toMatchObject({
      whatsappNumber: number,
      whatsappVerified: false,
    });
    expect((await linkedAccount(t.db, { whatsappNumber: number }))?.user.id).toBe(ids.shipper);
    const [{ n }] = await t.rows<{ n: number }>(
      "SELECT CAST(count(*) AS INTEGER) AS n FROM messaging_preferences WHERE whatsapp_number = ?",
      number,
    );
    expect(n).toBe(1);
  });

  test("numbers saved before proof existed become unverified when the database is migrated", async () => {
    const tag = "_whatsapp_verification";
    const before = (folder: string) => {
      const dir = mkdtempSync(join(tmpdir(), "mytess-migrations-"));
      cpSync(folder, dir, { recursive: true });
      const journalFile = join(dir, "meta", "_journal.json");
      const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
      const at = journal.entries.findIndex((e) => e.tag.endsWith(tag));
      expect(at).toBeGreaterThan(0);
      journal.entries = journal.entries.slice(0, at);
      writeFileSync(journalFile, JSON.stringify(journal));
      return dir;
    };
    const seed = [
      "INSERT INTO users (id, email, first_name, last_name, user_type, trial_ends_at, created_at, updated_at) VALUES (1, 'a@example.com', 'A', 'B', 'driver', 0, 0, 0)",
      "INSERT INTO messaging_preferences (user_id, whatsapp_enabled, whatsapp_number, whatsapp_last_inbound_at, updated_at) VALUES (1, true, '+251911000099', 5, 0)",
    ];
    const read = "SELECT whatsapp_enabled, whatsapp_number, whatsapp_pending_number FROM messaging_preferences";
    let row: Record<string, unknown>;
    if (ENGINE === "pg") {
      const fresh = (await createTestDatabase({ unmigrated: true }))!;
      const client = new SQL(fresh.url, { max: 1 });
      try {
        const db = drizzlePg({ client });
        await migratePg(db, { migrationsFolder: before(PG_MIGRATIONS_FOLDER) });
        for (const s of seed) await client.unsafe(s);
        await migratePg(db, { migrationsFolder: PG_MIGRATIONS_FOLDER });
        [row] = [...(await client.unsafe(read))];
      } finally {
        await client.close();
        await fresh.drop();
      }
    } else {
      const sqlite = new Database(":memory:");
      migrateSqlite(drizzleSqlite({ client: sqlite }), { migrationsFolder: before(MIGRATIONS_FOLDER) });
      for (const s of seed) sqlite.exec(s);
      migrateSqlite(drizzleSqlite({ client: sqlite }), { migrationsFolder: MIGRATIONS_FOLDER });
      row = sqlite.query(read).get() as Record<string, unknown>;
      sqlite.close();
    }
    expect(row).toMatchObject({ whatsapp_number: null, whatsapp_pending_number: "+251911000099" });
    expect(Boolean(row.whatsapp_enabled)).toBe(true);
  });
});

describe("12. the Telegram deep link is reused, not made per page view", () => {
  test("a thousand page views at once leave one token row and show one link", async () => {
    const views = await Promise.all(Array.from({ length: 1000 }, () => shipper.get("/api/messaging/preferences")));
    expect(new Set(views.map((v) => v.json.telegramLinkUrl)).size).toBe(1);
    const [{ n }] = await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM telegram_link_tokens");
    expect(n).toBe(1);
    // The link still works once.
    const token = new URL(views[0].json.telegramLinkUrl).searchParams.get("start")!;
    await linkTelegramChat(t.db, token, String(chat()));
    await expect(linkTelegramChat(t.db, token, String(chat()))).rejects.toThrow("expired or was used");
  }, 120_000);

  test("a link with less than half an hour left is replaced; earlier ones keep working until they expire; rows are capped", async () => {
    const secrets = t.services.boards.secrets;
    const t0 = Date.now();
    const a = await telegramLinkToken(t.db, secrets, ids.shipper, t0);
    expect(await telegramLinkToken(t.db, secrets, ids.shipper, t0 + LINK_TOKEN_TTL_MS - LINK_TOKEN_MIN_LEFT_MS)).toBe(
      a,
    );
    const b = await telegramLinkToken(t.db, secrets, ids.shipper, t0 + LINK_TOKEN_TTL_MS - LINK_TOKEN_MIN_LEFT_MS + 1);
    expect(b).not.toBe(a);
    // A is still live (opened on another device before): it links.
    const chatA = chat();
    await linkTelegramChat(t.db, a, String(chatA), t0 + LINK_TOKEN_TTL_MS - 1000);
    expect((await linkedAccount(t.db, { telegramChatId: String(chatA) }))?.user.id).toBe(ids.shipper);
    // Many hours of page views: never more than the cap.
    for (let h = 1; h <= 10; h++) await telegramLinkToken(t.db, secrets, ids.shipper, t0 + h * LINK_TOKEN_MIN_LEFT_MS);
    const [{ n }] = await t.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM telegram_link_tokens");
    expect(n).toBeLessThanOrEqual(LINK_TOKENS_PER_USER);
    // Another server key cannot re-show a stored link: a new one is made.
    const { createSecretBox, loadSecretKey } = await import("../secrets");
    const other = createSecretBox(loadSecretKey({}, null));
    const later = t0 + 10 * LINK_TOKEN_MIN_LEFT_MS;
    const mine = await telegramLinkToken(t.db, secrets, ids.shipper, later);
    expect(await telegramLinkToken(t.db, other, ids.shipper, later)).not.toBe(mine);
  });
});
