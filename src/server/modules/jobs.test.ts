// The registry of every module's jobs: each kind once, the scheduled ones with their periods, and what a worker
// without outside services runs.
import { expect, test } from "bun:test";
import { notifiersFromEnv } from "../integrations/notifiers/registry";
import { JOBS, jobHandlers } from "./jobs";

test("every kind is defined once, and the schedules are hourly housekeeping, reminders and exchange rates, daily insurance reminders, each minute's sync look, ten-minute completions", () => {
  const kinds = JOBS.map((j) => j.kind);
  expect(new Set(kinds).size).toBe(kinds.length);
  expect(kinds.sort()).toEqual([
    "billing_reminders",
    "board_sync",
    "board_sync_due",
    "company_invitation",
    "email_verification_mail",
    "freight_payout",
    "freight_refund",
    "freight_resolve_refund",
    "fx_rates",
    "housekeeping",
    "insurance_reminders",
    "load_alerts",
    "notify",
    "password_reset_mail",
    "phone_code_sms",
    "saved_search_alerts",
    "store_sync",
    "store_sync_due",
    "trip_auto_complete",
    "webhook_delivery",
  ]);
  const scheduled = JOBS.filter((j) => j.schedule).map((j) => [j.kind, j.schedule!.everyMs, j.maxAttempts]);
  expect(scheduled.sort()).toEqual([
    ["billing_reminders", 3_600_000, 3],
    ["board_sync_due", 60_000, 3],
    ["fx_rates", 3_600_000, 3],
    ["housekeeping", 3_600_000, 3],
    ["insurance_reminders", 86_400_000, 3],
    ["store_sync_due", 60_000, 3],
    ["trip_auto_complete", 600_000, 3],
  ]);
});

test("a worker given only the notifiers runs no board or store sync; one without services runs only database work", () => {
  expect(
    Object.keys(jobHandlers({ notifiers: notifiersFromEnv({}, { vapidKeyFile: null }), baseUrl: "" })).sort(),
  ).toEqual([
    "billing_reminders",
    "board_sync_due",
    "housekeeping",
    "insurance_reminders",
    "load_alerts",
    "notify",
    "saved_search_alerts",
    "store_sync_due",
    "trip_auto_complete",
  ]);
});
