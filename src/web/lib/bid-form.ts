import type { TMoneyCurrency } from "../../shared/constants";

export type TBidDraft = {
  amount: number;
  currency: TMoneyCurrency;
  proposedPickupDate: string | null;
  notes: string | null;
};

/**
 * A bid form's fields (amount, currency, proposedPickupDate, notes) as the bid to place, or null when the amount is
 * not a number above 0: the one check the bid dialog and the landing page's bid form share before the server's.
 */
export const readBidForm = (form: HTMLFormElement): TBidDraft | null => {
  const f = new FormData(form);
  const amount = Number(f.get("amount"));
  if (!f.get("amount") || !Number.isFinite(amount) || amount <= 0) return null;
  const pickup = String(f.get("proposedPickupDate") ?? "");
  return {
    amount: Math.round(amount * 100) / 100,
    currency: String(f.get("currency")) as TMoneyCurrency,
    proposedPickupDate: pickup ? new Date(pickup).toISOString() : null,
    notes: String(f.get("notes") ?? "").trim() || null,
  };
};
