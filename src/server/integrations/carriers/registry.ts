import type { TLanguage } from "../../../shared/constants";
import type { TCarrier } from "../../../shared/tracking-number";
import type { TMessage } from "../../errors";
import { translate } from "../../i18n";
import { createFedexAdapter } from "./fedex";
import type { TCarrierAdapter, TCarrierSettings } from "./types";
import { createUpsAdapter } from "./ups";
import { createUspsAdapter, USPS_DEFAULT_HOURLY_QUOTA } from "./usps";

const PRODUCTION = {
  fedex: "https://apis.fedex.com",
  ups: "https://onlinetools.ups.com",
  usps: "https://apis.usps.com",
} as const;
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

/** What a carrier lacks in the environment (null when it has what it needs). */
const missingSettings = (id: TCarrier, env: Record<string, string | undefined>): TMessage | null => {
  const prefix = PREFIX[id];
  const missing = [`${prefix}_CLIENT_ID`, `${prefix}_CLIENT_SECRET`].filter((k) => !env[k]?.trim());
  if (missing.length)
    return /*i18n*/ {
      id: "error.carrier.settingsMissing",
      message: "{carrier} is not configured: set {variables} in the server's environment",
      values: { carrier: NAMES[id], variables: missing.join(", ") },
    };
  if (id === "fedex" && !env.FEDEX_ACCOUNT_NUMBER?.trim())
    return /*i18n*/ {
      id: "error.carrier.fedexAccountMissing",
      message:
        "FedEx is not configured: FedEx quotes rates for a FedEx account, so set FEDEX_ACCOUNT_NUMBER to the account number",
    };
  return null;
};

/**
 * Carriers from the environment: a carrier with what it needs (credentials; FedEx also its account number) gets an
 * adapter at its base URL (production by default). USPS_HOURLY_QUOTA is the USPS app's quota of requests per hour
 * (60 by default, what a new app gets; 0 for none).
 */
export const carriersFromEnv = (env: Record<string, string | undefined> = process.env): TCarrierRegistry => {
  const timeoutMs = Number(env.CARRIER_TIMEOUT_MS ?? 8000);
  const quota = Number(env.USPS_HOURLY_QUOTA?.trim() || USPS_DEFAULT_HOURLY_QUOTA);
  const reasons: Record<TCarrier, TMessage | null> = {
    fedex: missingSettings("fedex", env),
    ups: missingSettings("ups", env),
    usps: missingSettings("usps", env),
  };
  const settings = (id: TCarrier): TCarrierSettings | null => {
    if (reasons[id]) return null;
    const prefix = PREFIX[id];
    const baseUrl = (env[`${prefix}_BASE_URL`] ?? PRODUCTION[id]).replace(/\/$/, "");
    return {
      baseUrl,
      clientId: env[`${prefix}_CLIENT_ID`]!,
      clientSecret: env[`${prefix}_CLIENT_SECRET`]!,
      accountNumber: env[`${prefix}_ACCOUNT_NUMBER`]?.trim() || undefined,
      timeoutMs,
      sandbox: isSandbox(baseUrl),
      ...(id === "usps" ? { hourlyQuota: Number.isFinite(quota) ? quota : USPS_DEFAULT_HOURLY_QUOTA } : {}),
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
