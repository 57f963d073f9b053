// Signing up and in with a phone number and a code by SMS, for drivers who have no email. Asking for a code is answered
// the same whether or not the number has an account (the job sends the same SMS either way); the code proves the
// number, and only then does the answer say whether an account needs making. Codes are the one-time codes of
// `phone-codes.ts` (30 minutes, 5 tries, hashed, at most 5 a number an hour); typing them back is limited like a
// password sign-in (per number and address, per address, and a backoff per number).
import { and, eq, gte } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import { loginFailures, users } from "../../../../db/tables";
import type { TDisplayCurrency, TLanguage, TUserType } from "../../../shared/constants";
import type { TUnits } from "../../../shared/units";
import { AppError } from "../../errors";
import type { TSecretBox } from "../../secrets";
import { CODES_PER_NUMBER_PER_HOUR, codeInvalid, enqueuePhoneCode, takeCode, tryCode } from "./phone-codes";
import {
  HOURLY_KEY_PREFIX,
  LOGIN_LIMITS,
  purgeOldLoginFailures,
  releaseLoginAttempt,
  reserveLoginAttempt,
} from "./rate-limit";
import { trialEnd } from "./users";

/** Sign-in codes one client address may ask for in 15 minutes, whichever numbers it asks for (each SMS costs). */
export const PHONE_START_PER_ADDRESS = 10;
const START_WINDOW_MS = LOGIN_LIMITS.windowMs;
const HOUR_MS = 60 * 60_000;
/** The row kept per sign-in code asked for a number (kept an hour: see HOURLY_KEY_PREFIX). */
const signInCodeKeyOf = (phone: string) => `${HOURLY_KEY_PREFIX}signin-code:${phone}`;

/**
 * POST /api/auth/phone/start {phone}: counts the request against the client address (under its lock), then enqueues
 * the sign-in code's job. Nothing here depends on whether the number has an account.
 */
export const startPhoneSignIn = async (db: TDb, phone: string, ip: string, language: TLanguage, now = Date.now()) =>
  db.transaction(async (tx) => {
    const key = `ps:${ip}`;
    await db.q.lockKeys(tx, [key]);
    const recent = await tx
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, key), gte(loginFailures.at, now - START_WINDOW_MS)))
      .orderBy(loginFailures.at);
    if (recent.length >= PHONE_START_PER_ADDRESS) {
      const retryAfterMs = recent[0]!.at + START_WINDOW_MS - now;
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.auth.tooManyCodes",
          message: "Too many codes asked for. Try again in {minutes, plural, one {# minute} other {# minutes}}.",
          values: { minutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)) },
        },
        { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) },
      );
    }
    // The number's hourly allowance, counted here (not only by the job, which sends nothing past it) so that the 6th
    // ask is told to wait rather than promised an SMS. It counts asks for the number whether or not an account has it,
    // so the answer says nothing about accounts.
    const numberKey = signInCodeKeyOf(phone);
    await db.q.lockKeys(tx, [numberKey]);
    const forNumber = await tx
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, numberKey), gte(loginFailures.at, now - HOUR_MS)))
      .orderBy(loginFailures.at);
    if (forNumber.length >= CODES_PER_NUMBER_PER_HOUR) {
      const retryAfterMs = forNumber[forNumber.length - CODES_PER_NUMBER_PER_HOUR]!.at + HOUR_MS - now;
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.auth.tooManyCodesForNumber",
          message:
            "This number has had 5 codes in the last hour. Try again in {minutes, plural, one {# minute} other {# minutes}}.",
          values: { minutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)) },
        },
        { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) },
      );
    }
    await tx.insert(loginFailures).values([
      { key, at: now },
      { key: numberKey, at: now },
    ]);
    await enqueuePhoneCode(tx, { phone, purpose: "signin", language }, now);
  });

export const ACCOUNT_DETAILS_NEEDED = /*i18n*/ {
  id: "error.auth.phoneAccountDetailsNeeded",
  message: "No account uses this number yet. Give your name and whether you are a driver or a shipper to create one.",
};

type TNewAccount = { firstName?: string; lastName?: string; userType?: TUserType };

/**
 * POST /api/auth/phone/verify {phone, code, firstName?, lastName?, userType?}: the account that has the number signs
 * in; a number without one gets a new account when the name and role are given (no email, no password). A right code
 * for a new number without them is not used up: the same code, sent again with them, makes the account.
 */
export const verifyPhoneSignIn = async (
  db: TDb,
  secrets: TSecretBox,
  input: { phone: string; code: string } & TNewAccount,
  ip: string,
  defaults: { language: TLanguage; currency: TDisplayCurrency; units: TUnits },
  now = Date.now(),
) => {
  const reservation = await reserveLoginAttempt(db, input.phone, ip, now);
  const id = await tryCode(db, secrets, { phone: input.phone, purpose: "signin" }, input.code, now);
  if (id === null) {
    await purgeOldLoginFailures(db);
    throw codeInvalid();
  }
  // A right code is no failed attempt, whatever follows.
  await releaseLoginAttempt(db, reservation);
  const result = await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`phone:${input.phone}`]);
    const existing = first(await tx.select().from(users).where(eq(users.phone, input.phone)).limit(1));
    if (existing) {
      await takeCode(tx, id, now);
      return { user: existing, created: false };
    }
    const { firstName, lastName, userType } = input;
    if (!firstName || !lastName || !userType)
      throw new AppError("BAD_REQUEST", ACCOUNT_DETAILS_NEEDED, {
        issues: [
          { path: !firstName ? "firstName" : !lastName ? "lastName" : "userType", message: ACCOUNT_DETAILS_NEEDED },
        ],
      });
    await takeCode(tx, id, now);
    const [user] = await tx
      .insert(users)
      .values({
        email: null,
        passwordHash: null,
        phone: input.phone,
        firstName,
        lastName,
        userType,
        ...defaults,
        trialEndsAt: trialEnd(now),
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return { user: user!, created: true };
  });
  return result;
};
