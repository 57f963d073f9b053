import { EQUIPMENT_TYPES } from "../../../shared/constants";
import { DAY_RE, latitude, longitude, numberIf, radius, readSearch, textIf, wholeNumber } from "../loads/board-search";

/**
 * The truck search in the address (a reload, a shared link and the back button keep it); `load` is the shipper's load
 * the search was opened from, which the invitation then offers first. Read by hand, like the board's, so that zod is
 * not part of the first load (route options stay in the boot chunk); truck-search.test.ts holds it to the zod schema
 * it replaces. A value the address cannot hold falls back to its default instead of failing the page.
 */
export type TFindTrucksSearch = {
  load?: number;
  origin?: string;
  latitude?: number;
  longitude?: number;
  radius?: number;
  destination?: string;
  destinationLatitude?: number;
  destinationLongitude?: number;
  destinationRadius?: number;
  from?: string;
  to?: string;
  equipmentType?: string;
  page?: number;
};

const FIELDS: { [K in keyof TFindTrucksSearch]-?: (v: unknown) => TFindTrucksSearch[K] } = {
  load: (v) => numberIf(v, (n) => wholeNumber(n) && n > 0),
  origin: (v) => textIf(v, (s) => s.length <= 200),
  latitude: (v) => numberIf(v, latitude),
  longitude: (v) => numberIf(v, longitude),
  radius: (v) => numberIf(v, radius),
  destination: (v) => textIf(v, (s) => s.length <= 200),
  destinationLatitude: (v) => numberIf(v, latitude),
  destinationLongitude: (v) => numberIf(v, longitude),
  destinationRadius: (v) => numberIf(v, radius),
  from: (v) => textIf(v, (s) => DAY_RE.test(s)),
  to: (v) => textIf(v, (s) => DAY_RE.test(s)),
  equipmentType: (v) => textIf(v, (s) => s.split(",").every((e) => (EQUIPMENT_TYPES as readonly string[]).includes(e))),
  page: (v) => numberIf(v, (n) => wholeNumber(n) && n >= 1),
};

export const parseFindTrucksSearch = (raw: Record<string, unknown>): TFindTrucksSearch => readSearch(FIELDS, raw);
