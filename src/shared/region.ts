// Where a visitor most likely is, from what their device says (its time zone, its languages), and what a new account
// there starts with. No address is looked up: these are defaults the user changes in Settings.

import type { TDisplayCurrency, TLanguage } from "./constants";
import { defaultUnits, type TUnits } from "./units";

// Time zones that name one country outright. Others (Europe/London, Asia/Kolkata) say little about units or money
// that the browser's languages do not, so only these are read.
const US_ZONES =
  /^(America\/(New_York|Chicago|Denver|Los_Angeles|Phoenix|Anchorage|Juneau|Sitka|Metlakatla|Yakutat|Nome|Adak|Boise|Detroit|Menominee|Indiana\/.+|Kentucky\/.+|North_Dakota\/.+)|Pacific\/Honolulu|US\/.+)$/;
const ZONE_REGIONS: Record<string, string> = {
  "Africa/Addis_Ababa": "ET",
  "Africa/Monrovia": "LR",
  "Asia/Yangon": "MM",
  "Asia/Rangoon": "MM",
};

/** The country a time zone belongs to, when it names one we act on. */
export const regionOfTimeZone = (zone: string | null | undefined): string | null => {
  if (!zone) return null;
  if (US_ZONES.test(zone)) return "US";
  return ZONE_REGIONS[zone] ?? null;
};

/** The first region subtag among language tags ("en-GB,en;q=0.8" → "GB"), or null. */
export const regionOfLanguages = (tags: readonly string[]): string | null => {
  for (const tag of tags) {
    const region = tag
      .split(";")[0]
      ?.trim()
      .split(/[-_]/)
      .slice(1)
      .find((p) => /^[A-Za-z]{2}$/.test(p));
    if (region) return region.toUpperCase();
  }
  return null;
};

/** A device's region: its time zone first (Ethiopian browsers often say en-US), else its languages. */
export const deviceRegion = (p: { timeZone?: string | null; languages?: readonly string[] }) =>
  regionOfTimeZone(p.timeZone) ?? regionOfLanguages(p.languages ?? []);

/**
 * What a new account starts with: the language it signed up in, birr for Ethiopia and for Amharic and Afaan Oromo
 * readers (US dollars otherwise), and the units of `defaultUnits`.
 */
export const accountDefaults = (p: {
  language: TLanguage;
  region: string | null;
}): { language: TLanguage; currency: TDisplayCurrency; units: TUnits } => ({
  language: p.language,
  currency: p.language === "am" || p.language === "om" || p.region === "ET" ? "ETB" : "USD",
  units: defaultUnits({ language: p.language, region: p.region }),
});

/**
 * The country whose loads a visitor is offered first: Ethiopia for an Amharic or Afaan Oromo reader, else the
 * device's region (its time zone, then its languages); null when neither says.
 */
export const visitorRegion = (p: { language: string; timeZone?: string | null; languages?: readonly string[] }) =>
  p.language === "am" || p.language === "om" ? "ET" : deviceRegion(p);
