// Units: conversions, the billable weight carriers charge for, and the one formatter for every distance, weight and
// rate per distance a user reads (web app, bots, notifications, CLI). Loads are stored in miles and pounds and stay so;
// only what is shown changes with the reader's units.

import type { TLanguage } from "./constants";
import { numberFormat } from "./intl";
import { formatMoney } from "./money";

export const LB_PER_KG = 2.20462262;
export const CM_PER_IN = 2.54;
export const KM_PER_MILE = 1.609344;
/** Domestic dimensional-weight divisor in cubic inches per pound (FedEx, UPS and USPS retail). */
export const DIM_DIVISOR_IN3_PER_LB = 139;

export const kgToLb = (kg: number) => kg * LB_PER_KG;
export const lbToKg = (lb: number) => lb / LB_PER_KG;
export const cmToIn = (cm: number) => cm / CM_PER_IN;
export const inToCm = (inches: number) => inches * CM_PER_IN;
export const milesToKm = (miles: number) => miles * KM_PER_MILE;
export const kmToMiles = (km: number) => km / KM_PER_MILE;

export type TWeightUnit = "LBS" | "KG";
export type TDimensionUnit = "IN" | "CM";

export const toPounds = (value: number, unit: TWeightUnit) => (unit === "KG" ? kgToLb(value) : value);
export const toInches = (value: number, unit: TDimensionUnit) => (unit === "CM" ? cmToIn(value) : value);

/** The larger of actual and dimensional weight, in pounds. */
export const billablePounds = (p: {
  weight: number;
  weightUnit: TWeightUnit;
  length?: number | null;
  width?: number | null;
  height?: number | null;
  dimensionUnit: TDimensionUnit;
}) => {
  const actual = toPounds(p.weight, p.weightUnit);
  if (!p.length || !p.width || !p.height) return actual;
  const cubic =
    toInches(p.length, p.dimensionUnit) * toInches(p.width, p.dimensionUnit) * toInches(p.height, p.dimensionUnit);
  return Math.max(actual, cubic / DIM_DIVISOR_IN3_PER_LB);
};

// ---- Unit systems ----

export const UNIT_SYSTEMS = ["metric", "imperial"] as const;
export type TUnits = (typeof UNIT_SYSTEMS)[number];
export const isUnits = (v: unknown): v is TUnits => v === "metric" || v === "imperial";

/** Countries whose roads and scales speak miles and pounds. */
const IMPERIAL_REGIONS = new Set(["US", "LR", "MM"]);

/**
 * The units a new account or a device without a choice starts with: metric for Amharic and Afaan Oromo readers and
 * for a known country outside the imperial ones; miles and pounds in the United States (and Liberia, Myanmar), and
 * when nothing says where the reader is (the board's loads are posted in miles and pounds).
 */
export const defaultUnits = (p: { language?: string | null; region?: string | null }): TUnits => {
  if (p.language === "am" || p.language === "om") return "metric";
  if (!p.region) return "imperial";
  return IMPERIAL_REGIONS.has(p.region.toUpperCase()) ? "imperial" : "metric";
};

/**
 * The unit words as each language writes them, short forms that sit after a number. They follow the glossary
 * (`locales/glossary.json`, terms mile, kilometre, pound, kilogram, tonne); `units.test.ts` holds them to it.
 */
export const UNIT_WORDS: Record<TLanguage, { mi: string; km: string; lb: string; kg: string; t: string }> = {
  en: { mi: "mi", km: "km", lb: "lbs", kg: "kg", t: "t" },
  am: { mi: "ማይል", km: "ኪ.ሜ", lb: "ፓውንድ", kg: "ኪ.ግ", t: "ቶን" },
  om: { mi: "maayilii", km: "km", lb: "paawundii", kg: "kg", t: "toonii" },
};

/** How one reader wants figures: their units, their language (for the unit words) and their number locale. */
export type TUnitFormat = { units: TUnits; language: TLanguage; locale: string };

// Number formats of the server's doors (bots, notifications, CLI): Oromo numbers as British English writes them.
const NUMBER_LOCALE: Record<TLanguage, string> = { en: "en-US", am: "am-ET", om: "en-GB" };

