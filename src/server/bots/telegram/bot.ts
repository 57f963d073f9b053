// The MyTess Telegram bot (grammY): links chats by deep link, answers commands through the app's router, and acts on
// the Accept / Reject buttons of "bid received" alerts. Replies are plain text (no parse mode), so nothing a user or
// a load title contains can break the markup.
import { autoRetry } from "@grammyjs/auto-retry";
import { Bot, type Context, GrammyError, InlineKeyboard } from "grammy";
import type { TLanguage } from "../../../shared/constants";
import { i18n, isLanguage } from "../../i18n";
import { guardedFetcher } from "../../integrations/http/guard";
import type { TNotifyButton } from "../../integrations/notifiers/types";
import { hasPremium } from "../../modules/billing/premium";
import {
  linkedAccount,
  linkTelegramChat,
  setMessagingLanguage,
  unlinkTelegramChat,
} from "../../modules/notifications/telegram-link";
import {
  bidCommand,
  callerFor,
  counterAnswerCommand,
  errorText,
  helpText,
  liveLocationCommand,
  loadsCommand,
  notLinkedText,
  offersCommand,
  type TBotDeps,
  type TBotReply,
  type TBotUser,
  trackCommand,
} from "../commands";

export type TTelegramBotSettings = { token: string; apiRoot: string };

const keyboard = (buttons?: TNotifyButton[]) => {
  if (!buttons?.length) return undefined;
  const kb = new InlineKeyboard();
  for (const b of buttons) {
    if ("data" in b) kb.text(b.label, b.data).row();
    else kb.url(b.label, b.url).row();
  }
  return kb;
};

const LANGUAGE_NAMES: Record<TLanguage, string> = { en: "English", am: "አማርኛ", om: "Afaan Oromoo" };

/** Telegram's own idea of the user's language, for chats no account is linked to yet. */
const guessLanguage = (ctx: Context): TLanguage => {
  const code = ctx.from?.language_code?.slice(0, 2);
  return isLanguage(code) ? code : "en";
};

