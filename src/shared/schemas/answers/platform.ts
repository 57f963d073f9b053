import { z } from "zod";

export const ZPlatformStatsAnswer = z.object({
  totalLoads: z.number(),
  activeDrivers: z.number(),
  completedDeliveries: z.number(),
  countriesServed: z.number(),
  avgRating: z.number(),
  totalRevenue: z.number(),
});
export const ZPlatformFxRatesAnswer = z.array(
  z.object({ code: z.string(), name: z.string(), symbol: z.string(), exchangeRate: z.number(), locale: z.string() }),
);
