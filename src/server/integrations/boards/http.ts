// The kit every load-board adapter shares: one bounded HTTP exchange, the configuration's hourly call budget, the
// board's HTTP refusals turned into AppErrors that name the configuration, and the small mappings (countries, dates,
// money) the four wire formats have in common.
import type { z } from "zod";
import { toMinor } from "../../../shared/money";
import { AppError, type TMessage } from "../../errors";
import { retryAfterSeconds } from "../carriers/http";
import type { TBoardPlace } from "./types";

export { retryAfterSeconds };

export type TBoardResponse = { status: number; headers: Headers; text: string };

/**
 * One HTTP exchange with a board, bounded by `timeoutMs`. The body is returned as text (DAT, 123Loadboard and the feed
 * answer JSON, Truckstop SOAP XML). A timeout or a network failure becomes an AppError naming the board.
 */
export const boardFetch = async (
  board: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<TBoardResponse> => {
  try {
    const res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    // The time limit covers the body too: a board that sends headers and then stalls is just as late.
    return { status: res.status, headers: res.headers, text: await res.text() };
  } catch (err) {
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") {
      throw new AppError(
        "GATEWAY_TIMEOUT",
        /*i18n*/ {
          id: "error.board.timeout",
          message: "{board} did not answer within {seconds} s",
          values: { board, seconds: Math.round(timeoutMs / 100) / 10 },
        },
      );
    }
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.board.unreachable",
        message: "{board} could not be reached: {reason}",
        values: { board, reason: e.message },
      },
    );
  }
};

const HOUR_MS = 3_600_000;

/**
 * A configuration's budget of calls per hour (`rateLimitPerHour`), over a sliding hour. One budget per adapter
 * instance; `take()` is charged once per adapter operation (a search or a test), before anything is sent, so a refused
 * call never reaches the board. Token requests an operation makes on the way are not charged separately. A limit that
 * is not a positive number means no limit.
 */
export class HourlyBudget {
  private readonly calls: number[] = [];

  constructor(
    readonly limitPerHour: number,
    private readonly board = "The board",
    private readonly clock: () => number = Date.now,
  ) {}

  private prune(now: number) {
    while (this.calls.length && this.calls[0] <= now - HOUR_MS) this.calls.shift();
  }

  /** Calls left in the current hour. */
  remaining(): number {
    if (!(this.limitPerHour > 0)) return Number.POSITIVE_INFINITY;
    this.prune(this.clock());
    return Math.max(0, Math.floor(this.limitPerHour) - this.calls.length);
  }

  /** Counts one call, or throws TOO_MANY_REQUESTS (with the seconds until the oldest call leaves the window). */
  take(): void {
    if (!(this.limitPerHour > 0)) return;
    const now = this.clock();
    this.prune(now);
    const limit = Math.floor(this.limitPerHour);
    if (this.calls.length >= limit) {
      const retryAfterSeconds = Math.max(1, Math.ceil((this.calls[0] + HOUR_MS - now) / 1000));
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.board.budgetReached",
          message: "{board}: the limit of {limit} calls per hour is reached",
          values: { board: this.board, limit },
        },
        { retryAfterSeconds },
      );
    }
    this.calls.push(now);
  }
}

// Errors -----------------------------------------------------------------------------------------------------------

/** The board refused the configuration's credentials: the user has to fix them, so it is the caller's error. */
export const credentialsRefused = (board: string, reason: string | TMessage) =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.board.credentialsRefused",
      message: "{board} refused the credentials: {reason}",
      values: { board, reason },
    },
  );

/** The board failed (5xx, a SOAP fault, an error it reports without a status). */
export const boardFailed = (board: string, reason: string | TMessage) =>
  new AppError(
    "BAD_GATEWAY",
    /*i18n*/ {
      id: "error.board.failed",
      message: "{board} failed: {reason}",
      values: { board, reason },
    },
  );

