// The job worker: claims due jobs one at a time and runs each with its kind's definition, looked up in a registry of
// definitions bound to the services their handlers reach through (src/server/modules/jobs.ts builds it). The payload
// is checked against the kind's schema first: a payload that fails is kept as a dead job with the reason, never handed
// to the handler. Failures are retried after the kind's backoff until its attempts are used.
import type { z } from "zod";
import type { TDb } from "../../../db/client";
import type { Job } from "../../../db/tables";
import type { TLogger } from "../logger";
import type { TServices } from "../services";
import {
  backoffMs,
  buryJob,
  claimJobs,
  completeJob,
  deferJob,
  enqueueScheduled,
  failJob,
  JOB_HEARTBEAT_MS,
  JOB_LEASE_MS,
  JobDeferred,
  renewJobLease,
  type TAnyJob,
  type TBackoff,
} from "./queue";

/** A kind of job as a worker runs it: its definition, with the services and origin its handler was bound to. */
export type TRunnableJob = {
  kind: string;
  schema: z.ZodType;
  maxAttempts: number;
  backoff: TBackoff;
  schedule?: { everyMs: number };
  run: (payload: unknown, ctx: { db: TDb; job: Job; log: TLogger }) => Promise<unknown> | unknown;
};

/** The kinds a worker runs, by kind. */
export type TJobRegistry = Record<string, TRunnableJob>;

/**
 * The registry of `definitions` bound to `services` and `baseUrl`. A kind whose handler needs a service that is not
 * given is left out (a worker without the boards' services does not run board syncs); a kind defined twice is an
 * error at start.
 */
export const bindJobs = (definitions: TAnyJob[], services: Partial<TServices>, baseUrl: string): TJobRegistry => {
  const registry: TJobRegistry = {};
  for (const d of definitions) {
    if (registry[d.kind]) throw new Error(`Two job definitions of kind "${d.kind}"`);
    if ((d.needs ?? []).some((n: keyof TServices) => !services[n])) continue;
    registry[d.kind] = {
      kind: d.kind,
      schema: d.schema,
      maxAttempts: d.maxAttempts,
      backoff: d.backoff ?? backoffMs,
      schedule: d.schedule,
      run: (payload, ctx) => d.handler(payload, { ...ctx, baseUrl, services: services as TServices }),
    };
  }
  return registry;
};

/** The scheduled kinds of a registry, each enqueued once per slot. */
export type TSchedule = { kind: string; everyMs: number; maxAttempts?: number };
export const schedulesOf = (registry: TJobRegistry): TSchedule[] =>
  Object.values(registry).flatMap((j) =>
    j.schedule ? [{ kind: j.kind, everyMs: j.schedule.everyMs, maxAttempts: j.maxAttempts }] : [],
  );

/** Why a payload was refused, naming each field. */
const describeIssues = (error: z.ZodError) =>
  error.issues.map((i) => `${i.path.length ? i.path.join(".") : "payload"}: ${i.message}`).join("; ");

export type TWorker = { stop: () => Promise<void>; runOnce: () => Promise<number> };

/**
 * A job worker: enqueues the current slot of each schedule, claims due jobs one at a time, runs their handler, marks
 * them done or failed (retried after the kind's backoff, dead after the last attempt). While a handler runs, its lease
 * is renewed every `heartbeatMs`, so the lease can be short: a worker that dies loses its job to another within
 * `leaseMs`. `stop` lets the running job finish. `clock` is the time the queue goes by (tests move it instead of
 * waiting).
 */
export const runWorker = ({
  db,
  log,
  handlers,
  schedules = schedulesOf(handlers),
  pollMs = 1000,
  workerId = `${process.pid}-${crypto.randomUUID().slice(0, 8)}`,
  autoStart = true,
  leaseMs = JOB_LEASE_MS,
  heartbeatMs = JOB_HEARTBEAT_MS,
  clock = Date.now,
}: {
  db: TDb;
  log: TLogger;
  handlers: TJobRegistry;
  schedules?: TSchedule[];
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
    const kind = handlers[job.kind];
    const parsed = kind?.schema.safeParse(job.payload);
    if (parsed && !parsed.success) {
      const reason = `Invalid payload for a ${job.kind} job: ${describeIssues(parsed.error)}`;
      await buryJob(db, job, workerId, reason, clock());
      log.error("job payload refused", { id: job.id, kind: job.kind, reason });
      return;
    }
    const stopBeating = heartbeat(job);
    try {
      if (!kind) throw new Error(`No handler for jobs of kind "${job.kind}"`);
      await kind.run(parsed!.data, { db, job, log });
      await stopBeating();
      await completeJob(db, job, workerId, clock());
    } catch (err) {
      await stopBeating();
      if (err instanceof JobDeferred) {
        await deferJob(db, job, workerId, err, clock());
        log.info("job deferred", { id: job.id, kind: job.kind, runAt: err.runAt });
        return;
      }
      const outcome = await failJob(db, job, workerId, err, clock(), kind?.backoff);
      log.warn("job failed", { id: job.id, kind: job.kind, attempt: job.attempts, outcome, error: String(err) });
    }
  };

  /** One pass: schedules, then every due job in turn. Returns how many jobs ran. */
  const runOnce = async () => {
    const now = clock();
    for (const s of schedules) await enqueueScheduled(db, s.kind, s.everyMs, now, s.maxAttempts);
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
