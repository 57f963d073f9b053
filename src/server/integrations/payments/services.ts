import type { TChapaAdapter, TStripeAdapter } from "./types";

/** The payment providers of this process, as configured (a provider without keys is null: its currency is not offered). */
export type TPaymentServices = {
  stripe: TStripeAdapter | null;
  chapa: TChapaAdapter | null;
  /** Premium's monthly price in birr as the operator set it (PREMIUM_PRICE_ETB); unset: derived from the day's rate. */
  premiumPriceEtb?: number | null;
  states: () => { id: "stripe" | "chapa"; name: string; state: "active" | "sandbox" | "not_configured" }[];
};

/** No provider configured (tests that do not pay, doors that never take payments). */
export const noPayments: TPaymentServices = {
  stripe: null,
  chapa: null,
  states: () => [
    { id: "stripe", name: "Stripe", state: "not_configured" },
    { id: "chapa", name: "Chapa", state: "not_configured" },
  ],
};
