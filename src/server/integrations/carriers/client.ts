import { AppError } from "../../errors";
import { carrierFetch, retryAfterSeconds, type TCarrierResponse } from "./http";
import { TokenCache, type TToken } from "./token-cache";

type TOptions = {
  name: string;
  baseUrl: string;
  timeoutMs: number;
  /** The carrier's OAuth client-credentials request: its path and how it is sent. */
  tokenRequest: { path: string; init: () => RequestInit };
  /** The carrier's own error message inside an error body. */
  errorMessage: (body: unknown) => string | undefined;
};

// A 429 that asks to wait at most this long is waited out once; a longer wait is reported to the caller.
const MAX_RETRY_WAIT_S = 2;

/** Authenticated JSON calls to one carrier: bearer token, one retry after a 401 or a short 429, errors named. */
export const createCarrierClient = (o: TOptions) => {
  const tokens = new TokenCache(async () =>
    readToken(
      o.name,
      await carrierFetch(
        o.name,
        `${o.baseUrl}${o.tokenRequest.path}`,
        { method: "POST", ...o.tokenRequest.init() },
        o.timeoutMs,
      ),
      o.errorMessage,
    ),
  );
  const call = async (path: string, init: RequestInit, attempt = 0): Promise<TCarrierResponse> => {
    const token = await tokens.get();
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
    );
    if (res.status === 401 && attempt === 0) {
      tokens.invalidate();
      return call(path, init, attempt + 1);
    }
    if (res.status === 429) {
      const wait = retryAfterSeconds(res.headers);
      if (attempt === 0 && wait !== undefined && wait <= MAX_RETRY_WAIT_S) {
        await Bun.sleep(wait * 1000);
        return call(path, init, attempt + 1);
      }
      throw new AppError(
        "TOO_MANY_REQUESTS",
        `${o.name} is limiting requests${wait ? `; try again in ${wait} s` : ""}`,
        { retryAfterSeconds: wait },
      );
    }
    return res;
  };
  const fail = (res: TCarrierResponse, fallback: string): never => {
    const message = o.errorMessage(res.body) ?? fallback;
    if (res.status === 404) throw new AppError("NOT_FOUND", `${o.name}: ${message}`);
    // The carrier refused what the caller asked (a malformed tracking number, an impossible address): the caller's
    // mistake, told with the carrier's reason. A 502 is kept for the carrier failing.
    if (res.status === 400 || res.status === 422) throw new AppError("BAD_REQUEST", `${o.name}: ${message}`);
    if (res.status === 401 || res.status === 403)
      throw new AppError("BAD_GATEWAY", `${o.name} refused our credentials: ${message}`);
    throw new AppError("BAD_GATEWAY", `${o.name}: ${message} (HTTP ${res.status})`);
  };
  return { call, fail, tokens };
};

/** Reads a token answer: expires_in (and issued_at in ms) as numbers or strings. */
export const readToken = (
  name: string,
  res: TCarrierResponse,
  errorMessage: (b: unknown) => string | undefined,
): TToken => {
  const b = res.body as Record<string, unknown> | null;
  if (res.status !== 200 || !b || typeof b.access_token !== "string") {
    if (res.status === 429)
      throw new AppError("TOO_MANY_REQUESTS", `${name} is limiting sign-in requests`, {
        retryAfterSeconds: retryAfterSeconds(res.headers),
      });
    throw new AppError("BAD_GATEWAY", `${name} refused our credentials: ${errorMessage(b) ?? `HTTP ${res.status}`}`);
  }
  const issued = b.issued_at !== undefined ? Number(b.issued_at) : Date.now();
  const expiresIn = Number(b.expires_in ?? 3600);
  return { accessToken: b.access_token, expiresAt: (Number.isFinite(issued) ? issued : Date.now()) + expiresIn * 1000 };
};
