import { z } from "zod";
import { CARRIERS } from "../../tracking-number";
import { ZCarrierState, ZRateOption, ZShipment, ZTrackingResult } from "./common";

export const ZShippingCarriersAnswer = z.array(
  z.object({ id: z.enum(CARRIERS), name: z.string(), state: ZCarrierState, reason: z.string().nullable() }),
);
export const ZShippingRatesAnswer = z.object({
  rates: z.array(ZRateOption),
  errors: z.array(z.object({ carrier: z.enum(CARRIERS), message: z.string() })),
});
export const ZShippingTrackAnswer = z.object({ tracking: ZTrackingResult });
export const ZShippingShipmentsAnswer = z.array(ZShipment);
export const ZShippingDeleteShipmentAnswer = z.object({ id: z.number(), deleted: z.boolean() });
