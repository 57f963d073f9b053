// Test helpers: chats and numbers bound as a user binds them, by proof. A Telegram chat through the deep link the
// Messaging page shows (as the bot does on /start <token>); a WhatsApp number with the code sent to it, read where the
// test's WhatsApp stand-in received it.
import type { TDb } from "../../../../db/client";
import type { createClient } from "../../testing";
import { linkTelegramChat } from "./telegram-link";

type TClient = ReturnType<typeof createClient>;

/** The start token of the user's deep link, as the page shows it. */
export const linkTokenOf = async (c: TClient) => {
  const res = await c.get("/api/messaging/preferences");
  if (res.status !== 200 || !res.json.telegramLinkUrl) throw new Error(`no deep link: ${res.status} ${res.text}`);
  return new URL(res.json.telegramLinkUrl).searchParams.get("start") as string;
};

/** Links `chatId` to the client's account the way the bot does when the chat sends /start <token>. */
export const linkTelegram = async (db: TDb, c: TClient, chatId: number | string) =>
  linkTelegramChat(db, await linkTokenOf(c), String(chatId));

/** The 6-digit code in the text of a code message. */
export const codeIn = (text: string | undefined) => {
  const code = /\b(\d{6})\b/.exec(text ?? "")?.[1];
  if (!code) throw new Error(`no code in ${JSON.stringify(text)}`);
  return code;
};

/**
 * Proves `phone` for the client's account: asks for a code, reads it from the last message `lastTextTo` saw reach
 * the number, and types it back. Resolves with the preferences the verify call answers.
 */
export const verifyWhatsApp = async (
  c: TClient,
  phone: string,
  lastTextTo: (phone: string) => string | undefined | Promise<string | undefined>,
) => {
  const sent = await c.post("/api/messaging/whatsapp/code", { phoneNumber: phone });
  if (sent.status !== 200) throw new Error(`code not sent: ${sent.status} ${sent.text}`);
  const res = await c.post("/api/messaging/whatsapp/verify", { code: codeIn(await lastTextTo(phone)) });
  if (res.status !== 200) throw new Error(`code not accepted: ${res.status} ${res.text}`);
  return res.json;
};
