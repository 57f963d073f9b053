import { z } from "zod";
import { zText } from "./text";

/** Freight payments: the providers, the states a load's payment goes through, the ledger's accounts. */
export const FREIGHT_PROVIDERS = ["stripe", "chapa"] as const;
export type TFreightProvider = (typeof FREIGHT_PROVIDERS)[number];

export const FREIGHT_PAYMENT_STATES = [
  "awaiting_payment",
  "funded",
  "released",
  "paid_out",
  "refunded",
  "disputed",
  "failed",
] as const;
export type TFreightPaymentState = (typeof FREIGHT_PAYMENT_STATES)[number];

export const LEDGER_ACCOUNTS = ["shipper", "escrow", "platform_fees", "driver", "provider_fees"] as const;
export type TLedgerAccount = (typeof LEDGER_ACCOUNTS)[number];

/** The provider that takes a currency: Chapa for birr, Stripe for dollars and euros. */
export const providerForCurrency = (currency: string): TFreightProvider | null =>
  currency === "ETB" ? "chapa" : currency === "USD" || currency === "EUR" ? "stripe" : null;

/** Why a driver's share is not paid out yet (see ZFreightPayment.payoutIssue). */
export const PAYOUT_ISSUES = ["waiting_method", "account_name", "account_number", "bank"] as const;
export type TPayoutIssue = (typeof PAYOUT_ISSUES)[number];

/** What both parties are told of a payout that is not plain (see ZFreightPayment.payoutNotice). */
export const PAYOUT_NOTICES = ["delayed", "reversed"] as const;
export type TPayoutNotice = (typeof PAYOUT_NOTICES)[number];

export const ZFundLoadInput = z.object({
  loadId: z.number({ error: "loadId must be a number" }).int().positive(),
  provider: z.enum(FREIGHT_PROVIDERS, { error: `provider must be one of ${FREIGHT_PROVIDERS.join(", ")}` }),
});
export type TFundLoadInput = z.infer<typeof ZFundLoadInput>;

/** What funding a load costs, shown before paying: the agreed amount, the platform's fee, their sum (decimals). */
export const ZFreightQuote = z.object({
  currency: z.string(),
  agreed: z.number(),
  fee: z.number(),
  feePercent: z.number(),
  total: z.number(),
  /** The provider that takes the currency, or null when none does. */
  provider: z.enum(FREIGHT_PROVIDERS).nullable(),
  /** Whether that provider is configured here. */
  available: z.boolean(),
});
export type TFreightQuote = z.infer<typeof ZFreightQuote>;

export const ZFreightPaymentEvent = z.object({
  state: z.string(),
  at: z.string(),
  detail: z.record(z.string(), z.unknown()).nullable(),
});

export const ZFreightPayment = z.object({
  id: z.number(),
  loadId: z.number(),
  loadTitle: z.string(),
  /** The reader's side of the payment. */
  role: z.enum(["shipper", "driver"]),
  provider: z.enum(FREIGHT_PROVIDERS),
  state: z.enum(FREIGHT_PAYMENT_STATES),
  currency: z.string(),
  agreed: z.number(),
  fee: z.number(),
  total: z.number(),
  note: z.string().nullable(),
  /** The shipper's money is (or was) held: funded, whatever happened after; such a load is never funded again. */
  secured: z.boolean(),
  /**
   * For the driver: why their share is not paid out yet. `waiting_method`: no payout method (or a Stripe account not
   * enabled) yet; the others: the last transfer failed, and what to fix.
   */
  payoutIssue: z.enum(PAYOUT_ISSUES).nullable(),
  /**
   * For both parties: `delayed` when Chapa still reports the driver's transfer pending after the checks' window (an
   * operator is checking it; it is never sent twice); `reversed` when Stripe took the driver's transfer back (the
   * money is held until an operator settles it).
   */
  payoutNotice: z.enum(PAYOUT_NOTICES).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  history: z.array(ZFreightPaymentEvent),
});
export type TFreightPayment = z.infer<typeof ZFreightPayment>;

/** A load's payment as its two parties see it: the quote (the shipper's, before paying) and the payment, if any. */
export const ZLoadPayment = z.object({ quote: ZFreightQuote.nullable(), payment: ZFreightPayment.nullable() });
export type TLoadPayment = z.infer<typeof ZLoadPayment>;

export const ZFundLoadResult = z.object({ url: z.string(), paymentId: z.number(), quote: ZFreightQuote });

/** The operator's decision on a disputed payment: release it to the driver, or refund the shipper (all or part). */
export const ZResolvePaymentInput = z.object({
  paymentId: z.number({ error: "paymentId must be a number" }).int().positive(),
  action: z.enum(["release", "refund"], { error: "action must be release or refund" }),
  /**
   * A partial refund: minor units as a whole number ("1250"), or a decimal with its point ("12.50"); the rest of the
   * escrow is released to the driver. Absent: the whole payment, the platform's fee too.
   */
  amount: zText({ error: "amount must be text" }).trim().max(24, { error: "amount is too long" }).optional(),
  /** Who decided (the operator's login on the CLI), for the audit line. */
  by: zText({ error: "by must be text" }).trim().min(1, { error: "by must not be empty" }).max(120),
});
export type TResolvePaymentInput = z.infer<typeof ZResolvePaymentInput>;

export const ZResolvePaymentResult = z.object({
  paymentId: z.number(),
  loadId: z.number(),
  state: z.enum(FREIGHT_PAYMENT_STATES),
  currency: z.string(),
  /** What went back to the shipper and what went to the driver (decimals). */
  refunded: z.number(),
  released: z.number(),
  by: z.string(),
  at: z.string(),
});
export type TResolvePaymentResult = z.infer<typeof ZResolvePaymentResult>;

/** A payment as the operator lists it (`mytess payments list`). */
export const ZOperatorPayment = z.object({
  id: z.number(),
  loadId: z.number(),
  loadTitle: z.string(),
  shipperEmail: z.string(),
  driverEmail: z.string(),
  provider: z.enum(FREIGHT_PROVIDERS),
  state: z.enum(FREIGHT_PAYMENT_STATES),
  currency: z.string(),
  agreed: z.number(),
  fee: z.number(),
  updatedAt: z.string(),
});
export type TOperatorPayment = z.infer<typeof ZOperatorPayment>;
