import { describe, expect, test } from "bun:test";
import { bidToBudgetRatio, isUnusualBid } from "./bid-check";

const RATES: Record<string, number> = { USD: 1, ETB: 100, EUR: 0.5 };
const rateOf = (c: string) => RATES[c]!;

describe("bid against budget", () => {
  test("the same currency compares the amounts as they are", () => {
    expect(bidToBudgetRatio({ amount: 49_000, currency: "ETB" }, { amount: 9_800, currency: "ETB" }, rateOf)).toBe(5);
    expect(isUnusualBid(5)).toBe(true);
    expect(isUnusualBid(1)).toBe(false);
  });

  test("another currency is converted for the comparison: $98 on a Br 9,800 budget is the budget itself", () => {
    const ratio = bidToBudgetRatio({ amount: 98, currency: "USD" }, { amount: 9_800, currency: "ETB" }, rateOf);
    expect(ratio).toBeCloseTo(1, 10);
    expect(isUnusualBid(ratio)).toBe(false);
    // Br 9,800 typed with USD left selected: a hundred times the budget.
    expect(bidToBudgetRatio({ amount: 9_800, currency: "USD" }, { amount: 9_800, currency: "ETB" }, rateOf)).toBe(100);
  });

  test("the edges 0.3× and 3× pass; just outside asks", () => {
    const budget = { amount: 1_000, currency: "USD" };
    const at = (amount: number) => isUnusualBid(bidToBudgetRatio({ amount, currency: "USD" }, budget, rateOf));
    expect([at(300), at(3_000), at(299), at(3_001)]).toEqual([false, false, true, true]);
  });

  test("a load without a budget never asks", () => {
    const ratio = bidToBudgetRatio({ amount: 5, currency: "USD" }, { amount: 0, currency: "USD" }, rateOf);
    expect(ratio).toBeNull();
    expect(isUnusualBid(ratio)).toBe(false);
  });
});
