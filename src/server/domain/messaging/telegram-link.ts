// Telegram chats linked to accounts: by a one-time deep link (/start <token>), looked up for every command, unlinked
// by /stop.
import { createHash } from "node:crypto";
import { and, eq, gt, ne } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { messagingPreferences, telegramLinkTokens, type User, users } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import { AppError } from "../../errors";
import { isLanguage } from "../../i18n";
import { hasPremium } from "../billing/premium";

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * Links the chat to the account whose deep link carried `token`: the token is used up, the chat moves away from any
 * other account it was linked to, and Telegram is turned on (a block noted earlier is forgotten) if the account has
 * premium. A new messaging row takes the account's language, so the bot speaks it from the first message.
 */
export const linkTelegramChat = (db: TDb, token: string, chatId: string, now = Date.now()) =>
  db.transaction(async (tx) => {
    const [used] = await tx
      .delete(telegramLinkTokens)
      .where(and(eq(telegramLinkTokens.tokenHash, hashToken(token)), gt(telegramLinkTokens.expiresAt, now)))
      .returning({ userId: telegramLinkTokens.userId });
    if (!used)
      throw new AppError(
        "NOT_FOUND",
        /*i18n*/ {
          id: "error.telegram.linkExpired",
          message:
            "This link has expired or was used already. Open Messaging in MyTess and press Connect Telegram again.",
        },
      );
    const [user] = await tx.select().from(users).where(eq(users.id, used.userId));
    if (!user) throw new AppError("NOT_FOUND", /*i18n*/ { id: "error.user.notFound", message: "User not found" });
    await tx
      .update(messagingPreferences)
      .set({ telegramChatId: null, telegramEnabled: false, updatedAt: now })
      .where(and(eq(messagingPreferences.telegramChatId, chatId), ne(messagingPreferences.userId, user.id)));
    // Chat alerts are premium: without it the chat is linked (commands work) but alerts stay off.
    const values = {
      telegramChatId: chatId,
      telegramEnabled: hasPremium(user, now),
      telegramBlockedAt: null,
      updatedAt: now,
    };
    await tx
      .insert(messagingPreferences)
      .values({ userId: user.id, ...values, language: isLanguage(user.language) ? user.language : "en" })
      .onConflictDoUpdate({ target: messagingPreferences.userId, set: values });
    return user;
  });

/**
 * The account a Telegram chat or a WhatsApp number is linked to, with the language chat messages are written in;
 * null when none is.
 */
export const linkedAccount = async (
  db: TDb,
  by: { telegramChatId: string } | { whatsappNumber: string },
): Promise<{ user: User; language: TLanguage } | null> => {
  const [row] = await db
    .select({ user: users, language: messagingPreferences.language })
    .from(messagingPreferences)
    .innerJoin(users, eq(users.id, messagingPreferences.userId))
    .where(
      "telegramChatId" in by
        ? eq(messagingPreferences.telegramChatId, by.telegramChatId)
        : eq(messagingPreferences.whatsappNumber, by.whatsappNumber),
    );
  return row ? { user: row.user, language: isLanguage(row.language) ? row.language : "en" } : null;
};

/** /stop: the chat is forgotten and Telegram turned off for the account it was linked to. */
export const unlinkTelegramChat = async (db: TDb, chatId: string, now = Date.now()) => {
  const out = await db
    .update(messagingPreferences)
    .set({ telegramChatId: null, telegramEnabled: false, updatedAt: now })
    .where(eq(messagingPreferences.telegramChatId, chatId))
    .returning({ userId: messagingPreferences.userId });
  return out.length > 0;
};

/** The language chat messages are written in, as chosen in the bot (/language) or on the Messaging page. */
export const setMessagingLanguage = (db: TDb, userId: number, language: TLanguage, now = Date.now()) =>
  db.update(messagingPreferences).set({ language, updatedAt: now }).where(eq(messagingPreferences.userId, userId));
