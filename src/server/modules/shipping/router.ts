import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import {
  ZPackage,
  ZRatesInput,
  ZRecipientAddress,
  ZShipperAddress,
  ZTrackInput,
} from "../../../shared/schemas/shipping";
import { zText } from "../../../shared/schemas/text";
import { CARRIERS } from "../../../shared/tracking-number";
import { authedProcedure, userOrSystemProcedure } from "../../trpc/init";
import { deleteShipment, listShipments, saveShipment, shopRates, trackPackage } from "./shipping";

const ZQuote = z.object({
  carrier: z.enum(CARRIERS),
  serviceCode: zText().min(1).max(60),
  serviceName: zText().min(1).max(120),
  transitTime: zText().max(120),
  totalCost: z.number().min(0).max(1_000_000),
  currency: zText().regex(/^[A-Z]{3}$/),
  deliveryDays: z.number().int().min(0).max(90).nullable(),
  guaranteedDelivery: z.boolean(),
});

export const shippingRouter = {
  carriers: userOrSystemProcedure.query(({ ctx }) => ctx.services.carriers.states(ctx.locale)),
  rates: userOrSystemProcedure
    .input(ZRatesInput)
    .mutation(({ ctx, input }) => shopRates(ctx.services.carriers, input, ctx.locale)),
  track: userOrSystemProcedure.input(ZTrackInput).query(async ({ ctx, input }) => ({
    tracking: await trackPackage(ctx.services.carriers, input.trackingNumber, input.carrier),
  })),
  saveShipment: authedProcedure
    .input(
      z.object({
        quote: ZQuote,
        shipper: ZShipperAddress,
        recipient: ZRecipientAddress,
        packages: z.array(ZPackage).min(1).max(25),
      }),
    )
    .mutation(({ ctx, input }) => saveShipment(ctx.db, ctx.actor, input)),
  shipments: authedProcedure.query(({ ctx }) => listShipments(ctx.db, ctx.actor)),
  deleteShipment: authedProcedure
    .input(z.object({ id: z.number().int().positive() }))
    .mutation(({ ctx, input }) => deleteShipment(ctx.db, ctx.actor, input.id)),
} satisfies TRPCRouterRecord;
