// One holder per deployment for work that must not run twice at once (Telegram's long polling, the WhatsApp Web
// bridge): a row of the jobs table (kind "lease", status "done", so no worker ever claims it as a job) whose lock is
// renewed while its holder lives and taken over once it lapses.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { jobs } from "../../../db/tables";

/** Takes or renews the lease `key` for `holder`; true while it holds it. */
export const takeLease = async (db: TDb, key: string, holder: string, leaseMs: number, now = Date.now()) => {
  await db
    .insert(jobs)
    .values({
      kind: "lease",
      payload: {},
      status: "done",
      runAt: now,
      uniqueKey: key,
      maxAttempts: 1,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const taken = await db
    .update(jobs)
    .set({ lockedBy: holder, lockedUntil: now + leaseMs, updatedAt: now })
    .where(
      and(eq(jobs.uniqueKey, key), or(eq(jobs.lockedBy, holder), isNull(jobs.lockedUntil), lt(jobs.lockedUntil, now))),
    )
    .returning({ id: jobs.id });
  return taken.length > 0;
};

export const releaseLease = (db: TDb, key: string, holder: string) =>
  db
    .update(jobs)
    .set({ lockedBy: null, lockedUntil: null })
    .where(and(eq(jobs.uniqueKey, key), eq(jobs.lockedBy, holder)));
