import { z } from "zod";
import { zText } from "./text";

/** What a verification file shows. */
export const VERIFICATION_FILE_KINDS = ["trade_licence", "tin", "mc_dot", "insurance", "drivers_licence"] as const;
export type TVerificationFileKind = (typeof VERIFICATION_FILE_KINDS)[number];
export const VERIFICATION_STATUSES = ["pending", "approved", "rejected"] as const;
export type TVerificationStatus = (typeof VERIFICATION_STATUSES)[number];
/** Where the business is registered: Ethiopia (trade licence and TIN) or the United States (MC and/or DOT number). */
export const VERIFICATION_COUNTRIES = ["ET", "US"] as const;

/** The largest verification file (as load documents). */
export const MAX_VERIFICATION_FILE_BYTES = 10 * 1024 * 1024;
/** The days before the insurance's last day when its owner is told it is about to lapse. */
export const INSURANCE_REMINDER_DAYS = 14;

const id = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .positive(`${field} must be a positive integer`);

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (d: string) =>
  DAY.test(d) && !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d);

/** Text with its spaces taken out, absent when empty. */
const optional = (field: string, max: number) =>
  zText({ error: `${field} must be text` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .optional()
    .transform((v) => (v ? v : undefined));

/**
 * A submission: the business's numbers for its country, the insurance certificate's last day when one is given, and the
 * files already uploaded (`POST /api/verification/files`). What each country needs is checked here, each problem
 * naming its field; whether the files are the caller's and of the right kinds is the domain's.
 */
export const ZVerificationSubmitInput = z
  .object({
    country: z.enum(VERIFICATION_COUNTRIES, { error: "country must be ET or US" }),
    tradeLicenceNumber: optional("tradeLicenceNumber", 40),
    tin: optional("tin", 20),
    mcNumber: optional("mcNumber", 20),
    dotNumber: optional("dotNumber", 20),
    insuranceExpiresOn: optional("insuranceExpiresOn", 10),
    fileIds: z
      .array(id("fileIds"), { error: "fileIds must be a list of file ids" })
      .max(10, "fileIds must list at most 10 files")
      .default([]),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (v.country === "ET") {
      if (!v.tradeLicenceNumber)
        issue("tradeLicenceNumber", "tradeLicenceNumber is required for an Ethiopian business");
      else if (!/^[A-Za-z0-9/-]{3,40}$/.test(v.tradeLicenceNumber))
        issue("tradeLicenceNumber", "tradeLicenceNumber must be letters, digits, / or - (3 to 40)");
      if (!v.tin) issue("tin", "tin is required for an Ethiopian business");
      else if (!/^\d{10}$/.test(v.tin)) issue("tin", "tin must be exactly 10 digits");
      if (v.mcNumber) issue("mcNumber", "mcNumber is for a US business: choose country US");
      if (v.dotNumber) issue("dotNumber", "dotNumber is for a US business: choose country US");
    } else {
      if (!v.mcNumber && !v.dotNumber) issue("mcNumber", "mcNumber or dotNumber is required for a US business");
      if (v.mcNumber && !/^\d{1,8}$/.test(v.mcNumber.replace(/^MC-?\s*/i, "")))
        issue("mcNumber", "mcNumber must be digits (up to 8), such as 123456");
      if (v.dotNumber && !/^\d{1,8}$/.test(v.dotNumber.replace(/^(US)?DOT-?\s*/i, "")))
        issue("dotNumber", "dotNumber must be digits (up to 8), such as 1234567");
      if (v.tradeLicenceNumber) issue("tradeLicenceNumber", "tradeLicenceNumber is for an Ethiopian business");
      if (v.tin) issue("tin", "tin is for an Ethiopian business");
    }
    if (v.insuranceExpiresOn && !isDay(v.insuranceExpiresOn))
      issue("insuranceExpiresOn", "insuranceExpiresOn must be a date such as 2027-03-01");
  })
  .transform((v) => ({
    ...v,
    mcNumber: v.mcNumber?.replace(/^MC-?\s*/i, ""),
    dotNumber: v.dotNumber?.replace(/^(US)?DOT-?\s*/i, ""),
  }));
export type TVerificationSubmitInput = z.infer<typeof ZVerificationSubmitInput>;

export const ZVerificationFileUploadInput = z.object({
  kind: z.enum(VERIFICATION_FILE_KINDS, { error: `kind must be one of ${VERIFICATION_FILE_KINDS.join(", ")}` }),
  file: z.object(
    {
      name: zText({ error: "file must have a name" }).max(200, "file name must be at most 200 characters"),
      type: zText({ error: "file must have a type" }).max(200, "file type must be at most 200 characters"),
      data: z
        .instanceof(Uint8Array, { error: "file is required" })
        .refine((d) => d.byteLength > 0, "file is empty")
        .refine((d) => d.byteLength <= MAX_VERIFICATION_FILE_BYTES, "file must be at most 10 MB"),
    },
    { error: "file is required" },
  ),
});
export type TVerificationFileUploadInput = z.infer<typeof ZVerificationFileUploadInput>;

export const ZVerificationId = z.object({ id: id("id") });
export const ZVerificationRejectInput = z.object({
  id: id("id"),
  reason: zText({ error: "reason is required" })
    .trim()
    .min(1, "reason is required")
    .max(500, "reason must be at most 500 characters"),
});
export const ZVerificationListInput = z
  .object({
    status: z
      .enum(VERIFICATION_STATUSES, { error: `status must be one of ${VERIFICATION_STATUSES.join(", ")}` })
      .default("pending"),
  })
  .default({ status: "pending" });
