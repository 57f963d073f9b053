// The job queue: rows of the `jobs` table written in the transaction of the change that causes them (an outbox), then
// claimed, run and finished by workers. A kind of job is defined once, beside its feature, with `defineJob`: its
// payload's schema, how many attempts it gets, how long to wait between them, and, for scheduled work, how often. The
// feature enqueues it with `enqueue(tx, job, payload)`, typed by that schema; the worker (worker.ts) checks the payload
// against it again before the handler runs. This folder knows no feature: the registry of every module's jobs is
// src/server/modules/jobs.ts.
import { and, asc, desc, eq, gte, inArray, lt, lte, or, sql } from "drizzle-orm";
import type { z } from "zod";
import type { TDb } from "../../../db/client";
import { type Job, jobs } from "../../../db/tables";
import { AppError } from "../errors";
import type { TLogger } from "../logger";
import type { TServices } from "../services";

/** What enqueue accepts: the database or a transaction of the change that causes the job (the outbox). */
type TWriter = Pick<TDb, "insert">;

/** The wait before the next attempt, from the number of attempts made so far. */
export type TBackoff = (attempt: number) => number;

/** Wait before the next try: 30 s, 1 min, 2 min, … at most an hour. */
export const backoffMs: TBackoff = (attempt) => Math.min(60 * 60_000, 30_000 * 2 ** Math.max(0, attempt - 1));

/** What a running handler is given: the database, its own row, the log, the public origin, the services it needs. */
export type TJobContext<TNeeds extends keyof TServices = never> = {
  db: TDb;
  job: Job;
  log: TLogger;
  /** The public origin links in messages point at (PUBLIC_URL, else this server's own address). */
  baseUrl: string;
  services: Pick<TServices, TNeeds>;
};

export type TJobDefinition<TSchema extends z.ZodType = z.ZodType, TNeeds extends keyof TServices = keyof TServices> = {
  /** The name stored in each row, unique across the application. */
  kind: string;
  /** The payload: checked when the job is enqueued and again when it runs (a payload that fails is a dead job). */
  schema: TSchema;
  /** Attempts before the job is kept as dead (written into each row, where claiming reads it). */
  maxAttempts: number;
  /** The wait before the next attempt after a failure; `backoffMs` unless said. */
  backoff?: TBackoff;
  /** Scheduled work: each slot of `everyMs` is enqueued once, whichever worker asks first (payload `{}`). */
  schedule?: { everyMs: number };
  /** The services the handler reaches through; a worker without one of them does not run this kind. */
  needs?: readonly TNeeds[];
  // A method (not a function-valued property), so a definition of any payload type fits the registry's element type.
  handler(payload: z.output<TSchema>, ctx: TJobContext<TNeeds>): Promise<unknown> | unknown;
};

/** What enqueueing needs of a definition: its kind, its payload's schema and its attempts. */
export type TJobKind<TSchema extends z.ZodType = z.ZodType> = Pick<
  TJobDefinition<TSchema>,
  "kind" | "schema" | "maxAttempts"
>;

/** A kind of job, defined once beside its feature. */
export const defineJob = <TSchema extends z.ZodType, TNeeds extends keyof TServices = never>(
  definition: TJobDefinition<TSchema, TNeeds>,
) => definition;

/** Any job definition, whatever its payload and services (the registry's element type). */
// biome-ignore lint/suspicious/noExplicitAny: the registry holds definitions of every payload type
export type TAnyJob = TJobDefinition<z.ZodType, any>;

/** A row of the queue as written; `enqueue` makes it from a definition and a payload. */
export type TJobRow = {
  kind: string;
  payload?: Record<string, unknown>;
  runAt?: number;
  /** Enqueueing the same key again does nothing: a retried request never adds a second job. */
  uniqueKey?: string;
  maxAttempts?: number;
};

export type TEnqueueOptions = { uniqueKey?: string; runAt?: number };

/**
 * The queue's own insert of a row, whatever its kind: for the queue's tests and the lease rows. Features enqueue their
 * jobs with `enqueue`, which takes the definition. Returns the id, or null when the unique key exists already.
 */
