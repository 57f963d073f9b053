import { countryCodeOf } from "../../../shared/countries";
import { nearestPlace } from "./gazetteer";

/**
 * A load's pickup country code: from the country as written ("Ethiopia", "ET", "ኢትዮጵያ"), else from the gazetteer town
 * nearest the pickup's coordinates; null when neither knows it.
 */
export const pickupCountryCode = (written: string, latitude: number, longitude: number): string | null =>
  countryCodeOf(written) ?? nearestPlace(latitude, longitude)?.countryCode ?? null;
