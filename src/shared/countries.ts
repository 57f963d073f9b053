// A country as people write it on a load ("Ethiopia", "ET", "ኢትዮጵያ", "Itoophiyaa", "USA") and its ISO 3166-1
// alpha-2 code. Loads keep the words as typed (pickup_country) and the code beside them (pickup_country_code), so a
// query by country compares codes instead of spellings.

const LANGUAGES = ["en", "am", "om"] as const;
// Codes Intl names that are not countries a load is picked up in.
const NOT_COUNTRIES = new Set(["EU", "EZ", "UN", "QO", "ZZ", "XA", "XB"]);
// Names people write besides the ones Intl gives ("USA" for "United States").
const OTHER_NAMES: Record<string, string[]> = {
  US: ["usa", "u.s.a.", "u.s.", "united states of america", "america"],
  GB: ["uk", "u.k.", "great britain", "britain", "england", "scotland", "wales", "northern ireland"],
  CZ: ["czech republic"],
  NL: ["holland", "the netherlands"],
  AE: ["uae"],
  TR: ["turkey"],
  CI: ["ivory coast"],
  CD: ["drc", "dr congo"],
};

/** How a written country is compared: trimmed, lower case, single spaces. */
export const normalizeCountry = (s: string) => s.trim().toLowerCase().replace(/\s+/g, " ");

let table: Map<string, string> | undefined;
/** Every spelling we know (normalized) → its country code: the code, its names in English, Amharic and Afaan Oromo. */
export const countrySpellings = (): ReadonlyMap<string, string> => {
  if (table) return table;
  const names = LANGUAGES.map((l) => new Intl.DisplayNames([l], { type: "region", fallback: "none" }));
  const t = new Map<string, string>();
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (NOT_COUNTRIES.has(code)) continue;
      const spelled = names.map((n) => n.of(code)).filter((n): n is string => !!n && n !== code);
      if (!spelled.length) continue;
      for (const s of [code, ...spelled, ...(OTHER_NAMES[code] ?? [])]) {
        const key = normalizeCountry(s);
        if (!t.has(key)) t.set(key, code);
      }
    }
  }
  table = t;
  return t;
};

/** The ISO code of a written country, or null when the spelling is not one we know. */
export const countryCodeOf = (written: string | null | undefined): string | null =>
  written ? (countrySpellings().get(normalizeCountry(written)) ?? null) : null;
