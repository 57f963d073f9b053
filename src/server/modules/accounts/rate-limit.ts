import { and, asc, count, eq, gte, inArray, lt, max, min, notLike, or } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import { loginFailures } from "../../../../db/tables";
import { AppError } from "../../errors";

/**
 * Sign-in attempts are limited three ways, in the spirit of OWASP's authentication guidance:
 * - per account *and* client address (`maxPerAccountAddress`): guessing one account's password from one place stops
 *   after a few tries, without locking the owner out from anywhere else;
 * - per client address (`maxPerAddress`), over all accounts: one place cannot spray many accounts;
 * - per account over all addresses, a slower backoff rather than a lockout: past `accountBackoffAfter` failures in the
 *   window, the account takes one attempt per `accountBackoffMs`, so a distributed guesser gets a trickle and the owner
 *   waits seconds, never the whole window.
 */
export const LOGIN_LIMITS = {
  windowMs: 15 * 60 * 1000,
  maxPerAccountAddress: 5,
  maxPerAddress: 20,
  accountBackoffAfter: 10,
  accountBackoffMs: 30 * 1000,
};

/**
 * Rows of `login_failures` whose key starts with this are counted over an hour (a number's sign-in codes), so they are
 * kept an hour rather than the sign-in window.
 */
export const HOURLY_KEY_PREFIX = "hour:";
const HOUR_MS = 60 * 60_000;

/** The rows past use: older than the window, or than an hour for the hourly keys. */
export const expiredAttempts = (now: number) =>
  or(
    lt(loginFailures.at, now - HOUR_MS),
    and(lt(loginFailures.at, now - LOGIN_LIMITS.windowMs), notLike(loginFailures.key, `${HOURLY_KEY_PREFIX}%`)),
  );

const normal = (email: string) => email.trim().toLowerCase();
const keysOf = (email: string, ip: string) =>
  ({ pair: `p:${normal(email)}|${ip}`, address: `i:${ip}`, account: `a:${normal(email)}` }) as const;

/** The per-account backoff keys of an account: its email's and its phone number's (either may sign in). */
export const signInKeysOf = (u: { email: string | null; phone: string | null }) =>
  [u.email, u.phone].filter((v): v is string => !!v).map((v) => keysOf(v, "").account);

const refuse = (retryAfterMs: number) => {
  const retryAfterSeconds = Math.max(1, Math.ceil(retryAfterMs / 1000));
  return new AppError(
    "TOO_MANY_REQUESTS",
    retryAfterSeconds < 60
      ? /*i18n*/ {
          id: "error.auth.tooManyAttemptsSeconds",
          message: "Too many failed sign-in attempts. Try again in {seconds} seconds.",
          values: { seconds: retryAfterSeconds },
        }
      : /*i18n*/ {
          id: "error.auth.tooManyAttemptsMinutes",
          message:
            "Too many failed sign-in attempts. Try again in {minutes, plural, one {# minute} other {# minutes}}.",
          values: { minutes: Math.ceil(retryAfterSeconds / 60) },
        },
    { retryAfterSeconds },
  );
};

export type TLoginReservation = { ids: number[]; email: string; ip: string };

/**
 * Takes one sign-in attempt out of the allowance *before* the password is checked: within one transaction that holds
 * the keys' locks (shared by every server process and machine) the recent rows are counted and, if the attempt is
 * allowed, one row per key is written. Of N simultaneous attempts only the allowance is evaluated; the rest are refused
 * with 429. The rows stand as failures unless `releaseLoginAttempt` clears them after a right password.
 */
export const reserveLoginAttempt = (db: TDb, email: string, ip: string, now = Date.now()): Promise<TLoginReservation> =>
  db.transaction(async (tx) => {
    const since = now - LOGIN_LIMITS.windowMs;
    const keys = keysOf(email, ip);
    // Attempts on the same keys take turns (PostgreSQL's advisory locks; SQLite's write lock already does it).
    await db.q.lockKeys(tx, [keys.pair, keys.address, keys.account]);
    const stats = async (key: string) =>
      first(
        await tx
          .select({ n: count(), oldest: min(loginFailures.at), newest: max(loginFailures.at) })
          .from(loginFailures)
          .where(and(eq(loginFailures.key, key), gte(loginFailures.at, since))),
      ) ?? { n: 0, oldest: null, newest: null };
    for (const [key, limit] of [
      [keys.pair, LOGIN_LIMITS.maxPerAccountAddress],
      [keys.address, LOGIN_LIMITS.maxPerAddress],
    ] as const) {
      const s = await stats(key);
      if (s.n >= limit && s.oldest != null) throw refuse(s.oldest + LOGIN_LIMITS.windowMs - now);
    }
    const account = await stats(keys.account);
    if (account.n >= LOGIN_LIMITS.accountBackoffAfter && account.newest != null) {
      const next = account.newest + LOGIN_LIMITS.accountBackoffMs;
      if (next > now) throw refuse(next - now);
    }
    const rows = await tx
      .insert(loginFailures)
      .values([keys.pair, keys.address, keys.account].map((key) => ({ key, at: now })))
      .returning({ id: loginFailures.id });
    return { ids: rows.map((r) => r.id), email, ip };
  });

/** A right password: the attempt was no failure, and the account's failures from that address are forgotten. */
export const releaseLoginAttempt = async (db: TDb, r: TLoginReservation) => {
  const keys = keysOf(r.email, r.ip);
  await db.transaction(async (tx) => {
    if (r.ids.length) await tx.delete(loginFailures).where(inArray(loginFailures.id, r.ids));
    await tx.delete(loginFailures).where(inArray(loginFailures.key, [keys.pair, keys.account]));
  });
};

/** Rows older than the window are of no use; a few at a time are cleared as attempts come in. */
export const purgeOldLoginFailures = async (db: TDb, now = Date.now()) => {
  const old = await db
    .select({ id: loginFailures.id })
    .from(loginFailures)
    .where(expiredAttempts(now))
    .orderBy(asc(loginFailures.id))
    .limit(100);
  if (old.length)
    await db.delete(loginFailures).where(
      inArray(
        loginFailures.id,
        old.map((o) => o.id),
      ),
    );
};
