import { z } from "zod";
import { ZVerifiedBadge } from "./verification";

/**
 * A company's public profile: what anyone may see before dealing with it. Figures are credited to the company (the
 * ratings its side received on its loads, its trips completed, loads posted, a shipper company's pay speed: median
 * hours from delivery to release over its newest 20 paid loads, null with fewer than 3), the badge its owners'. No member is named and nothing reaches a person (email, phone).
 */
export const ZCompanyProfile = z.object({
  id: z.number(),
  name: z.string(),
  kind: z.enum(["carrier", "shipper"]),
  country: z.string(),
  verified: ZVerifiedBadge.nullable(),
  rating: z.number().nullable(),
  ratings: z.number(),
  trips: z.number(),
  loadsPosted: z.number(),
  paysInHours: z.number().nullable(),
  members: z.number(),
  since: z.string(),
});
export type TCompanyProfile = z.infer<typeof ZCompanyProfile>;
