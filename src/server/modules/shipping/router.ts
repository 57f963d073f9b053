import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZShipment } from "../../../shared/schemas/answers/common";
import {
  ZShippingCarriersAnswer,
  ZShippingDeleteShipmentAnswer,
  ZShippingRatesAnswer,
  ZShippingShipmentsAnswer,
  ZShippingTrackAnswer,
} from "../../../shared/schemas/answers/shipping";
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
import { rest, restRoutes } from "../../trpc/rest-meta";
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
  carriers: userOrSystemProcedure
    .meta(
      rest("GET", "/api/shipping/carriers", {
        summary: "The parcel carriers and their state",
        tags: ["Shipping"],
        scope: "shipping:read",
      }),
    )
    .output(ZShippingCarriersAnswer)
    .query(({ ctx }) => ctx.services.carriers.states(ctx.locale)),
  rates: userOrSystemProcedure
    .meta(rest("POST", "/api/shipping/rates", { summary: "Parcel rates", tags: ["Shipping"], scope: "shipping:read" }))
    .input(ZRatesInput)
    .output(ZShippingRatesAnswer)
    .mutation(({ ctx, input }) => shopRates(ctx.services.carriers, input, ctx.locale)),
  track: userOrSystemProcedure
    .meta(
      restRoutes(
        {
          method: "GET",
          path: "/api/shipping/track/:first",
          summary: "Track a parcel",
          tags: ["Shipping"],
          scope: "tracking:read",
          params: { first: { input: "trackingNumber", type: "text" } },
        },
        {
          method: "GET",
          path: "/api/shipping/track/:first/:trackingNumber",
          summary: "Track a parcel with a named carrier",
          tags: ["Shipping"],
          scope: "tracking:read",
          // One parameter name per path segment (the router's rule): the first segment is the number, or the carrier.
          params: {
            first: { input: "carrier", type: "text" },
            trackingNumber: { input: "trackingNumber", type: "text" },
          },
        },
      ),
    )
    .input(ZTrackInput)
    .output(ZShippingTrackAnswer)
    .query(async ({ ctx, input }) => ({
      tracking: await trackPackage(ctx.services.carriers, input.trackingNumber, input.carrier),
    })),
  saveShipment: authedProcedure
    .meta(
      rest("POST", "/api/shipping/shipments", {
        summary: "Save a shipment",
        tags: ["Shipping"],
        scope: "shipping:write",
        status: 201,
      }),
    )
    .input(
      z.object({
        quote: ZQuote,
        shipper: ZShipperAddress,
        recipient: ZRecipientAddress,
        packages: z.array(ZPackage).min(1).max(25),
      }),
    )
    .output(ZShipment)
    .mutation(({ ctx, input }) => saveShipment(ctx.db, ctx.actor, input)),
  shipments: authedProcedure
    .meta(
      rest("GET", "/api/shipping/shipments", {
        summary: "Saved shipments",
        tags: ["Shipping"],
        scope: "shipping:read",
      }),
    )
    .output(ZShippingShipmentsAnswer)
    .query(({ ctx }) => listShipments(ctx.db, ctx.actor)),
  deleteShipment: authedProcedure
    .meta(
      rest("DELETE", "/api/shipping/shipments/:id", {
        summary: "Delete a saved shipment",
        tags: ["Shipping"],
        scope: "shipping:write",
      }),
    )
    .input(z.object({ id: z.number().int().positive() }))
    .output(ZShippingDeleteShipmentAnswer)
    .mutation(({ ctx, input }) => deleteShipment(ctx.db, ctx.actor, input.id)),
} satisfies TRPCRouterRecord;
