// Proving a WhatsApp number: a 6-digit code is sent to it (the only message that may go to a number not proven yet)
// and typed back in the app. Until then the number is unverified: sent nothing else, answered for nothing, reserved
// against no one. A proven number belongs to one account; another account that proves it later takes it, since only
// the phone's holder can read the code.
import { randomInt, timingSafeEqual } from "node:crypto";
import { and, count, desc, eq, gte, isNull, lt, ne, sql } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { messagingPreferences, users, whatsappCodes } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import { AppError, type TMessage } from "../../errors";
import { i18n, isLanguage } from "../../i18n";
import type { TSecretBox } from "../../secrets";
import {
  messagingPreferencesOf,
  messagingView,
  type TMessagingDeps,
  template,
  whatsappNotConfigured,
  whatsappNotSent,
} from "./messaging-preferences";

/** How long a code works. */
export const CODE_TTL_MS = 15 * 60_000;
/** Wrong codes one code takes before a new one must be sent. */
export const CODE_ATTEMPTS = 5;
/** Codes sent per account and hour, and to one number per hour from all accounts: a stranger's phone gets few. */
export const CODE_SENDS_PER_HOUR = 5;
/** Code rows are kept this long for the hourly limits, then housekeeping deletes them. */
export const CODE_KEEP_MS = 24 * 60 * 60_000;

const HOUR_MS = 60 * 60_000;

/** The HMAC of a code with the server's key, bound to the account and the number it was sent to. */
const codeHash = (secrets: TSecretBox, userId: number, number: string, code: string) =>
  secrets.mac(`whatsapp-code:${userId}:${number}:${code}`);

const sameHash = (a: string, b: string) => {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
};

/** The code's message, in the messaging language: what it is for, and what to do if it was not asked for. */
export const codeMessage = (locale: TLanguage, code: string) => {
  i18n.activate(locale);
  return {
    title: i18n._({
      id: "messaging.code.title",
      comment: "Title of the WhatsApp message carrying the 6-digit code that proves the number",
      message: "MyTess code: {code}",
      values: { code },
    }),
    body: i18n._({
      id: "messaging.code.body",
      message:
        "Type this code on the Messaging page of MyTess to confirm this WhatsApp number. It works for 15 minutes. If you did not ask for it, ignore this message.",
    }),
  };
};

const tooMany = (message: TMessage) => new AppError("TOO_MANY_REQUESTS", message, { retryAfterSeconds: 3600 });

/**
 * POST /api/messaging/whatsapp/code {phoneNumber}: sends a new code to the number (the account's own verified number
 * needs none: 409). At most CODE_SENDS_PER_HOUR per account and per number, counted under a lock so parallel calls
 * cannot pass the limit; a send that fails still counts. The newest code is the live one.
 */
export const sendWhatsAppCode = async (
  db: TDb,
  deps: TMessagingDeps,
  userId: number,
  phone: string,
  now = Date.now(),
) => {
  const prefs = await messagingPreferencesOf(db, userId);
  if (prefs.whatsappNumber === phone) {
    const verified = /*i18n*/ {
      id: "error.messaging.whatsappVerifiedAlready",
      message: "This WhatsApp number is verified already",
    };
    throw new AppError("CONFLICT", verified, { issues: [{ path: "phoneNumber", message: verified }] });
  }
  const whatsapp = deps.notifiers.get("whatsapp");
  if (!whatsapp) throw whatsappNotConfigured();
  const code = String(randomInt(0, 1_000_000)).padStart(6, "0");
  await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`whatsapp-code:user:${userId}`, `whatsapp-code:number:${phone}`]);
    const since = now - HOUR_MS;
    const [mine] = await tx
      .select({ n: count() })
      .from(whatsappCodes)
      .where(and(eq(whatsappCodes.userId, userId), gte(whatsappCodes.createdAt, since)));
    if (Number(mine.n) >= CODE_SENDS_PER_HOUR)
      throw tooMany(
        /*i18n*/ {
          id: "error.messaging.codeLimit",
          message: "You have asked for {limit} codes in the last hour; try again later",
          values: { limit: CODE_SENDS_PER_HOUR },
        },
      );
    const [theirs] = await tx
      .select({ n: count() })
      .from(whatsappCodes)
      .where(and(eq(whatsappCodes.number, phone), gte(whatsappCodes.createdAt, since)));
    if (Number(theirs.n) >= CODE_SENDS_PER_HOUR)
      throw tooMany(
        /*i18n*/ {
          id: "error.messaging.codeNumberLimit",
          message: "This number has been sent enough codes for now; try again in an hour",
        },
      );
    await tx.insert(whatsappCodes).values({
      userId,
      number: phone,
      codeHash: codeHash(deps.secrets, userId, phone, code),
      expiresAt: now + CODE_TTL_MS,
      createdAt: now,
    });
  });
  const text = codeMessage(prefs.language, code);
  // A number that has not written to us is outside WhatsApp's 24-hour window: the approved template carries the code.
  const result = await whatsapp.send(
    { phone, lastInboundAt: null },
    { ...text, whatsappTemplate: template(prefs.language, text) },
  );
  if (result.status !== "delivered") throw whatsappNotSent(result);
  return { sent: true as const, phoneNumber: phone, expiresAt: new Date(now + CODE_TTL_MS).toISOString() };
};

