import { AppError } from "../../errors";

export type TCarrierResponse = { status: number; headers: Headers; body: unknown };

/**
 * One HTTP exchange with a carrier: bounded by a timeout, JSON in and out. Network failures, timeouts and answers that
 * are not JSON become AppErrors that name the carrier.
 */
export const carrierFetch = async (
  name: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<TCarrierResponse> => {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (err) {
    const e = err as Error;
    if (e.name === "TimeoutError" || e.name === "AbortError") {
      throw new AppError(
        "GATEWAY_TIMEOUT",
        /*i18n*/ {
          id: "error.carrier.timeout",
          message: "{carrier} did not answer within {seconds} s",
          values: { carrier: name, seconds: Math.round(timeoutMs / 100) / 10 },
        },
      );
    }
    throw new AppError(
      "BAD_GATEWAY",
      /*i18n*/ {
        id: "error.carrier.unreachable",
        message: "{carrier} could not be reached: {reason}",
        values: { carrier: name, reason: e.message },
      },
    );
  }
  const text = await res.text();
  let body: unknown = null;
  if (text.trim()) {
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError(
        "BAD_GATEWAY",
        /*i18n*/ {
          id: "error.carrier.notJson",
          message: "{carrier} sent an answer that is not valid JSON (HTTP {status})",
          values: { carrier: name, status: res.status },
        },
      );
    }
  }
  return { status: res.status, headers: res.headers, body };
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
