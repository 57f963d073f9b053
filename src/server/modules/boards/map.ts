import type { NewLoad } from "../../../../db/tables";
import { haversineMiles } from "../../../shared/geo";
import type { TBoardContact, TBoardLoad, TBoardPlace } from "../../integrations/boards/types";
import { pickupCountryCode } from "../places/country";
import { searchPlaces } from "../places/gazetteer";

// A board's load in our vocabulary: places with coordinates (looked up in the gazetteer when the board gives only a
// city), country names as the rest of MyTess writes them, a delivery date and trip miles where the board has none.

const DAY = 24 * 60 * 60 * 1000;
const countryNames = new Intl.DisplayNames(["en"], { type: "region" });
const strip = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();

const countryCache = new Map<string, string>();
export const countryName = (code: string) => {
  let name = countryCache.get(code);
  if (name === undefined) {
    name = code;
    if (/^[A-Za-z]{2}$/.test(code)) {
      try {
        name = countryNames.of(code.toUpperCase()) ?? code;
      } catch {}
    }
    countryCache.set(code, name);
  }
  return name;
};

export type TPlaced = { city: string; state: string | null; country: string; latitude: number; longitude: number };

/** The place with coordinates: the board's own, else the most populous gazetteer city of that name (and state). */
export const placeOf = (p: TBoardPlace): TPlaced | null => {
  const country = countryName(p.country);
  if (p.latitude != null && p.longitude != null)
    return { city: p.city, state: p.state, country, latitude: p.latitude, longitude: p.longitude };
  const code = /^[A-Za-z]{2}$/.test(p.country) ? p.country.toUpperCase() : undefined;
  const name = strip(p.city);
  const hits = searchPlaces(p.city, 20, code).filter((h) => strip(h.city) === name);
  const hit = hits.find((h) => !p.state || h.state === p.state) ?? hits[0];
  return hit ? { city: p.city, state: p.state, country, latitude: hit.latitude, longitude: hit.longitude } : null;
};

export const contactJson = (c: TBoardContact) => JSON.stringify(c);
export const parseContact = (s: string | null): TBoardContact | null => {
  if (!s) return null;
  try {
    return JSON.parse(s) as TBoardContact;
  } catch {
    return null;
  }
};

const label = (p: TPlaced) => [p.city, p.state].filter(Boolean).join(", ");

/** What a stored external load is made of; null when a place cannot be put on the map (the load is skipped). */
export const toLoadValues = (
  b: TBoardLoad,
  source: { provider: string; configId: number | null; ownerId: number | null },
  now: number,
): NewLoad | null => {
  const pickup = placeOf(b.pickup);
  const delivery = placeOf(b.delivery);
  if (!pickup || !delivery) return null;
  const crow = haversineMiles(pickup.latitude, pickup.longitude, delivery.latitude, delivery.longitude);
  const tripMiles = b.tripMiles && b.tripMiles > 0 ? b.tripMiles : crow;
  // Without a delivery date: a day per 500 road miles after pickup, at least one.
  const deliveryDate = b.deliveryDate ?? b.pickupDate + Math.max(1, Math.ceil(tripMiles / 500)) * DAY;
  const values: NewLoad = {
    shipperId: null,
    title: b.title,
    description: b.description,
    pickupAddress: label(pickup),
    pickupCity: pickup.city,
    pickupState: pickup.state,
    pickupCountry: pickup.country,
    pickupCountryCode: pickupCountryCode(b.pickup.country, pickup.latitude, pickup.longitude),
    pickupLatitude: pickup.latitude,
    pickupLongitude: pickup.longitude,
    deliveryAddress: label(delivery),
    deliveryCity: delivery.city,
    deliveryState: delivery.state,
    deliveryCountry: delivery.country,
    deliveryLatitude: delivery.latitude,
    deliveryLongitude: delivery.longitude,
    pickupDate: b.pickupDate,
    deliveryDate: Math.max(deliveryDate, b.pickupDate),
    weightLbs: b.weightLbs ?? 0,
    equipmentType: b.equipmentType,
    // The boards' feeds do not say full or partial in a form every adapter reads: a full truckload, as posted before.
    loadSize: "full",
    budgetMinor: b.rateMinor ?? 0,
    budgetCurrency: b.currency || "USD",
    tripMiles,
    specialInstructions: null,
    status: "posted",
    sourceType: "external",
    sourceProvider: source.provider,
    sourceExternalId: b.externalId,
    sourceConfigId: source.configId,
    sourceOwnerId: source.ownerId,
    sourceContact: contactJson(b.contact),
    sourceSeenAt: now,
    createdAt: b.postedAt ?? now,
    updatedAt: now,
  };
  values.sourceHash = hashOf(values);
  return values;
};

/** A fingerprint of what the board says of a load: a re-sync updates a row only when it changed. */
const hashOf = (v: NewLoad) =>
  Bun.hash(
    JSON.stringify([
      v.title,
      v.description,
      v.pickupCity,
      v.pickupState,
      v.pickupLatitude,
      v.pickupLongitude,
      v.deliveryCity,
      v.deliveryState,
      v.deliveryLatitude,
      v.deliveryLongitude,
      v.pickupDate,
      v.deliveryDate,
      v.weightLbs,
      v.equipmentType,
      v.budgetMinor,
      v.budgetCurrency,
      v.tripMiles,
      v.sourceContact,
    ]),
  ).toString(36);
