import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { housekeeping } from "./housekeeping";

/** Every hour, once across all workers: what has expired goes (sessions, old attempts, stored answers, chat records). */
export const housekeepingJob = defineJob({
  kind: "housekeeping",
  schema: z.object({}),
  maxAttempts: 3,
  schedule: { everyMs: 60 * 60_000 },
  handler: (_payload, { db }) => housekeeping(db),
});

export const PLATFORM_JOBS = [housekeepingJob];
