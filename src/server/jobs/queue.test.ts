import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { type DbHandle, openTestDb as openDb } from "../../../db/client";
import { jobs, loginFailures, sessions, syncRuns, users } from "../../../db/tables";
import { scratchDatabase } from "../../../db/testing";
import { logger } from "../logger";
import { createUser } from "../modules/accounts/users";
import { createMarketplace } from "../modules/boards/configs";
import { closeInterruptedRuns, RUN_INTERRUPTED } from "../modules/boards/sync";
import { startWorker } from "../modules/jobs";
import { testBoardServices } from "../testing";
import {
  backoffMs,
  claimJobs,
  completeJob,
  insertJob as enqueue,
  enqueueScheduled,
  failJob,
  JOB_LEASE_MS,
  listJobs,
  retryJob,
  WORKER_LOST,
} from "./queue";
import { bareHandlers } from "./testing/bare-handlers";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const T0 = 1_800_000_000_000;

const handles: DbHandle[] = [];
const openTestDb = async () => {
  const h = await openDb();
  handles.push(h);
  return h;
};
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
});

describe("the job queue", () => {
  test("a unique key enqueues once; a job is claimed by one worker until its lock expires", async () => {
    const { db } = await openTestDb();
    expect(await enqueue(db, { kind: "notify", payload: { userId: 1 }, uniqueKey: "bid:7:user:1" }, T0)).toBe(1);
    expect(await enqueue(db, { kind: "notify", payload: { userId: 1 }, uniqueKey: "bid:7:user:1" }, T0)).toBeNull();
    const [a] = await claimJobs(db, "A", 1, T0, 60_000);
    expect(a).toMatchObject({ id: 1, status: "running", lockedBy: "A", attempts: 1 });
    expect(await claimJobs(db, "B", 1, T0 + 1000, 60_000)).toEqual([]);
    // Worker A died: after the lock expires another worker takes the job over.
    expect((await claimJobs(db, "B", 1, T0 + 61_000, 60_000))[0]).toMatchObject({ id: 1, lockedBy: "B", attempts: 2 });
    // A's late answer changes nothing: the job is B's now.
    await completeJob(db, a, "A", T0 + 62_000);
    expect((await listJobs(db))[0]).toMatchObject({ status: "running", lockedBy: "B" });
  });

  test("a failing job is retried with backoff, kept as dead after its last attempt, and can be retried", async () => {
    const { db } = await openTestDb();
    await enqueue(db, { kind: "sync", maxAttempts: 3 }, T0);
    let now = T0;
    for (let attempt = 1; attempt <= 3; attempt++) {
      const [job] = await claimJobs(db, "W", 1, now);
      expect(job.attempts).toBe(attempt);
      expect(await failJob(db, job, "W", new Error(`board timed out (${attempt})`), now)).toBe(
        attempt < 3 ? "retry" : "dead",
      );
      if (attempt < 3) {
        const [saved] = await listJobs(db);
        expect(saved).toMatchObject({ status: "pending", runAt: now + backoffMs(attempt) });
        expect(await claimJobs(db, "W", 1, now + backoffMs(attempt) - 1)).toEqual([]);
        now += backoffMs(attempt);
      }
    }
    expect(await listJobs(db, { status: "dead" })).toMatchObject([{ lastError: "board timed out (3)", attempts: 3 }]);
    await expect(retryJob(db, 999)).rejects.toThrow("Job 999 not found");
    const again = await retryJob(db, 1, now);
    expect(again).toMatchObject({ status: "pending", attempts: 0, lastError: null });
    await expect(retryJob(db, 1)).rejects.toThrow("only a dead job can be retried");
  });

  test("scheduled work is enqueued once per slot, however many processes ask", async () => {
    const { db } = await openTestDb();
    const hour = 60 * 60_000;
    expect(await enqueueScheduled(db, "housekeeping", hour, T0)).not.toBeNull();
    expect(await enqueueScheduled(db, "housekeeping", hour, T0 + 1000)).toBeNull();
    expect(await enqueueScheduled(db, "housekeeping", hour, T0 + hour)).not.toBeNull();
    expect((await listJobs(db)).map((j) => j.uniqueKey)).toEqual([
      `housekeeping:${Math.floor((T0 + hour) / hour)}`,
      `housekeeping:${Math.floor(T0 / hour)}`,
    ]);
  });

  test("a job whose worker dies on its last attempt is kept as dead, not taken over for ever", async () => {
    const { db } = await openTestDb();
    await enqueue(db, { kind: "crashes-its-worker", maxAttempts: 2 }, T0);
    expect((await claimJobs(db, "A", 1, T0))[0]).toMatchObject({ attempts: 1, lockedUntil: T0 + JOB_LEASE_MS });
    // A dies; within the lease nobody takes the job, after it B does (its second and last attempt).
    expect(await claimJobs(db, "B", 1, T0 + JOB_LEASE_MS - 1)).toEqual([]);
    expect((await claimJobs(db, "B", 1, T0 + JOB_LEASE_MS + 1))[0]).toMatchObject({ lockedBy: "B", attempts: 2 });
    // B dies too: the job is dead, with the reason, instead of being claimed again.
    expect(await claimJobs(db, "C", 1, T0 + 3 * JOB_LEASE_MS)).toEqual([]);
    expect((await listJobs(db))[0]).toMatchObject({
      status: "dead",
      attempts: 2,
      lockedBy: null,
      lastError: WORKER_LOST,
      finishedAt: T0 + 3 * JOB_LEASE_MS,
    });
  });

  test("a sync run whose job no worker holds any more is closed as failed; a run still held is left alone", async () => {
    const { db } = await openTestDb();
    const user = await createUser(db, {
      email: "runs@example.com",
      passwordHash: null,
      firstName: "Run",
      lastName: "Keeper",
      userType: "driver",
    });
    const c = await createMarketplace(db, testBoardServices({ sandbox: ["http://127.0.0.1:9"] }), user, {
      provider: "other",
      name: "Feed",
      apiBaseUrl: "http://127.0.0.1:9",
      config: { apiKey: "sandbox" },
      isActive: true,
      syncEnabled: true,
      syncIntervalMinutes: 30,
      rateLimitPerHour: 1000,
    });
    const dead = (await enqueue(db, { kind: "board_sync", maxAttempts: 1 }, T0))!;
    const alive = (await enqueue(db, { kind: "board_sync", maxAttempts: 1 }, T0))!;
    await claimJobs(db, "A", 2, T0);
    const run = (jobId: number) =>
      db.insert(syncRuns).values({ configId: c.id, userId: user.id, trigger: "schedule", startedAt: T0, jobId });
    await run(dead);
    await run(alive);
    // The first job's worker died on its last attempt; the second's renews its lease.
    const later = T0 + 2 * JOB_LEASE_MS;
    await db
      .update(jobs)
      .set({ lockedUntil: later + JOB_LEASE_MS })
      .where(eq(jobs.id, alive));
    await claimJobs(db, "B", 1, later);
    expect(await closeInterruptedRuns(db, later)).toBe(1);
    expect(
      (await db.select().from(syncRuns).orderBy(syncRuns.id)).map((r) => [
        r.jobId,
        r.finishedAt,
        r.durationMs,
        r.error,
      ]),
    ).toEqual([
      [dead, later, later - T0, RUN_INTERRUPTED],
      [alive, null, null, null],
    ]);
  });

  test("three processes draining one database run every job exactly once", async () => {
    const dir = mkdtempSync(join(tmpdir(), "mytess-jobs-"));
    const scratch = await scratchDatabase(dir, "jobs");
    try {
      const env = { ...process.env, ...scratch.env };
      for (let i = 0; i < 90; i++)
        await scratch.run(
          "INSERT INTO jobs (kind, payload, status, run_at, attempts, max_attempts, created_at, updated_at) VALUES ('noop', ?, 'pending', 0, 0, 5, 0, 0)",
          JSON.stringify({ i }),
        );
      const children = [1, 2, 3].map(() =>
        Bun.spawn(["bun", join(import.meta.dir, "testing", "claim-child.ts")], { stdout: "pipe", env }),
      );
      const ran = (
        await Promise.all(children.map(async (c) => JSON.parse(await new Response(c.stdout).text()) as number[]))
      ).flat();
      expect(ran).toHaveLength(90);
      expect(new Set(ran).size).toBe(90);
    } finally {
      await scratch.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});

describe("the worker", () => {
  test("runs the hourly housekeeping once per slot: expired sessions and old attempts go", async () => {
    const { db } = await openTestDb();
    const now = Date.now();
    const [user] = await db
      .insert(users)
      .values({
        email: "old@example.com",
        firstName: "Old",
        lastName: "Session",
        userType: "driver",
        trialEndsAt: now,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await db
      .insert(sessions)
      .values({ idHash: "expired", userId: user.id, expiresAt: now - 1, lastSeenAt: now - 10, createdAt: now - 10 });
    await db
      .insert(sessions)
      .values({ idHash: "live", userId: user.id, expiresAt: now + 60_000, lastSeenAt: now, createdAt: now });
    await db.insert(loginFailures).values({ key: "i:10.0.0.9", at: now - 16 * 60_000 });
    // The default schedules: hourly housekeeping and renewal reminders, the daily insurance reminders, the minute's
    // looks for boards and stores due a sync (none here), and the ten-minute look for deliveries left unanswered for 48
    // hours (none here).
    const worker = startWorker({ db, log: logger, autoStart: false });
    expect(await worker.runOnce()).toBe(6);
    expect(await worker.runOnce()).toBe(0);
    expect((await db.select().from(sessions)).map((s) => s.idHash)).toEqual(["live"]);
    expect(await db.select().from(loginFailures)).toEqual([]);
    expect((await listJobs(db)).map((j) => [j.kind, j.status]).sort()).toEqual([
      ["billing_reminders", "done"],
      ["board_sync_due", "done"],
      ["housekeeping", "done"],
      ["insurance_reminders", "done"],
      ["store_sync_due", "done"],
      ["trip_auto_complete", "done"],
    ]);
  });

  test("stop lets the running job finish before it returns", async () => {
    const { db } = await openTestDb();
    await enqueue(db, { kind: "slow" });
    let release = () => {};
    const started = Promise.withResolvers<void>();
    const worker = startWorker({
      db,
      log: logger,
      schedules: [],
      autoStart: false,
      handlers: bareHandlers({
        slow: () =>
          new Promise<void>((resolve) => {
            release = resolve;
            started.resolve();
          }),
      }),
    });
    const pass = worker.runOnce();
    await started.promise;
    let stopped = false;
    const stopping = worker.stop().then(() => {
      stopped = true;
    });
    await Bun.sleep(20);
    expect(stopped).toBe(false);
    release();
    await stopping;
    await pass;
    expect((await listJobs(db))[0]).toMatchObject({ kind: "slow", status: "done" });
  });

  test("the heartbeat keeps a running job's short lease alive, so a live worker's long job is never taken over", async () => {
    const { db } = await openTestDb();
    await enqueue(db, { kind: "long" }, T0);
    let now = T0;
    const started = Promise.withResolvers<void>();
    const release = Promise.withResolvers<void>();
    const worker = startWorker({
      db,
      log: logger,
      schedules: [],
      autoStart: false,
      clock: () => now,
      heartbeatMs: 5,
      handlers: bareHandlers({
        long: async () => {
          started.resolve();
          await release.promise;
        },
      }),
    });
    const pass = worker.runOnce();
    await started.promise;
    // The job runs past its first lease: the heartbeat renews it from the worker's clock.
    now = T0 + JOB_LEASE_MS - 1000;
    const renewed = now + JOB_LEASE_MS;
    for (let i = 0; i < 2000 && (await listJobs(db))[0]!.lockedUntil !== renewed; i++) await Bun.sleep(5);
    expect((await listJobs(db))[0]).toMatchObject({ status: "running", lockedUntil: renewed });
    expect(await claimJobs(db, "B", 1, T0 + JOB_LEASE_MS + 1000)).toEqual([]);
    release.resolve();
    await pass;
    expect((await listJobs(db))[0]).toMatchObject({ status: "done", attempts: 1, lockedBy: null });
  });

  test("a job with no handler fails with a clear error", async () => {
    const { db } = await openTestDb();
    await enqueue(db, { kind: "mystery", maxAttempts: 1 });
    await startWorker({ db, log: { ...logger, warn: () => {} }, schedules: [], autoStart: false }).runOnce();
    expect((await listJobs(db))[0]).toMatchObject({
      status: "dead",
      lastError: 'No handler for jobs of kind "mystery"',
    });
  });
});