/** How a reader of the server's doors wants figures: their account's units, in `language`. */
export const unitFormatFor = (units: unknown, language: TLanguage): TUnitFormat => ({
  units: isUnits(units) ? units : "imperial",
  language,
  locale: NUMBER_LOCALE[language] ?? "en-US",
});

const wordsOf = (f: TUnitFormat) => UNIT_WORDS[f.language] ?? UNIT_WORDS.en;

const number = (n: number, locale: string, digits: number) =>
  numberFormat(locale, { maximumFractionDigits: digits }).format(n);

/** A stored distance (miles) in the reader's unit, as a number: for inputs and sorting. */
export const distanceIn = (miles: number, units: TUnits) => (units === "metric" ? milesToKm(miles) : miles);
/** A distance typed in the reader's unit, back in miles for the API. */
export const distanceToMiles = (value: number, units: TUnits) => (units === "metric" ? kmToMiles(value) : value);
/** A stored weight (pounds) in the reader's unit (kilograms or pounds), as a number. */
export const weightIn = (lbs: number, units: TUnits) => (units === "metric" ? lbToKg(lbs) : lbs);
/** A weight typed in the reader's unit (kilograms or pounds), back in pounds for the API. */
export const weightToPounds = (value: number, units: TUnits) => (units === "metric" ? kgToLb(value) : value);

/** The unit word of distances for the reader: "km" or "mi" in their language. */
export const distanceUnit = (f: TUnitFormat) => (f.units === "metric" ? wordsOf(f).km : wordsOf(f).mi);
/** The unit word of weights typed in a form: "kg" or "lbs" in the reader's language. */
export const weightUnit = (f: TUnitFormat) => (f.units === "metric" ? wordsOf(f).kg : wordsOf(f).lb);

/**
 * "12 km" / "7.5 mi": a distance stored in miles, in the reader's unit. Whole numbers from 10 up, one decimal below
 * (unless `digits` says otherwise).
 */
export const formatDistance = (miles: number, f: TUnitFormat, digits?: number) => {
  const value = distanceIn(miles, f.units);
  const d = digits ?? (Math.abs(value) < 10 ? 1 : 0);
  return `${number(value, f.locale, d)} ${distanceUnit(f)}`;
};

/**
 * "18.1 t" / "850 kg" / "40,000 lbs": a weight stored in pounds, in the reader's unit. Metric weights of a tonne or more
 * are in tonnes (what a truck carries), lighter ones in kilograms.
 */
export const formatWeight = (lbs: number, f: TUnitFormat) => {
  const w = wordsOf(f);
  if (f.units === "imperial") return `${number(lbs, f.locale, lbs < 10 ? 1 : 0)} ${w.lb}`;
  const kg = lbToKg(lbs);
  if (kg >= 1000) return `${number(kg / 1000, f.locale, 1)} ${w.t}`;
  return `${number(kg, f.locale, kg < 10 ? 1 : 0)} ${w.kg}`;
};

/** A price per mile converted to the reader's unit (per kilometre for metric readers). */
export const ratePerDistance = (perMile: number, units: TUnits) =>
  units === "metric" ? perMile / KM_PER_MILE : perMile;

/** "Br 71.43/km" / "$2.50/mi": a rate stored per mile, in its currency, per the reader's unit of distance. */
export const formatRatePerDistance = (perMile: number, currency: string, f: TUnitFormat) =>
  `${formatMoney(ratePerDistance(perMile, f.units), currency, f.locale)}/${distanceUnit(f)}`;

/** A whole radius in miles (what the API takes), as a whole number in the reader's unit for a form's field. */
export const radiusForInput = (miles: number, units: TUnits) => Math.round(distanceIn(miles, units));
/** A whole number typed in the reader's unit, back in whole miles. */
export const radiusFromInput = (value: number, units: TUnits) => Math.round(distanceToMiles(value, units));
/** The whole numbers in the reader's unit that stay within a range of whole miles once converted back. */
export const radiusBounds = (minMiles: number, maxMiles: number, units: TUnits) => ({
  min: Math.max(1, Math.ceil(distanceIn(minMiles - 0.5, units))),
  max: Math.floor(distanceIn(maxMiles + 0.5, units) - 1e-9),
});
/** A rate typed per the reader's unit of distance, back per mile for the API. */
export const rateToPerMile = (value: number, units: TUnits) => (units === "metric" ? value * KM_PER_MILE : value);
