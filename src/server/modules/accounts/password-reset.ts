// Password reset by mail. Asking is answered the same way whether or not an account uses the address: the request
// only enqueues a job (the same work either way), and the job looks the account up, makes the link and sends it. The
// link's token is derived from the job's random key with the server key, so a retried send mails the same link; the
// database keeps only its SHA-256. A link works once, for 30 minutes; using it sets the password and ends every
// session of the account (the browser that used it gets a new one).
import { and, count, eq, gt, gte, inArray, isNull } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import { loginFailures, passwordResets, sessions, users } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import type { TForgotPasswordInput, TResetPasswordInput } from "../../../shared/schemas/auth";
import { AppError } from "../../errors";
import { isLanguage, translate } from "../../i18n";
import type { TMail, TMailer } from "../../integrations/mail/smtp";
import { enqueue } from "../../jobs/queue";
import type { TLogger } from "../../logger";
import type { TSecretBox } from "../../secrets";
import { composeMail, messageIdFor } from "../mail/compose";
import { PASSWORD_RESET_MAIL } from "./jobs";
import { hashPassword } from "./password";
import { enqueuePhoneCode } from "./phone-codes";
import { signInKeysOf } from "./rate-limit";
import { hashToken } from "./sessions";
import { findUserByEmail } from "./users";

/** How long a reset link works. */
export const RESET_TTL_MS = 30 * 60_000;
/** Reset mails one account gets per hour; more asks send nothing (and say nothing, as for an unknown address). */
export const RESETS_PER_HOUR = 5;
/** Reset requests one client address may make in 15 minutes, whichever addresses it asks for. */
export const FORGOT_PER_ADDRESS = 10;
const FORGOT_WINDOW_MS = 15 * 60_000;
const HOUR_MS = 60 * 60_000;

const tooManyRequests = (retryAfterMs: number) => {
  const minutes = Math.max(1, Math.ceil(retryAfterMs / 60_000));
  return new AppError(
    "TOO_MANY_REQUESTS",
    /*i18n*/ {
      id: "error.auth.tooManyResetRequests",
      message: "Too many password reset requests. Try again in {minutes, plural, one {# minute} other {# minutes}}.",
      values: { minutes },
    },
    { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) },
  );
};

/**
 * POST /api/auth/password/forgot {email} or {phone}: counts the request against the client address (under its lock,
 * shared by every process), then enqueues the reset mail's or SMS code's job under a random key. Nothing here depends
 * on the account.
 */
export const requestPasswordReset = async (db: TDb, input: TForgotPasswordInput, ip: string, now = Date.now()) =>
  db.transaction(async (tx) => {
    const key = `f:${ip}`;
    await db.q.lockKeys(tx, [key]);
    const recent = await tx
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, key), gte(loginFailures.at, now - FORGOT_WINDOW_MS)))
      .orderBy(loginFailures.at);
    if (recent.length >= FORGOT_PER_ADDRESS) throw tooManyRequests(recent[0]!.at + FORGOT_WINDOW_MS - now);
    await tx.insert(loginFailures).values({ key, at: now });
    if (input.phone !== undefined) {
      await enqueuePhoneCode(tx, { phone: input.phone, purpose: "reset" }, now);
      return;
    }
    const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
    await enqueue(tx, PASSWORD_RESET_MAIL, { email: input.email! }, { uniqueKey: `password-reset:${nonce}` }, now);
  });

/** The link's token for a job key: 256 bits from the server key, so only this server can make it. */
const tokenFor = (secrets: TSecretBox, jobKey: string) =>
  Buffer.from(secrets.mac(`password-reset:${jobKey}`), "hex").toString("base64url");

/** The reset mail in the account's language. */
export const passwordResetMail = (locale: TLanguage, to: string, link: string, messageId: string): TMail =>
  composeMail(locale, to, messageId, {
    subject: translate(locale, /*i18n*/ { id: "mail.passwordReset.subject", message: "Reset your MyTess password" }),
    intro: [
      translate(
        locale,
        /*i18n*/ {
          id: "mail.passwordReset.intro",
          message:
            "Someone asked to reset the password of the MyTess account that uses this email address. The link below works once, for 30 minutes.",
        },
      ),
    ],
    action: {
      label: translate(
        locale,
        /*i18n*/ {
          id: "mail.passwordReset.action",
          comment: "Button in the password reset mail",
          message: "Choose a new password",
        },
      ),
      url: link,
    },
    outro: [
      translate(
        locale,
        /*i18n*/ {
          id: "mail.passwordReset.outro",
          message:
            "If you did not ask for this, ignore this mail: your password stays as it is. Choosing a new password signs you out on every other device.",
        },
      ),
    ],
  });

