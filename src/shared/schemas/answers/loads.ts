import { z } from "zod";
import { LOAD_STATUSES } from "../loads";
import { ZTrackPoint } from "../tracking";
import { ZBidTruck, ZBoardShipper, ZInvitedToBid, ZLoad } from "./common";

export const ZLoadsStatsAnswer = z.object({
  total: z.number(),
  urgent: z.number(),
  external: z.number(),
  avgRatePerMileUsd: z.number().nullable(),
});
export const ZLoadsByIdAnswer = ZLoad.extend({
  isMine: z.boolean(),
  isAssignedToMe: z.boolean(),
  /** True for an owner or dispatcher of the carrier company the load was awarded to: they assign its driver. */
  dispatchedByMe: z.boolean(),
  track: z.object({ lastPosition: ZTrackPoint.nullable(), points: z.array(ZTrackPoint) }).nullable(),
  cancelReason: z.string().nullable(),
  ratedBy: z.array(z.number()),
  /** Who posted it (a MyTess load; null for an outside board's). */
  shipper: ZBoardShipper.nullable(),
  /** The truck the awarded bid offered: for the load's parties only, null when the bid named none. */
  truck: ZBidTruck.nullable(),
  invited: ZInvitedToBid,
});
export const ZLoadsPreviewAnswer = z.object({
  id: z.number(),
  title: z.string(),
  pickupLocation: z.string(),
  deliveryLocation: z.string(),
  pickupDate: z.string(),
  deliveryDate: z.string(),
  equipmentType: z.string(),
  weight: z.number(),
  budgetAmount: z.number(),
  budgetCurrency: z.string(),
  tripMiles: z.number(),
  isUrgent: z.boolean(),
  status: z.enum(LOAD_STATUSES),
});
export const ZLoadsMineAnswer = z.array(
  ZLoad.extend({
    pendingBids: z.number(),
    bestBid: z.object({ amount: z.number(), currency: z.string() }).nullable(),
    agreedPrice: z.object({ amount: z.number(), currency: z.string() }).nullable(),
    unreadMessages: z.number(),
    assignedDriverName: z.string().nullable(),
    lastPosition: ZTrackPoint.nullable(),
    cancelReason: z.string().nullable(),
    hasRated: z.boolean(),
    /** Who posted the load (a shipper company's loads are listed to all its members); isMe for the caller's own. */
    postedBy: z.object({ id: z.number().int(), name: z.string().nullable(), isMe: z.boolean() }).nullable(),
  }),
);

/** The board's matching loads as points for the map: ids and pickup coordinates only. */
export const ZLoadPointsAnswer = z.object({
  points: z.array(
    z.object({ id: z.number().int(), latitude: z.number(), longitude: z.number(), external: z.boolean() }),
  ),
  /** More loads matched than `limit`: the nearest (or first in the board's order) `limit` are given. */
  truncated: z.boolean(),
  limit: z.number().int(),
});
