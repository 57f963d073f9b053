import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZDeliveryInput } from "../../../shared/schemas/documents";
import { ZCancelLoadInput, ZLocationInput, ZRatingInput } from "../../../shared/schemas/loads";
import { ZDisputeInput } from "../../../shared/schemas/trips";
import { authedProcedure, driverProcedure, shipperProcedure } from "../../trpc/init";
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
    .input(ZLoadId)
    .mutation(async ({ ctx, input }) => toPublicLoad(await markPickedUp(ctx.db, ctx.actor, input.loadId))),
  deliver: driverProcedure
    .input(ZLoadId)
    .mutation(async ({ ctx, input }) => toPublicLoad(await markDelivered(ctx.db, ctx.actor, input.loadId))),
  /** Delivered with its proof: the receiver's name and the photos or signature already uploaded. */
  deliverWithProof: driverProcedure
    .input(ZDeliveryInput)
    .mutation(async ({ ctx, input }) => toPublicLoad(await deliverWithProof(ctx.db, ctx.actor, input))),
  /** Accepting the proof of delivery; `complete` is the older name the offline queue may still hold. */
  complete: shipperProcedure
    .input(ZLoadId)
    .mutation(async ({ ctx, input }) => toPublicLoad(await acceptDelivery(ctx.db, ctx.actor, input.loadId))),
  acceptDelivery: shipperProcedure
    .input(ZLoadId)
    .mutation(async ({ ctx, input }) => toPublicLoad(await acceptDelivery(ctx.db, ctx.actor, input.loadId))),
  disputeDelivery: shipperProcedure
    .input(ZLoadId.extend(ZDisputeInput.shape))
    .mutation(async ({ ctx, input }) =>
      toPublicLoad(await disputeDelivery(ctx.db, ctx.actor, input.loadId, input.reason)),
    ),
  timeline: authedProcedure.input(ZLoadId).query(({ ctx, input }) => timelineOf(ctx.db, ctx.actor, input.loadId)),
  cancel: shipperProcedure
    .input(ZLoadId.extend(ZCancelLoadInput.shape))
    .mutation(async ({ ctx, input }) => toPublicLoad(await cancelLoad(ctx.db, ctx.actor, input.loadId, input.reason))),
  rate: authedProcedure
    .input(ZLoadId.extend(ZRatingInput.shape))
    .mutation(({ ctx, input }) => rateLoad(ctx.db, ctx.actor, input.loadId, input.score)),
} satisfies TRPCRouterRecord;

/** A driver's position and availability, and their own figures and trips. */
export const driversRouter = {
  updateLocation: driverProcedure
    .input(ZLocationInput)
    .mutation(({ ctx, input }) => updateDriverLocation(ctx.db, ctx.actor, input.latitude, input.longitude)),
  setAvailability: driverProcedure
    .input(z.object({ isAvailable: z.boolean({ error: "isAvailable must be true or false" }) }))
    .mutation(async ({ ctx, input }) => ({
      isAvailable: (await setDriverAvailability(ctx.db, ctx.actor, input.isAvailable)).isAvailable,
    })),
  stats: driverProcedure.query(({ ctx }) => driverStats(ctx.db, ctx.actor)),
  trips: driverProcedure.query(({ ctx }) => driverTrips(ctx.db, ctx.actor)),
} satisfies TRPCRouterRecord;
