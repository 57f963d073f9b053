import { describe, expect, test } from "bun:test";
import { CONTINENT_OF, countryCodeOf, oceanCrossing } from "./landmass";

describe("ocean crossings", () => {
  test("countries on landmasses no road joins", () => {
    expect(oceanCrossing("Germany", "United States")).toEqual({ from: "DE", to: "US" });
    expect(oceanCrossing("Ethiopia", "Brazil")).toEqual({ from: "ET", to: "BR" });
    expect(oceanCrossing("Kenya", "Australia")).toEqual({ from: "KE", to: "AU" });
    // The Darién Gap: no road from Central to South America.
    expect(oceanCrossing("Panama", "Colombia")).toEqual({ from: "PA", to: "CO" });
    // Islands of the same continent.
    expect(oceanCrossing("China", "Japan")).toEqual({ from: "CN", to: "JP" });
    expect(oceanCrossing("ET", "MG")).toEqual({ from: "ET", to: "MG" });
    expect(oceanCrossing("Italy", "Malta")).toEqual({ from: "IT", to: "MT" });
    expect(oceanCrossing("Australia", "New Zealand")).toEqual({ from: "AU", to: "NZ" });
  });

  test("countries a road joins, the same country, and unknown names are not flagged", () => {
    expect(oceanCrossing("Ethiopia", "Kenya")).toBeNull();
    expect(oceanCrossing("Ethiopia", "Ethiopia")).toBeNull();
    expect(oceanCrossing("United States", "Canada")).toBeNull();
    expect(oceanCrossing("United States", "Mexico")).toBeNull();
    expect(oceanCrossing("Brazil", "Argentina")).toBeNull();
    // The road-connected continents: Europe–Asia (Bosphorus), Asia–Africa (Sinai), Europe–Africa through both.
    expect(oceanCrossing("Germany", "Türkiye")).toBeNull();
    expect(oceanCrossing("Germany", "China")).toBeNull();
    expect(oceanCrossing("Egypt", "Saudi Arabia")).toBeNull();
    expect(oceanCrossing("Netherlands", "Ethiopia")).toBeNull();
    // Great Britain through the Channel Tunnel; Bahrain by its causeway; Haiti and the Dominican Republic share an island.
    expect(oceanCrossing("United Kingdom", "France")).toBeNull();
    expect(oceanCrossing("Bahrain", "Saudi Arabia")).toBeNull();
    expect(oceanCrossing("Haiti", "Dominican Republic")).toBeNull();
    expect(oceanCrossing("Atlantis", "United States")).toBeNull();
    expect(oceanCrossing("", "US")).toBeNull();
  });

  test("names and codes, in any case; every country has one continent", () => {
    expect(countryCodeOf("united states")).toBe("US");
    expect(countryCodeOf(" Ethiopia ")).toBe("ET");
    expect(countryCodeOf("de")).toBe("DE");
    expect(countryCodeOf("USA")).toBe("US");
    expect(countryCodeOf("Narnia")).toBeUndefined();
    expect(Object.keys(CONTINENT_OF).length).toBeGreaterThanOrEqual(245);
  });
});
