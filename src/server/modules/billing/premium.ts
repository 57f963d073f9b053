import { and, eq, gt, isNull, or } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type User, users } from "../../../../db/tables";
import { AppError } from "../../errors";

// What premium is (the six-month trial or a paid period) and the server's check of it, for every door and job. Apart
// from billing.ts (checkout, provider events), which sends its notices through push/notify: notify asks here.

const DAY = 24 * 60 * 60 * 1000;
export const REFUND_WINDOW_MS = 30 * DAY;

/**
 * The subscription status the API shows (subscriptionStatus, trialStatus), with the paid period's end, who collects it
 * and whether it renews.
 */
export const subscriptionOf = (u: User, now = Date.now()) => {
  const paid = u.paidUntil != null && u.paidUntil > now;
  const cancelled = u.subscriptionCancelledAt != null && !paid;
  const isTrialActive = !paid && !cancelled && u.trialEndsAt > now;
  return {
    subscriptionStatus: (cancelled ? "cancelled" : paid || isTrialActive ? "active" : "expired") as
      | "active"
      | "expired"
      | "cancelled",
    trialStatus: { isTrialActive, trialEndsAt: new Date(u.trialEndsAt).toISOString() },
    currentPeriodEnd: u.paidUntil == null ? null : new Date(u.paidUntil).toISOString(),
    provider: u.billingProvider as "stripe" | "chapa" | "grant" | null,
    cancelAtPeriodEnd: u.cancelAtPeriodEnd,
    /** Whether a refund may still be asked for (within 30 days of the first payment). */
    refundable: u.firstPaidAt != null && now - u.firstPaidAt <= REFUND_WINDOW_MS && paid,
    /**
     * When a card subscription taken out during the trial first charges (the trial's end), while it waits for it;
     * null otherwise. Premium runs on the trial until then.
     */
    billingStartsAt:
      isTrialActive && u.billingProvider === "stripe" && u.stripeSubscriptionId != null && !u.cancelAtPeriodEnd
        ? new Date(u.trialEndsAt).toISOString()
        : null,
  };
};

/** Premium: a paid period or the trial. */
export const hasPremium = (u: User, now = Date.now()) => subscriptionOf(u, now).subscriptionStatus === "active";

/** `hasPremium` as a condition on `users`, for jobs that pick many accounts at once. */
export const premiumWhere = (now = Date.now()) =>
  or(gt(users.paidUntil, now), and(isNull(users.subscriptionCancelledAt), gt(users.trialEndsAt, now)));

/** The same for an account known by id (a job's recipient, a configuration's owner); false when it is gone. */
export const userHasPremium = async (db: Pick<TDb, "select">, userId: number, now = Date.now()) => {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  return u !== undefined && hasPremium(u, now);
};

export const SUBSCRIPTION_REQUIRED = /*i18n*/ {
  id: "error.subscription.required",
  message: "This needs MyTess Premium: your free period has ended. Upgrade on the subscription page to continue.",
};
/** The server's own check of what premium unlocks. */
export const requirePremium = (u: User, now = Date.now()) => {
  if (!hasPremium(u, now)) throw new AppError("SUBSCRIPTION_REQUIRED", SUBSCRIPTION_REQUIRED);
};
