// Proving an email address with a mailed link: the address an account signed up with, or one added to an account made
// with a phone number. Asking only enqueues a job under a random key; the job records the link and mails it. The
// link's token is derived from the job's key with the server key (a retried send mails the same link), the database
// keeps only its SHA-256. A link works once, for 24 hours; using it records the address as the account's, proven.
import { and, count, eq, gt, gte, isNull, ne } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import { emailVerifications, loginFailures, users } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import { AppError } from "../../errors";
import { isLanguage, translate } from "../../i18n";
import type { TMail } from "../../integrations/mail/smtp";
import { enqueue } from "../../jobs/queue";
import type { TSecretBox } from "../../secrets";
import { composeMail, messageIdFor } from "../mail/compose";
import { EMAIL_VERIFICATION_MAIL } from "./jobs";
import type { TResetMailDeps } from "./password-reset";
import { LOGIN_LIMITS } from "./rate-limit";
import { hashToken } from "./sessions";
import { EMAIL_TAKEN } from "./users";

/** How long a link works: a day, since people open sign-up mail later. */
export const EMAIL_LINK_TTL_MS = 24 * 60 * 60_000;
/** Links one account may ask for per 15 minutes (the sign-in window, which housekeeping keeps). */
export const EMAIL_LINKS_PER_WINDOW = 3;
/** Links one account gets per hour, whatever asks for them; more send nothing. */
const LINKS_PER_HOUR = 5;
const HOUR_MS = 60 * 60_000;

const tooMany = (retryAfterMs: number) =>
  new AppError(
    "TOO_MANY_REQUESTS",
    /*i18n*/ {
      id: "error.auth.tooManyEmailLinks",
      message: "Too many links asked for. Try again in {minutes, plural, one {# minute} other {# minutes}}.",
      values: { minutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)) },
    },
    { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) },
  );

const emailTaken = () => new AppError("CONFLICT", EMAIL_TAKEN, { issues: [{ path: "email", message: EMAIL_TAKEN }] });

/** Enqueues the link's mail under a random key, in the caller's transaction (sign-up's, or the request's). */
export const enqueueEmailLink = async (
  tx: Parameters<typeof enqueue>[0],
  payload: { userId: number; email: string },
  now = Date.now(),
) => {
  const nonce = Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex");
  await enqueue(tx, EMAIL_VERIFICATION_MAIL, payload, { uniqueKey: `email-link:${nonce}` }, now);
};

/**
 * POST /api/user/email {email}: mails a link to the address for the signed-in account (202). An address another
 * account uses is a 409, as at sign-up; the caller's own unproven address gets its link again.
 */
export const requestEmailLink = async (db: TDb, userId: number, email: string, now = Date.now()) => {
  const [other] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.email, email), ne(users.id, userId)));
  if (other) throw emailTaken();
  await db.transaction(async (tx) => {
    const key = `ev:${userId}`;
    await db.q.lockKeys(tx, [key]);
    const recent = await tx
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, key), gte(loginFailures.at, now - LOGIN_LIMITS.windowMs)))
      .orderBy(loginFailures.at);
    if (recent.length >= EMAIL_LINKS_PER_WINDOW) throw tooMany(recent[0]!.at + LOGIN_LIMITS.windowMs - now);
    await tx.insert(loginFailures).values({ key, at: now });
    await enqueueEmailLink(tx, { userId, email }, now);
  });
};

const tokenFor = (secrets: TSecretBox, jobKey: string) =>
  Buffer.from(secrets.mac(`email-link:${jobKey}`), "hex").toString("base64url");

/** The link's mail in the account's language. */
export const emailLinkMail = (locale: TLanguage, to: string, link: string, messageId: string): TMail =>
  composeMail(locale, to, messageId, {
    subject: translate(locale, /*i18n*/ { id: "mail.verifyEmail.subject", message: "Confirm your email for MyTess" }),
    intro: [
      translate(
        locale,
        /*i18n*/ {
          id: "mail.verifyEmail.intro",
          message:
            "Confirm that this email address belongs to your MyTess account. The link below works once, for 24 hours.",
        },
      ),
    ],
    action: {
      label: translate(
        locale,
        /*i18n*/ {
          id: "mail.verifyEmail.action",
          comment: "Button in the mail that confirms an email address",
          message: "Confirm my email",
        },
      ),
      url: link,
    },
    outro: [
      translate(
        locale,
        /*i18n*/ {
          id: "mail.verifyEmail.outro",
          message: "If you did not use this address on MyTess, ignore this mail.",
        },
      ),
    ],
  });

