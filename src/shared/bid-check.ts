import { convert } from "./money";

// A bid far from the load's budget is usually a typo (a digit too many or too few, or the wrong currency): the bid
// form asks "Are you sure?" with both figures, and never refuses (a driver may have reasons).
export const BID_SANE_RANGE = { min: 0.3, max: 3 } as const;

/**
 * The bid as a multiple of the load's budget, compared in one currency (`rateOf` gives a currency's units per USD);
 * null when the budget is not above 0. The conversion is for the comparison only: the bid keeps its own currency.
 */
export const bidToBudgetRatio = (
  bid: { amount: number; currency: string },
  budget: { amount: number; currency: string },
  rateOf: (code: string) => number,
): number | null => {
  if (!(budget.amount > 0)) return null;
  const inBudgetCurrency =
    bid.currency === budget.currency ? bid.amount : convert(bid.amount, rateOf(bid.currency), rateOf(budget.currency));
  return inBudgetCurrency / budget.amount;
};

/** Whether a bid-to-budget ratio is outside the range where the bid goes without a second question. */
export const isUnusualBid = (ratio: number | null) =>
  ratio != null && (ratio < BID_SANE_RANGE.min || ratio > BID_SANE_RANGE.max);
