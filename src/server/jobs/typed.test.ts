// Jobs defined once with their payload's schema: enqueue checks the payload in the caller's transaction, the worker
// checks it again before the handler runs (a refused payload is a dead job with the reason, and the worker goes on),
// and each kind's attempts and backoff are its definition's.
import { afterEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { z } from "zod";
import { type DbHandle, openTestDb as openDb } from "../../../db/client";
import { jobs } from "../../../db/tables";
import { logger } from "../logger";
import { notifyJob } from "../modules/notifications/jobs";
import { defineJob, enqueue, insertJob, listJobs } from "./queue";
import { bindJobs, runWorker } from "./worker";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const T0 = 1_800_000_000_000;
const quiet = { ...logger, warn: () => {}, error: () => {}, info: () => {} };

const handles: DbHandle[] = [];
const openTestDb = async () => {
  const h = await openDb();
  handles.push(h);
  return h;
};
afterEach(async () => {
  for (const h of handles.splice(0)) await h.close();
});

/** A kind of the test's own: records what its handler was given, fails while `failing` is set. */
const recorder = (o: { backoff?: (attempt: number) => number; maxAttempts?: number } = {}) => {
  const seen: { orderId: number; note: string }[] = [];
  let failing = false;
  const job = defineJob({
    kind: "test_order",
    schema: z.object({ orderId: z.number().int().positive(), note: z.string().default("none") }),
    maxAttempts: o.maxAttempts ?? 4,
    backoff: o.backoff,
    handler: (payload) => {
      if (failing) throw new Error("the store is down");
      seen.push(payload);
    },
  });
  return {
    job,
    seen,
    fail: (on: boolean) => {
      failing = on;
    },
  };
};

describe("typed jobs", () => {
  test("enqueue writes the definition's kind and attempts, and the payload as its schema reads it", async () => {
    const { db } = await openTestDb();
    const r = recorder();
    expect(await enqueue(db, r.job, { orderId: 7 }, { uniqueKey: "order:7" }, T0)).toBe(1);
    expect(await enqueue(db, r.job, { orderId: 7 }, { uniqueKey: "order:7" }, T0)).toBeNull();
    expect((await listJobs(db))[0]).toMatchObject({
      kind: "test_order",
      maxAttempts: 4,
      payload: { orderId: 7, note: "none" },
      uniqueKey: "order:7",
      runAt: T0,
    });
    await enqueue(db, notifyJob, { userId: 3, event: "bid_received", loadId: 9 }, {}, T0);
    expect((await listJobs(db))[0]).toMatchObject({ kind: "notify", maxAttempts: 8 });
  });

  test("a payload its schema refuses is not enqueued: the caller's transaction fails and writes nothing", async () => {
    const { db } = await openTestDb();
    const r = recorder();
    await expect(
      db.transaction(async (tx) => {
        await enqueue(tx, r.job, { orderId: 1 }, { uniqueKey: "first" });
        await enqueue(tx, r.job, { orderId: -5 } as never);
      }),
    ).rejects.toThrow("orderId");
    expect(await db.select().from(jobs)).toEqual([]);
  });

  test("the worker checks the payload: a refused one is a dead job naming the field, and the next job still runs", async () => {
    const { db } = await openTestDb();
    const r = recorder();
    await insertJob(db, { kind: "test_order", payload: { orderId: "seven" }, maxAttempts: 4 }, T0);
    await enqueue(db, r.job, { orderId: 8, note: "fine" }, {}, T0 + 1);
    const worker = runWorker({
      db,
      log: quiet,
      handlers: bindJobs([r.job], {}, ""),
      schedules: [],
      autoStart: false,
      clock: () => T0 + 10,
    });
    expect(await worker.runOnce()).toBe(2);
    const [good, bad] = await listJobs(db);
    expect(bad).toMatchObject({ status: "dead", attempts: 1, lockedBy: null });
    expect(bad!.lastError).toStartWith("Invalid payload for a test_order job: orderId:");
    expect(good).toMatchObject({ status: "done" });
    expect(r.seen).toEqual([{ orderId: 8, note: "fine" }]);
  });

  test("a failure waits the kind's own backoff, and the job is dead after the kind's attempts", async () => {
    const { db } = await openTestDb();
    const r = recorder({ backoff: (attempt) => attempt * 5_000, maxAttempts: 2 });
    r.fail(true);
    await enqueue(db, r.job, { orderId: 1 }, {}, T0);
    let now = T0;
    const worker = runWorker({
      db,
      log: quiet,
      handlers: bindJobs([r.job], {}, ""),
      schedules: [],
      autoStart: false,
      clock: () => now,
    });
    await worker.runOnce();
    expect((await listJobs(db))[0]).toMatchObject({ status: "pending", attempts: 1, runAt: T0 + 5_000 });
    now = T0 + 5_000;
    await worker.runOnce();
    expect((await listJobs(db))[0]).toMatchObject({ status: "dead", attempts: 2, lastError: "the store is down" });
  });

  test("a worker runs only the kinds whose services it has, and a kind defined twice stops the start", () => {
    const needsBoards = defineJob({
      kind: "needs_boards",
      schema: z.object({}),
      maxAttempts: 1,
      needs: ["boards"],
      handler: () => {},
    });
    const plain = defineJob({ kind: "plain", schema: z.object({}), maxAttempts: 1, handler: () => {} });
    expect(Object.keys(bindJobs([needsBoards, plain], {}, ""))).toEqual(["plain"]);
    expect(() => bindJobs([plain, plain], {}, "")).toThrow('Two job definitions of kind "plain"');
  });
});
