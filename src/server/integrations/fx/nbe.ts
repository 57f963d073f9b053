// The National Bank of Ethiopia's exchange-rate API: `GET /api/filter-exchange-rates?date=YYYY-MM-DD` answers
// `{success, data: [{date, buying, selling, weighted_average, currency: {code, name}}]}` in birr per unit of each
// foreign currency. It publishes on working days only: a weekend or a holiday answers no rows (or the rows of the
// last working day, which carry their own date), and a currency may be missing from a day's list. It allows 60
// requests a minute. MyTess reads the weighted average and turns it into units per US dollar, the way every
// conversion in the app reads rates.
import { z } from "zod";
import {
  exchange,
  failOnStatus,
  jsonOrNull,
  nonEmpty,
  parseWire,
  plainReason,
  readJson,
  serviceFailed,
  trimBase,
} from "../http/kit";

export const FX_SOURCE_NAME = "National Bank of Ethiopia";

const ZRow = z.object({
  date: z.string(),
  weighted_average: z.union([z.number(), z.string()]).transform(Number),
  currency: z.object({ code: z.string() }),
});
const ZAnswer = z.object({
  success: z.boolean(),
  message: z.string().optional(),
  data: z.array(z.unknown()).default([]),
});

/** A day's rates: `perUsd` holds units per US dollar for every currency the day's list gave (ETB included). */
export type TDayRates = { day: string; perUsd: Map<string, number> };

export type TFxSource = {
  name: string;
  sandbox: boolean;
  /** The rates published for `day` (empty when none were: a weekend, a holiday, or a day without the dollar). */
  ratesOf: (day: string) => Promise<TDayRates[]>;
};

/**
 * Birr per unit (the bank's rows) into units per dollar: ETB per USD is the dollar's row, any other currency is the
 * dollar's birr over its own. A row that cannot be read (no number, a non-positive rate) is left out, as a missing
 * currency is: one bad row drops only itself.
 */
export const perUsdOf = (rows: unknown[]): TDayRates[] => {
  const byDay = new Map<string, Map<string, number>>();
  for (const raw of rows) {
    const r = ZRow.safeParse(raw);
    if (!r.success || !(r.data.weighted_average > 0) || !/^\d{4}-\d{2}-\d{2}/.test(r.data.date)) continue;
    const day = r.data.date.slice(0, 10);
    const birr = byDay.get(day) ?? new Map<string, number>();
    birr.set(r.data.currency.code.toUpperCase(), r.data.weighted_average);
    byDay.set(day, birr);
  }
  const out: TDayRates[] = [];
  for (const [day, birr] of byDay) {
    const usd = birr.get("USD");
    // Without the dollar's rate no other currency can be put per dollar: the day counts as not published.
    if (!usd) continue;
    const perUsd = new Map<string, number>([["ETB", usd]]);
    for (const [code, etb] of birr) if (code !== "USD") perUsd.set(code, usd / etb);
    out.push({ day, perUsd });
  }
  return out;
};

export const createNbeSource = (o: { baseUrl: string; timeoutMs: number; sandbox?: boolean }): TFxSource => {
  const base = trimBase(o.baseUrl);
  const name = o.sandbox ? `${FX_SOURCE_NAME} (Sandbox)` : FX_SOURCE_NAME;
  return {
    name,
    sandbox: o.sandbox ?? false,
    ratesOf: async (day) => {
      const res = await exchange(
        name,
        `${base}/api/filter-exchange-rates?date=${encodeURIComponent(day)}`,
        { method: "GET", headers: { Accept: "application/json" } },
        o.timeoutMs,
        { trusted: [base] },
      );
      const body =
        res.status >= 200 && res.status < 300 ? null : (jsonOrNull(res.text) as { message?: unknown } | null);
      failOnStatus(name, res, { reason: nonEmpty(body?.message) ?? plainReason(res.text) });
      const answer = parseWire(name, ZAnswer, readJson(name, res));
      if (!answer.success) throw serviceFailed(name, answer.message ?? "success: false");
      return perUsdOf(answer.data);
    },
  };
};
