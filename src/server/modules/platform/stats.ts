import { and, count, desc, eq, notInArray, sql } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { fxRates, loads, users } from "../../../../db/tables";
import { toPublicLoad } from "../loads/serialize";

/** Platform figures computed from the database (the landing page shows its sample figures only if this call fails). */
export const platformStats = async (db: TDb) => {
  const [loadRow] = await db
    .select({
      totalLoads: count(),
      completedDeliveries:
        sql<number>`coalesce(sum(case when ${loads.status} = 'completed' then 1 else 0 end), 0)`.mapWith(Number),
    })
    .from(loads)
    .where(eq(loads.sourceType, "mytess"));
  const [driverRow] = await db
    .select({ activeDrivers: count() })
    .from(users)
    .where(and(eq(users.userType, "driver"), eq(users.isAvailable, true)));
  const [countries] = await db
    .select({ n: count() })
    .from(
      sql`(select ${loads.pickupCountry} as c from ${loads} where ${loads.sourceType} = 'mytess' union select ${loads.deliveryCountry} from ${loads} where ${loads.sourceType} = 'mytess') as countries`,
    );
  const [rating] = await db
    .select({
      sum: sql<number>`coalesce(sum(${users.ratingSum}), 0)`.mapWith(Number),
      n: sql<number>`coalesce(sum(${users.totalRatings}), 0)`.mapWith(Number),
    })
    .from(users);
  // Revenue: the value of completed loads, in USD.
  const [revenue] = await db
    .select({
      usd: sql<number>`coalesce(sum(${loads.budgetMinor} / 100.0 / ${fxRates.ratePerUsd}), 0)`.mapWith(Number),
    })
    .from(loads)
    .innerJoin(fxRates, eq(fxRates.currency, loads.budgetCurrency))
    .where(eq(loads.status, "completed"));
  return {
    totalLoads: loadRow?.totalLoads ?? 0,
    activeDrivers: driverRow?.activeDrivers ?? 0,
    completedDeliveries: loadRow?.completedDeliveries ?? 0,
    countriesServed: countries?.n ?? 0,
    avgRating: rating && rating.n > 0 ? Math.round((rating.sum / rating.n) * 10) / 10 : 0,
    totalRevenue: Math.round(revenue?.usd ?? 0),
  };
};

/**
 * The newest posted loads of the marketplace (no outside board's). With the visitor's `region` (a country code from
 * their language or device), loads picked up in that country come first, newest first, then the newest elsewhere:
 * an Addis visitor is offered an Ethiopian load rather than the last one posted in Europe. Loads are matched by their
 * pickup country code (loads.pickup_country_code, set when posted), so "Ethiopia", "ET" and "ኢትዮጵያ" count alike.
 * The newest posted loads, for the landing page's sample board: anyone may read it, so no user ids.
 */
export const latestPostedLoads = async (db: TDb, limit: number, region?: string | null) => {
  const posted = and(eq(loads.status, "posted"), eq(loads.sourceType, "mytess"));
  const newest = [desc(loads.createdAt), desc(loads.id)];
  const near = region
    ? await db
        .select()
        .from(loads)
        .where(and(posted, eq(loads.pickupCountryCode, region.toUpperCase())))
        .orderBy(...newest)
        .limit(limit)
    : [];
  const elsewhere =
    near.length < limit
      ? await db
          .select()
          .from(loads)
          .where(
            near.length
              ? and(
                  posted,
                  notInArray(
                    loads.id,
                    near.map((l) => l.id),
                  ),
                )
              : posted,
          )
          .orderBy(...newest)
          .limit(limit - near.length)
      : [];
  return [...near, ...elsewhere].map((l) => ({ ...toPublicLoad(l), shipperId: null, assignedDriverId: null }));
};

export const listFxRates = (db: TDb) => db.select().from(fxRates);
