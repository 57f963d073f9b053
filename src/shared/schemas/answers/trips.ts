import { z } from "zod";
import { TRIP_EVENT_KINDS } from "../trips";
import { ZLoad } from "./common";

export const ZLoadsTimelineAnswer = z.array(
  z.object({
    id: z.number(),
    kind: z.enum(TRIP_EVENT_KINDS),
    actor: z.object({ id: z.number(), name: z.string() }).nullable(),
    at: z.string(),
    detail: z.record(z.string(), z.unknown()).nullable(),
  }),
);
export const ZLoadsRateAnswer = z.object({
  loadId: z.number(),
  score: z.number(),
  ratee: z.object({ id: z.number(), rating: z.number(), totalRatings: z.number() }),
});
export const ZDriversUpdateLocationAnswer = z.object({
  latitude: z.number(),
  longitude: z.number(),
  updatedAt: z.string(),
  isAvailable: z.boolean(),
  trackedLoadIds: z.array(z.number()),
});
export const ZDriversSetAvailabilityAnswer = z.object({ isAvailable: z.boolean() });
export const ZDriversTripsAnswer = z.array(ZLoad.extend({ hasRated: z.boolean() }));
