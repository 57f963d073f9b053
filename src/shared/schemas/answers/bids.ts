import { z } from "zod";
import { ZNegotiation } from "../bids";
import { ZBid, ZBidCarrier, ZBidTruck, ZLoad } from "./common";

export const ZBidsPlaceAnswer = z.object({ bid: ZBid, replaced: z.boolean() });
export const ZBidsMineAnswer = z.array(
  z
    .object({
      load: ZLoad,
      id: z.number(),
      loadId: z.number(),
      driverId: z.number(),
      amount: z.number(),
      currency: z.string(),
      proposedPickupDate: z.string().nullable(),
      notes: z.string().nullable(),
      truck: ZBidTruck.nullable(),
      status: z.enum(["pending", "accepted", "rejected", "withdrawn"]),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .extend(ZNegotiation.shape),
);
export const ZBidsForLoadAnswer = z.array(
  z
    .object({
      driverName: z.string(),
      initials: z.string(),
      rating: z.number(),
      totalRatings: z.number(),
      trips: z.number(),
      distance: z.number().nullable(),
      amountInViewerCurrency: z.number(),
      viewerCurrency: z.string(),
      isClosest: z.boolean(),
      carrier: ZBidCarrier,
      id: z.number(),
      loadId: z.number(),
      driverId: z.number(),
      amount: z.number(),
      currency: z.string(),
      proposedPickupDate: z.string().nullable(),
      notes: z.string().nullable(),
      truck: ZBidTruck.nullable(),
      status: z.enum(["pending", "accepted", "rejected", "withdrawn"]),
      createdAt: z.string(),
      updatedAt: z.string(),
    })
    .extend(ZNegotiation.shape),
);
export const ZBidsAcceptAnswer = z.object({
  bidId: z.number(),
  loadId: z.number(),
  status: z.literal("assigned"),
  assignedDriverId: z.number(),
  rejected: z.number(),
  agreedAmount: z.number(),
  agreedCurrency: z.string(),
});
export const ZBidsRejectAnswer = z.object({ bidId: z.number(), status: z.literal("rejected") });
export const ZBidsWithdrawAnswer = z.object({ bidId: z.number(), status: z.literal("withdrawn") });
