import type { TDb } from "../../../db/client";
import type { Job } from "../../../db/tables";
import { enqueueLoadAlerts } from "../domain/alerts/alerts";
import { sendRenewalReminders } from "../domain/billing/billing";
import { enqueueDueStoreSyncs, storeSyncJob } from "../domain/ecommerce/sync";
import { enqueueDueSyncs, runSync } from "../domain/marketplaces/sync";
import { notifyHandler } from "../domain/push/notify";
import type { TBoardServices } from "../integrations/boards/services";
import type { TNotifierRegistry } from "../integrations/notify/registry";
import type { TStoreServices } from "../integrations/stores/services";
import type { TLogger } from "../logger";
import { housekeeping } from "./housekeeping";
import {
  claimJobs,
  completeJob,
  deferJob,
  enqueueScheduled,
  failJob,
  JOB_HEARTBEAT_MS,
  JOB_LEASE_MS,
  JobDeferred,
  renewJobLease,
} from "./queue";

export type TJobHandler = (
  payload: Record<string, unknown>,
  ctx: { db: TDb; job: Job; log: TLogger },
) => Promise<unknown> | unknown;

/** What each kind of job does. New integrations (notifications, board sync, store imports) add theirs here. */
export const JOB_HANDLERS: Record<string, TJobHandler> = {
  housekeeping: (_payload, { db }) => housekeeping(db),
  load_alerts: (payload, { db }) => enqueueLoadAlerts(db, Number(payload.loadId)),
  board_sync_due: (_payload, { db }) => enqueueDueSyncs(db),
  store_sync_due: (_payload, { db }) => enqueueDueStoreSyncs(db),
  billing_reminders: (_payload, { db }) => sendRenewalReminders(db),
};

/** The handlers that reach outside the database, with what they reach through. */
export const jobHandlers = (deps: {
  notifiers: TNotifierRegistry;
  baseUrl: string;
  boards?: TBoardServices;
  stores?: TStoreServices;
}): Record<string, TJobHandler> => ({
  ...JOB_HANDLERS,
  notify: notifyHandler(deps),
  ...(deps.stores && {
    store_sync: (payload, { db }) => storeSyncJob(db, deps.stores!, Number(payload.integrationId)),
  }),
  ...(deps.boards && {
    board_sync: (payload, { db, job }) =>
      runSync(
        db,
        deps.boards!,
        Number(payload.configId),
        payload.trigger === "manual" ? "manual" : "schedule",
        undefined,
        job.id,
      ),
  }),
});

/** Work every process would otherwise repeat: each time slot is enqueued under one key, so it runs once. */
export const SCHEDULES: { kind: string; everyMs: number }[] = [
  { kind: "housekeeping", everyMs: 60 * 60_000 },
  // Board sync: each minute looks for configurations whose interval has passed.
  { kind: "board_sync_due", everyMs: 60_000 },
  // Store order sync: each minute looks for integrations whose interval has passed.
  { kind: "store_sync_due", everyMs: 60_000 },
  // Premium bought in birr ending within three days: a reminder, once per period.
  { kind: "billing_reminders", everyMs: 60 * 60_000 },
];

export type TWorker = { stop: () => Promise<void>; runOnce: () => Promise<number> };

/**
 * A job worker: enqueues the current slot of each schedule, claims due jobs one at a time, runs their handler, marks
 * them done or failed (retried with backoff, dead after the last attempt). While a handler runs, its lease is renewed
 * every `heartbeatMs`, so the lease can be short: a worker that dies loses its job to another within `leaseMs`.
 * `stop` lets the running job finish. `clock` is the time the queue goes by (tests move it instead of waiting).
 */
export const startWorker = ({
  db,
  log,
  handlers = JOB_HANDLERS,
  schedules = SCHEDULES,
  pollMs = 1000,
  workerId = `${process.pid}-${crypto.randomUUID().slice(0, 8)}`,
  autoStart = true,
  leaseMs = JOB_LEASE_MS,
  heartbeatMs = JOB_HEARTBEAT_MS,
  clock = Date.now,
}: {
  db: TDb;
  log: TLogger;
  handlers?: Record<string, TJobHandler>;
  schedules?: typeof SCHEDULES;
  pollMs?: number;
  workerId?: string;
  autoStart?: boolean;
  leaseMs?: number;
  heartbeatMs?: number;
  clock?: () => number;
}): TWorker => {
  let stopping = false;
  let current: Promise<unknown> = Promise.resolve();
  let timer: ReturnType<typeof setTimeout> | null = null;

  /** Renews the job's lease until `stop` is called; the last renewal is awaited, so none outlives the job. */
  const heartbeat = (job: Job) => {
    let beat: Promise<unknown> = Promise.resolve();
    let done = false;
    const interval = setInterval(() => {
      beat = beat.then(async () => {
        if (done) return;
        try {
          if (!(await renewJobLease(db, job, workerId, clock(), leaseMs)) && !done)
            log.warn("job lease lost: another worker may run it", { id: job.id, kind: job.kind });
        } catch (err) {
          log.warn("job lease not renewed", { id: job.id, kind: job.kind, error: String(err) });
        }
      });
    }, heartbeatMs);
    return async () => {
      done = true;
      clearInterval(interval);
      await beat;
    };
  };

  const runJob = async (job: Job) => {
    const handler = handlers[job.kind];
    const stopBeating = heartbeat(job);
    try {
      if (!handler) throw new Error(`No handler for jobs of kind "${job.kind}"`);
      await handler(job.payload, { db, job, log });
      await stopBeating();
      await completeJob(db, job, workerId, clock());
    } catch (err) {
      await stopBeating();
      if (err instanceof JobDeferred) {
        await deferJob(db, job, workerId, err, clock());
        log.info("job deferred", { id: job.id, kind: job.kind, runAt: err.runAt });
        return;
      }
      const outcome = await failJob(db, job, workerId, err, clock());
      log.warn("job failed", { id: job.id, kind: job.kind, attempt: job.attempts, outcome, error: String(err) });
    }
  };

  /** One pass: schedules, then every due job in turn. Returns how many jobs ran. */
  const runOnce = async () => {
    const now = clock();
    for (const s of schedules) await enqueueScheduled(db, s.kind, s.everyMs, now);
    let ran = 0;
    while (!stopping) {
      const [job] = await claimJobs(db, workerId, 1, clock(), leaseMs);
      if (!job) break;
      current = runJob(job);
      await current;
      ran++;
    }
    return ran;
  };

  const loop = async () => {
    try {
      await runOnce();
    } catch (err) {
      log.error("job worker pass failed", { error: String(err) });
    }
    if (!stopping) timer = setTimeout(loop, pollMs);
  };
  if (autoStart) void loop();

  return {
    runOnce,
    stop: async () => {
      stopping = true;
      if (timer) clearTimeout(timer);
      await current;
    },
  };
};
