import { and, count, desc, eq, sql } from "drizzle-orm";
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

/** The newest posted loads, for the landing page's sample board: anyone may read it, so no user ids. */
export const latestPostedLoads = async (db: TDb, limit: number) =>
  (
    await db
      .select()
      .from(loads)
      .where(and(eq(loads.status, "posted"), eq(loads.sourceType, "mytess")))
      .orderBy(desc(loads.createdAt), desc(loads.id))
      .limit(limit)
  ).map((l) => ({ ...toPublicLoad(l), shipperId: null, assignedDriverId: null }));

export const listFxRates = (db: TDb) => db.select().from(fxRates);
