import type { TGuardOptions } from "../http/guard";
import { exchange, readJson } from "../http/kit";

export type TCarrierResponse = { status: number; headers: Headers; body: unknown };

/**
 * One HTTP exchange with a carrier: bounded by a timeout, JSON in and out. Network failures, timeouts and answers that
 * are not JSON become AppErrors that name the carrier. The carrier's base URL is the operator's (FEDEX_BASE_URL…), so
 * `guard.trusted` names it.
 */
export const carrierFetch = async (
  name: string,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  guard: TGuardOptions = {},
): Promise<TCarrierResponse> => {
  const res = await exchange(name, url, init, timeoutMs, guard);
  return { status: res.status, headers: res.headers, body: res.text.trim() ? readJson(name, res) : null };
};
