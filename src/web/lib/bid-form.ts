import { useLingui } from "@lingui/react/macro";
import { type FormEvent, useState } from "react";
import { MONEY_CURRENCY_CODES, type TMoneyCurrency } from "../../shared/constants";

export type TBidDraft = {
  amount: number;
  currency: TMoneyCurrency;
  proposedPickupDate: string | null;
  notes: string | null;
  /** One of the driver's trucks, from the bid dialog's Truck field (absent where the form has none). */
  truckId?: number | null;
};

/**
 * A bid form's fields (amount, currency, proposedPickupDate, notes, and truckId where the form offers it) as the bid to
 * place, or null when the amount is not a number above 0: the one check the bid dialog and the landing page's bid form
 * share before the server's.
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
    ...(f.has("truckId") ? { truckId: Number(f.get("truckId")) || null } : {}),
  };
};

/**
 * A bid form's submit handler and its error: a bid that passes readBidForm's check clears the error and goes to
 * `onBid`; one that does not shows "Enter an amount greater than 0".
 */
export const useBidForm = (onBid: (draft: TBidDraft) => void) => {
  const { t } = useLingui();
  const [error, setError] = useState<string>();
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const draft = readBidForm(e.currentTarget);
    if (!draft) {
      setError(t`Enter an amount greater than 0`);
      return;
    }
    setError(undefined);
    onBid(draft);
  };
  return { error, submit };
};

/** The currency a bid form starts in: the load's budget currency when a bid can be in it, else USD. */
export const defaultBidCurrency = (budgetCurrency: string): TMoneyCurrency =>
  (MONEY_CURRENCY_CODES as readonly string[]).includes(budgetCurrency) ? (budgetCurrency as TMoneyCurrency) : "USD";