/** The job: records the link (once per job key, at most LINKS_PER_HOUR per account) and mails it. */
export const sendEmailLink = async (
  db: TDb,
  deps: TResetMailDeps,
  payload: { userId: number; email: string },
  jobKey: string,
  now = Date.now(),
) => {
  const user = first(await db.select().from(users).where(eq(users.id, payload.userId)).limit(1));
  if (!user) return { sent: false as const, reason: "no account" };
  // Proven since it was asked for (another link used first, or "send again" pressed twice): no mail to confuse.
  if (user.email === payload.email && user.emailVerifiedAt !== null)
    return { sent: false as const, reason: "already confirmed" };
  if (!deps.mailer) {
    deps.log.warn("an email link was asked for but no mail is configured (SMTP_URL)", { userId: user.id });
    return { sent: false as const, reason: "no mail" };
  }
  const token = tokenFor(deps.secrets, jobKey);
  const row = await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`email-link:${user.id}`]);
    const [mine] = await tx.select().from(emailVerifications).where(eq(emailVerifications.jobKey, jobKey));
    if (mine) return mine;
    const [recent] = await tx
      .select({ n: count() })
      .from(emailVerifications)
      .where(and(eq(emailVerifications.userId, user.id), gte(emailVerifications.createdAt, now - HOUR_MS)));
    if (Number(recent?.n ?? 0) >= LINKS_PER_HOUR) return null;
    const [made] = await tx
      .insert(emailVerifications)
      .values({
        userId: user.id,
        email: payload.email,
        jobKey,
        tokenHash: hashToken(token),
        expiresAt: now + EMAIL_LINK_TTL_MS,
        createdAt: now,
      })
      .returning();
    return made!;
  });
  if (!row) {
    deps.log.warn("email links for this account reached the hourly limit", { userId: user.id });
    return { sent: false as const, reason: "hourly limit" };
  }
  if (row.usedAt !== null || row.expiresAt <= now) return { sent: false as const, reason: "expired" };
  const locale = isLanguage(user.language) ? user.language : "en";
  const link = `${deps.baseUrl.replace(/\/$/, "")}/verify-email?token=${token}`;
  const result = await deps.mailer.send(emailLinkMail(locale, payload.email, link, messageIdFor(jobKey, deps.baseUrl)));
  if (result.status === "refused") {
    deps.log.warn("the mail server refused an email link", { userId: user.id, reason: result.reason });
    return { sent: false as const, reason: "refused" };
  }
  return { sent: true as const };
};

export const EMAIL_LINK_INVALID = /*i18n*/ {
  id: "error.auth.emailLinkInvalid",
  message: "This confirmation link is invalid, used or expired. Ask for a new one.",
};

/**
 * POST /api/auth/email/verify {token}: takes the link (a conditional update: two uses at once get one success) and
 * records its address as the account's, proven. The link is the proof, so it works signed out (a phone's mail app).
 */
export const confirmEmail = async (db: TDb, token: string, now = Date.now()) =>
  db.transaction(async (tx) => {
    const [taken] = await tx
      .update(emailVerifications)
      .set({ usedAt: now })
      .where(
        and(
          eq(emailVerifications.tokenHash, hashToken(token)),
          isNull(emailVerifications.usedAt),
          gt(emailVerifications.expiresAt, now),
        ),
      )
      .returning();
    if (!taken)
      throw new AppError("BAD_REQUEST", EMAIL_LINK_INVALID, {
        issues: [{ path: "token", message: EMAIL_LINK_INVALID }],
      });
    await db.q.lockKeys(tx, [`email:${taken.email}`]);
    const [other] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, taken.email), ne(users.id, taken.userId)));
    if (other) throw emailTaken();
    const [user] = await tx
      .update(users)
      .set({ email: taken.email, emailVerifiedAt: now, updatedAt: now })
      .where(eq(users.id, taken.userId))
      .returning();
    return user!;
  });
