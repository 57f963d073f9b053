import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { autoCompleteDeliveries } from "./trip";

/** Every ten minutes, once across all workers: deliveries the shipper left unanswered for 48 hours complete. */
export const tripAutoCompleteJob = defineJob({
  kind: "trip_auto_complete",
  schema: z.object({}),
  maxAttempts: 3,
  schedule: { everyMs: 10 * 60_000 },
  handler: async (_payload, { db }) => {
    await autoCompleteDeliveries(db);
  },
});

export const TRIPS_JOBS = [tripAutoCompleteJob];