export type TResetMailDeps = {
  mailer: TMailer | null;
  secrets: TSecretBox;
  log: TLogger;
  baseUrl: string;
};

/**
 * The job: looks the account up, records the link (once per job key, at most RESETS_PER_HOUR per account, counted
 * under the account's lock) and sends it. An unknown address, a full hour or an expired link sends nothing.
 */
export const sendPasswordResetMail = async (
  db: TDb,
  deps: TResetMailDeps,
  email: string,
  jobKey: string,
  now = Date.now(),
) => {
  const user = await findUserByEmail(db, email);
  if (!user) return { sent: false as const, reason: "no account" };
  if (!deps.mailer) {
    deps.log.warn("password reset asked but no mail is configured (SMTP_URL)", { userId: user.id });
    return { sent: false as const, reason: "no mail" };
  }
  const token = tokenFor(deps.secrets, jobKey);
  const row = await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`password-reset:${user.id}`]);
    const [mine] = await tx.select().from(passwordResets).where(eq(passwordResets.jobKey, jobKey));
    if (mine) return mine;
    const [recent] = await tx
      .select({ n: count() })
      .from(passwordResets)
      .where(and(eq(passwordResets.userId, user.id), gte(passwordResets.createdAt, now - HOUR_MS)));
    if (Number(recent?.n ?? 0) >= RESETS_PER_HOUR) return null;
    const [made] = await tx
      .insert(passwordResets)
      .values({ userId: user.id, jobKey, tokenHash: hashToken(token), expiresAt: now + RESET_TTL_MS, createdAt: now })
      .returning();
    return made;
  });
  if (!row) {
    deps.log.warn("password reset mails for this account reached the hourly limit", { userId: user.id });
    return { sent: false as const, reason: "hourly limit" };
  }
  if (row.usedAt !== null || row.expiresAt <= now) return { sent: false as const, reason: "expired" };
  const locale = isLanguage(user.language) ? user.language : "en";
  const link = `${deps.baseUrl.replace(/\/$/, "")}/reset-password?token=${token}`;
  const result = await deps.mailer.send(passwordResetMail(locale, email, link, messageIdFor(jobKey, deps.baseUrl)));
  if (result.status === "refused") {
    deps.log.warn("the mail server refused a password reset mail", { userId: user.id, reason: result.reason });
    return { sent: false as const, reason: "refused" };
  }
  return { sent: true as const };
};

export const RESET_LINK_INVALID = /*i18n*/ {
  id: "error.auth.resetLinkInvalid",
  message: "This reset link is invalid, used or expired. Ask for a new one.",
};

/**
 * POST /api/auth/password/reset {token, password}: takes the link (a conditional update, so two uses at once get one
 * success), sets the password, ends every session of the account and every other link it has. Returns the account.
 */
export const resetPasswordWithToken = async (
  db: TDb,
  input: Pick<TResetPasswordInput, "password"> & { token: string },
  now = Date.now(),
) => {
  // Hashed first, so a wrong token answers no faster than a right one.
  const passwordHash = await hashPassword(input.password);
  const tokenHash = hashToken(input.token);
  return db.transaction(async (tx) => {
    const [taken] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(
        and(eq(passwordResets.tokenHash, tokenHash), isNull(passwordResets.usedAt), gt(passwordResets.expiresAt, now)),
      )
      .returning({ userId: passwordResets.userId });
    if (!taken)
      throw new AppError("BAD_REQUEST", RESET_LINK_INVALID, {
        issues: [{ path: "token", message: RESET_LINK_INVALID }],
      });
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, taken.userId), isNull(passwordResets.usedAt)));
    const [user] = await tx
      .update(users)
      .set({ passwordHash, updatedAt: now })
      .where(eq(users.id, taken.userId))
      .returning();
    await tx.delete(sessions).where(eq(sessions.userId, taken.userId));
    // The owner proved the mailbox: the account's sign-in backoff from guessers is forgotten.
    await tx.delete(loginFailures).where(inArray(loginFailures.key, signInKeysOf(user!)));
    return first([user])!;
  });
};
