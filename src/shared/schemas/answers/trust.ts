import { z } from "zod";
import { ZVerifiedBadge } from "./verification";

/**
 * A company's public profile: what anyone may see before dealing with it. Figures are its members' (ratings, trips,
 * loads posted), the badge its owners'. No member is named and nothing reaches a person (email, phone).
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
  members: z.number(),
  since: z.string(),
});
export type TCompanyProfile = z.infer<typeof ZCompanyProfile>;
