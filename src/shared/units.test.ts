import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { accountDefaults, deviceRegion, regionOfLanguages, regionOfTimeZone, visitorRegion } from "./region";
import {
  billablePounds,
  cmToIn,
  defaultUnits,
  formatDistance,
  formatRatePerDistance,
  formatWeight,
  inToCm,
  kgToLb,
  lbToKg,
  radiusBounds,
  radiusForInput,
  radiusFromInput,
  rateToPerMile,
  type TUnitFormat,
  toInches,
  toPounds,
  UNIT_WORDS,
  unitFormatFor,
  weightToPounds,
} from "./units";

test("pounds and kilograms, inches and centimetres convert both ways", () => {
  expect(kgToLb(1)).toBeCloseTo(2.20462, 4);
  expect(lbToKg(2.20462262)).toBeCloseTo(1, 6);
  expect(inToCm(1)).toBe(2.54);
  expect(cmToIn(25.4)).toBeCloseTo(10, 10);
  expect(toPounds(10, "KG")).toBeCloseTo(22.046, 2);
  expect(toPounds(10, "LBS")).toBe(10);
  expect(toInches(30, "CM")).toBeCloseTo(11.811, 3);
});

test("billable weight is the larger of actual and dimensional weight", () => {
  // 20 × 20 × 20 in = 8000 in³ / 139 = 57.6 lb, more than the 10 lb it weighs.
  expect(
    billablePounds({ weight: 10, weightUnit: "LBS", length: 20, width: 20, height: 20, dimensionUnit: "IN" }),
  ).toBeCloseTo(57.55, 1);
  // A small heavy box pays for its weight.
  expect(
    billablePounds({ weight: 30, weightUnit: "LBS", length: 10, width: 10, height: 10, dimensionUnit: "IN" }),
  ).toBe(30);
  // Metric in, pounds out.
  expect(
    billablePounds({ weight: 5, weightUnit: "KG", length: 50, width: 40, height: 30, dimensionUnit: "CM" }),
  ).toBeCloseTo((50 * 40 * 30) / 2.54 ** 3 / 139, 2);
  // Without all three dimensions, only the weight counts.
  expect(
    billablePounds({ weight: 3, weightUnit: "LBS", length: 20, width: null, height: 20, dimensionUnit: "IN" }),
  ).toBe(3);
});

const en = (units: "metric" | "imperial"): TUnitFormat => ({ units, language: "en", locale: "en-US" });

test("distances, weights and rates in the reader's units; stored miles and pounds are only converted for show", () => {
  expect(formatDistance(100, en("metric"))).toBe("161 km");
  expect(formatDistance(100, en("imperial"))).toBe("100 mi");
  expect(formatDistance(4, en("metric"))).toBe("6.4 km");
  expect(formatDistance(4, en("metric"), 0)).toBe("6 km");
  expect(formatDistance(0, en("imperial"))).toBe("0 mi");
  // A truck's load in tonnes, a light one in kilograms, pounds for imperial readers.
  expect(formatWeight(40000, en("metric"))).toBe("18.1 t");
  expect(formatWeight(500, en("metric"))).toBe("227 kg");
  expect(formatWeight(40000, en("imperial"))).toBe("40,000 lbs");
  // $2.50 a mile is $1.55 a kilometre.
  expect(formatRatePerDistance(2.5, "USD", en("metric"))).toBe("$1.55/km");
  expect(formatRatePerDistance(2.5, "USD", en("imperial"))).toBe("$2.50/mi");
  // Amharic words and birr as Amharic writes it.
  const am: TUnitFormat = { units: "metric", language: "am", locale: "am-ET" };
  expect(formatDistance(100, am)).toBe("161 ኪ.ሜ");
  expect(formatWeight(40000, am)).toBe("18.1 ቶን");
  expect(formatRatePerDistance(160.93, "ETB", am)).toBe("ብር 100.00/ኪ.ሜ");
  expect(formatDistance(100, unitFormatFor("metric", "om"))).toBe("161 km");
  expect(formatWeight(100, unitFormatFor("imperial", "om"))).toBe("100 paawundii");
  // What is typed in the reader's units goes back in the API's.
  expect(weightToPounds(1000, "metric")).toBeCloseTo(2204.62, 2);
  expect(rateToPerMile(1, "metric")).toBeCloseTo(1.609344, 6);
});

