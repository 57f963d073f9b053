import type { TCarrier } from "../../../shared/tracking-number";
import { loadConfig, type TConfig } from "../../config";
import { createFedexAdapter } from "./fedex";
import type { TCarrierAdapter, TCarrierSettings } from "./types";
import { createUpsAdapter } from "./ups";
import { createUspsAdapter } from "./usps";

const SANDBOX_HOSTS = ["apis-sandbox.fedex.com", "wwwcie.ups.com", "apis-tem.usps.com", "api-cat.usps.com"];
const NAMES: Record<TCarrier, string> = { fedex: "FedEx", ups: "UPS", usps: "USPS" };

export type TCarrierState = "active" | "sandbox" | "not_configured";
export type TCarrierRegistry = {
  get: (id: TCarrier) => TCarrierAdapter | null;
  states: () => { id: TCarrier; name: string; state: TCarrierState }[];
  nameOf: (id: TCarrier) => string;
};

const isSandbox = (url: string) => {
  const host = new URL(url).hostname;
  return SANDBOX_HOSTS.includes(host) || host === "localhost" || host.startsWith("127.") || host === "[::1]";
};

/** The carriers configured: one with credentials gets an adapter at its base URL (production by default). */
export const carriersFrom = (c: TConfig["carriers"]): TCarrierRegistry => {
  const settings = (id: TCarrier): TCarrierSettings | null => {
    const given = c[id];
    return given ? { ...given, timeoutMs: c.timeoutMs, sandbox: isSandbox(given.baseUrl) } : null;
  };
  const fedex = settings("fedex");
  const ups = settings("ups");
  const usps = settings("usps");
  const adapters: Record<TCarrier, TCarrierAdapter | null> = {
    fedex: fedex ? createFedexAdapter(fedex) : null,
    ups: ups ? createUpsAdapter(ups) : null,
    usps: usps ? createUspsAdapter(usps) : null,
  };
  return {
    get: (id) => adapters[id],
    nameOf: (id) => NAMES[id],
    states: () =>
      (Object.keys(adapters) as TCarrier[]).map((id) => ({
        id,
        name: NAMES[id],
        state: !adapters[id] ? "not_configured" : adapters[id].sandbox ? "sandbox" : "active",
      })),
  };
};

/** The carriers an environment configures (FEDEX_*, UPS_*, USPS_*, CARRIER_TIMEOUT_MS), read through loadConfig. */
export const carriersFromEnv = (env: Record<string, string | undefined> = process.env) =>
  carriersFrom(loadConfig(env).carriers);
