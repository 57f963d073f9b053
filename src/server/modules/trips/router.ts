import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZLocationInput } from "../../../shared/schemas/loads";
import { driverProcedure } from "../../trpc/init";
import { driverStats, driverTrips } from "../dashboards/dashboards";
import { setDriverAvailability, updateDriverLocation } from "./location";

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
