// The kit the payment adapters share: one bounded HTTP exchange, a provider's refusals turned into AppErrors that name
// the provider and carry its own reason, JSON reading, Stripe-style form encoding of nested parameters, and the
// WebCrypto HMAC and constant-time comparison the webhook checks use.
import type { z } from "zod";
import { AppError, type TMessage } from "../../errors";
import { retryAfterSeconds } from "../carriers/http";

/** The providers' names, as errors show them. */
export const PAYMENT_PROVIDER_NAMES = { stripe: "Stripe", chapa: "Chapa" } as const;
export type TPaymentProviderId = keyof typeof PAYMENT_PROVIDER_NAMES;

export type TPaymentResponse = { status: number; headers: Headers; text: string };

/**
 * One HTTP exchange with a payment provider, bounded by `timeoutMs` (the body included). A timeout or a network
 * failure becomes an AppError naming the provider.
 */
export const paymentFetch = async (
  provider: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<TPaymentResponse> => {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") {
      throw new AppError(
        "GATEWAY_TIMEOUT",
        /*i18n*/ {
          id: "error.payment.timeout",
          message: "{provider} did not answer within {seconds} s",
          values: { provider, seconds: Math.round(timeoutMs / 100) / 10 },
        },
      );
    }
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.payment.unreachable",
        message: "{provider} could not be reached: {reason}",
        values: { provider, reason: e.message },
      },
    );
  }
};

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

/** The provider rejected the request itself (400, 402, 404, 409, 422): a wrong id, a charge already refunded… */
export const paymentRejected = (provider: string, reason: string | TMessage) =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.payment.rejected",
      message: "{provider} rejected the request: {reason}",
      values: { provider, reason },
    },
  );

/** The provider failed (5xx, an error it reports in a 2xx body). */
export const paymentFailed = (provider: string, reason: string | TMessage) =>
  new AppError(
    "BAD_GATEWAY",
    /*i18n*/ {
      id: "error.payment.failed",
      message: "{provider} failed: {reason}",
      values: { provider, reason },
    },
  );

/** The provider asks us to slow down (HTTP 429). */
export const paymentLimiting = (provider: string, seconds: number | undefined) =>
  new AppError(
    "TOO_MANY_REQUESTS",
    /*i18n*/ { id: "error.payment.limiting", message: "{provider} is limiting requests", values: { provider } },
    { retryAfterSeconds: seconds },
  );

/** The provider's answer does not have the shape we read; `where` names the field. */
export const paymentUnreadable = (provider: string, where: string) =>
  new AppError(
    "BAD_GATEWAY",
    /*i18n*/ {
      id: "error.payment.unreadable",
      message: "{provider} sent an answer we could not read (at {where})",
      values: { provider, where },
    },
  );

/** A webhook we could not verify: whoever sent it is not the provider (or not with our secret). The route says 400. */
export const webhookRefused = (provider: string, reason: string | TMessage) =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.payment.webhookRefused",
      message: "{provider}: the webhook could not be verified: {reason}",
      values: { provider, reason },
    },
  );

/**
 * Throws the AppError for a provider's refusal (any status but 2xx): 401/403 the key, 429 limiting, other 4xx the
 * request, anything else the provider failing. `reason` is the provider's own words, when it gave some.
 */
export const failOnStatus = (provider: string, res: TPaymentResponse, reason: string | undefined): void => {
  if (res.status >= 200 && res.status < 300) return;
  const why = reason ?? `HTTP ${res.status}`;
  if (res.status === 401 || res.status === 403) throw keyRefused(provider, why);
  if (res.status === 429) throw paymentLimiting(provider, retryAfterSeconds(res.headers));
  if (res.status >= 400 && res.status < 500) throw paymentRejected(provider, why);
  throw paymentFailed(provider, reason ? `${reason} (HTTP ${res.status})` : why);
};

/** The JSON body of an answer, or null when it is not JSON. */
export const jsonOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The JSON body of an answer. */
export const readJson = (provider: string, res: TPaymentResponse): unknown => {
  const body = jsonOrNull(res.text);
  if (body === null)
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.payment.notJson",
        message: "{provider} sent an answer that is not valid JSON (HTTP {status})",
        values: { provider, status: res.status },
      },
    );
  return body;
};

/** Parses with a zod schema; a wrong shape becomes an error naming the provider and the field. */
export const parsePaymentWire = <T extends z.ZodType>(provider: string, schema: T, body: unknown): z.output<T> => {
  const r = schema.safeParse(body);
  if (!r.success) throw paymentUnreadable(provider, r.error.issues[0]?.path.join(".") || "(top)");
  return r.data;
};

/** A short plain-text answer (a proxy's "Bad Gateway"), as a reason; HTML pages give their title. */
export const plainReason = (text: string): string | undefined => {
  const t = text.trim();
  if (t.startsWith("<")) return /<title[^>]*>([^<]*)<\/title>/i.exec(t)?.[1]?.trim() || undefined;
  return t && t.length <= 200 ? t : undefined;
};

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
