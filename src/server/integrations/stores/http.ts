// What the store adapters share beyond the kit (integrations/http/kit.ts): the reason each platform gives in its error
// body, webhook signature comparison, and the small mappings (dates, money, weights, text) the three wire formats have
// in common.
import { timingSafeEqual } from "node:crypto";
import { minorDigits } from "../../../shared/money";
import { failOnStatus as kitFailOnStatus, nonEmpty, plainReason, type TExchange } from "../http/kit";

/** Waits, for the short throttling pauses an adapter sits out itself. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The reason a store gives in an error body, in each platform's form: Shopify `{errors: "…"}` or
 * `{errors: [{message}]}`, SP-API `{errors: [{code, message}]}`, LWA `{error, error_description}`, Alibaba
 * `{error_response: {code, msg, sub_msg}}` or `{code, message}`; a short plain-text answer is its own reason.
 */
export const storeReason = (text: string): string | undefined => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return plainReason(text);
  }
  if (typeof body === "string") return nonEmpty(body);
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.errors === "string") return nonEmpty(b.errors);
  const first = Array.isArray(b.errors) ? (b.errors[0] as Record<string, unknown> | string | undefined) : undefined;
  const er =
    b.error_response && typeof b.error_response === "object" ? (b.error_response as Record<string, unknown>) : null;
  return (
    (typeof first === "string" ? nonEmpty(first) : nonEmpty(first?.message)) ??
    (er ? (nonEmpty(er.sub_msg) ?? nonEmpty(er.msg) ?? nonEmpty(er.message) ?? nonEmpty(er.code)) : undefined) ??
    nonEmpty(b.error_description) ??
    nonEmpty(b.message) ??
    nonEmpty(b.error) ??
    nonEmpty(b.detail)
  );
};

/**
 * A store's refusal (any status but 2xx) as the kit reads it, with the platform's own words from its error body; a 404
 * is the request's fault too (a marketplace or order the store does not know).
 */
export const failOnStatus = (store: string, res: TExchange, o: { reason?: string; retryAfter?: number } = {}): void =>
  kitFailOnStatus(store, res, { ...o, reason: o.reason ?? storeReason(res.text), rejected: [400, 404, 422] });

// Webhook signatures -----------------------------------------------------------------------------------------------

/** Whether two signatures (already decoded to bytes) are equal, in constant time. */
export const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && timingSafeEqual(a, b);

// Mappings ---------------------------------------------------------------------------------------------------------

/** A string field, trimmed; empty means null. */
export const text = (v: unknown): string | null => {
  if (typeof v === "number") return String(v);
  return typeof v === "string" && v.trim() ? v.trim() : null;
};

/** A number from a field that may be a number or a numeric string; null if none. */
export const num = (v: unknown): number | null => {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v !== "string" || !v.trim()) return null;
  const n = Number(v.trim());
  return Number.isFinite(n) ? n : null;
};

/** Epoch ms of an ISO date-time (no zone means UTC) or of epoch ms given as a number or digits; null if unreadable. */
export const parseStoreDate = (v: unknown): number | null => {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  const t = typeof v === "string" ? v.trim() : "";
  if (!t) return null;
  if (/^\d{10,}$/.test(t)) return Number(t);
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(t) || !t.includes("T") ? t : `${t}Z`;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(zoned) ? `${zoned}T00:00:00Z` : zoned);
  return Number.isNaN(ms) ? null : ms;
};

/** ISO 8601 in UTC to the second ("2026-01-05T10:00:00Z"), floored: a filter "at or after" it misses nothing. */
export const isoSeconds = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(".000Z", "Z");

/**
 * A decimal amount ("129.90", 129.9, "4.8750") in the currency's minor units, rounded half up, without going through
 * binary floating point for strings. Null when it is not a number.
 */
export const amountMinor = (amount: unknown, currency: string): number | null => {
  const digits = minorDigits(currency);
  const s = typeof amount === "number" ? (Number.isFinite(amount) ? amount.toFixed(digits + 2) : "") : text(amount);
  const m = s ? /^([+-]?)(\d*)(?:\.(\d*))?$/.exec(s.replace(/,/g, "")) : null;
  if (!m || (!m[2] && !m[3])) return null;
  const frac = (m[3] ?? "").padEnd(digits + 1, "0");
  const minor = Number(m[2] || "0") * 10 ** digits + Number(frac.slice(0, digits) || "0");
  const rounded = minor + (Number(frac[digits]) >= 5 ? 1 : 0);
  return m[1] === "-" ? -rounded : rounded;
};

const GRAMS_PER: Record<string, number> = {
  GRAMS: 1,
  KILOGRAMS: 1000,
  OUNCES: 28.349523125,
  POUNDS: 453.59237,
  MILLIGRAMS: 0.001,
};

/**
 * A weight in whole grams, from a value and its unit (GRAMS, KILOGRAMS, OUNCES, POUNDS; g/kg/oz/lb too). A missing,
 * zero or unknown weight is null: stores send 0 for "not set".
 */
export const gramsOf = (value: unknown, unit: unknown): number | null => {
  const v = num(value);
  const u = typeof unit === "string" ? unit.trim().toUpperCase() : "";
  const per = GRAMS_PER[u] ?? { G: 1, KG: 1000, OZ: GRAMS_PER.OUNCES, LB: GRAMS_PER.POUNDS, LBS: GRAMS_PER.POUNDS }[u];
  if (v === null || !(v > 0) || per === undefined) return null;
  return Math.round(v * per);
};

/** "Jane Doe" from the parts a store gives; null when it gives none. */
export const fullName = (...parts: unknown[]) => {
  const s = parts
    .map(text)
    .filter((p): p is string => p !== null)
    .join(" ");
  return s || null;
};

// Sandbox hosts ----------------------------------------------------------------------------------------------------

/** The platforms' test hosts: SP-API's sandbox endpoints and Alibaba.com's sandbox gateway. */
export const STORE_SANDBOX_HOSTS = new Set([
  "sandbox.sellingpartnerapi-na.amazon.com",
  "sandbox.sellingpartnerapi-eu.amazon.com",
  "sandbox.sellingpartnerapi-fe.amazon.com",
  "openapi-api-sandbox.alibaba.com",
]);

/** Emulators (loopback) and the platforms' sandbox hosts: their orders are labelled "Sandbox". */
export const isSandboxStoreUrl = (url: string) => {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost") || host.startsWith("127.") || host === "::1") return true;
  return STORE_SANDBOX_HOSTS.has(host);
};