export const createTelegramBot = (s: TTelegramBotSettings, deps: TBotDeps) => {
  // Through the outgoing-call guard, which trusts the operator's API root (TELEGRAM_API_ROOT) only.
  const bot = new Bot(s.token, {
    client: { apiRoot: s.apiRoot, fetch: guardedFetcher({ trusted: [s.apiRoot] }) as never },
  });
  // Telegram's 429 says how long to wait (retry_after): wait that long and try again, up to a minute.
  bot.api.config.use(autoRetry({ maxRetryAttempts: 3, maxDelaySeconds: 60 }));

  const reply = (ctx: Context, r: TBotReply) =>
    ctx.reply(r.text, {
      link_preview_options: { is_disabled: true },
      ...(r.buttons?.length ? { reply_markup: keyboard(r.buttons) } : {}),
    });

  const linked = async (ctx: Context): Promise<TBotUser | null> => {
    const chatId = ctx.chat?.id;
    if (chatId === undefined) return null;
    return linkedAccount(deps.db, { telegramChatId: String(chatId) });
  };

  /** A command that needs a linked account: unlinked chats are told how to link. */
  const withUser = (run: (u: TBotUser, ctx: Context) => Promise<TBotReply>) => async (ctx: Context) => {
    const u = await linked(ctx);
    if (!u) return reply(ctx, { text: notLinkedText(guessLanguage(ctx), "telegram") });
    return reply(ctx, await run(u, ctx));
  };

  bot.command("start", async (ctx) => {
    const token = ctx.match.trim();
    const chatId = String(ctx.chat.id);
    if (!token) {
      const u = await linked(ctx);
      if (u) return reply(ctx, { text: helpText(u.language, "telegram") });
      return reply(ctx, { text: notLinkedText(guessLanguage(ctx), "telegram") });
    }
    try {
      const user = await linkTelegramChat(deps.db, token, chatId);
      const found = await linkedAccount(deps.db, { telegramChatId: chatId });
      const language = found?.language ?? "en";
      i18n.activate(language);
      const name = `${user.firstName} ${user.lastName}`.trim();
      const hello = hasPremium(user)
        ? i18n._({
            id: "bot.linked",
            message:
              "Linked to the MyTess account of {name}. Bids, awards, trip updates and messages will arrive here.",
            values: { name },
          })
        : // Linked without alerts: they are premium (linkTelegramChat left them off).
          i18n._({
            id: "bot.linkedWithoutAlerts",
            message:
              "Linked to the MyTess account of {name}. Alerts stay off: they are part of MyTess Premium, and your free period has ended. Upgrade on the subscription page, then switch Telegram on under Messaging.",
            values: { name },
          });
      return reply(ctx, { text: `${hello}\n\n${helpText(language, "telegram")}` });
    } catch (err) {
      return reply(ctx, { text: errorText(err, guessLanguage(ctx)) });
    }
  });

  bot.command("help", async (ctx) => {
    const u = await linked(ctx);
    return reply(ctx, { text: helpText(u?.language ?? guessLanguage(ctx), "telegram") });
  });
  bot.command(
    "loads",
    withUser((u) => loadsCommand(deps, u, "telegram")),
  );
  bot.command(
    "bid",
    withUser((u, ctx) =>
      bidCommand(
        deps,
        u,
        "telegram",
        String(ctx.match ?? "")
          .split(/\s+/)
          .filter(Boolean),
      ),
    ),
  );
  bot.command(
    "offers",
    withUser((u) => offersCommand(deps, u, "telegram")),
  );
  for (const action of ["accept", "decline", "counter"] as const)
    bot.command(
      action,
      withUser((u, ctx) =>
        counterAnswerCommand(
          deps,
          u,
          "telegram",
          action,
          String(ctx.match ?? "")
            .split(/\s+/)
            .filter(Boolean),
        ),
      ),
    );
  bot.command(
    "track",
    withUser((u, ctx) =>
      trackCommand(
        deps,
        u,
        "telegram",
        String(ctx.match ?? "")
          .split(/\s+/)
          .filter(Boolean),
      ),
    ),
  );
  bot.command(
    "language",
    withUser(async (u) => {
      i18n.activate(u.language);
      return {
        text: i18n._({ id: "bot.language.choose", message: "Which language should MyTess write in?" }),
        buttons: (Object.keys(LANGUAGE_NAMES) as TLanguage[]).map((l) => ({
          label: LANGUAGE_NAMES[l],
          data: `lang:${l}`,
        })),
      };
    }),
  );
  bot.command("stop", async (ctx) => {
    const u = await linked(ctx);
    const language = u?.language ?? guessLanguage(ctx);
    const was = await unlinkTelegramChat(deps.db, String(ctx.chat.id));
    i18n.activate(language);
    return reply(ctx, {
      text: was
        ? i18n._({
            id: "bot.stopped",
            message: "Done: this chat is unlinked and gets no more alerts. Connect it again from Messaging in MyTess.",
          })
        : notLinkedText(language, "telegram"),
    });
  });

  bot.on("callback_query:data", async (ctx) => {
    const data = ctx.callbackQuery.data;
    const u = await linked(ctx);
    if (!u) {
      await ctx.answerCallbackQuery({ text: notLinkedText(guessLanguage(ctx), "telegram"), show_alert: true });
      return;
    }
    const [action, arg] = data.split(":");
    const id = Number(arg);
    i18n.activate(u.language);
    if (action === "lang" && isLanguage(arg)) {
      await setMessagingLanguage(deps.db, u.user.id, arg);
      i18n.activate(arg);
      await ctx.answerCallbackQuery();
      await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
      await reply(ctx, {
        text: i18n._({
          id: "bot.language.set",
          message: "MyTess will write to you in {language}.",
          values: { language: LANGUAGE_NAMES[arg] },
        }),
      });
      return;
    }
    if (action === "bid" && Number.isSafeInteger(id)) {
      await ctx.answerCallbackQuery();
      await reply(ctx, {
        text: i18n._({
          id: "bot.bid.prompt",
          message: "Send your bid for load #{id} like this: /bid {id} <amount> [USD|EUR|ETB]",
          values: { id },
        }),
      });
      return;
    }
    if ((action === "accept" || action === "reject") && Number.isSafeInteger(id)) {
      try {
        const caller = callerFor(deps, u, "telegram");
        if (action === "accept") await caller.bids.accept({ bidId: id });
        else await caller.bids.reject({ bidId: id });
        i18n.activate(u.language);
        const done =
          action === "accept"
            ? i18n._({ id: "bot.bid.accepted", message: "Bid accepted: the load is assigned to this driver." })
            : i18n._({
                id: "bot.bid.rejected",
                comment: "Telegram bot reply after the shipper pressed Reject on a bid: the bid was declined",
                message: "Bid rejected.",
              });
        await ctx.answerCallbackQuery({ text: done });
        // The buttons go: the message cannot be acted on twice.
        await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
        await reply(ctx, { text: done });
      } catch (err) {
        await ctx.answerCallbackQuery({ text: errorText(err, u.language).slice(0, 200), show_alert: true });
      }
      return;
    }
    // A counter-offer's Accept / Decline, for whichever side received it (the app decides who may answer).
    if ((action === "caccept" || action === "cdecline") && Number.isSafeInteger(id)) {
      try {
        const caller = callerFor(deps, u, "telegram");
        if (action === "caccept") await caller.bids.acceptCounter({ bidId: id });
        else await caller.bids.declineCounter({ bidId: id });
        i18n.activate(u.language);
        const done =
          action === "caccept"
            ? i18n._({
                id: "bot.counter.accepted",
                message: "Offer accepted: the load is awarded at that price.",
              })
            : i18n._({
                id: "bot.counter.declined",
                comment: "Telegram bot reply after pressing Decline on a counter-offer: the offered price was declined",
                message: "Offer declined.",
              });
        await ctx.answerCallbackQuery({ text: done });
        await ctx.editMessageReplyMarkup({ reply_markup: { inline_keyboard: [] } }).catch(() => undefined);
        await reply(ctx, { text: done });
      } catch (err) {
        await ctx.answerCallbackQuery({ text: errorText(err, u.language).slice(0, 200), show_alert: true });
      }
      return;
    }
    await ctx.answerCallbackQuery();
  });

  // A live location: the first message carries `live_period` (seconds from its date), each move arrives as an edit of
  // it. A location without `live_period` is a one-off pin, or (an edit) the end of sharing; neither feeds the trip,
  // nor does an edit past the period the user chose.
  bot.on(["message:location", "edited_message:location"], async (ctx) => {
    const message = ctx.editedMessage ?? ctx.message;
    const location = message?.location;
    if (!message || !location?.live_period) return;
    const at = message.edit_date ?? message.date;
    if (at > message.date + location.live_period) return;
    const first = ctx.editedMessage === undefined;
    const u = await linked(ctx);
    if (!u) {
      if (first) await reply(ctx, { text: notLinkedText(guessLanguage(ctx), "telegram") });
      return;
    }
    const answer = await liveLocationCommand(
      deps,
      u,
      "telegram",
      {
        latitude: location.latitude,
        longitude: location.longitude,
        at,
        accuracy: location.horizontal_accuracy,
        heading: location.heading,
      },
      first,
    );
    if (answer) await reply(ctx, answer);
  });

  bot.on("message:text", async (ctx) => {
    const u = await linked(ctx);
    return reply(ctx, { text: helpText(u?.language ?? guessLanguage(ctx), "telegram") });
  });

  bot.catch((e) => {
    const err = e.error;
    // A user who blocked the bot cannot be answered; the notifier turns Telegram off when alerts fail the same way.
    if (err instanceof GrammyError && err.error_code === 403) return;
    deps.services.log.warn("telegram bot update failed", { error: String(err) });
  });
  return bot;
};