/** The board asks us to slow down (HTTP 429). */
export const boardLimiting = (board: string, seconds: number | undefined) =>
  new AppError(
    "TOO_MANY_REQUESTS",
    seconds !== undefined
      ? /*i18n*/ {
          id: "error.board.limitingWait",
          message: "{board} is limiting requests; try again in {seconds} s",
          values: { board, seconds },
        }
      : /*i18n*/ {
          id: "error.board.limiting",
          message: "{board} is limiting requests",
          values: { board },
        },
    { retryAfterSeconds: seconds },
  );

/** The board's answer does not have the shape we read; `where` names the field. */
export const boardUnreadable = (board: string, where: string) =>
  new AppError(
    "BAD_GATEWAY",
    /*i18n*/ {
      id: "error.board.unreadable",
      message: "{board} sent an answer we could not read (at {where})",
      values: { board, where },
    },
  );

const str = (v: unknown) => (typeof v === "string" && v.trim() ? v.trim() : undefined);

/** The reason a board gives in a JSON error body (message, error_description, error, detail, title, errors[0]). */
export const jsonReason = (text: string): string | undefined => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // A short plain-text answer is its own reason; an HTML error page gives its title.
    const t = text.trim();
    if (t.startsWith("<")) return str(/<title[^>]*>([^<]*)<\/title>/i.exec(t)?.[1]);
    return t && t.length <= 200 ? t : undefined;
  }
  if (typeof body === "string") return str(body);
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  const first = Array.isArray(b.errors) ? (b.errors[0] as Record<string, unknown> | string | undefined) : undefined;
  return (
    str(b.message) ??
    str(b.error_description) ??
    str(b.detail) ??
    str(b.error) ??
    str(b.title) ??
    (typeof first === "string" ? str(first) : str(first?.message))
  );
};

/**
 * Throws the AppError for a board's refusal (any status but 2xx): 429 limiting (with Retry-After), 401/403 the
 * credentials, 400/422 the request, anything else the board failing. `reason` is the board's own words, if any.
 */
export const failOnStatus = (board: string, res: TBoardResponse, reason = jsonReason(res.text)): void => {
  if (res.status >= 200 && res.status < 300) return;
  const why = reason ?? `HTTP ${res.status}`;
  if (res.status === 429) throw boardLimiting(board, retryAfterSeconds(res.headers));
  if (res.status === 401 || res.status === 403) throw credentialsRefused(board, why);
  if (res.status === 400 || res.status === 422)
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.board.rejected",
        message: "{board} rejected the request: {reason}",
        values: { board, reason: why },
      },
    );
  throw boardFailed(board, reason ? `${reason} (HTTP ${res.status})` : why);
};

/** The JSON body of a 2xx answer. */
export const readJson = (board: string, res: TBoardResponse): unknown => {
  try {
    return JSON.parse(res.text);
  } catch {
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.board.notJson",
        message: "{board} sent an answer that is not valid JSON (HTTP {status})",
        values: { board, status: res.status },
      },
    );
  }
};

/** Parses with a zod schema; a wrong shape becomes an error naming the board and the field. */
export const parseBoardWire = <T extends z.ZodType>(board: string, schema: T, body: unknown): z.output<T> => {
  const r = schema.safeParse(body);
  if (!r.success) throw boardUnreadable(board, r.error.issues[0]?.path.join(".") || "(top)");
  return r.data;
};

// Mappings ---------------------------------------------------------------------------------------------------------

/** A base URL without its trailing slashes. */
export const trimBase = (url: string) => url.trim().replace(/\/+$/, "");

const CA_PROVINCES = new Set(["AB", "BC", "MB", "NB", "NL", "NS", "NT", "NU", "ON", "PE", "QC", "SK", "YT"]);
const MX_STATES = new Set([
  "AG",
  "BC",
  "BS",
  "CH",
  "CI",
  "CL",
  "CM",
  "CO",
  "CS",
  "DF",
  "DG",
  "GR",
  "GT",
  "HG",
  "JA",
  "MC",
  "MI",
  "MO",
  "NA",
  "NL",
  "OA",
  "PU",
  "QE",
  "QR",
  "SI",
  "SL",
  "SO",
  "TB",
  "TL",
  "TM",
  "VE",
  "YU",
  "ZA",
]);
const US_STATES = new Set(
  "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY PR".split(
    " ",
  ),
);
const ALPHA3: Record<string, string> = { USA: "US", CAN: "CA", MEX: "MX" };

