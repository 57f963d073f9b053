import { describe, expect, test } from "bun:test";
import { ESTIMATE_MARK, shownAmount, withEstimateMark } from "./money";

// Units per USD, as the rates table gives them.
const RATES: Record<string, number> = { USD: 1, ETB: 123.45, EUR: 0.9 };
const rateOf = (code: string) => RATES[code] ?? 1;

describe("an amount in the reader's currency", () => {
  test("converted from another currency it is an estimate, marked ≈", () => {
    const shown = shownAmount(100, "USD", "ETB", rateOf, "en-US");
    expect(shown).toEqual({ text: "Br 12,345.00", estimate: true });
    expect(withEstimateMark(shown)).toBe(`${ESTIMATE_MARK}\u00a0Br 12,345.00`);
    // Read by a person: "≈ Br 12,345.00".
    expect(withEstimateMark(shown).replace(/\s/g, " ")).toBe("≈ Br 12,345.00");
  });

  test("in its own currency it is the amount itself, never marked", () => {
    const shown = shownAmount(12345, "ETB", "ETB", rateOf, "en-US");
    expect(shown).toEqual({ text: "Br 12,345.00", estimate: false });
    expect(withEstimateMark(shown)).toBe("Br 12,345.00");
    expect(withEstimateMark(shownAmount(850, "USD", "USD", rateOf))).toBe("$850.00");
  });

  test("in Amharic, compact and between two foreign currencies", () => {
    expect(withEstimateMark(shownAmount(100, "USD", "ETB", rateOf, "am-ET"))).toBe("≈\u00a0ብር 12,345.00");
    expect(withEstimateMark(shownAmount(1_000_000, "USD", "ETB", rateOf, "en-US", true))).toBe("≈\u00a0Br 123.5M");
    // EUR → ETB goes through USD: 90 EUR is 100 USD.
    expect(shownAmount(90, "EUR", "ETB", rateOf).text).toBe("Br 12,345.00");
  });
});
