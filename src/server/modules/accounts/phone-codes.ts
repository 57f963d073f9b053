// One-time codes by SMS: a password reset for an account with a phone, and the proof of a number added to an account.
// Asking only enqueues a job under a random key (the same work whether or not the number has an account); the job
// looks the account up, records the code and sends it. The code is derived from the job's key with the server key, so a
// retried send carries the same code and no table or job payload holds it; the row keeps only its HMAC. A code works
// once, for 30 minutes and 5 tries (counted before each comparison, so guesses sent together get no more). A number
// gets at most 5 codes an hour and the deployment at most SMS_DAILY_LIMIT a day, both counted under a lock.
import { timingSafeEqual } from "node:crypto";
import { and, count, eq, gt, gte, inArray, isNull, lt, ne, sql } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import { loginFailures, phoneCodes, sessions, users } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import { AppError } from "../../errors";
import { isLanguage, translate } from "../../i18n";
import type { TSmsServices } from "../../integrations/sms/registry";
import { enqueue } from "../../jobs/queue";
import type { TLogger } from "../../logger";
import type { TSecretBox } from "../../secrets";
import { PHONE_CODE_SMS } from "./jobs";
import { hashPassword } from "./password";
import { LOGIN_LIMITS, signInKeysOf } from "./rate-limit";

/** How long a code works. */
export const CODE_TTL_MS = 30 * 60_000;
/** Codes one number gets per hour; further asks send nothing and answer as usual. */
export const CODES_PER_NUMBER_PER_HOUR = 5;
/** Tries a code takes, right or wrong. */
export const CODE_TRIES = 5;
const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

export type TCodePurpose = "reset" | "add_phone" | "signin" | "delete_account";

/** The 6-digit code of a job key: only this server can make it, and a retry makes the same one. */
export const codeFor = (secrets: TSecretBox, jobKey: string) =>
  String(Number.parseInt(secrets.mac(`phone-code:${jobKey}`).slice(0, 12), 16) % 1_000_000).padStart(6, "0");

/** What the table keeps of a code: an HMAC bound to the number and the purpose (6 digits are no secret to a SHA-256). */
const codeHashOf = (secrets: TSecretBox, phone: string, purpose: TCodePurpose, code: string) =>
  secrets.mac(`phone-code-hash:${purpose}:${phone}:${code}`);

const sameHex = (a: string, b: string) =>
  a.length === b.length && timingSafeEqual(Buffer.from(a, "hex"), Buffer.from(b, "hex"));

/** A code's job: the number, what the code is for, the account that asked (adding a number) and, for a sign-in code
 * to a number that may have no account yet, the language of the page that asked. */
export type TPhoneCodePayload = { phone: string; purpose: TCodePurpose; userId?: number; language?: TLanguage };

/** Enqueues the SMS of a new code under a random key, in the caller's transaction. */
export const enqueuePhoneCode = async (
  tx: Parameters<typeof enqueue>[0],
  payload: TPhoneCodePayload,
  now = Date.now(),
) => {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
  await enqueue(tx, PHONE_CODE_SMS, payload, { uniqueKey: `phone-code:${nonce}` }, now);
};

/** The SMS's text in the account's language. */
export const phoneCodeText = (locale: TLanguage, purpose: TCodePurpose, code: string) =>
  purpose === "signin"
    ? translate(
        locale,
        /*i18n*/ {
          id: "sms.signIn",
          message: "MyTess sign-in code: {code}. It works for 30 minutes. Do not share it.",
        },
        { code },
      )
    : purpose === "reset"
      ? translate(
          locale,
          /*i18n*/ {
            id: "sms.passwordReset",
            message:
              "MyTess password reset code: {code}. It works for 30 minutes. If you did not ask for it, ignore this message.",
          },
          { code },
        )
      : purpose === "delete_account"
        ? translate(
            locale,
            /*i18n*/ {
              id: "sms.deleteAccount",
              message:
                "MyTess code to delete your account: {code}. It works for 30 minutes. If you did not ask for it, change your password.",
            },
            { code },
          )
        : translate(
            locale,
            /*i18n*/ {
              id: "sms.confirmPhone",
              message: "MyTess code to confirm this phone number: {code}. It works for 30 minutes. Do not share it.",
            },
            { code },
          );

export type TPhoneCodeDeps = { sms: TSmsServices; secrets: TSecretBox; log: TLogger };

/**
 * The job: finds the account (a reset or a sign-in: by its number; adding a number: the account that asked), records the
 * code once per job key within the number's hourly and the deployment's daily limits, and sends it unless this job
 * already did. A sign-in code goes out whether or not the number has an account: with one it signs in, without one it
 * makes the account (the same SMS either way, so it tells nobody which numbers have accounts).
 */
