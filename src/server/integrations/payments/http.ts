// What the payment adapters share beyond the kit (integrations/http/kit.ts): the providers' names, Stripe-style form
// encoding of nested parameters, how a provider's refusal reads (401/403 is our API key, the operator's to fix), and
// the WebCrypto HMAC and constant-time comparison the webhook checks use.
import { AppError, type TMessage } from "../../errors";
import { failOnStatus as kitFailOnStatus, webhookRefused as kitWebhookRefused, type TExchange } from "../http/kit";

/** The providers' names, as errors show them. */
export const PAYMENT_PROVIDER_NAMES = { stripe: "Stripe", chapa: "Chapa" } as const;
export type TPaymentProviderId = keyof typeof PAYMENT_PROVIDER_NAMES;

// Form encoding ----------------------------------------------------------------------------------------------------

export type TFormValue = string | number | boolean | null | undefined | TFormValue[] | { [key: string]: TFormValue };

/**
 * The flat `key=value` pairs of nested parameters, the way Stripe reads them: objects as `a[b]`, arrays as `a[0]`
 * (`line_items[0][price]`), booleans as true/false; null and undefined are left out.
 */
export const formEntries = (params: Record<string, TFormValue>, prefix = ""): [string, string][] =>
  Object.entries(params).flatMap(([k, v]): [string, string][] => {
    const key = prefix ? `${prefix}[${k}]` : k;
    if (v === null || v === undefined) return [];
    if (Array.isArray(v))
      return formEntries(Object.fromEntries(v.map((x, i) => [String(i), x])) as Record<string, TFormValue>, key);
    if (typeof v === "object") return formEntries(v, key);
    return [[key, String(v)]];
  });

/** A form body (application/x-www-form-urlencoded) of nested parameters. */
export const formEncode = (params: Record<string, TFormValue>) => new URLSearchParams(formEntries(params)).toString();

// Errors -----------------------------------------------------------------------------------------------------------

/** The provider refused our API key: the operator has to fix the configuration. */
export const keyRefused = (provider: string, reason: string | TMessage) =>
  new AppError(
    "BAD_GATEWAY",
    /*i18n*/ {
      id: "error.payment.keyRefused",
      message: "{provider} refused the API key: {reason}",
      values: { provider, reason },
    },
  );

/** A webhook we could not verify: whoever sent it is not the provider (or not with our secret). The route says 400. */
export const webhookRefused = (provider: string, reason: string | TMessage) =>
  kitWebhookRefused(provider, reason, "BAD_REQUEST");

/**
 * A provider's refusal (any status but 2xx) as the kit reads it: 401/403 the API key, any other 4xx the request (a
 * wrong id, a charge already refunded…). `reason` is the provider's own words, when it gave some.
 */
export const failOnStatus = (provider: string, res: TExchange, reason: string | undefined): void =>
  kitFailOnStatus(provider, res, { reason, rejected: "4xx", refused: keyRefused });

// Signatures -------------------------------------------------------------------------------------------------------

const encoder = new TextEncoder();

/** Hex HMAC-SHA256 of a message with a secret (WebCrypto). */
export const hmacSha256Hex = async (secret: string, message: string): Promise<string> => {
  const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
  ]);
  const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(message)));
  return Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
};

/**
 * Whether two strings are equal, in time that depends only on their lengths (a signature's length is public).
 * Hex signatures are compared case-insensitively by the callers lower-casing them first.
 */
export const sameText = (a: string, b: string): boolean => {
  const x = encoder.encode(a);
  const y = encoder.encode(b);
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
};

// Addresses --------------------------------------------------------------------------------------------------------

/** A base URL without its trailing slashes. */
export const trimBase = (url: string) => url.trim().replace(/\/+$/, "");

/** Loopback hosts (emulators): their payments are labelled "Sandbox". */
export const isLoopbackUrl = (url: string) => {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  return host === "localhost" || host.endsWith(".localhost") || host.startsWith("127.") || host === "::1";
};
