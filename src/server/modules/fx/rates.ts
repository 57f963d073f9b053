// Exchange rates: what the app converts with (`fx_rates`, units per US dollar, one row per currency) and where each
// rate came from. The rates in use are worked out from the history (`fx_rate_history`) every time it changes: an
// operator's override that has not expired wins, else the newest day the source published for that currency, else the
// first-start rate. So an override that expires, a currency the source leaves out, or a day the source publishes
// nothing (a weekend, a holiday) each leave a rate that says which day it is of.
import { and, desc, eq, gte, isNull, max, or } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { fxRateHistory, fxRates } from "../../../../db/tables";
import { FX_SEED_RATES } from "../../../shared/constants";
import { AppError } from "../../errors";
import type { TFxSource } from "../../integrations/fx/nbe";

const DAY_MS = 86_400_000;
/** Addis Ababa is UTC+3 all year: the bank's day, and the day an override's "until" means. */
const ADDIS_OFFSET_MS = 3 * 3_600_000;
/** How far back a run looks for days it has not got yet (a worker that was down for a while). */
export const FX_BACKFILL_DAYS = 7;

export const fxDay = (at: number) => new Date(at + ADDIS_OFFSET_MS).toISOString().slice(0, 10);
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

export type TRateInUse = {
  currency: string;
  ratePerUsd: number;
  rateDate: string | null;
  source: "seed" | "source" | "operator";
  /** An override's last day, when the rate in use is one. */
  validUntil: string | null;
};

/** The rates in use, worked out again from the history; changes only the rows whose rate, day or source moved. */
export const refreshRates = async (db: TDb, now = Date.now()): Promise<TRateInUse[]> =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, ["fx_rates"]);
    const today = fxDay(now);
    const rows = await tx.select().from(fxRates);
    const overrides = await tx
      .select()
      .from(fxRateHistory)
      .where(
        and(
          eq(fxRateHistory.source, "operator"),
          or(isNull(fxRateHistory.validUntil), gte(fxRateHistory.validUntil, today)),
        ),
      )
      .orderBy(desc(fxRateHistory.createdAt), desc(fxRateHistory.id));
    const [{ newest }] = await tx
      .select({ newest: max(fxRateHistory.day) })
      .from(fxRateHistory)
      .where(eq(fxRateHistory.source, "source"));
    const inUse: TRateInUse[] = [];
    for (const row of rows) {
      let next: TRateInUse;
      const override = overrides.find((o) => o.currency === row.currency);
      if (row.currency === "USD") {
        next = {
          currency: "USD",
          ratePerUsd: 1,
          rateDate: newest ?? null,
          source: newest ? "source" : "seed",
          validUntil: null,
        };
      } else if (override) {
        next = {
          currency: row.currency,
          ratePerUsd: override.ratePerUsd,
          rateDate: override.day,
          source: "operator",
          validUntil: override.validUntil,
        };
      } else {
        const [latest] = await tx
          .select()
          .from(fxRateHistory)
          .where(and(eq(fxRateHistory.currency, row.currency), eq(fxRateHistory.source, "source")))
          .orderBy(desc(fxRateHistory.day))
          .limit(1);
        next = latest
          ? {
              currency: row.currency,
              ratePerUsd: latest.ratePerUsd,
              rateDate: latest.day,
              source: "source",
              validUntil: null,
            }
          : {
              currency: row.currency,
              ratePerUsd: FX_SEED_RATES[row.currency] ?? row.ratePerUsd,
              rateDate: null,
              source: "seed",
              validUntil: null,
            };
      }
      inUse.push(next);
      if (next.ratePerUsd !== row.ratePerUsd || next.rateDate !== row.rateDate || next.source !== row.source)
        await tx
          .update(fxRates)
          .set({ ratePerUsd: next.ratePerUsd, rateDate: next.rateDate, source: next.source, updatedAt: now })
          .where(eq(fxRates.currency, row.currency));
    }
    return inUse;
  });

/**
 * Fetches the days the history lacks (up to today, at most FX_BACKFILL_DAYS back) and records every rate of a
 * currency the app knows, once per currency and day: running it twice, or two workers at once, records nothing twice.
 * The rates in use are worked out again even when the source fails, so an override still expires on time.
 * Returns the days that brought rates.
 */
export const syncRates = async (db: TDb, source: TFxSource, now = Date.now()) => {
  const today = fxDay(now);
  const known = new Set((await db.select({ currency: fxRates.currency }).from(fxRates)).map((r) => r.currency));
  known.delete("USD");
  const [{ newest }] = await db
    .select({ newest: max(fxRateHistory.day) })
    .from(fxRateHistory)
    .where(eq(fxRateHistory.source, "source"));
  const earliest = addDays(today, -(FX_BACKFILL_DAYS - 1));
  // The newest day is asked again: the bank may add a currency it left out earlier that day.
  let day = newest && newest > earliest ? newest : earliest;
  const got: string[] = [];
  try {
    for (; day <= today; day = addDays(day, 1)) {
      for (const published of await source.ratesOf(day)) {
        const values = [...published.perUsd]
          .filter(([code]) => known.has(code))
          .map(([currency, ratePerUsd]) => ({
            currency,
            day: published.day,
            ratePerUsd,
            source: "source" as const,
            createdAt: now,
          }));
        if (!values.length) continue;
        await db.insert(fxRateHistory).values(values).onConflictDoNothing();
        if (!got.includes(published.day)) got.push(published.day);
      }
    }
  } finally {
    await refreshRates(db, now);
  }
  return got;
};

/**
 * An operator's rate for `currency` (units per dollar), in use from today through `until` (inclusive; without it,
 * until another override or `until` replaces it). A second override the same day replaces the first.
 */
export const setOverride = async (
  db: TDb,
  input: { currency: string; ratePerUsd: number; until?: string | null },
  now = Date.now(),
) => {
  const today = fxDay(now);
  const currency = input.currency.toUpperCase();
  const [row] = await db.select().from(fxRates).where(eq(fxRates.currency, currency));
  if (!row || currency === "USD")
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.fx.unknownCurrency",
        message: "{currency} has no exchange rate to set (rates are per US dollar)",
        values: { currency },
      },
      {
        issues: [
          {
            path: "currency",
            message: /*i18n*/ {
              id: "error.fx.unknownCurrencyShort",
              comment: "Field error on the currency of an exchange rate: no rate can be set for it",
              message: "no rate to set",
            },
          },
        ],
      },
    );
  if (input.until && input.until < today)
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.fx.untilPast",
        message: "The override would end before today ({today})",
        values: { today },
      },
      {
        issues: [
          {
            path: "until",
            message: /*i18n*/ {
              id: "error.fx.untilPastShort",
              comment: "Field error on the last day of an exchange-rate override: the day is already over",
              message: "before today",
            },
          },
        ],
      },
    );
  await db
    .insert(fxRateHistory)
    .values({
      currency,
      day: today,
      ratePerUsd: input.ratePerUsd,
      source: "operator",
      validUntil: input.until ?? null,
      createdAt: now,
    })
    .onConflictDoUpdate({
      target: [fxRateHistory.currency, fxRateHistory.day, fxRateHistory.source],
      set: { ratePerUsd: input.ratePerUsd, validUntil: input.until ?? null, createdAt: now },
    });
  const inUse = await refreshRates(db, now);
  return inUse.find((r) => r.currency === currency)!;
};

/** The rates in use, with their day and source, as the operator's `mytess fx list` shows them. */
export const ratesInUse = (db: TDb, now = Date.now()) => refreshRates(db, now);
