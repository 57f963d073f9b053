import type { TLanguage } from "../../../shared/constants";
import type { TCarrier } from "../../../shared/tracking-number";
import { loadConfig, type TConfig } from "../../config";
import type { TMessage } from "../../errors";
import { translate } from "../../i18n";
import { createFedexAdapter } from "./fedex";
import type { TCarrierAdapter, TCarrierSettings } from "./types";
import { createUpsAdapter } from "./ups";
import { createUspsAdapter } from "./usps";

const SANDBOX_HOSTS = ["apis-sandbox.fedex.com", "wwwcie.ups.com", "apis-tem.usps.com", "api-cat.usps.com"];
const NAMES: Record<TCarrier, string> = { fedex: "FedEx", ups: "UPS", usps: "USPS" };
const PREFIX: Record<TCarrier, string> = { fedex: "FEDEX", ups: "UPS", usps: "USPS" };

export type TCarrierState = "active" | "sandbox" | "not_configured";
export type TCarrierRegistry = {
  get: (id: TCarrier) => TCarrierAdapter | null;
  /** Each carrier's state; a carrier that is not configured says why, in `locale` (English by default). */
  states: (locale?: TLanguage) => { id: TCarrier; name: string; state: TCarrierState; reason: string | null }[];
  nameOf: (id: TCarrier) => string;
};

const isSandbox = (url: string) => {
  const host = new URL(url).hostname;
  return SANDBOX_HOSTS.includes(host) || host === "localhost" || host.startsWith("127.") || host === "[::1]";
};

/** What a carrier lacks in the configuration (null when it has what it needs). */
const missingSettings = (id: TCarrier, given: TConfig["carriers"][TCarrier]): TMessage | null => {
  const prefix = PREFIX[id];
  const missing = [
    ...(given.clientId ? [] : [`${prefix}_CLIENT_ID`]),
    ...(given.clientSecret ? [] : [`${prefix}_CLIENT_SECRET`]),
  ];
  if (missing.length)
    return /*i18n*/ {
      id: "error.carrier.settingsMissing",
      message: "{carrier} is not configured: set {variables} in the server's environment",
      values: { carrier: NAMES[id], variables: missing.join(", ") },
    };
  if (id === "fedex" && !given.accountNumber)
    return /*i18n*/ {
      id: "error.carrier.fedexAccountMissing",
      message:
        "FedEx is not configured: FedEx quotes rates for a FedEx account, so set FEDEX_ACCOUNT_NUMBER to the account number",
    };
  return null;
};

/**
 * The carriers configured: a carrier with what it needs (credentials; FedEx also its account number) gets an adapter
 * at its base URL (production by default). USPS_HOURLY_QUOTA is the USPS app's quota of requests per hour (60 by
 * default, what a new app gets; 0 for none).
 */
export const carriersFrom = (c: TConfig["carriers"]): TCarrierRegistry => {
  const reasons: Record<TCarrier, TMessage | null> = {
    fedex: missingSettings("fedex", c.fedex),
    ups: missingSettings("ups", c.ups),
    usps: missingSettings("usps", c.usps),
  };
  const settings = (id: TCarrier): TCarrierSettings | null => {
    const given = c[id];
    if (reasons[id] || !given.clientId || !given.clientSecret) return null;
    return {
      baseUrl: given.baseUrl,
      clientId: given.clientId,
      clientSecret: given.clientSecret,
      accountNumber: given.accountNumber ?? undefined,
      timeoutMs: c.timeoutMs,
      sandbox: isSandbox(given.baseUrl),
      ...(id === "usps" ? { hourlyQuota: c.uspsHourlyQuota } : {}),
    };
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
    states: (locale = "en") =>
      (Object.keys(adapters) as TCarrier[]).map((id) => {
        const reason = reasons[id];
        return {
          id,
          name: NAMES[id],
          state: !adapters[id] ? "not_configured" : adapters[id].sandbox ? "sandbox" : "active",
          reason: reason ? translate(locale, reason) : null,
        };
      }),
  };
};

/** The carriers an environment configures (FEDEX_*, UPS_*, USPS_*, CARRIER_TIMEOUT_MS), read through loadConfig. */
export const carriersFromEnv = (env: Record<string, string | undefined> = process.env) =>
  carriersFrom(loadConfig(env).carriers);