export const insertJob = async (db: TWriter, j: TJobRow, now = Date.now()) => {
  const [row] = await db
    .insert(jobs)
    .values({
      kind: j.kind,
      payload: j.payload ?? {},
      runAt: j.runAt ?? now,
      uniqueKey: j.uniqueKey ?? null,
      maxAttempts: j.maxAttempts ?? 5,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoNothing()
    .returning({ id: jobs.id });
  return row?.id ?? null;
};

/** The row of one job: its payload as the schema reads it (an invalid one throws here, in the caller's transaction). */
const rowOf = <TSchema extends z.ZodType>(
  job: TJobKind<TSchema>,
  payload: z.input<TSchema>,
  o: TEnqueueOptions,
): TJobRow => ({
  kind: job.kind,
  payload: job.schema.parse(payload) as Record<string, unknown>,
  runAt: o.runAt,
  uniqueKey: o.uniqueKey,
  maxAttempts: job.maxAttempts,
});

/** Adds a job of this kind; returns its id, or null when a job with the same unique key exists already. */
export const enqueue = <TSchema extends z.ZodType>(
  db: TWriter,
  job: TJobKind<TSchema>,
  payload: z.input<TSchema>,
  o: TEnqueueOptions = {},
  now = Date.now(),
) => insertJob(db, rowOf(job, payload, o), now);

/**
 * Many jobs of one kind at once (a broadcast, a load's alerts): multi-row inserts in batches; jobs whose unique key
 * exists are skipped, as with `enqueue`.
 */
export const enqueueMany = async <TSchema extends z.ZodType>(
  db: TWriter,
  job: TJobKind<TSchema>,
  list: ({ payload: z.input<TSchema> } & TEnqueueOptions)[],
  now = Date.now(),
  batch = 500,
) => {
  for (let i = 0; i < list.length; i += batch) {
    await db
      .insert(jobs)
      .values(
        list.slice(i, i + batch).map(({ payload, ...o }) => {
          const j = rowOf(job, payload, o);
          return {
            kind: j.kind,
            payload: j.payload ?? {},
            runAt: j.runAt ?? now,
            uniqueKey: j.uniqueKey ?? null,
            maxAttempts: j.maxAttempts ?? 5,
            createdAt: now,
            updatedAt: now,
          };
        }),
      )
      .onConflictDoNothing();
  }
};

/**
 * The slot of a job scheduled every `everyMs`: "<kind>:<slot>" runs once per slot, wherever it is enqueued. Its payload
 * is empty; `maxAttempts` comes from the job's definition.
 */
export const enqueueScheduled = (db: TWriter, kind: string, everyMs: number, now = Date.now(), maxAttempts = 3) => {
  const slot = Math.floor(now / everyMs);
  return insertJob(db, { kind, uniqueKey: `${kind}:${slot}`, runAt: slot * everyMs, maxAttempts }, now);
};

/**
 * How long a claim holds a job. The worker renews it every JOB_HEARTBEAT_MS while the handler runs, so a long job is
 * never taken from a live worker, and a dead worker's job waits at most this long before another worker takes it over.
 */
export const JOB_LEASE_MS = 60_000;
export const JOB_HEARTBEAT_MS = 20_000;

/** The lastError of a job whose worker stopped (killed, crashed, lost the database) during its last attempt. */
export const WORKER_LOST = "The worker running this job stopped before it finished, on its last attempt";

/** A running job whose lease lapsed: its worker is gone (a live worker renews the lease while the handler runs). */
const lapsed = (now: number) => and(eq(jobs.status, "running"), lt(jobs.lockedUntil, now));

/** Due: pending and its time has come, or running with a lapsed lease (its worker died) and attempts left. */
const claimable = (now: number) =>
  or(and(eq(jobs.status, "pending"), lte(jobs.runAt, now)), and(lapsed(now), lt(jobs.attempts, jobs.maxAttempts)));

/**
 * Takes up to `limit` due jobs for `workerId`. The update repeats the "still due" condition, so a job is taken once
 * however many workers race for it, on either engine: SQLite runs the transaction under its write lock; on PostgreSQL
 * a second claimer waits for the first's row lock and then finds the row no longer due, and skips it. A lapsed job
 * that had used its last attempt is not run again but kept as dead: a job that kills its worker would otherwise be
 * taken over for ever.
 */
export const claimJobs = (
  db: TDb,
  workerId: string,
  limit = 1,
  now = Date.now(),
  lockMs = JOB_LEASE_MS,
): Promise<Job[]> =>
  db.transaction(async (tx) => {
    const spent = await db.q.skipLocked(
      tx
        .select({ id: jobs.id })
        .from(jobs)
        .where(and(lapsed(now), gte(jobs.attempts, jobs.maxAttempts)))
        .limit(100),
    );
    if (spent.length)
      await tx
        .update(jobs)
        .set({
          status: "dead",
          lastError: WORKER_LOST,
          lockedBy: null,
          lockedUntil: null,
          finishedAt: now,
          updatedAt: now,
        })
        .where(
          and(
            inArray(
              jobs.id,
              spent.map((d) => d.id),
            ),
            lapsed(now),
            gte(jobs.attempts, jobs.maxAttempts),
          ),
        );
    // PostgreSQL: rows another worker is claiming are skipped, so workers on many machines take different jobs.
    const due = await db.q.skipLocked(
      tx.select({ id: jobs.id }).from(jobs).where(claimable(now)).orderBy(asc(jobs.runAt), asc(jobs.id)).limit(limit),
    );
    if (!due.length) return [];
    return tx
      .update(jobs)
      .set({
        status: "running",
        attempts: sql`${jobs.attempts} + 1`,
        lockedBy: workerId,
        lockedUntil: now + lockMs,
        updatedAt: now,
      })
      .where(
        and(
          inArray(
            jobs.id,
            due.map((d) => d.id),
          ),
          claimable(now),
        ),
      )
      .returning();
  });

/**
 * The heartbeat of a running job: its lease runs `lockMs` from now again. False when the job is no longer this
 * worker's (its lease lapsed and another worker took it over, or it was finished).
 */
export const renewJobLease = async (
  db: TDb,
  job: Pick<Job, "id">,
  workerId: string,
  now = Date.now(),
  lockMs = JOB_LEASE_MS,
) =>
  (
    await db
      .update(jobs)
      .set({ lockedUntil: now + lockMs, updatedAt: now })
      .where(and(eq(jobs.id, job.id), eq(jobs.status, "running"), eq(jobs.lockedBy, workerId)))
      .returning({ id: jobs.id })
  ).length > 0;

/** Each claim counts as an attempt, so a job whose worker keeps dying mid-run also ends up dead, not looping. */
export const completeJob = async (db: TDb, job: Job, workerId: string, now = Date.now()) => {
  await db
    .update(jobs)
    .set({ status: "done", lockedBy: null, lockedUntil: null, finishedAt: now, updatedAt: now })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
};

/** A failed attempt: tried again later after `backoff`, or kept as dead after the last attempt. */
export const failJob = async (
  db: TDb,
  job: Job,
  workerId: string,
  error: unknown,
  now = Date.now(),
  backoff: TBackoff = backoffMs,
) => {
  const attempts = job.attempts;
  const payload = error instanceof JobRetry ? { payload: error.payload } : {};
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 2000);
  const dead = attempts >= job.maxAttempts;
  await db
    .update(jobs)
    .set({
      status: dead ? "dead" : "pending",
      attempts,
      ...payload,
      runAt: dead ? job.runAt : now + backoff(attempts),
      lastError: message,
      lockedBy: null,
      lockedUntil: null,
      finishedAt: dead ? now : null,
      updatedAt: now,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
  return dead ? ("dead" as const) : ("retry" as const);
};

/**
 * A job whose payload its kind's schema refuses: kept as dead at once with the reason (another attempt would read the
 * same payload), never handed to the handler.
 */
export const buryJob = async (db: TDb, job: Job, workerId: string, reason: string, now = Date.now()) => {
  await db
    .update(jobs)
    .set({
      status: "dead",
      lastError: reason.slice(0, 2000),
      lockedBy: null,
      lockedUntil: null,
      finishedAt: now,
      updatedAt: now,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
};

/**
 * Thrown by a handler to run its job again later without it counting as a failure (push quiet hours): pending again at
 * `runAt`, the attempt given back, the payload optionally updated.
 */
export class JobDeferred extends Error {
  constructor(
    readonly runAt: number,
    readonly payload?: Record<string, unknown>,
  ) {
    super(`Deferred until ${new Date(runAt).toISOString()}`);
  }
}

/**
 * Thrown by a handler for a failure worth retrying with the usual backoff, with what the next attempt should carry
 * (which recipients already got it, so a retry never sends twice).
 */
export class JobRetry extends Error {
  constructor(
    message: string,
    readonly payload: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const deferJob = async (db: TDb, job: Job, workerId: string, d: JobDeferred, now = Date.now()) => {
  await db
    .update(jobs)
    .set({
      status: "pending",
      attempts: Math.max(0, job.attempts - 1),
      runAt: d.runAt,
      ...(d.payload ? { payload: d.payload } : {}),
      lockedBy: null,
      lockedUntil: null,
      updatedAt: now,
    })
    .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, workerId)));
};

/** A dead job back in the queue with a fresh set of attempts. */
export const retryJob = async (db: TDb, id: number, now = Date.now()) => {
  const [job] = await db.select().from(jobs).where(eq(jobs.id, id));
  if (!job)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ { id: "error.job.notFound", message: "Job {id} not found", values: { id } },
    );
  if (job.status !== "dead")
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.job.notDead",
        message: "Job {id} is {status}; only a dead job can be retried",
        values: { id, status: job.status },
      },
    );
  return (
    await db
      .update(jobs)
      .set({ status: "pending", attempts: 0, runAt: now, lastError: null, finishedAt: null, updatedAt: now })
      .where(eq(jobs.id, id))
      .returning()
  )[0];
};

export const JOB_STATUSES = ["pending", "running", "done", "dead"] as const;
export type TJobStatus = (typeof JOB_STATUSES)[number];

export const listJobs = (db: TDb, p: { status?: TJobStatus; limit?: number } = {}) =>
  db
    .select()
    .from(jobs)
    .where(p.status ? eq(jobs.status, p.status) : undefined)
    .orderBy(desc(jobs.id))
    .limit(p.limit ?? 100);
