import type { User } from "../../../../db/tables";

export type TSubscriptionStatus = {
  subscriptionStatus: "active" | "expired" | "cancelled";
  trialStatus: { isTrialActive: boolean; trialEndsAt: string };
};

/** Premium access: a paid period wins, then the 6-month trial; a cancellation ends both. */
export const subscriptionStatusOf = (u: User, now = Date.now()): TSubscriptionStatus => {
  const paid = u.paidUntil != null && u.paidUntil > now;
  const cancelled = u.subscriptionCancelledAt != null && !paid;
  const isTrialActive = !paid && !cancelled && u.trialEndsAt > now;
  return {
    subscriptionStatus: cancelled ? "cancelled" : paid || isTrialActive ? "active" : "expired",
    trialStatus: { isTrialActive, trialEndsAt: new Date(u.trialEndsAt).toISOString() },
  };
};
