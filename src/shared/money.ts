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
