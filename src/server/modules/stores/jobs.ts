import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { enqueueDueStoreSyncs, runStoreSyncJob } from "./sync";

const ZStoreSyncPayload = z.object({ integrationId: z.number().int().positive() });

/** One order sync of one store integration; a failing store is recorded on it (lastError), not retried. */
export const storeSyncJob = defineJob({
  kind: "store_sync",
  schema: ZStoreSyncPayload,
  maxAttempts: 1,
  needs: ["stores"],
  handler: ({ integrationId }, { db, services }) => runStoreSyncJob(db, services.stores, integrationId),
});

/** Each minute, once across all workers: a sync job for every active integration whose interval has passed. */
export const storeSyncDueJob = defineJob({
  kind: "store_sync_due",
  schema: z.object({}),
  maxAttempts: 3,
  schedule: { everyMs: 60_000 },
  handler: (_payload, { db }) => enqueueDueStoreSyncs(db),
});

export const STORES_JOBS = [storeSyncJob, storeSyncDueJob];
