import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { enqueueDueSyncs, runSync } from "./sync";

const ZBoardSyncPayload = z.object({
  configId: z.number().int().positive(),
  /** What started it: the owner's Manual Sync (or the demo's first sync), or the configuration's interval. */
  trigger: z.enum(["manual", "schedule"]).default("schedule"),
});

/**
 * One sync of one board configuration. A failing board is recorded by the run, not retried; the second attempt is for
 * a worker that died mid-run.
 */
export const boardSyncJob = defineJob({
  kind: "board_sync",
  schema: ZBoardSyncPayload,
  maxAttempts: 2,
  needs: ["boards"],
  handler: ({ configId, trigger }, { db, job, services }) =>
    runSync(db, services.boards, configId, trigger, undefined, job.id),
});

/** Each minute, once across all workers: a sync job for every configuration whose interval has passed. */
export const boardSyncDueJob = defineJob({
  kind: "board_sync_due",
  schema: z.object({}),
  maxAttempts: 3,
  schedule: { everyMs: 60_000 },
  handler: (_payload, { db }) => enqueueDueSyncs(db),
});

export const BOARDS_JOBS = [boardSyncJob, boardSyncDueJob];
