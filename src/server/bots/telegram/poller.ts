// Long polling for one deployment: Telegram answers getUpdates to one poller at a time (a second gets 409 Conflict), so
// the worker processes take a lease (src/server/jobs/lease.ts) and only its holder polls.
import type { Bot } from "grammy";
import type { TDb } from "../../../../db/client";
import * as lease from "../../jobs/lease";
import type { TLogger } from "../../logger";

const LEASE_KEY = "lease:telegram-poller";

/** Takes or renews the poller's lease for `holder`; true while it holds it. */
export const takeLease = (db: TDb, holder: string, leaseMs: number, now = Date.now()) =>
  lease.takeLease(db, LEASE_KEY, holder, leaseMs, now);

export const releaseLease = (db: TDb, holder: string) => lease.releaseLease(db, LEASE_KEY, holder);

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
