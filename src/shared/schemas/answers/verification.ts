import { z } from "zod";
import { VERIFICATION_COUNTRIES, VERIFICATION_FILE_KINDS, VERIFICATION_STATUSES } from "../verification";

export const ZVerificationFile = z.object({
  id: z.number(),
  kind: z.enum(VERIFICATION_FILE_KINDS),
  fileName: z.string(),
  contentType: z.string(),
  size: z.number(),
  createdAt: z.string(),
  url: z.string(),
});
export type TVerificationFile = z.infer<typeof ZVerificationFile>;

export const ZVerificationSubmission = z.object({
  id: z.number(),
  subject: z.object({ type: z.enum(["user"]), id: z.number(), name: z.string() }),
  status: z.enum(VERIFICATION_STATUSES),
  country: z.enum(VERIFICATION_COUNTRIES),
  tradeLicenceNumber: z.string().nullable(),
  tin: z.string().nullable(),
  mcNumber: z.string().nullable(),
  dotNumber: z.string().nullable(),
  insuranceExpiresOn: z.string().nullable(),
  reason: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  createdAt: z.string(),
  files: z.array(ZVerificationFile),
});
export type TVerificationSubmission = z.infer<typeof ZVerificationSubmission>;

/**
 * What a "Verified" badge says holds: the parts of the newest approved submission, insurance only until its last day
 * (`insuranceUntil`, then `insuranceLapsed`). Null: never approved.
 */
export const ZVerifiedBadge = z.object({
  verifiedAt: z.string(),
  tradeLicence: z.boolean(),
  tin: z.boolean(),
  mc: z.boolean(),
  dot: z.boolean(),
  driversLicence: z.boolean(),
  insuranceUntil: z.string().nullable(),
  insuranceLapsed: z.boolean(),
});
export type TVerifiedBadge = z.infer<typeof ZVerifiedBadge>;

export const ZMyVerificationAnswer = z.object({
  /** The newest submission, whatever its state; null before the first. */
  current: ZVerificationSubmission.nullable(),
  badge: ZVerifiedBadge.nullable(),
});
export type TMyVerificationAnswer = z.infer<typeof ZMyVerificationAnswer>;

export const ZVerificationListAnswer = z.array(ZVerificationSubmission);
