// What the load-board adapters share beyond the kit (integrations/http/kit.ts): the reason a board gives in its error
// body, and the small mappings (countries, dates, money) the four wire formats have in common.
import { toMinor } from "../../../shared/money";
import { AppError, type TMessage } from "../../errors";
import { logger } from "../../logger";
import { failOnStatus as kitFailOnStatus, nonEmpty, plainReason, type TExchange } from "../http/kit";
import type { TBoardPlace, TBoardSkip, TLoadBoardAdapter } from "./types";

/** The reason a board gives in a JSON error body (message, error_description, error, detail, title, errors[0]). */
export const jsonReason = (text: string): string | undefined => {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    // A short plain-text answer is its own reason; an HTML error page gives its title.
    return plainReason(text);
  }
  if (typeof body === "string") return nonEmpty(body);
  if (!body || typeof body !== "object") return undefined;
  const b = body as Record<string, unknown>;
  const first = Array.isArray(b.errors) ? (b.errors[0] as Record<string, unknown> | string | undefined) : undefined;
  return (
    nonEmpty(b.message) ??
    nonEmpty(b.error_description) ??
    nonEmpty(b.detail) ??
    nonEmpty(b.error) ??
    nonEmpty(b.title) ??
    (typeof first === "string" ? nonEmpty(first) : nonEmpty(first?.message))
  );
};

/** A board's refusal (any status but 2xx) as the kit reads it, with the board's own words from its error body. */
export const failOnStatus = (board: string, res: TExchange, reason = jsonReason(res.text)): void =>
  kitFailOnStatus(board, res, { reason });

// Naming ---------------------------------------------------------------------------------------------------------

/**
 * A configuration as errors name it: the board and the user's own name for it ("Truckstop 'Chicago desk'"); the board
 * alone when the configuration is called just that.
 */
export const boardLabel = (board: string, name: string): string | TMessage =>
  !name.trim() || name.trim().toLowerCase() === board.toLowerCase()
    ? board
    : /*i18n*/ {
        id: "board.label",
        message: "{board} ''{name}''",
        comment:
          "In load board errors: the board (DAT, Truckstop, 123Loadboard), then the user's own name for its configuration in quotes",
        values: { board, name: name.trim() },
      };

/**
 * An error about a configuration's board, naming the configuration too. Adapters and the kit name the board alone (the
 * `service` of the kit's messages); a refusal of the credentials then reads "Truckstop refused the credentials of
 * 'Mine': …", and every other message gets the label in place of the board. Other errors pass unchanged.
 */
export const nameConfiguration = (err: unknown, board: string, name: string): unknown => {
  const label = boardLabel(board, name);
  if (typeof label === "string" || !(err instanceof AppError) || err.descriptor.values?.service !== board) return err;
  const extra = { retryAfterSeconds: err.retryAfterSeconds };
  if (err.descriptor.id === "error.service.credentialsRefused")
    return new AppError(
      err.code,
      /*i18n*/ {
        id: "error.board.credentialsRefused",
        message: "{board} refused the credentials of ''{name}'': {reason}",
        values: { board, name: name.trim(), reason: err.descriptor.values.reason },
      },
      extra,
    );
  return new AppError(err.code, { ...err.descriptor, values: { ...err.descriptor.values, service: label } }, extra);
};

/** The adapter with every error naming the board and the configuration (see nameConfiguration). */
export const withConfigurationName = (adapter: TLoadBoardAdapter, name: string): TLoadBoardAdapter => {
  const named =
    <A extends unknown[], R>(f: (...a: A) => Promise<R>) =>
    (...a: A) =>
      f(...a).catch((err) => {
        throw nameConfiguration(err, adapter.boardName, name);
      });
  return { ...adapter, test: named(adapter.test), search: named(adapter.search) };
};

/** Loads a board listed that could not be read: logged for the operator, with the reason, and counted by the caller. */
export const logSkipped = (board: string, name: string, skipped: readonly TBoardSkip[]) => {
  if (!skipped.length) return;
  logger.warn("board: loads could not be read", {
    board,
    configuration: name,
    count: skipped.length,
    // The first few are enough to find the field at fault; a board that changed its format fails every load alike.
    skipped: skipped.slice(0, 5),
  });
};

// Mappings ---------------------------------------------------------------------------------------------------------

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

const STATES_OF: Record<string, ReadonlySet<string>> = { US: US_STATES, CA: CA_PROVINCES, MX: MX_STATES };

/**
 * A North American place's country (US, CA, MX) and its state, province or Mexican state code, when the place has
 * one that country uses; null anywhere else (a board that searches by state cannot search from there).
 */
export const northAmericanState = (country: string | null | undefined, state: string | null | undefined) => {
  const s = state?.trim().toUpperCase() ?? "";
  const c = country?.trim().toUpperCase() || (s ? northAmericanCountry(null, s) : "");
  const iso = ALPHA3[c] ?? c;
  return STATES_OF[iso]?.has(s) ? { country: iso, state: s } : null;
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
