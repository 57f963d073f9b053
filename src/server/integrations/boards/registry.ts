// Which adapter speaks to a configuration's board, the boards' production addresses, and which addresses are sandboxes.
// Every adapter honours the configuration's timeoutMs (per HTTP exchange) and rateLimitPerHour (one HourlyBudget per
// adapter instance; the domain keeps one instance per configuration version).
import { createDatAdapter } from "./dat";
import { createFeedAdapter } from "./feed";
import { isSandboxBoardUrl, withConfigurationName } from "./http";
import { createLoadboard123Adapter } from "./loadboard123";
import { createTruckstopAdapter } from "./truckstop";
import type { TBoardProvider, TBoardSettings, TLoadBoardAdapter } from "./types";

export { isSandboxBoardUrl };

/** The boards' production base URLs ("other" has none: each feed has its own address). */
export const PRODUCTION_BOARD_URLS = {
  dat: "https://freight.api.prod.dat.com",
  truckstop: "https://webservices.truckstop.com",
  "123loadboard": "https://api.123loadboard.com",
} as const satisfies Partial<Record<TBoardProvider, string>>;

/**
 * The hosts each board documents for its API (production and test): a configuration of DAT, Truckstop or 123Loadboard
 * may point only there (https, default port) or at the operator's Sandbox, so what comes back is the board's own
 * answer. "other" is a broker's own feed, on any public https host.
 */
export const BOARD_HOSTS: Record<TBoardProvider, readonly string[] | null> = {
  dat: ["freight.api.prod.dat.com", "freight.api.dat.com", "freight.api.staging.dat.com", "freight.api.nprod.dat.com"],
  truckstop: ["webservices.truckstop.com", "testws.truckstop.com", "api.truckstop.com", "api-int.truckstop.com"],
  "123loadboard": ["api.123loadboard.com", "api.dev.123loadboard.com"],
  other: null,
};

const adapterFor = (s: TBoardSettings): TLoadBoardAdapter => {
  switch (s.provider) {
    case "dat":
      return createDatAdapter(s);
    case "truckstop":
      return createTruckstopAdapter(s);
    case "123loadboard":
      return createLoadboard123Adapter(s);
    case "other":
      return createFeedAdapter(s);
  }
};

/** The adapter for a configuration; its errors name the board and the configuration ("Truckstop 'Chicago desk' …"). */
export const createBoardAdapter = (s: TBoardSettings): TLoadBoardAdapter =>
  withConfigurationName(adapterFor(s), s.name);