export const sendPhoneCode = async (
  db: TDb,
  deps: TPhoneCodeDeps,
  payload: TPhoneCodePayload,
  jobKey: string,
  now = Date.now(),
) => {
  const { phone, purpose } = payload;
  const user =
    purpose === "add_phone" || purpose === "delete_account"
      ? first(
          await db
            .select()
            .from(users)
            .where(eq(users.id, payload.userId ?? 0))
            .limit(1),
        )
      : first(await db.select().from(users).where(eq(users.phone, phone)).limit(1));
  if (!user && purpose !== "signin") return { sent: false as const, reason: "no account" };
  const sender = deps.sms.senderFor(phone);
  if (!sender) {
    deps.log.warn("an SMS code was asked for but no SMS provider reaches the number", { userId: user?.id });
    return { sent: false as const, reason: "no provider" };
  }
  const row = await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`sms:${phone}`, "sms:deployment"]);
    const [mine] = await tx.select().from(phoneCodes).where(eq(phoneCodes.jobKey, jobKey));
    if (mine) return mine;
    const [perNumber] = await tx
      .select({ n: count() })
      .from(phoneCodes)
      .where(and(eq(phoneCodes.phone, phone), gte(phoneCodes.createdAt, now - HOUR_MS)));
    if (Number(perNumber?.n ?? 0) >= CODES_PER_NUMBER_PER_HOUR) return "hourly limit" as const;
    const [perDay] = await tx
      .select({ n: count() })
      .from(phoneCodes)
      .where(gte(phoneCodes.createdAt, now - DAY_MS));
    if (Number(perDay?.n ?? 0) >= deps.sms.dailyLimit) return "daily limit" as const;
    const [made] = await tx
      .insert(phoneCodes)
      .values({
        phone,
        purpose,
        userId: user?.id ?? null,
        jobKey,
        codeHash: codeHashOf(deps.secrets, phone, purpose, codeFor(deps.secrets, jobKey)),
        expiresAt: now + CODE_TTL_MS,
        createdAt: now,
      })
      .returning();
    return made!;
  });
  if (typeof row === "string") {
    deps.log.warn(`SMS codes reached the ${row}`, { userId: user?.id });
    return { sent: false as const, reason: row };
  }
  // Sent before (the worker stopped after the provider took it): never a second SMS.
  if (row.sentAt !== null) return { sent: true as const, again: false };
  if (row.usedAt !== null || row.expiresAt <= now) return { sent: false as const, reason: "expired" };
  const language = user?.language ?? payload.language;
  const locale = language && isLanguage(language) ? language : "en";
  const result = await sender.send({ to: phone, body: phoneCodeText(locale, purpose, codeFor(deps.secrets, jobKey)) });
  if (result.status === "refused") {
    deps.log.warn("the SMS provider refused a code", {
      userId: user?.id,
      provider: result.provider,
      reason: result.reason,
    });
    await db.update(phoneCodes).set({ provider: result.provider }).where(eq(phoneCodes.id, row.id));
    return { sent: false as const, reason: "refused" };
  }
  await db
    .update(phoneCodes)
    .set({ sentAt: Date.now(), provider: result.provider, providerMessageId: result.messageId })
    .where(eq(phoneCodes.id, row.id));
  return { sent: true as const };
};

export const CODE_INVALID = /*i18n*/ {
  id: "error.auth.codeInvalid",
  message: "This code is wrong, used or expired. Check the SMS or ask for a new code.",
};
export const codeInvalid = () =>
  new AppError("BAD_REQUEST", CODE_INVALID, { issues: [{ path: "code", message: CODE_INVALID }] });

/**
 * Counts one try on every live code of the number (only those with tries left, in one conditional update, committed
 * on its own so a wrong code's try stays counted) and answers the id of the one that matches, if any.
 */
export const tryCode = async (
  db: TDb,
  secrets: TSecretBox,
  where: { phone: string; purpose: TCodePurpose; userId?: number },
  code: string,
  now: number,
) => {
  const live = await db
    .select({ id: phoneCodes.id })
    .from(phoneCodes)
    .where(
      and(
        eq(phoneCodes.phone, where.phone),
        eq(phoneCodes.purpose, where.purpose),
        isNull(phoneCodes.usedAt),
        gt(phoneCodes.expiresAt, now),
        lt(phoneCodes.attempts, CODE_TRIES),
        where.userId === undefined ? undefined : eq(phoneCodes.userId, where.userId),
      ),
    );
  if (!live.length) return null;
  const counted = await db
    .update(phoneCodes)
    .set({ attempts: sql`${phoneCodes.attempts} + 1` })
    .where(
      and(
        inArray(
          phoneCodes.id,
          live.map((r) => r.id),
        ),
        lt(phoneCodes.attempts, CODE_TRIES),
      ),
    )
    .returning({ id: phoneCodes.id, codeHash: phoneCodes.codeHash });
  const hash = codeHashOf(secrets, where.phone, where.purpose, code);
  return counted.find((r) => sameHex(r.codeHash, hash))?.id ?? null;
};

