import type { TDb } from "../../../../db/client";
import { fxRates } from "../../../../db/tables";

export type TRates = Map<string, number>;

/** Units per USD for every currency in the rates table. */
export const loadRates = async (db: TDb): Promise<TRates> =>
  new Map((await db.select().from(fxRates)).map((r) => [r.currency, r.ratePerUsd]));

export const toUsd = (rates: TRates, amount: number, currency: string) => amount / (rates.get(currency) ?? 1);
export const fromUsd = (rates: TRates, usd: number, currency: string) => usd * (rates.get(currency) ?? 1);
