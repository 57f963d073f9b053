// Money is integer minor units in storage and decimals on the wire; conversion uses rates per USD.

import { numberFormat } from "./intl";

const ZERO_DECIMAL = new Set(["JPY", "KRW"]);

export const minorDigits = (currency: string) => (ZERO_DECIMAL.has(currency.toUpperCase()) ? 0 : 2);

export const toMinor = (amount: number, currency: string) => Math.round(amount * 10 ** minorDigits(currency));

export const fromMinor = (minor: number, currency: string) => minor / 10 ** minorDigits(currency);

/** Converts between currencies given each one's units per USD. */
export const convert = (amount: number, fromRatePerUsd: number, toRatePerUsd: number) =>
  (amount / fromRatePerUsd) * toRatePerUsd;

/** Money in its currency's minor digits; `compact` rounds the way headline figures are shown ("$39.6K"). */
export const formatMoney = (amount: number, currency: string, locale = "en-US", compact = false) => {
  const digits = minorDigits(currency);
  // Birr as people write it: "ብር" in Amharic, "Br" otherwise (Intl would say "ETB").
  if (currency === "ETB") {
    const number = numberFormat(locale, {
      ...(compact
        ? { notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: 1 }
        : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
    }).format(amount);
    return `${locale.startsWith("am") ? "ብር" : "Br"} ${number}`;
  }
  return numberFormat(locale, {
    style: "currency",
    currency,
    ...(compact
      ? { notation: "compact", minimumFractionDigits: 0, maximumFractionDigits: 1 }
      : { minimumFractionDigits: digits, maximumFractionDigits: digits }),
  }).format(amount);
};

/** The mark before an amount converted from another currency: an estimate at the day's rates, not a price. */
export const ESTIMATE_MARK = "≈";

/** An amount as the reader sees it: in the display currency, and whether it was converted (then an estimate). */
export type TShownAmount = { text: string; estimate: boolean };

/**
 * An amount in the reader's currency. An amount already in it is shown as it is; one converted from another
 * currency is an estimate (`estimate: true`), which whoever shows it marks ("≈ Br 12,345", see `withEstimateMark`).
 */
export const shownAmount = (
  amount: number,
  from: string,
  to: string,
  rateOf: (code: string) => number,
  locale = "en-US",
  compact = false,
): TShownAmount =>
  from === to
    ? { text: formatMoney(amount, to, locale, compact), estimate: false }
    : { text: formatMoney(convert(amount, rateOf(from), rateOf(to)), to, locale, compact), estimate: true };

/** The amount as one string, "≈ Br 12,345" when converted (a no-break space keeps the mark with its amount). */
export const withEstimateMark = (shown: TShownAmount) =>
  shown.estimate ? `${ESTIMATE_MARK}\u00a0${shown.text}` : shown.text;
