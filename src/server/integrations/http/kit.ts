// The kit every outside service's adapter shares (carriers, load boards, stores, payment providers): one bounded HTTP
// exchange through the outgoing-call guard (guard.ts), the service's refusals turned into AppErrors that name it and
// carry its own reason, JSON and wire-shape reading, Retry-After, and a configuration's hourly call budget. Each
// adapter builds its requests and reads its answers in pure functions, and uses this for the wire. `service` is always
// the name a user knows ("DAT", "My Shopify store", "Stripe"): every error says which service it is about.
import type { z } from "zod";
import { AppError, type TMessage } from "../../errors";
import { guardedFetch, OutgoingRefused, type TGuardedInit, type TGuardOptions } from "./guard";

export type TExchange = { status: number; headers: Headers; text: string };

/**
 * What a network failure says, without the URL (which holds the checked address) or anything the far side sent: the
 * error's code (ConnectionRefused, ECONNRESET, a certificate error) when it has one.
 */
export const networkReason = (err: unknown) => {
  if (err instanceof OutgoingRefused) return `address refused (${err.refusal})`;
  const code = (err as { code?: unknown }).code;
  return typeof code === "string" && /^[A-Za-z0-9_]{1,60}$/.test(code) ? code : "network error";
};

/** A request the guard (integrations/http/guard.ts) did not send, as an AppError naming the service. */
export const outgoingRefused = (service: string, err: OutgoingRefused) => {
  if (err.refusal === "unresolved")
    return new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.service.unresolved",
        message: "{service} could not be reached: {host} does not resolve",
        values: { service, host: err.host },
      },
    );
  if (err.refusal === "redirect")
    return new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.service.redirected",
        message: "{service} answered with a redirect to another address, which this server does not follow",
        values: { service },
      },
    );
  return new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.service.addressRefused",
      message: "{service} was not called: this server calls only public https addresses, and {host} is not one",
      values: { service, host: err.host || "?" },
    },
  );
};

/**
 * One HTTP exchange through the guard, bounded by `timeoutMs`, the body included: a service that sends its headers
 * and then stalls is just as late. A timeout, a refused address or a network failure becomes an AppError naming the
 * service. `guard.trusted` lists the operator's own origins for this service (its configured base URL, a Sandbox).
 */
export const exchange = async (
  service: string,
  url: string,
  init: TGuardedInit,
  timeoutMs: number,
  guard: TGuardOptions = {},
): Promise<TExchange> => {
  try {
    const res = await guardedFetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) }, guard);
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    if (err instanceof OutgoingRefused) throw outgoingRefused(service, err);
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") {
      throw new AppError(
        "GATEWAY_TIMEOUT",
        /*i18n*/ {
          id: "error.service.timeout",
          message: "{service} did not answer within {seconds} s",
          values: { service, seconds: Math.round(timeoutMs / 100) / 10 },
        },
      );
    }
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.service.unreachable",
        message: "{service} could not be reached: {reason}",
        values: { service, reason: networkReason(e) },
      },
    );
  }
};

/** Seconds from a Retry-After header (seconds or an HTTP date), if any. */
export const retryAfterSeconds = (headers: Headers) => {
  const v = headers.get("retry-after");
  if (!v) return undefined;
  const n = Number(v);
  if (Number.isFinite(n)) return Math.max(0, n);
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
};

/** A base URL without its trailing slashes. */
export const trimBase = (url: string) => url.trim().replace(/\/+$/, "");

// Errors -----------------------------------------------------------------------------------------------------------

/** The service refused the credentials: the user has to fix them, so it is the caller's error. */
export const credentialsRefused = (service: string, reason: string | TMessage) =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.service.credentialsRefused",
      message: "{service} refused the credentials: {reason}",
      values: { service, reason },
    },
  );

/** The service rejected the request itself (a 4xx other than the credentials): usually something the user gave. */
export const serviceRejected = (service: string, reason: string | TMessage) =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.service.rejected",
      message: "{service} rejected the request: {reason}",
      values: { service, reason },
    },
  );

