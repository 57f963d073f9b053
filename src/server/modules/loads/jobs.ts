import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { enqueueLoadAlerts } from "./alerts";

const ZLoadAlertsPayload = z.object({ loadId: z.number().int().positive() });

/** Enqueued with a load's posting: one notification job per driver whose alert area holds the pickup. */
export const loadAlertsJob = defineJob({
  kind: "load_alerts",
  schema: ZLoadAlertsPayload,
  maxAttempts: 5,
  handler: ({ loadId }, { db }) => enqueueLoadAlerts(db, loadId),
});

export const LOADS_JOBS = [loadAlertsJob];
