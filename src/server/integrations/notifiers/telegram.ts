import { Api, GrammyError, HttpError } from "grammy";
import type { InlineKeyboardButton } from "grammy/types";
import { guardedFetcher } from "../http/guard";
import type { TNotification, TNotifier, TSendResult } from "./types";

// Telegram counts the limit on the text after entities are parsed, so the plain text is what we cut.
const MAX_TEXT = 4096;

export type TTelegramSettings = { token: string; apiRoot: string; timeoutSeconds: number; sandbox: boolean };

const escapeHtml = (s: string) => s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");

const cut = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, Math.max(0, max - 1))}…`);

/** The message as Telegram HTML: a bold title, the body, and the link; the plain text stays within 4096 characters. */
export const renderTelegramText = (n: TNotification) => {
  const title = n.title?.trim() ? cut(n.title.trim(), 256) : "";
  const url = n.url ?? "";
  const room = MAX_TEXT - title.length - url.length - 4;
  const body = cut(n.body, room);
  return [title && `<b>${escapeHtml(title)}</b>`, escapeHtml(body), url && escapeHtml(url)].filter(Boolean).join("\n");
};

/** Callback buttons share one row (Accept | Reject); each link button gets its own row. */
export const telegramKeyboard = (n: TNotification): InlineKeyboardButton[][] | undefined => {
  if (!n.buttons?.length) return undefined;
  const actions: InlineKeyboardButton[] = [];
  const links: InlineKeyboardButton[][] = [];
  for (const b of n.buttons) {
    if ("data" in b) actions.push({ text: b.label, callback_data: b.data });
    else links.push([{ text: b.label, url: b.url }]);
  }
  return [...(actions.length ? [actions] : []), ...links];
};

// Descriptions that mean the chat itself is unusable, whatever we send (a 400 rather than Telegram's usual 403).
const GONE_400 = /chat not found|user is deactivated|PEER_ID_INVALID|bot was kicked/i;

/** Telegram's answer, or grammY's failure, as a TSendResult. */
export const telegramOutcome = (err: unknown): TSendResult => {
  if (err instanceof GrammyError) {
    const reason = `Telegram: ${err.description}`;
    if (err.error_code === 429)
      return { status: "retry", reason, retryAfterSeconds: err.parameters.retry_after ?? undefined };
    // Blocked by the user, kicked, or never started: only the user can undo it, by writing to the bot again.
    if (err.error_code === 403) return { status: "gone", reason };
    if (err.error_code === 400 && GONE_400.test(err.description)) return { status: "gone", reason };
    if (err.error_code >= 500) return { status: "retry", reason };
    if (err.error_code === 401 || err.error_code === 404)
      return { status: "failed", reason: `Telegram refused the bot token: ${err.description}` };
    return { status: "failed", reason };
  }
  if (err instanceof HttpError) return { status: "retry", reason: `Telegram could not be reached: ${err.message}` };
  return { status: "failed", reason: `Telegram: ${(err as Error).message ?? String(err)}` };
};

/**
 * Sends through grammY's `Api` (no Bot: the poller that reads updates is a separate part of the worker), its requests
 * through the outgoing-call guard, which trusts the operator's API root (TELEGRAM_API_ROOT) and nothing else.
 */
export const createTelegramNotifier = (s: TTelegramSettings): TNotifier<"telegram"> => {
  const api = new Api(s.token, {
    apiRoot: s.apiRoot,
    timeoutSeconds: s.timeoutSeconds,
    fetch: guardedFetcher({ trusted: [s.apiRoot] }) as never,
  });
  return {
    channel: "telegram",
    name: "Telegram",
    sandbox: s.sandbox,
    send: async (to, n) => {
      try {
        const keyboard = telegramKeyboard(n);
        const msg = await api.sendMessage(to.chatId, renderTelegramText(n), {
          parse_mode: "HTML",
          link_preview_options: { is_disabled: true },
          ...(keyboard ? { reply_markup: { inline_keyboard: keyboard } } : {}),
        });
        return { status: "delivered", messageId: String(msg.message_id) };
      } catch (err) {
        return telegramOutcome(err);
      }
    },
  };
};
