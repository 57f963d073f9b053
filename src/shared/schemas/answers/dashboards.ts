import { z } from "zod";
import { USER_TYPES } from "../../constants";
import { ZDriverStats } from "./common";

export const ZDashboardHomeAnswer = z.object({
  userType: z.enum(USER_TYPES),
  driver: ZDriverStats.nullable(),
  shipper: z
    .object({
      active: z.number(),
      totalBids: z.number(),
      avgSavings: z.number().nullable(),
      awardedLoads: z.number(),
      completed: z.number(),
    })
    .nullable(),
  activity: z.array(
    z.object({
      id: z.number(),
      kind: z.enum([
        "load_picked_up",
        "load_delivered",
        "load_completed",
        "load_posted",
        "bid_placed",
        "bid_received",
        "bid_accepted",
        "bid_rejected",
        "bid_withdrawn",
        "load_cancelled",
        "rated",
      ]),
      createdAt: z.string(),
      load: z
        .object({
          id: z.number(),
          title: z.string().nullable(),
          pickupCity: z.string().nullable(),
          deliveryCity: z.string().nullable(),
        })
        .nullable(),
      actorName: z.string().nullable(),
    }),
  ),
});
