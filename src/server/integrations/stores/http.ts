// The kit every store adapter shares: one bounded HTTP exchange, the store's HTTP refusals turned into AppErrors that
// name the integration and carry the platform's own reason, JSON reading, and the small mappings (dates, money,
// weights, text) the three wire formats have in common.
import { timingSafeEqual } from "node:crypto";
import type { z } from "zod";
import { minorDigits } from "../../../shared/money";
import { AppError, type TMessage } from "../../errors";
import { retryAfterSeconds } from "../carriers/http";

export { retryAfterSeconds };

export type TStoreResponse = { status: number; headers: Headers; text: string };

/**
 * One HTTP exchange with a store, bounded by `timeoutMs` (the body included: a store that sends headers and then
 * stalls is just as late). A timeout or a network failure becomes an AppError naming the integration.
 */
export const storeFetch = async (
  store: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<TStoreResponse> => {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") {
      throw new AppError(
        "GATEWAY_TIMEOUT",
        /*i18n*/ {
          id: "error.store.timeout",
          message: "{store} did not answer within {seconds} s",
          values: { store, seconds: Math.round(timeoutMs / 100) / 10 },
        },
      );
    }
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.store.unreachable",
        message: "{store} could not be reached: {reason}",
        values: { store, reason: e.message },
      },
    );
  }
};

/** Waits, for the short throttling pauses an adapter sits out itself. */
export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

// Errors -----------------------------------------------------------------------------------------------------------

/** The store refused the integration's credentials: the user has to fix them, so it is the caller's error. */
export const credentialsRefused = (store: string, reason: string | TMessage) =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.store.credentialsRefused",
      message: "{store} refused the credentials: {reason}",
      values: { store, reason },
    },
  );

/** The store failed (5xx, an error it reports in a 2xx body). */
export const storeFailed = (store: string, reason: string | TMessage) =>
  new AppError(
    "BAD_GATEWAY",
    /*i18n*/ {
      id: "error.store.failed",
      message: "{store} failed: {reason}",
      values: { store, reason },
    },
  );

/** The store rejected the request itself (400/404/422): usually a setting the user gave (a marketplace id…). */
export const storeRejected = (store: string, reason: string | TMessage) =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.store.rejected",
      message: "{store} rejected the request: {reason}",
      values: { store, reason },
    },
  );

/** The store asks us to slow down (HTTP 429, Shopify's THROTTLED, Alibaba's call limit). */
export const storeLimiting = (store: string, seconds: number | undefined) =>
  new AppError(
    "TOO_MANY_REQUESTS",
    seconds !== undefined
      ? /*i18n*/ {
          id: "error.store.limitingWait",
          message: "{store} is limiting requests; try again in {seconds} s",
          values: { store, seconds },
        }
      : /*i18n*/ {
          id: "error.store.limiting",
          message: "{store} is limiting requests",
          values: { store },
        },
    { retryAfterSeconds: seconds },
  );

/** The store's answer does not have the shape we read; `where` names the field. */
export const storeUnreadable = (store: string, where: string) =>
  new AppError(
    "BAD_GATEWAY",
    /*i18n*/ {
      id: "error.store.unreadable",
      message: "{store} sent an answer we could not read (at {where})",
      values: { store, where },
    },
  );

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

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
    const t = text.trim();
    if (t.startsWith("<")) return str(/<title[^>]*>([^<]*)<\/title>/i.exec(t)?.[1]);
    return t && t.length <= 200 ? t : undefined;
  }
  if (typeof body === "string") return str(body);
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.errors === "string") return str(b.errors);
  const first = Array.isArray(b.errors) ? (b.errors[0] as Record<string, unknown> | string | undefined) : undefined;
  const er =
    b.error_response && typeof b.error_response === "object" ? (b.error_response as Record<string, unknown>) : null;
  return (
    (typeof first === "string" ? str(first) : str(first?.message)) ??
    (er ? (str(er.sub_msg) ?? str(er.msg) ?? str(er.message) ?? str(er.code)) : undefined) ??
    str(b.error_description) ??
    str(b.message) ??
    str(b.error) ??
    str(b.detail)
  );
};

/**
 * Throws the AppError for a store's refusal (any status but 2xx): 429 limiting (with `retryAfter`, else the
 * Retry-After header), 401/403 the credentials, 400/404/422 the request, anything else the store failing.
 */
export const failOnStatus = (
  store: string,
  res: TStoreResponse,
  o: { reason?: string; retryAfter?: number } = {},
): void => {
  if (res.status >= 200 && res.status < 300) return;
  const reason = o.reason ?? storeReason(res.text);
  const why = reason ?? `HTTP ${res.status}`;
  if (res.status === 429) throw storeLimiting(store, o.retryAfter ?? retryAfterSeconds(res.headers));
  if (res.status === 401 || res.status === 403) throw credentialsRefused(store, why);
  if (res.status === 400 || res.status === 404 || res.status === 422) throw storeRejected(store, why);
  throw storeFailed(store, reason ? `${reason} (HTTP ${res.status})` : why);
};

/** The JSON body of an answer. */
export const readJson = (store: string, res: TStoreResponse): unknown => {
  try {
    return JSON.parse(res.text);
  } catch {
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.store.notJson",
        message: "{store} sent an answer that is not valid JSON (HTTP {status})",
        values: { store, status: res.status },
      },
    );
  }
};

/** Parses with a zod schema; a wrong shape becomes an error naming the integration and the field. */
export const parseStoreWire = <T extends z.ZodType>(store: string, schema: T, body: unknown): z.output<T> => {
  const r = schema.safeParse(body);
  if (!r.success) throw storeUnreadable(store, r.error.issues[0]?.path.join(".") || "(top)");
  return r.data;
};

// Webhook signatures -----------------------------------------------------------------------------------------------

/** Whether two signatures (already decoded to bytes) are equal, in constant time. */
export const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && timingSafeEqual(a, b);

/** A webhook we could not verify: whoever sent it is not the store (or not with our secret). */
export const webhookRefused = (store: string, reason: string | TMessage) =>
  new AppError(
    "UNAUTHORIZED",
    /*i18n*/ {
      id: "error.store.webhookRefused",
      message: "{store}: the webhook could not be verified: {reason}",
      values: { store, reason },
    },
  );

// Mappings ---------------------------------------------------------------------------------------------------------

/** A base URL without its trailing slashes. */
export const trimBase = (url: string) => url.trim().replace(/\/+$/, "");

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
