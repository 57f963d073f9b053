// Long polling for one deployment: Telegram answers getUpdates to one poller at a time (a second gets 409 Conflict), so
// the worker processes take a lease and only its holder polls. The lease is a row of the jobs table (kind "lease",
// status "done", so no worker ever claims it as a job) whose lock is renewed while the holder lives and taken over
// once it lapses.
import { and, eq, isNull, lt, or } from "drizzle-orm";
import type { Bot } from "grammy";
import type { TDb } from "../../../../db/client";
import { jobs } from "../../../../db/tables";
import type { TLogger } from "../../logger";

const LEASE_KEY = "lease:telegram-poller";

/** Takes or renews the lease for `holder`; true while it holds it. */
export const takeLease = async (db: TDb, holder: string, leaseMs: number, now = Date.now()) => {
  await db
    .insert(jobs)
    .values({
      kind: "lease",
      payload: {},
      status: "done",
      runAt: now,
      uniqueKey: LEASE_KEY,
      maxAttempts: 1,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing();
  const taken = await db
    .update(jobs)
    .set({ lockedBy: holder, lockedUntil: now + leaseMs, updatedAt: now })
    .where(
      and(
        eq(jobs.uniqueKey, LEASE_KEY),
        or(eq(jobs.lockedBy, holder), isNull(jobs.lockedUntil), lt(jobs.lockedUntil, now)),
      ),
    )
    .returning({ id: jobs.id });
  return taken.length > 0;
};

export const releaseLease = (db: TDb, holder: string) =>
  db
    .update(jobs)
    .set({ lockedBy: null, lockedUntil: null })
    .where(and(eq(jobs.uniqueKey, LEASE_KEY), eq(jobs.lockedBy, holder)));

/** Polls with `bot` while this process holds the lease; checks the lease every third of its length. */
export const startTelegramPoller = ({
  db,
  bot,
  log,
  holder = `${process.pid}-${crypto.randomUUID().slice(0, 8)}`,
  leaseMs = 60_000,
}: {
  db: TDb;
  bot: Bot;
  log: TLogger;
  holder?: string;
  leaseMs?: number;
}) => {
  let polling = false;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  const check = async () => {
    try {
      const mine = await takeLease(db, holder, leaseMs);
      if (mine && !polling && !stopped) {
        polling = true;
        // A webhook left from another setup would make getUpdates fail: polling mode removes it.
        await bot.api.deleteWebhook().catch(() => undefined);
        void bot
          .start({ drop_pending_updates: false, onStart: () => log.info("telegram bot polling", { holder }) })
          .catch((err) => log.warn("telegram polling stopped", { error: String(err) }))
          .finally(() => {
            polling = false;
          });
      } else if (!mine && polling) {
        await bot.stop();
      }
    } catch (err) {
      log.warn("telegram lease check failed", { error: String(err) });
    }
    if (!stopped) timer = setTimeout(() => void check(), Math.max(1000, Math.floor(leaseMs / 3)));
  };
  void check();
  return {
    isPolling: () => polling,
    stop: async () => {
      stopped = true;
      if (timer) clearTimeout(timer);
      if (polling) await bot.stop();
      await releaseLease(db, holder).catch(() => undefined);
    },
  };
};
