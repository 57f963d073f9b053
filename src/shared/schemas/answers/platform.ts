import { z } from "zod";

export const ZPlatformStatsAnswer = z.object({
  totalLoads: z.number(),
  activeDrivers: z.number(),
  completedDeliveries: z.number(),
  countriesServed: z.number(),
  avgRating: z.number(),
  totalRevenue: z.number(),
});
