import { z } from "zod";
import { EQUIPMENT_TYPES, MONEY_CURRENCY_CODES } from "../../constants";
import { LOAD_SIZES } from "../loads";
import { ZLoad, ZStoreIntegration, ZStoreOrder } from "./common";

export const ZStoresIntegrationsAnswer = z.array(ZStoreIntegration);
export const ZStoresTestIntegrationAnswer = z.union([
  z.object({ connected: z.literal(false), message: z.string() }),
  z.object({ connected: z.literal(true), message: z.null() }),
]);
export const ZStoresSyncIntegrationAnswer = z.object({
  message: z.string(),
  created: z.number(),
  updated: z.number(),
  pages: z.number(),
  partial: z.boolean(),
});
export const ZStoresOrdersAnswer = z.object({
  items: z.array(ZStoreOrder),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export const ZStoresOrderDraftAnswer = z.object({
  load: z.object({
    description: z.string().nullable(),
    title: z.string(),
    pickupAddress: z.string(),
    pickupCity: z.string(),
    pickupState: z.string().nullable(),
    pickupCountry: z.string(),
    pickupLatitude: z.number(),
    pickupLongitude: z.number(),
    deliveryAddress: z.string(),
    deliveryCity: z.string(),
    deliveryState: z.string().nullable(),
    deliveryCountry: z.string(),
    equipmentType: z.enum(EQUIPMENT_TYPES),
    budgetCurrency: z.enum(MONEY_CURRENCY_CODES),
    loadSize: z.enum(LOAD_SIZES),
    specialInstructions: z.string().nullable(),
    weight: z.number(),
    budgetAmount: z.number(),
    deliveryLatitude: z.number().nullable(),
    deliveryLongitude: z.number().nullable(),
    pickupDate: z.string(),
    deliveryDate: z.string(),
  }),
  missing: z.array(z.string()),
  order: ZStoreOrder,
});
export const ZStoresConvertAnswer = z.object({ order: ZStoreOrder, load: ZLoad });
