// The payment adapters the environment configures:
//
//   STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET, STRIPE_PRICE_USD, STRIPE_PRICE_EUR, STRIPE_API_BASE (https://api.stripe.com)
//   CHAPA_SECRET_KEY, CHAPA_WEBHOOK_SECRET, CHAPA_API_BASE (https://api.chapa.co)
//   PAYMENT_TIMEOUT_MS (10000, per HTTP exchange)
//
// A provider without its secret key (or Stripe without any Price) is not configured. Test keys (sk_test_…,
// CHASECK_TEST-…) and loopback hosts (the emulators) are "sandbox".
import { createChapaAdapter } from "./chapa";
import { PAYMENT_PROVIDER_NAMES, type TPaymentProviderId } from "./http";
import { createStripeAdapter } from "./stripe";
import type { TChapaAdapter, TStripeAdapter } from "./types";

export const STRIPE_API_BASE = "https://api.stripe.com";
export const CHAPA_API_BASE = "https://api.chapa.co";
export const PAYMENT_TIMEOUT_MS = 10_000;

export type TPaymentProviderState = "active" | "sandbox" | "not_configured";
export type TPaymentRegistry = {
  stripe: TStripeAdapter | null;
  chapa: TChapaAdapter | null;
  states: () => { id: TPaymentProviderId; name: string; state: TPaymentProviderState }[];
};

const value = (v: string | undefined) => v?.trim() || undefined;

export const paymentsFromEnv = (env: Record<string, string | undefined> = process.env): TPaymentRegistry => {
  const timeout = Number(value(env.PAYMENT_TIMEOUT_MS));
  const timeoutMs = Number.isFinite(timeout) && timeout > 0 ? timeout : PAYMENT_TIMEOUT_MS;
  const stripeKey = value(env.STRIPE_SECRET_KEY);
  const prices = { USD: value(env.STRIPE_PRICE_USD), EUR: value(env.STRIPE_PRICE_EUR) };
  const stripe =
    stripeKey && (prices.USD || prices.EUR)
      ? createStripeAdapter({
          baseUrl: value(env.STRIPE_API_BASE) ?? STRIPE_API_BASE,
          secretKey: stripeKey,
          webhookSecret: value(env.STRIPE_WEBHOOK_SECRET) ?? "",
          prices,
          timeoutMs,
        })
      : null;
  const chapaKey = value(env.CHAPA_SECRET_KEY);
  const chapa = chapaKey
    ? createChapaAdapter({
        baseUrl: value(env.CHAPA_API_BASE) ?? CHAPA_API_BASE,
        secretKey: chapaKey,
        webhookSecret: value(env.CHAPA_WEBHOOK_SECRET) ?? "",
        timeoutMs,
      })
    : null;
  const state = (a: { sandbox: boolean } | null): TPaymentProviderState =>
    a ? (a.sandbox ? "sandbox" : "active") : "not_configured";
  return {
    stripe,
    chapa,
    states: () => [
      { id: "stripe", name: PAYMENT_PROVIDER_NAMES.stripe, state: state(stripe) },
      { id: "chapa", name: PAYMENT_PROVIDER_NAMES.chapa, state: state(chapa) },
    ],
  };
};