test("radii typed in kilometres stay within the API's whole miles", () => {
  expect(radiusForInput(150, "metric")).toBe(241);
  expect(radiusFromInput(241, "metric")).toBe(150);
  const { min, max } = radiusBounds(1, 500, "metric");
  expect(radiusFromInput(min, "metric")).toBeGreaterThanOrEqual(1);
  expect(radiusFromInput(max, "metric")).toBeLessThanOrEqual(500);
  expect(radiusFromInput(max + 1, "metric")).toBeGreaterThan(500);
  expect(radiusBounds(1, 500, "imperial")).toEqual({ min: 1, max: 500 });
});

test("metric for Amharic and Afaan Oromo readers and known metric countries; imperial in the US or when unknown", () => {
  expect(defaultUnits({ language: "am" })).toBe("metric");
  expect(defaultUnits({ language: "om", region: "US" })).toBe("metric");
  expect(defaultUnits({ language: "en", region: "ET" })).toBe("metric");
  expect(defaultUnits({ language: "en", region: "GB" })).toBe("metric");
  expect(defaultUnits({ language: "en", region: "US" })).toBe("imperial");
  expect(defaultUnits({ language: "en" })).toBe("imperial");
  expect(regionOfTimeZone("Africa/Addis_Ababa")).toBe("ET");
  expect(regionOfTimeZone("America/Indiana/Indianapolis")).toBe("US");
  expect(regionOfTimeZone("America/Bogota")).toBeNull();
  expect(regionOfLanguages(["en", "am-ET;q=0.8"])).toBe("ET");
  expect(regionOfLanguages(["en"])).toBeNull();
  // An Ethiopian browser set to en-US: the time zone wins.
  expect(deviceRegion({ timeZone: "Africa/Addis_Ababa", languages: ["en-US"] })).toBe("ET");
  expect(accountDefaults({ language: "en", region: "ET" })).toEqual({
    language: "en",
    currency: "ETB",
    units: "metric",
  });
  expect(accountDefaults({ language: "om", region: null })).toEqual({
    language: "om",
    currency: "ETB",
    units: "metric",
  });
  expect(accountDefaults({ language: "en", region: "US" })).toEqual({
    language: "en",
    currency: "USD",
    units: "imperial",
  });
});

test("the unit words follow the glossary", () => {
  const glossary = JSON.parse(readFileSync(join(import.meta.dir, "../../locales/glossary.json"), "utf8")) as {
    terms: { term: string; am: { match: string }; om: { match: string } }[];
  };
  const term = (name: string) => glossary.terms.find((t) => t.term.startsWith(name));
  const checks = [
    ["mile", "mi"],
    ["kilometre", "km"],
    ["pound", "lb"],
    ["kilogram", "kg"],
    ["tonne", "t"],
  ] as const;
  for (const [name, key] of checks) {
    const t = term(name);
    expect(t).toBeDefined();
    for (const lang of ["am", "om"] as const) expect(UNIT_WORDS[lang][key]).toMatch(new RegExp(t![lang].match, "iu"));
  }
});

describe("the country whose loads a visitor is offered first", () => {
  test("Amharic and Afaan Oromo readers: Ethiopia, wherever the device says it is", () => {
    expect(visitorRegion({ language: "am", timeZone: "Europe/Amsterdam", languages: ["nl-NL"] })).toBe("ET");
    expect(visitorRegion({ language: "om" })).toBe("ET");
  });
  test("others: the device's time zone, then its languages, else none", () => {
    expect(visitorRegion({ language: "en", timeZone: "Africa/Addis_Ababa", languages: ["en-US"] })).toBe("ET");
    expect(visitorRegion({ language: "en", timeZone: "Europe/Amsterdam", languages: ["nl-NL", "en"] })).toBe("NL");
    expect(visitorRegion({ language: "en", timeZone: "UTC", languages: ["en"] })).toBeNull();
  });
});
