import { and, desc, eq, max } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { bids, loads, users } from "../../../../db/tables";
import { haversineMiles } from "../../../shared/geo";
import { fromMinor } from "../../../shared/money";
import { toPublicLoad } from "../loads/serialize";

const initials = (first: string, last: string) => `${first.charAt(0)}${last.charAt(0)}`.toUpperCase();

/**
 * The landing page's "bids as a shipper receives them": the posted load with the latest pending bids and up to five of
 * those bids, cheapest first, the way its shipper sees them, but with each driver reduced to initials and nothing that
 * identifies a person (no ids, names or contacts). Null when no posted load has a pending bid.
 */
export const receivedBidsDemo = async (db: TDb) => {
  const [latest] = await db
    .select({ loadId: bids.loadId, last: max(bids.createdAt) })
    .from(bids)
    .innerJoin(loads, eq(loads.id, bids.loadId))
    .where(and(eq(loads.status, "posted"), eq(bids.status, "pending")))
    .groupBy(bids.loadId)
    .orderBy(desc(max(bids.createdAt)))
    .limit(1);
  if (!latest) return null;
  const [load] = await db.select().from(loads).where(eq(loads.id, latest.loadId));
  if (!load) return null;
  const rows = await db
    .select({
      amountMinor: bids.amountMinor,
      currency: bids.currency,
      createdAt: bids.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
      ratingSum: users.ratingSum,
      totalRatings: users.totalRatings,
      totalTrips: users.totalTrips,
      latitude: users.latitude,
      longitude: users.longitude,
    })
    .from(bids)
    .innerJoin(users, eq(users.id, bids.driverId))
    .where(and(eq(bids.loadId, load.id), eq(bids.status, "pending")))
    .orderBy(bids.amountMinor)
    .limit(5);
  const shown = rows.map((r) => ({
    initials: initials(r.firstName, r.lastName),
    rating: r.totalRatings > 0 ? Math.round((r.ratingSum / r.totalRatings) * 10) / 10 : 0,
    trips: r.totalTrips,
    distance:
      r.latitude != null && r.longitude != null
        ? Math.round(haversineMiles(r.latitude, r.longitude, load.pickupLatitude, load.pickupLongitude))
        : null,
    amount: fromMinor(r.amountMinor, r.currency),
    currency: r.currency,
    isClosest: false,
  }));
  const known = shown.filter((b) => b.distance != null);
  if (known.length) {
    const min = Math.min(...known.map((b) => b.distance!));
    for (const b of known) b.isClosest = b.distance === min;
  }
  const l = toPublicLoad(load);
  return {
    load: {
      title: l.title,
      pickupLocation: l.pickupLocation,
      deliveryLocation: l.deliveryLocation,
      budgetAmount: l.budgetAmount,
      budgetCurrency: l.budgetCurrency,
      equipmentType: l.equipmentType,
    },
    bids: shown,
  };
};
