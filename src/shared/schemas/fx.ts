import { z } from "zod";
import { zText } from "./text";

/** A day as the rates API and the operator write it (YYYY-MM-DD). */
export const ZFxDay = zText()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date such as 2026-12-31")
  .refine(
    (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
    {
      message: "must be a date such as 2026-12-31",
    },
  );

export const ZFxOverrideInput = z.object({
  currency: zText()
    .trim()
    .regex(/^[A-Za-z]{3}$/, "currency must be a three-letter code such as ETB")
    .transform((c) => c.toUpperCase()),
  ratePerUsd: z
    .number({ error: "ratePerUsd must be a number" })
    .positive("ratePerUsd must be more than 0")
    .max(1_000_000, "ratePerUsd must be at most 1000000"),
  until: ZFxDay.nullish(),
});
export type TFxOverrideInput = z.infer<typeof ZFxOverrideInput>;

/** A rate in use: units per US dollar, the day it is of (null: the first-start rate) and where it came from. */
export const ZFxRateInUse = z.object({
  currency: z.string(),
  ratePerUsd: z.number(),
  rateDate: z.string().nullable(),
  source: z.enum(["seed", "source", "operator"]),
  validUntil: z.string().nullable(),
});
export type TFxRateInUse = z.infer<typeof ZFxRateInUse>;

/** The display rates the web app converts with (GET /api/fx-rates). */
export const ZFxRate = z.object({
  code: z.string(),
  name: z.string(),
  symbol: z.string(),
  exchangeRate: z.number(),
  locale: z.string(),
  /** The day the rate is of (YYYY-MM-DD); null while only the first-start rate is known. */
  rateDate: z.string().nullable(),
  source: z.enum(["seed", "source", "operator"]),
});
export type TFxRate = z.infer<typeof ZFxRate>;
