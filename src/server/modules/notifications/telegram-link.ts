// Telegram chats linked to accounts: only by a one-time deep link (/start <token>), which proves the chat is the
// user's own (the bot sees it); looked up for every command, unlinked by /stop.
import { createHash, randomBytes } from "node:crypto";
import { and, desc, eq, gt, inArray, lte, ne } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { messagingPreferences, telegramLinkTokens, type User, users } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import { AppError } from "../../errors";
import { isLanguage } from "../../i18n";
import type { TSecretBox } from "../../secrets";
import { hasPremium } from "../billing/premium";

export const LINK_TOKEN_TTL_MS = 60 * 60_000;
/** A link shown again still works at least this long: the user reads the page, then opens Telegram. */
export const LINK_TOKEN_MIN_LEFT_MS = 30 * 60_000;
/** Live tokens one account holds at most: pages open on a few devices, never a pile from reloads. */
export const LINK_TOKENS_PER_USER = 3;

const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/**
 * The token of a stored random id: an HMAC with the server's key, in Telegram's alphabet (43 of A-Z, a-z, 0-9, _ and
 * -; the start parameter takes 64). The database holds the id and the token's SHA-256, never the token: neither a copy
 * of the database nor the key alone makes a link.
 */
const tokenOf = (secrets: TSecretBox, nonce: string) =>
  Buffer.from(secrets.mac(`telegram-link:${nonce}`), "hex").toString("base64url");

/** The newest live token that still has LINK_TOKEN_MIN_LEFT_MS to run and was made under the current key. */
const reusableToken = async (db: Pick<TDb, "select">, secrets: TSecretBox, userId: number, now: number) => {
  const live = await db
    .select()
    .from(telegramLinkTokens)
    .where(and(eq(telegramLinkTokens.userId, userId), gt(telegramLinkTokens.expiresAt, now)))
    .orderBy(desc(telegramLinkTokens.expiresAt));
  for (const r of live) {
    if (!r.nonce || r.expiresAt - now < LINK_TOKEN_MIN_LEFT_MS) continue;
    const token = tokenOf(secrets, r.nonce);
    if (hashToken(token) === r.tokenHash) return { token, live };
  }
  return { token: null, live };
};

/**
 * The token for the user's deep link (t.me/<bot>?start=<token>): the live one again while it has half an hour left,
 * else a new one. Showing the page writes nothing while a link is live; a new token is made under a lock per user, so
 * parallel page loads share one; expired tokens go, and at most LINK_TOKENS_PER_USER stay.
 */
export const telegramLinkToken = async (db: TDb, secrets: TSecretBox, userId: number, now = Date.now()) => {
  const seen = await reusableToken(db, secrets, userId, now);
  if (seen.token) return seen.token;
  return db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`telegram-link:${userId}`]);
    const again = await reusableToken(tx, secrets, userId, now);
    if (again.token) return again.token;
    await tx
      .delete(telegramLinkTokens)
      .where(and(eq(telegramLinkTokens.userId, userId), lte(telegramLinkTokens.expiresAt, now)));
    const extra = again.live.slice(LINK_TOKENS_PER_USER - 1).map((r) => r.tokenHash);
    if (extra.length) await tx.delete(telegramLinkTokens).where(inArray(telegramLinkTokens.tokenHash, extra));
    const nonce = randomBytes(18).toString("base64url");
    const token = tokenOf(secrets, nonce);
    await tx
      .insert(telegramLinkTokens)
      .values({ tokenHash: hashToken(token), userId, nonce, expiresAt: now + LINK_TOKEN_TTL_MS, createdAt: now });
    return token;
  });
};

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
