import { and, asc, eq, gte, lt, sql } from "drizzle-orm";
import type { Db } from "../../../../db/client";
import { loginFailures } from "../../../../db/schema";
import { AppError } from "../../errors";

export const LOGIN_LIMITS = { windowMs: 15 * 60 * 1000, maxPerAccount: 5, maxPerIp: 20 };

const keysOf = (email: string, ip: string) => [`a:${email.trim().toLowerCase()}`, `i:${ip}`] as const;

/**
 * Failed sign-ins are counted per account and per client address over a sliding window, in the database so that every
 * server process sees the same counts. Past the limit, attempts are refused (even with the right password) until the
 * oldest failure leaves the window.
 */
export const checkLoginAllowed = (db: Db, email: string, ip: string, now = Date.now()) => {
  const since = now - LOGIN_LIMITS.windowMs;
  const [account, address] = keysOf(email, ip);
  for (const [key, max] of [
    [account, LOGIN_LIMITS.maxPerAccount],
    [address, LOGIN_LIMITS.maxPerIp],
  ] as const) {
    const row = db
      .select({ n: sql<number>`count(*)`, oldest: sql<number | null>`min(${loginFailures.at})` })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, key), gte(loginFailures.at, since)))
      .get();
    if (row && row.n >= max && row.oldest != null) {
      const retryAfterSeconds = Math.max(1, Math.ceil((row.oldest + LOGIN_LIMITS.windowMs - now) / 1000));
      throw new AppError(
        "TOO_MANY_REQUESTS",
        `Too many failed sign-in attempts. Try again in ${Math.ceil(retryAfterSeconds / 60)} minutes.`,
        {
          retryAfterSeconds,
        },
      );
    }
  }
};

export const recordLoginFailure = (db: Db, email: string, ip: string, now = Date.now()) => {
  db.insert(loginFailures)
    .values(keysOf(email, ip).map((key) => ({ key, at: now })))
    .run();
  // Old rows are of no use; a few at a time are cleared as failures come in.
  const old = db
    .select({ id: loginFailures.id })
    .from(loginFailures)
    .where(lt(loginFailures.at, now - LOGIN_LIMITS.windowMs))
    .orderBy(asc(loginFailures.id))
    .limit(100)
    .all();
  if (old.length)
    db.delete(loginFailures)
      .where(
        sql`${loginFailures.id} IN (${sql.join(
          old.map((o) => sql`${o.id}`),
          sql`, `,
        )})`,
      )
      .run();
};

/** A successful sign-in clears the account's failures (not the address's). */
export const clearAccountFailures = (db: Db, email: string) =>
  db
    .delete(loginFailures)
    .where(eq(loginFailures.key, keysOf(email, "")[0]))
    .run();