/** The service failed (5xx, a SOAP fault, an error it reports in a 2xx body). */
export const serviceFailed = (service: string, reason: string | TMessage) =>
  new AppError(
    "BAD_GATEWAY",
    /*i18n*/ {
      id: "error.service.failed",
      comment: "Error from an outside service (carrier, load board, store): its name, then its reason",
      message: "{service} failed: {reason}",
      values: { service, reason },
    },
  );

/** The service asks us to slow down (HTTP 429, or its own form of it), with the seconds to wait when it says. */
export const serviceLimiting = (service: string, seconds: number | undefined) =>
  new AppError(
    "TOO_MANY_REQUESTS",
    seconds !== undefined
      ? /*i18n*/ {
          id: "error.service.limitingWait",
          message: "{service} is limiting requests; try again in {seconds} s",
          values: { service, seconds },
        }
      : /*i18n*/ { id: "error.service.limiting", message: "{service} is limiting requests", values: { service } },
    { retryAfterSeconds: seconds },
  );

/** The service's answer does not have the shape we read; `where` names the field. */
export const serviceUnreadable = (service: string, where: string) =>
  new AppError(
    "BAD_GATEWAY",
    /*i18n*/ {
      id: "error.service.unreadable",
      message: "{service} sent an answer we could not read (at {where})",
      values: { service, where },
    },
  );

/**
 * A webhook we could not verify: whoever sent it is not the service (or not with our secret). `code` is what the
 * route answers: stores 401, payment providers 400 (what Stripe and Chapa expect of a refusal).
 */
export const webhookRefused = (
  service: string,
  reason: string | TMessage,
  code: "UNAUTHORIZED" | "BAD_REQUEST" = "UNAUTHORIZED",
) =>
  new AppError(
    code,
    /*i18n*/ {
      id: "error.service.webhookRefused",
      message: "{service}: the webhook could not be verified: {reason}",
      values: { service, reason },
    },
  );

/** How a service's statuses read, where services differ. */
export type TStatusRules = {
  /** The statuses that mean the request itself was wrong (default 400 and 422); "4xx" for every other 4xx. */
  rejected?: readonly number[] | "4xx";
  /** The error for 401 and 403 (default: the credentials were refused). */
  refused?: (service: string, why: string) => AppError;
};

/**
 * Throws the AppError for a refusal (any status but 2xx): 429 limiting (with `retryAfter`, else the Retry-After
 * header), 401/403 the credentials, the rejected statuses the request, anything else the service failing. `reason` is
 * the service's own words, when it gave some.
 */
export const failOnStatus = (
  service: string,
  res: TExchange,
  o: { reason?: string; retryAfter?: number } & TStatusRules = {},
): void => {
  if (res.status >= 200 && res.status < 300) return;
  const why = o.reason ?? `HTTP ${res.status}`;
  const rejected = o.rejected ?? [400, 422];
  if (res.status === 429) throw serviceLimiting(service, o.retryAfter ?? retryAfterSeconds(res.headers));
  if (res.status === 401 || res.status === 403) throw (o.refused ?? credentialsRefused)(service, why);
  if (rejected === "4xx" ? res.status >= 400 && res.status < 500 : rejected.includes(res.status))
    throw serviceRejected(service, why);
  throw serviceFailed(service, o.reason ? `${o.reason} (HTTP ${res.status})` : why);
};

// Reading ----------------------------------------------------------------------------------------------------------

/** The JSON body of an answer, or null when it is not JSON. */
export const jsonOrNull = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
};

/** The JSON body of an answer, or an error naming the service and the status. */
export const readJson = (service: string, res: TExchange): unknown => {
  try {
    return JSON.parse(res.text);
  } catch {
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.service.notJson",
        message: "{service} sent an answer that is not valid JSON (HTTP {status})",
        values: { service, status: res.status },
      },
    );
  }
};

