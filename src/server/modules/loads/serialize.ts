import type { Load } from "../../../../db/tables";
import { URGENT_WITHIN_MS } from "../../../shared/constants";
import { haversineMiles } from "../../../shared/geo";
import { fromMinor } from "../../../shared/money";
import { placeLabel } from "../../../shared/place";
import { parseContact } from "../boards/map";

const place = (city: string, state: string | null, country: string) => placeLabel(city, state, country);

/** A load as the API shows it (docs/product-rules.md, Loads), with distance from an optional point of view. */
export const toPublicLoad = (l: Load, from?: { latitude: number; longitude: number } | null, now = Date.now()) => {
  const budgetAmount = fromMinor(l.budgetMinor, l.budgetCurrency);
  const distance = from ? haversineMiles(from.latitude, from.longitude, l.pickupLatitude, l.pickupLongitude) : null;
  return {
    id: l.id,
    title: l.title,
    description: l.description,
    pickupAddress: l.pickupAddress,
    pickupCity: l.pickupCity,
    pickupState: l.pickupState,
    pickupCountry: l.pickupCountry,
    pickupLatitude: l.pickupLatitude,
    pickupLongitude: l.pickupLongitude,
    pickupLocation: place(l.pickupCity, l.pickupState, l.pickupCountry),
    deliveryAddress: l.deliveryAddress,
    deliveryCity: l.deliveryCity,
    deliveryState: l.deliveryState,
    deliveryCountry: l.deliveryCountry,
    deliveryLatitude: l.deliveryLatitude,
    deliveryLongitude: l.deliveryLongitude,
    deliveryLocation: place(l.deliveryCity, l.deliveryState, l.deliveryCountry),
    pickupDate: new Date(l.pickupDate).toISOString(),
    deliveryDate: new Date(l.deliveryDate).toISOString(),
    weight: l.weightLbs,
    equipmentType: l.equipmentType,
    loadSize: l.loadSize,
    budgetAmount,
    budgetCurrency: l.budgetCurrency,
    rate: budgetAmount,
    currency: l.budgetCurrency,
    tripMiles: Math.round(l.tripMiles * 10) / 10,
    // Same floor of one mile as the rate sort in search.ts, so a cross-town load is not infinitely well paid.
    ratePerMile: Math.round((budgetAmount / Math.max(l.tripMiles, 1)) * 100) / 100,
    specialInstructions: l.specialInstructions,
    status: l.status,
    isUrgent: l.pickupDate - now <= URGENT_WITHIN_MS && l.pickupDate >= now - 24 * 60 * 60 * 1000,
    distance: distance == null ? null : Math.round(distance * 10) / 10,
    source: {
      type: l.sourceType,
      provider: l.sourceProvider,
      configId: l.sourceConfigId,
      externalId: l.sourceExternalId,
      /** The poster's contact as the board gives it: bids are not taken on external loads, the poster is called. */
      contact: l.sourceType === "external" ? parseContact(l.sourceContact) : null,
    },
    shipperId: l.shipperId,
    shipperCompanyId: l.shipperCompanyId ?? null,
    assignedDriverId: l.assignedDriverId,
    createdAt: new Date(l.createdAt).toISOString(),
  };
};
export type TPublicLoad = ReturnType<typeof toPublicLoad>;
