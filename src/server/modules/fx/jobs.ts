import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { syncRates } from "./rates";

/**
 * Every hour, once across all workers: the day's rates from the source (FX_SOURCE_URL), and the rates in use worked
 * out again (an override that ended yesterday stops at the day's first run). Hourly, because the bank publishes at an
 * hour of its own and skips weekends and holidays; a day already recorded costs one request.
 */
export const fxRatesJob = defineJob({
  kind: "fx_rates",
  schema: z.object({}),
  maxAttempts: 3,
  schedule: { everyMs: 60 * 60_000 },
  needs: ["fx"],
  handler: async (_payload, { db, services }) => {
    await syncRates(db, services.fx);
  },
});

export const FX_JOBS = [fxRatesJob];
