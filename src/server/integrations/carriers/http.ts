import { exchange, readJson } from "../http/kit";

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
  const res = await exchange(name, url, init, timeoutMs);
  return { status: res.status, headers: res.headers, body: res.text.trim() ? readJson(name, res) : null };
};