/**
 * An ISO 3166 alpha-2 country from what a North American board gives: an explicit country (US, USA, CAN…), else
 * the state or province code (ON → CA); US when nothing tells otherwise.
 */
export const northAmericanCountry = (country: string | null | undefined, state: string | null | undefined) => {
  const c = country?.trim().toUpperCase();
  if (c && ALPHA3[c]) return ALPHA3[c];
  if (c && /^[A-Z]{2}$/.test(c)) return c;
  const s = state?.trim().toUpperCase() ?? "";
  if (US_STATES.has(s)) return "US";
  if (CA_PROVINCES.has(s)) return "CA";
  if (MX_STATES.has(s)) return "MX";
  return "US";
};

/** Epoch ms of an ISO date-time, a date (YYYY-MM-DD) or a US date (M/D/YYYY); no zone means UTC. Null if unreadable. */
export const parseBoardDate = (v: string | null | undefined): number | null => {
  const t = v?.trim();
  if (!t) return null;
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4}|\d{2})(?!\d)(?:\s+(\d{1,2}):(\d{2}))?/.exec(t);
  if (us) {
    const year = us[3].length === 2 ? 2000 + Number(us[3]) : Number(us[3]);
    return Date.UTC(year, Number(us[1]) - 1, Number(us[2]), Number(us[4] ?? 0), Number(us[5] ?? 0));
  }
  const zoned = /(Z|[+-]\d{2}:?\d{2})$/i.test(t) || !t.includes("T") ? t : `${t}Z`;
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(zoned) ? `${zoned}T00:00:00Z` : zoned);
  return Number.isNaN(ms) ? null : ms;
};

/** A number from a board field that may be a number or a numeric string ("42,000", "$1,250.00"); null if none. */
export const boardNumber = (v: unknown): number | null => {
  if (typeof v === "number") return Number.isFinite(v) ? v : null;
  if (typeof v !== "string") return null;
  const t = v.replace(/[$,\s]/g, "");
  if (!t) return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
};

/** A posted amount in minor units; a missing, zero or negative amount is "no rate shown". */
export const rateMinorOf = (amount: number | null | undefined, currency: string) =>
  amount != null && Number.isFinite(amount) && amount > 0 ? toMinor(amount, currency) : null;

/** "Chicago, IL → Dallas, TX": a load's title when the board gives none. */
export const laneTitle = (pickup: TBoardPlace, delivery: TBoardPlace) => {
  const place = (p: TBoardPlace) => (p.state ? `${p.city}, ${p.state}` : `${p.city}, ${p.country}`);
  return `${place(pickup)} → ${place(delivery)}`;
};

/** A string field, trimmed; empty means null. */
export const text = (v: unknown): string | null => {
  if (typeof v === "number") return String(v);
  return typeof v === "string" && v.trim() ? v.trim() : null;
};

// Sandbox hosts ----------------------------------------------------------------------------------------------------

const SANDBOX_HOSTS = new Set(["testws.truckstop.com", "api-int.truckstop.com", "api.dev.123loadboard.com"]);

/** Emulators (loopback) and the boards' test hosts: their loads are labelled "Sandbox". */
export const isSandboxBoardUrl = (url: string) => {
  let host: string;
  try {
    host = new URL(url).hostname.toLowerCase().replace(/^\[|\]$/g, "");
  } catch {
    return false;
  }
  if (host === "localhost" || host.endsWith(".localhost") || host.startsWith("127.") || host === "::1") return true;
  if (SANDBOX_HOSTS.has(host)) return true;
  return host.endsWith(".staging.dat.com") || host.endsWith(".nprod.dat.com");
};