/** Parses with a zod schema; a wrong shape becomes an error naming the service and the field. */
export const parseWire = <T extends z.ZodType>(service: string, schema: T, body: unknown): z.output<T> => {
  const r = schema.safeParse(body);
  if (!r.success) throw serviceUnreadable(service, r.error.issues[0]?.path.join(".") || "(top)");
  return r.data;
};

/** A short plain-text answer (a proxy's "Bad Gateway") as a reason; an HTML page gives its title. */
export const plainReason = (text: string): string | undefined => {
  const t = text.trim();
  if (t.startsWith("<")) return /<title[^>]*>([^<]*)<\/title>/i.exec(t)?.[1]?.trim() || undefined;
  return t && t.length <= 200 ? t : undefined;
};

/** A trimmed, non-empty string, or undefined: for picking a reason out of an error body. */
export const nonEmpty = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

// Budgets ----------------------------------------------------------------------------------------------------------

const HOUR_MS = 3_600_000;

/**
 * A configuration's budget of calls per hour (`rateLimitPerHour`), over a sliding hour. One budget per adapter
 * instance; `take()` is charged once per adapter operation (a search or a test), before anything is sent, so a refused
 * call never reaches the service. Token requests an operation makes on the way are not charged separately. A limit
 * that is not a positive number means no limit. A vendor's own quota (USPS counts every request, token requests too)
 * is a budget charged per exchange instead, and a 429's Retry-After holds it (`holdFor`).
 */
export class HourlyBudget {
  private readonly calls: number[] = [];
  /** Until when the service itself asked us to wait (epoch ms). */
  private heldUntil = 0;

  constructor(
    readonly limitPerHour: number,
    private readonly service = "The service",
    private readonly clock: () => number = Date.now,
  ) {}

  private prune(now: number) {
    while (this.calls.length && this.calls[0] <= now - HOUR_MS) this.calls.shift();
  }

  /** Calls left in the current hour. */
  remaining(): number {
    if (this.heldUntil > this.clock()) return 0;
    if (!(this.limitPerHour > 0)) return Number.POSITIVE_INFINITY;
    this.prune(this.clock());
    return Math.max(0, Math.floor(this.limitPerHour) - this.calls.length);
  }

  /** Seconds until `n` more calls fit (0 when they fit now; at least 1 otherwise). */
  waitSeconds(n = 1): number {
    const now = this.clock();
    const held = this.heldUntil > now ? this.heldUntil : 0;
    let free = held;
    if (this.limitPerHour > 0) {
      this.prune(now);
      const over = this.calls.length + n - Math.floor(this.limitPerHour);
      // The call that must leave the window for `n` to fit (the whole hour when n alone is over the limit).
      if (over > 0) free = Math.max(free, (this.calls[over - 1] ?? now) + HOUR_MS);
    }
    return free > now ? Math.max(1, Math.ceil((free - now) / 1000)) : 0;
  }

  /** The service said to wait (a 429 with Retry-After): no call is counted as allowed before then. */
  holdFor(seconds: number): void {
    this.heldUntil = Math.max(this.heldUntil, this.clock() + Math.max(0, seconds) * 1000);
  }

  /**
   * Counts `n` calls (one by default), all or none, or throws TOO_MANY_REQUESTS (with the seconds until they would
   * fit).
   */
  take(n = 1): void {
    const wait = this.waitSeconds(n);
    if (wait > 0 && this.heldUntil > this.clock()) throw serviceLimiting(this.service, wait);
    if (wait > 0) {
      const limit = Math.floor(this.limitPerHour);
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.service.budgetReached",
          message: "{service}: the limit of {limit} calls per hour is reached",
          values: { service: this.service, limit },
        },
        { retryAfterSeconds: wait },
      );
    }
    if (!(this.limitPerHour > 0)) return;
    const now = this.clock();
    for (let i = 0; i < n; i++) this.calls.push(now);
  }
}
