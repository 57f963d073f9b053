import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZCancelLoadInput, ZLocationInput, ZRatingInput } from "../../../shared/schemas/loads";
import { authedProcedure, driverProcedure, shipperProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { driverStats, driverTrips } from "../dashboards/dashboards";
import { toPublicLoad } from "../loads/serialize";
import { setDriverAvailability, updateDriverLocation } from "./location";
import { cancelLoad, markCompleted, markDelivered, markPickedUp, rateLoad } from "./trip";

const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

/**
 * A load's trip, step by step: picked up, delivered, completed, or cancelled, then rated. The root router serves
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
    .mutation(async ({ ctx, input }) => toPublicLoad(await markDelivered(ctx.db, ctx.actor, input.loadId))),
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
    .mutation(async ({ ctx, input }) => toPublicLoad(await markCompleted(ctx.db, ctx.actor, input.loadId))),
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
    .mutation(async ({ ctx, input }) => ({
      isAvailable: (await setDriverAvailability(ctx.db, ctx.actor, input.isAvailable)).isAvailable,
    })),
  stats: driverProcedure
    .meta(
      rest("GET", "/api/drivers/stats", { summary: "The driver's figures", tags: ["Drivers"], scope: "loads:read" }),
    )
    .query(({ ctx }) => driverStats(ctx.db, ctx.actor)),
  trips: driverProcedure
    .meta(rest("GET", "/api/drivers/trips", { summary: "The driver's trips", tags: ["Drivers"], scope: "loads:read" }))
    .query(({ ctx }) => driverTrips(ctx.db, ctx.actor)),
} satisfies TRPCRouterRecord;
