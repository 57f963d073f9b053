import { desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../../../db/client";
import { fxRates, loads, users } from "../../../../db/schema";
import { toPublicLoad } from "../loads/serialize";

/** Platform figures computed from the database (the landing page shows SPEC's samples only if this call fails). */
export const platformStats = (db: Db) => {
  const loadRow = db
    .select({
      totalLoads: sql<number>`count(*)`,
      completedDeliveries: sql<number>`sum(case when ${loads.status} = 'completed' then 1 else 0 end)`,
    })
    .from(loads)
    .get();
  const driverRow = db
    .select({ activeDrivers: sql<number>`count(*)` })
    .from(users)
    .where(sql`${users.userType} = 'driver' and ${users.isAvailable} = 1`)
    .get();
  const countries = db
    .select({ n: sql<number>`count(*)` })
    .from(sql`(select ${loads.pickupCountry} as c from ${loads} union select ${loads.deliveryCountry} from ${loads})`)
    .get();
  const rating = db
    .select({
      sum: sql<number>`coalesce(sum(${users.ratingSum}), 0)`,
      n: sql<number>`coalesce(sum(${users.totalRatings}), 0)`,
    })
    .from(users)
    .get();
  // Revenue: the value of completed loads, in USD.
  const revenue = db
    .select({ usd: sql<number>`coalesce(sum(${loads.budgetMinor} / 100.0 / ${fxRates.ratePerUsd}), 0)` })
    .from(loads)
    .innerJoin(fxRates, eq(fxRates.currency, loads.budgetCurrency))
    .where(eq(loads.status, "completed"))
    .get();
  return {
    totalLoads: loadRow?.totalLoads ?? 0,
    activeDrivers: driverRow?.activeDrivers ?? 0,
    completedDeliveries: loadRow?.completedDeliveries ?? 0,
    countriesServed: countries?.n ?? 0,
    avgRating: rating && rating.n > 0 ? Math.round((rating.sum / rating.n) * 10) / 10 : 0,
    totalRevenue: Math.round(revenue?.usd ?? 0),
  };
};

/** The newest posted loads, for the landing page's sample board. */
export const latestPostedLoads = (db: Db, limit: number) =>
  db
    .select()
    .from(loads)
    .where(eq(loads.status, "posted"))
    .orderBy(desc(loads.createdAt), desc(loads.id))
    .limit(limit)
    .all()
    .map((l) => toPublicLoad(l));

export const listFxRates = (db: Db) => db.select().from(fxRates).all();
