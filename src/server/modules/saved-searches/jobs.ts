import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { matchSavedSearches } from "./saved-searches";

const ZSavedSearchAlertsPayload = z.object({ loadId: z.number().int().positive() });

/** Enqueued with a new load (in its transaction): the saved searches it matches, and one alert per user. */
export const savedSearchAlertsJob = defineJob({
  kind: "saved_search_alerts",
  schema: ZSavedSearchAlertsPayload,
  maxAttempts: 5,
  handler: ({ loadId }, { db }) => matchSavedSearches(db, loadId),
});

export const SAVED_SEARCHES_JOBS = [savedSearchAlertsJob];