/** Takes a matched code (a conditional update: of two uses at once one wins) and ends the number's other codes. */
export const takeCode = async (tx: Parameters<Parameters<TDb["transaction"]>[0]>[0], id: number, now: number) => {
  const [taken] = await tx
    .update(phoneCodes)
    .set({ usedAt: now })
    .where(and(eq(phoneCodes.id, id), isNull(phoneCodes.usedAt)))
    .returning();
  if (!taken) throw codeInvalid();
  await tx
    .update(phoneCodes)
    .set({ usedAt: now })
    .where(and(eq(phoneCodes.phone, taken.phone), eq(phoneCodes.purpose, taken.purpose), isNull(phoneCodes.usedAt)));
  return taken;
};

/**
 * POST /api/auth/password/reset {phone, code, password}: sets the password of the account the code was sent to (if the
 * number is still its own), ends every session of it. Returns the account.
 */
export const resetPasswordWithCode = async (
  db: TDb,
  secrets: TSecretBox,
  input: { phone: string; code: string; password: string },
  now = Date.now(),
) => {
  // Hashed first, so a wrong code answers no faster than a right one.
  const passwordHash = await hashPassword(input.password);
  const id = await tryCode(db, secrets, { phone: input.phone, purpose: "reset" }, input.code, now);
  if (id === null) throw codeInvalid();
  return db.transaction(async (tx) => {
    const taken = await takeCode(tx, id, now);
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(and(eq(users.id, taken.userId ?? 0), eq(users.phone, input.phone)))
      .returning();
    if (!user) throw codeInvalid();
    await tx.delete(sessions).where(eq(sessions.userId, user.id));
    // The owner proved the phone: the account's sign-in backoff from guessers is forgotten.
    await tx.delete(loginFailures).where(inArray(loginFailures.key, signInKeysOf(user)));
    return user;
  });
};

export const PHONE_TAKEN = /*i18n*/ {
  id: "error.auth.phoneTaken",
  message: "Another account uses this phone number",
};

/**
 * Codes one account may ask for to add a number, per 15 minutes (each SMS costs; the number's own hourly limit is the
 * job's). The window is the sign-in attempts' one, which housekeeping keeps.
 */
export const ADD_PHONE_PER_WINDOW = 3;
const ADD_PHONE_WINDOW_MS = LOGIN_LIMITS.windowMs;

/** POST /api/user/phone {phone}: sends a code to the number for the signed-in account (202). */
export const requestPhoneCode = async (db: TDb, userId: number, phone: string, now = Date.now()) => {
  const [other] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.phone, phone), ne(users.id, userId)));
  if (other) throw new AppError("CONFLICT", PHONE_TAKEN, { issues: [{ path: "phone", message: PHONE_TAKEN }] });
  await db.transaction(async (tx) => {
    const key = `ph:${userId}`;
    await db.q.lockKeys(tx, [key]);
    const recent = await tx
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, key), gte(loginFailures.at, now - ADD_PHONE_WINDOW_MS)))
      .orderBy(loginFailures.at);
    if (recent.length >= ADD_PHONE_PER_WINDOW) {
      const retryAfterMs = recent[0]!.at + ADD_PHONE_WINDOW_MS - now;
      const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.auth.tooManyCodes",
          message: "Too many codes asked for. Try again in {minutes, plural, one {# minute} other {# minutes}}.",
          values: { minutes },
        },
        { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) },
      );
    }
    await tx.insert(loginFailures).values({ key, at: now });
    await enqueuePhoneCode(tx, { phone, purpose: "add_phone", userId }, now);
  });
};

/** POST /api/user/phone/verify {phone, code}: the number becomes the signed-in account's, proven by the code sent. */
export const confirmPhone = async (
  db: TDb,
  secrets: TSecretBox,
  userId: number,
  input: { phone: string; code: string },
  now = Date.now(),
) => {
  const id = await tryCode(db, secrets, { phone: input.phone, purpose: "add_phone", userId }, input.code, now);
  if (id === null) throw codeInvalid();
  return db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`phone:${input.phone}`]);
    const [other] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.phone, input.phone), ne(users.id, userId)));
    if (other) throw new AppError("CONFLICT", PHONE_TAKEN, { issues: [{ path: "phone", message: PHONE_TAKEN }] });
    await takeCode(tx, id, now);
    const [user] = await tx
      .update(users)
      .set({ phone: input.phone, updatedAt: now })
      .where(eq(users.id, userId))
      .returning();
    return user!;
  });
};
