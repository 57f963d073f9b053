import { AppError, type TMessage } from "../../errors";
import { type HourlyBudget, retryAfterSeconds, serviceLimiting } from "../http/kit";
import { carrierFetch, type TCarrierResponse } from "./http";
import { TokenCache, type TToken } from "./token-cache";

type TOptions = {
  name: string;
  baseUrl: string;
  timeoutMs: number;
  /** The carrier's OAuth client-credentials request: its path and how it is sent. */
  tokenRequest: { path: string; init: () => RequestInit };
  /** The carrier's own error message inside an error body. */
  errorMessage: (body: unknown) => string | undefined;
  /**
   * The carrier's quota of requests per hour, token requests included: each exchange is counted before it is sent,
   * and a 429's Retry-After holds every call until then.
   */
  budget?: HourlyBudget;
};

// A 429 that asks to wait at most this long is waited out once; a longer wait is reported to the caller.
const MAX_RETRY_WAIT_S = 2;

// Our reasons when a carrier's error answer gives none.
export const RATE_REQUEST_FAILED = /*i18n*/ {
  id: "error.carrier.rateRequestFailed",
  message: "the rate request failed",
};
export const TRACKING_REQUEST_FAILED = /*i18n*/ {
  id: "error.carrier.trackingRequestFailed",
  message: "the tracking request failed",
};

/** A carrier's answer to a request, told with its name: "{carrier}: {reason}". */
export const carrierSaid = (values: { carrier: string; reason: string | TMessage }): TMessage => /*i18n*/ ({
  id: "error.carrier.said",
  comment: "Parcel carrier error: the carrier's name, then its own explanation (kept in its words)",
  message: "{carrier}: {reason}",
  values,
});

const credentialsRefused = (values: { carrier: string; reason: string | TMessage }): TMessage => /*i18n*/ ({
  id: "error.carrier.credentialsRefused",
  message: "{carrier} refused our credentials: {reason}",
  values,
});

/** Authenticated JSON calls to one carrier: bearer token, one retry after a 401 or a short 429, errors named. */
export const createCarrierClient = (o: TOptions) => {
  const tokens = new TokenCache(async () => {
    o.budget?.take();
    return readToken(
      o.name,
      await carrierFetch(
        o.name,
        `${o.baseUrl}${o.tokenRequest.path}`,
        { method: "POST", ...o.tokenRequest.init() },
        o.timeoutMs,
        { trusted: [o.baseUrl] },
      ),
      o.errorMessage,
      o.budget,
    );
  });
  const call = async (path: string, init: RequestInit, attempt = 0): Promise<TCarrierResponse> => {
    const token = await tokens.get();
    o.budget?.take();
    const res = await carrierFetch(
      o.name,
      `${o.baseUrl}${path}`,
      {
        ...init,
        headers: {
          ...(init.headers as Record<string, string>),
          Authorization: `Bearer ${token}`,
          Accept: "application/json",
        },
      },
      o.timeoutMs,
      { trusted: [o.baseUrl] },
    );
    if (res.status === 401 && attempt === 0) {
      tokens.invalidate();
      return call(path, init, attempt + 1);
    }
    if (res.status === 429) {
      const wait = retryAfterSeconds(res.headers);
      if (wait !== undefined) o.budget?.holdFor(wait);
      if (attempt === 0 && wait !== undefined && wait <= MAX_RETRY_WAIT_S) {
        await Bun.sleep(wait * 1000);
        return call(path, init, attempt + 1);
      }
      throw serviceLimiting(o.name, wait);
    }
    return res;
  };
  /** Throws the carrier's refusal: its own reason (in its words), else ours. */
  const fail = (res: TCarrierResponse, fallback: TMessage): never => {
    const values = { carrier: o.name, reason: o.errorMessage(res.body) ?? fallback, status: res.status };
    if (res.status === 404) throw new AppError("NOT_FOUND", carrierSaid(values));
    // The carrier refused what the caller asked (a malformed tracking number, an impossible address): the caller's
    // mistake, told with the carrier's reason. A 502 is kept for the carrier failing.
    if (res.status === 400 || res.status === 422) throw new AppError("BAD_REQUEST", carrierSaid(values));
    if (res.status === 401 || res.status === 403) throw new AppError("BAD_GATEWAY", credentialsRefused(values));
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.carrier.failed",
        comment: "Parcel carrier error: the carrier's name, its explanation and the HTTP status code",
        message: "{carrier}: {reason} (HTTP {status})",
        values,
      },
    );
  };
  return { call, fail, tokens };
};

/** Reads a token answer: expires_in (and issued_at in ms) as numbers or strings. */
export const readToken = (
  name: string,
  res: TCarrierResponse,
  errorMessage: (b: unknown) => string | undefined,
  budget?: HourlyBudget,
): TToken => {
  const b = res.body as Record<string, unknown> | null;
  if (res.status !== 200 || !b || typeof b.access_token !== "string") {
    const wait = retryAfterSeconds(res.headers);
    if (res.status === 429 && wait !== undefined) budget?.holdFor(wait);
    if (res.status === 429)
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.carrier.limitingSignIn",
          message: "{carrier} is limiting sign-in requests",
          values: { carrier: name },
        },
        { retryAfterSeconds: wait },
      );
    throw new AppError(
      "BAD_GATEWAY",
      credentialsRefused({ carrier: name, reason: errorMessage(b) ?? `HTTP ${res.status}` }),
    );
  }
  const issued = b.issued_at !== undefined ? Number(b.issued_at) : Date.now();
  const expiresIn = Number(b.expires_in ?? 3600);
  return { accessToken: b.access_token, expiresAt: (Number.isFinite(issued) ? issued : Date.now()) + expiresIn * 1000 };
};
