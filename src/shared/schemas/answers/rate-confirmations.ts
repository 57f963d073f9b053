import { z } from "zod";
import { LOAD_STATUSES } from "../loads";

/** One party of an awarded load, as the other party sees them. */
export const ZTripParty = z.object({
  id: z.number(),
  role: z.enum(["shipper", "driver"]),
  name: z.string(),
  /** The party's proven phone number: given only to the other party of an awarded load, for a call. */
  phone: z.string().nullable(),
  rating: z.number(),
  totalRatings: z.number(),
  /** Trips the party completed on MyTess (drivers) or loads of theirs completed (shippers). */
  completedTrips: z.number(),
});
export type TTripParty = z.infer<typeof ZTripParty>;

const ZAcceptance = z.object({ at: z.string(), accountId: z.number() }).nullable();

/** An awarded load's rate confirmation: the agreed amount, both parties, and who has accepted it when. */
export const ZRateConfirmationAnswer = z.object({
  loadId: z.number(),
  status: z.enum(LOAD_STATUSES),
  agreed: z.object({ amount: z.number(), currency: z.string() }),
  awardedAt: z.string().nullable(),
  shipper: ZTripParty,
  driver: ZTripParty,
  /** The caller's side. */
  you: z.enum(["shipper", "driver"]),
  accepted: z.object({ shipper: ZAcceptance, driver: ZAcceptance }),
  pdfUrl: z.string(),
});
export type TRateConfirmationAnswer = z.infer<typeof ZRateConfirmationAnswer>;
