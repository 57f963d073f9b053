// Which adapter speaks to a configuration's board, the boards' production addresses, and which addresses are sandboxes.
// Every adapter honours the configuration's timeoutMs (per HTTP exchange) and rateLimitPerHour (one HourlyBudget per
// adapter instance; the domain keeps one instance per configuration version).
import { createDatAdapter } from "./dat";
import { createFeedAdapter } from "./feed";
import { isSandboxBoardUrl } from "./http";
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

/** The adapter for a configuration. */
export const createBoardAdapter = (s: TBoardSettings): TLoadBoardAdapter => {
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
