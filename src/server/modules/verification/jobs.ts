import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { remindExpiringInsurance } from "./insurance";

/** Once a day across all workers: owners whose insurance ends within 14 days are told (once per submission). */
export const insuranceRemindersJob = defineJob({
  kind: "insurance_reminders",
  schema: z.object({}),
  maxAttempts: 3,
  schedule: { everyMs: 24 * 60 * 60_000 },
  handler: async (_payload, { db }) => {
    await remindExpiringInsurance(db);
  },
});

export const VERIFICATION_JOBS = [insuranceRemindersJob];
