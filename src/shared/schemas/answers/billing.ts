import { z } from "zod";
import { ZCarrierState, ZSubscription } from "./common";

export const ZBillingPricesAnswer = z.object({
  prices: z.array(
    z.union([
      z.object({
        currency: z.literal("USD"),
        period: z.literal("month"),
        months: z.number(),
        amount: z.number(),
        provider: z.literal("stripe"),
      }),
      z.object({
        currency: z.literal("EUR"),
        period: z.literal("month"),
        months: z.number(),
        amount: z.number(),
        provider: z.literal("stripe"),
      }),
      z.object({
        currency: z.literal("ETB"),
        period: z.literal("month"),
        months: z.number(),
        amount: z.number(),
        provider: z.literal("chapa"),
      }),
      z.object({
        currency: z.literal("ETB"),
        period: z.literal("year"),
        months: z.number(),
        amount: z.number(),
        provider: z.literal("chapa"),
      }),
    ]),
  ),
  providers: z.array(z.object({ id: z.enum(["stripe", "chapa"]), name: z.string(), state: ZCarrierState })),
});
export const ZBillingCheckoutAnswer = z.union([
  z.object({ url: z.string(), provider: z.literal("stripe") }),
  z.object({ url: z.string(), provider: z.literal("chapa") }),
]);
export const ZBillingConfirmAnswer = z.object({ status: z.string(), subscription: ZSubscription });
export const ZBillingCancelAnswer = z.object({
  refunded: z.boolean(),
  subscriptionStatus: z.enum(["cancelled", "active", "expired"]),
  trialStatus: z.object({ isTrialActive: z.boolean(), trialEndsAt: z.string() }),
  currentPeriodEnd: z.string().nullable(),
  provider: z.enum(["stripe", "chapa", "grant"]).nullable(),
  cancelAtPeriodEnd: z.boolean(),
  refundable: z.boolean(),
  billingStartsAt: z.string().nullable(),
});
export const ZBillingPaymentsAnswer = z.array(
  z.object({
    id: z.number(),
    provider: z.enum(["stripe", "chapa", "grant"]),
    status: z.enum(["cancelled", "pending", "failed", "paid", "refunded"]),
    amount: z.number(),
    currency: z.string(),
    months: z.number(),
    date: z.string(),
    periodEnd: z.string().nullable(),
    receiptUrl: z.string().nullable(),
    note: z.string().nullable(),
  }),
);
export const ZBillingPortalAnswer = z.object({ url: z.string() });
