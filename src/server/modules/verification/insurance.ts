import { and, eq, gte, isNull, lte } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { verifications } from "../../../../db/tables";
import { INSURANCE_REMINDER_DAYS } from "../../../shared/schemas/verification";
import { enqueueVerificationNotice } from "../notifications/notify";
import { addisDay } from "./verification";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Tells each owner whose approved insurance ends within the next 14 days (and has not ended), once per submission:
 * the reminder's time is set by a conditional update in the transaction that enqueues the notice, so two runs never
 * both tell. A day the job did not run is caught up by the next. The badge's insurance part lapses by itself after the
 * last day (`badgesFor` compares the date), so nothing is written at expiry. Answers how many were told.
 */
export const remindExpiringInsurance = async (db: TDb, now = Date.now()) => {
  const today = addisDay(now);
  const horizon = addisDay(now + INSURANCE_REMINDER_DAYS * DAY_MS);
  const due = await db
    .select({ id: verifications.id })
    .from(verifications)
    .where(
      and(
        eq(verifications.status, "approved"),
        isNull(verifications.insuranceReminderAt),
        gte(verifications.insuranceExpiresOn, today),
        lte(verifications.insuranceExpiresOn, horizon),
      ),
    );
  let told = 0;
  for (const { id } of due)
    await db.transaction(async (tx) => {
      const [row] = await tx
        .update(verifications)
        .set({ insuranceReminderAt: now })
        .where(and(eq(verifications.id, id), isNull(verifications.insuranceReminderAt)))
        .returning();
      if (!row?.insuranceExpiresOn) return;
      await enqueueVerificationNotice(
        tx,
        row.submittedBy,
        "insurance_expiring",
        { until: row.insuranceExpiresOn },
        `${row.id}`,
        now,
      );
      told++;
    });
  return told;
};
