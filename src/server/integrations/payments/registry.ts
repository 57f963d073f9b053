// The payment adapters the environment configures:
//
//   STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_USD, STRIPE_PRICE_EUR, STRIPE_API_BASE (https://api.stripe.com)
//   CHAPA_SECRET_KEY, CHAPA_WEBHOOK_SECRET, CHAPA_API_BASE (https://api.chapa.co)
//   PAYMENT_TIMEOUT_MS (10000, per HTTP exchange)
//
// A provider without its secret key (or Stripe without any Price) is not configured. Test keys (sk_test_…,
// CHASECK_TEST-…) and loopback hosts (the emulators) are "sandbox".
import { loadConfig, type TConfig } from "../../config";
import { createChapaAdapter } from "./chapa";
import { PAYMENT_PROVIDER_NAMES, type TPaymentProviderId } from "./http";
import { createStripeAdapter } from "./stripe";
import type { TChapaAdapter, TStripeAdapter } from "./types";

export type TPaymentProviderState = "active" | "sandbox" | "not_configured";
export type TPaymentRegistry = {
  stripe: TStripeAdapter | null;
  chapa: TChapaAdapter | null;
  premiumPriceEtb: number | null;
  states: () => { id: TPaymentProviderId; name: string; state: TPaymentProviderState }[];
};

export const paymentsFrom = (c: TConfig["payments"]): TPaymentRegistry => {
  const { timeoutMs } = c;
  const prices = c.stripe.prices;
  const stripe =
    c.stripe.secretKey && (prices.USD || prices.EUR)
      ? createStripeAdapter({
          baseUrl: c.stripe.apiBase,
          secretKey: c.stripe.secretKey,
          webhookSecret: c.stripe.webhookSecret ?? "",
          prices,
          timeoutMs,
        })
      : null;
  const chapa = c.chapa.secretKey
    ? createChapaAdapter({
        baseUrl: c.chapa.apiBase,
        secretKey: c.chapa.secretKey,
        webhookSecret: c.chapa.webhookSecret ?? "",
        timeoutMs,
      })
    : null;
  const state = (a: { sandbox: boolean } | null): TPaymentProviderState =>
    a ? (a.sandbox ? "sandbox" : "active") : "not_configured";
  return {
    stripe,
    chapa,
    premiumPriceEtb: c.premiumPriceEtb,
    states: () => [
      { id: "stripe", name: PAYMENT_PROVIDER_NAMES.stripe, state: state(stripe) },
      { id: "chapa", name: PAYMENT_PROVIDER_NAMES.chapa, state: state(chapa) },
    ],
  };
};

/** The providers an environment configures (STRIPE_*, CHAPA_*, PAYMENT_TIMEOUT_MS), read through loadConfig. */
export const paymentsFromEnv = (env: Record<string, string | undefined> = process.env) =>
  paymentsFrom(loadConfig(env).payments);