const codeIssue = (message: TMessage) => ({
  issues: [{ path: "code", message }],
});

const NO_CODE = /*i18n*/ {
  id: "error.messaging.codeMissing",
  message: "There is no code waiting to be confirmed: send a new code",
};

/**
 * POST /api/messaging/whatsapp/verify {code}: checks the account's live code. Every try is counted before the
 * comparison, in one conditional update, so parallel guesses get no more than CODE_ATTEMPTS. The right code makes
 * its number the account's verified number, taking it from any account that had proven it before (which keeps it as
 * unverified), and is used up.
 */
export const verifyWhatsAppCode = async (
  db: TDb,
  deps: TMessagingDeps,
  userId: number,
  code: string,
  now = Date.now(),
) => {
  const [live] = await db
    .select()
    .from(whatsappCodes)
    .where(eq(whatsappCodes.userId, userId))
    .orderBy(desc(whatsappCodes.id))
    .limit(1);
  if (!live || live.usedAt !== null || live.expiresAt <= now)
    throw new AppError("BAD_REQUEST", NO_CODE, codeIssue(NO_CODE));
  const [tried] = await db
    .update(whatsappCodes)
    .set({ attempts: sql`${whatsappCodes.attempts} + 1` })
    .where(and(eq(whatsappCodes.id, live.id), lt(whatsappCodes.attempts, CODE_ATTEMPTS), isNull(whatsappCodes.usedAt)))
    .returning({ attempts: whatsappCodes.attempts });
  if (!tried) {
    const spent = /*i18n*/ {
      id: "error.messaging.codeSpent",
      message: "Too many wrong codes: send a new code",
    };
    throw new AppError("TOO_MANY_REQUESTS", spent, codeIssue(spent));
  }
  if (!sameHash(codeHash(deps.secrets, userId, live.number, code), live.codeHash)) {
    const wrong = /*i18n*/ {
      id: "error.messaging.codeWrong",
      message: "That code is not right; {left, plural, one {# try left} other {# tries left}}",
      values: { left: CODE_ATTEMPTS - tried.attempts },
    };
    throw new AppError("BAD_REQUEST", wrong, codeIssue(wrong));
  }
  await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`whatsapp-number:${live.number}`]);
    const [used] = await tx
      .update(whatsappCodes)
      .set({ usedAt: now })
      .where(and(eq(whatsappCodes.id, live.id), isNull(whatsappCodes.usedAt)))
      .returning({ id: whatsappCodes.id });
    if (!used) throw new AppError("BAD_REQUEST", NO_CODE, codeIssue(NO_CODE));
    await tx
      .update(messagingPreferences)
      .set({
        whatsappNumber: null,
        whatsappPendingNumber: sql`coalesce(${messagingPreferences.whatsappPendingNumber}, ${messagingPreferences.whatsappNumber})`,
        whatsappLastInboundAt: null,
        updatedAt: now,
      })
      .where(and(eq(messagingPreferences.whatsappNumber, live.number), ne(messagingPreferences.userId, userId)));
    const [current] = await tx.select().from(messagingPreferences).where(eq(messagingPreferences.userId, userId));
    const values = {
      whatsappNumber: live.number,
      whatsappPendingNumber: null,
      whatsappLastInboundAt: current?.whatsappNumber === live.number ? current.whatsappLastInboundAt : null,
      updatedAt: now,
    };
    if (current) {
      await tx.update(messagingPreferences).set(values).where(eq(messagingPreferences.userId, userId));
      return;
    }
    const [user] = await tx.select({ language: users.language }).from(users).where(eq(users.id, userId));
    await tx
      .insert(messagingPreferences)
      .values({ userId, ...values, language: isLanguage(user?.language) ? user.language : "en" });
  });
  return messagingView(db, deps, userId, now);
};
