import { z } from "zod";
import { cents, ZMoneyCurrency } from "./loads";

/** A counter-offer: the amount one side proposes instead of the other's, in any currency the app prices in. */
export const ZCounterOfferInput = z.object({
  amount: cents("amount", 100_000_000),
  currency: ZMoneyCurrency,
});
export type TCounterOfferInput = z.infer<typeof ZCounterOfferInput>;

export const COUNTER_SIDES = ["shipper", "driver"] as const;
export const COUNTER_STATUSES = ["open", "accepted", "declined", "countered", "closed"] as const;

export const ZCounterOffer = z.object({
  id: z.number().int(),
  bidId: z.number().int(),
  /** Who made it: the load's shipper or the bidding driver. */
  side: z.enum(COUNTER_SIDES),
  amount: z.number(),
  currency: z.string(),
  status: z.enum(COUNTER_STATUSES),
  createdAt: z.string(),
  answeredAt: z.string().nullable(),
});
export type TCounterOffer = z.infer<typeof ZCounterOffer>;

/** A bid's negotiation: the offer waiting for an answer (if any) and every offer so far, oldest first. */
export const ZNegotiation = z.object({
  openCounter: ZCounterOffer.nullable(),
  counters: z.array(ZCounterOffer),
});

export const ZCounterResult = z.object({
  bidId: z.number().int(),
  loadId: z.number().int(),
  counter: ZCounterOffer,
});

export const ZCounterAcceptResult = ZCounterResult.extend({
  status: z.literal("assigned"),
  assignedDriverId: z.number().int(),
  /** The amount the load is awarded at (the accepted counter's), as the load now stores it. */
  agreedAmount: z.number(),
  agreedCurrency: z.string(),
  rejected: z.number().int(),
});
