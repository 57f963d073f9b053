import type { TCarrier } from "../../../shared/tracking-number";
import { createFedexAdapter } from "./fedex";
import type { TCarrierAdapter, TCarrierSettings } from "./types";
import { createUpsAdapter } from "./ups";
import { createUspsAdapter } from "./usps";

const PRODUCTION = {
  fedex: "https://apis.fedex.com",
  ups: "https://onlinetools.ups.com",
  usps: "https://apis.usps.com",
} as const;
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

/** Carriers from the environment: a carrier with credentials gets an adapter at its base URL (production by default). */
export const carriersFromEnv = (env: Record<string, string | undefined> = process.env): TCarrierRegistry => {
  const timeoutMs = Number(env.CARRIER_TIMEOUT_MS ?? 8000);
  const settings = (id: TCarrier, prefix: string): TCarrierSettings | null => {
    const clientId = env[`${prefix}_CLIENT_ID`];
    const clientSecret = env[`${prefix}_CLIENT_SECRET`];
    if (!clientId || !clientSecret) return null;
    const baseUrl = (env[`${prefix}_BASE_URL`] ?? PRODUCTION[id]).replace(/\/$/, "");
    return {
      baseUrl,
      clientId,
      clientSecret,
      accountNumber: env[`${prefix}_ACCOUNT_NUMBER`],
      timeoutMs,
      sandbox: isSandbox(baseUrl),
    };
  };
  const fedex = settings("fedex", "FEDEX");
  const ups = settings("ups", "UPS");
  const usps = settings("usps", "USPS");
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
