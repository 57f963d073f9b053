import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { sendRenewalReminders } from "./billing";

/** Every hour: premium bought in birr that ends within three days gets a reminder, once per period. */
export const billingRemindersJob = defineJob({
  kind: "billing_reminders",
  schema: z.object({}),
  maxAttempts: 3,
  schedule: { everyMs: 60 * 60_000 },
  handler: (_payload, { db }) => sendRenewalReminders(db),
});

export const BILLING_JOBS = [billingRemindersJob];
