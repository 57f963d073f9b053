import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZDriverStats, ZLoad } from "../../../shared/schemas/answers/common";
import {
  ZDriversSetAvailabilityAnswer,
  ZDriversTripsAnswer,
  ZDriversUpdateLocationAnswer,
  ZLoadsRateAnswer,
  ZLoadsTimelineAnswer,
} from "../../../shared/schemas/answers/trips";
import { ZDeliveryInput } from "../../../shared/schemas/documents";
import { ZCancelLoadInput, ZLocationInput, ZRatingInput } from "../../../shared/schemas/loads";
import { ZDisputeInput } from "../../../shared/schemas/trips";
import { authedProcedure, driverProcedure, shipperProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { driverStats, driverTrips } from "../dashboards/dashboards";
import { toPublicLoad } from "../loads/serialize";
import { timelineOf } from "./events";
import { setDriverAvailability, updateDriverLocation } from "./location";
import {
  acceptDelivery,
  cancelLoad,
  deliverWithProof,
  disputeDelivery,
  markDelivered,
  markPickedUp,
  rateLoad,
} from "./trip";

const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

/**
 * A load's trip, step by step: picked up, delivered, accepted or disputed, completed, or cancelled, then rated; and
 * its timeline. The root router serves
 * these under `loads` (loads.pickup, …), the paths the web app's offline queue stores and replays.
 */
export const tripsRouter = {
  pickup: driverProcedure
    .meta(
      rest("POST", "/api/loads/:id/pickup", {
        summary: "Mark a load picked up",
        tags: ["Trips"],
        scope: "tracking:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZLoad)
    .mutation(async ({ ctx, input }) => toPublicLoad(await markPickedUp(ctx.db, ctx.actor, input.loadId))),
  deliver: driverProcedure
    .meta(
      rest("POST", "/api/loads/:id/deliver", {
        summary: "Mark a load delivered",
        tags: ["Trips"],
        scope: "tracking:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZLoad)
    .mutation(async ({ ctx, input }) => toPublicLoad(await markDelivered(ctx.db, ctx.actor, input.loadId))),
  /** Delivered with its proof: the receiver's name and the photos or signature already uploaded. */
  deliverWithProof: driverProcedure
    .meta(
      rest("POST", "/api/loads/:id/delivery", {
        summary: "Record a delivery with its proof (receiver's name, photos or signature)",
        tags: ["Trips"],
        scope: "tracking:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZDeliveryInput)
    .output(ZLoad)
    .mutation(async ({ ctx, input }) => toPublicLoad(await deliverWithProof(ctx.db, ctx.actor, input))),
  /** Accepting the proof of delivery; `complete` is the older name the offline queue may still hold. */
  complete: shipperProcedure
    .meta(
      rest("POST", "/api/loads/:id/complete", {
        summary: "Confirm a delivery",
        tags: ["Trips"],
        scope: "loads:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZLoad)
    .mutation(async ({ ctx, input }) => toPublicLoad(await acceptDelivery(ctx.db, ctx.actor, input.loadId))),
  acceptDelivery: shipperProcedure
    .meta(
      rest("POST", "/api/loads/:id/pod/accept", {
        summary: "Accept a proof of delivery (the load is completed)",
        tags: ["Trips"],
        scope: "loads:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZLoad)
    .mutation(async ({ ctx, input }) => toPublicLoad(await acceptDelivery(ctx.db, ctx.actor, input.loadId))),
  disputeDelivery: shipperProcedure
    .meta(
      rest("POST", "/api/loads/:id/pod/dispute", {
        summary: "Dispute a delivery within 48 hours, with a reason",
        tags: ["Trips"],
        scope: "loads:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId.extend(ZDisputeInput.shape))
    .output(ZLoad)
    .mutation(async ({ ctx, input }) =>
      toPublicLoad(await disputeDelivery(ctx.db, ctx.actor, input.loadId, input.reason)),
    ),
  timeline: authedProcedure
    .meta(
      rest("GET", "/api/loads/:id/timeline", {
        summary: "A load's trip timeline (both parties)",
        tags: ["Trips"],
        scope: "tracking:read",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZLoadsTimelineAnswer)
    .query(({ ctx, input }) => timelineOf(ctx.db, ctx.actor, input.loadId)),
  cancel: shipperProcedure
    .meta(
      rest("POST", "/api/loads/:id/cancel", {
        summary: "Cancel a load",
        tags: ["Trips"],
        scope: "loads:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId.extend(ZCancelLoadInput.shape))
    .output(ZLoad)
    .mutation(async ({ ctx, input }) => toPublicLoad(await cancelLoad(ctx.db, ctx.actor, input.loadId, input.reason))),
  rate: authedProcedure
    .meta(
      rest("POST", "/api/loads/:id/rating", {
        summary: "Rate the other party",
        tags: ["Trips"],
        scope: "loads:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId.extend(ZRatingInput.shape))
    .output(ZLoadsRateAnswer)
    .mutation(({ ctx, input }) => rateLoad(ctx.db, ctx.actor, input.loadId, input.score)),
} satisfies TRPCRouterRecord;

/** A driver's position and availability, and their own figures and trips. */
export const driversRouter = {
  updateLocation: driverProcedure
    .meta(
      rest("POST", "/api/drivers/location", {
        summary: "Report the driver's position",
        tags: ["Drivers"],
        scope: "tracking:write",
      }),
    )
    .input(ZLocationInput)
    .output(ZDriversUpdateLocationAnswer)
    .mutation(({ ctx, input }) => updateDriverLocation(ctx.db, ctx.actor, input.latitude, input.longitude)),
  setAvailability: driverProcedure
    .meta(
      rest("PUT", "/api/drivers/availability", {
        summary: "Set the driver's availability",
        tags: ["Drivers"],
        scope: "tracking:write",
      }),
    )
    .input(z.object({ isAvailable: z.boolean({ error: "isAvailable must be true or false" }) }))
    .output(ZDriversSetAvailabilityAnswer)
    .mutation(async ({ ctx, input }) => ({
      isAvailable: (await setDriverAvailability(ctx.db, ctx.actor, input.isAvailable)).isAvailable,
    })),
  stats: driverProcedure
    .meta(
      rest("GET", "/api/drivers/stats", { summary: "The driver's figures", tags: ["Drivers"], scope: "loads:read" }),
    )
    .output(ZDriverStats)
    .query(({ ctx }) => driverStats(ctx.db, ctx.actor)),
  trips: driverProcedure
    .meta(rest("GET", "/api/drivers/trips", { summary: "The driver's trips", tags: ["Drivers"], scope: "loads:read" }))
    .output(ZDriversTripsAnswer)
    .query(({ ctx }) => driverTrips(ctx.db, ctx.actor)),
} satisfies TRPCRouterRecord;
