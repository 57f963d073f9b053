import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { Bot } from "grammy";
import { startNotifyEmulators } from "../../../../emulators/notifiers/server";
import { notifiersFromEnv } from "./registry";
import { renderTelegramText } from "./telegram";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const emu = startNotifyEmulators();
afterAll(() => emu.stop());

const telegram = () => notifiersFromEnv(emu.env(), { vapidKeyFile: null }).get("telegram")!;
let nextChat = 5_000_001;
const newUser = () => emu.telegram.addUser({ id: nextChat++, firstName: "Abebe", languageCode: "am" }).id;

describe("Telegram notifier against the Bot API emulator", () => {
  test("the user reads the title, body and link; the message id comes back", async () => {
    const chat = newUser();
    const result = await telegram().send(
      { chatId: chat },
      {
        title: "New bid on load #42",
        body: "Driver Kebede offered 1,200 USD <pickup tomorrow>",
        url: "https://mytess.example/loads/42",
      },
    );
    expect(result.status).toBe("delivered");
    const [msg] = emu.telegram.sent(chat);
    expect(result).toEqual({ status: "delivered", messageId: String(msg.message_id) });
    expect(msg.text).toBe(
      "New bid on load #42\nDriver Kebede offered 1,200 USD <pickup tomorrow>\nhttps://mytess.example/loads/42",
    );
    expect(msg.reply_markup).toBeUndefined();
  });

  test("Accept and Reject come as inline buttons that a bot can answer and then remove", async () => {
    const chat = newUser();
    const result = await telegram().send(
      { chatId: chat },
      {
        title: "Load assigned",
        body: "Addis Ababa → Adama, 12 t",
        buttons: [
          { label: "Accept", data: "assign:42:accept" },
          { label: "Reject", data: "assign:42:reject" },
          { label: "Open", url: "https://mytess.example/loads/42" },
        ],
      },
    );
    expect(result.status).toBe("delivered");
    const [msg] = emu.telegram.sent(chat);
    expect(msg.reply_markup?.inline_keyboard).toEqual([
      [
        { text: "Accept", callback_data: "assign:42:accept" },
        { text: "Reject", callback_data: "assign:42:reject" },
      ],
      [{ text: "Open", url: "https://mytess.example/loads/42" }],
    ]);

    // The later bot step, sketched with grammY over the same emulator: the press arrives as a callback query.
    const { token } = { token: emu.env().TELEGRAM_BOT_TOKEN };
    const bot = new Bot(token, { client: { apiRoot: emu.urls.telegram } });
    const pressed: string[] = [];
    bot.on("callback_query:data", async (ctx) => {
      pressed.push(ctx.callbackQuery.data);
      await ctx.answerCallbackQuery({ text: "Accepted" });
      await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } });
    });
    await bot.init();
    const queryId = emu.telegram.pressButton(chat, msg.message_id, "assign:42:accept");
    const updates = await bot.api.getUpdates({ timeout: 0 });
    for (const u of updates) await bot.handleUpdate(u);
    expect(pressed).toEqual(["assign:42:accept"]);
    expect(emu.telegram.callbackAnswer(queryId)).toEqual({ answered: true, text: "Accepted", show_alert: false });
    expect(emu.telegram.sent(chat)[0].reply_markup).toBeUndefined();
  });

  test("429 asks to retry after Telegram's retry_after", async () => {
    const chat = newUser();
    emu.telegram.setMode(chat, { kind: "flood", retryAfter: 17 });
    const result = await telegram().send({ chatId: chat }, { body: "hello" });
    expect(result).toEqual({
      status: "retry",
      retryAfterSeconds: 17,
      reason: "Telegram: Too Many Requests: retry after 17",
    });
    expect(emu.telegram.sent(chat)).toHaveLength(0);
  });

  test("403 (the user blocked the bot) is gone: Telegram is turned off for that user", async () => {
    const chat = newUser();
    emu.telegram.setMode(chat, { kind: "blocked" });
    expect(await telegram().send({ chatId: chat }, { body: "hello" })).toEqual({
      status: "gone",
      reason: "Telegram: Forbidden: bot was blocked by the user",
    });
  });

  test("a chat that never started the bot is gone; a wrong token is a failure of ours", async () => {
    expect((await telegram().send({ chatId: 999 }, { body: "hello" })).status).toBe("gone");
    const wrong = notifiersFromEnv({ ...emu.env(), TELEGRAM_BOT_TOKEN: "1:wrong" }, { vapidKeyFile: null }).get(
      "telegram",
    )!;
    const result = await wrong.send({ chatId: newUser() }, { body: "hello" });
    expect(result).toEqual({ status: "failed", reason: "Telegram refused the bot token: Unauthorized" });
  });

  test("an emulator that is down means retry later", async () => {
    const down = notifiersFromEnv({ ...emu.env(), TELEGRAM_API_ROOT: "http://127.0.0.1:9" }, { vapidKeyFile: null });
    expect((await down.get("telegram")!.send({ chatId: 1 }, { body: "x" })).status).toBe("retry");
  });

  test("long text is cut to Telegram's 4096 characters and HTML is escaped", () => {
    const text = renderTelegramText({ title: "a<b>", body: "x".repeat(5000) });
    expect(text.startsWith("<b>a&lt;b&gt;</b>\nxxx")).toBe(true);
    const plain = text.replace(/<[^>]+>/g, "").replace(/&(lt|gt|amp);/g, "_");
    expect(plain.length).toBeLessThanOrEqual(4096);
  });

  test("long polling: getUpdates waits for the next user message", async () => {
    const chat = newUser();
    const bot = new Bot(emu.env().TELEGRAM_BOT_TOKEN, { client: { apiRoot: emu.urls.telegram } });
    const first = await bot.api.getUpdates({ timeout: 0 });
    const offset = first.length ? first[first.length - 1].update_id + 1 : 0;
    const waiting = bot.api.getUpdates({ offset, timeout: 5 });
    emu.telegram.userSays(chat, "/start link_abc123");
    const [u] = await waiting;
    expect(u.message?.text).toBe("/start link_abc123");
    expect(u.message?.chat.id).toBe(chat);
    expect(u.message?.entities).toEqual([{ type: "bot_command", offset: 0, length: 6 }]);
    // Confirming with the next offset drops it.
    expect(await bot.api.getUpdates({ offset: u.update_id + 1, timeout: 0 })).toEqual([]);
  });
});
