import { and, count, desc, eq, gte, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import { bids, type Load, loads, ratings, type User, users } from "../../../../db/tables";
import { fromMinor } from "../../../shared/money";
import { toPublicUser } from "../accounts/public-user";
import { pendingBidCount } from "../bids/bids";
import { biddingCompanyOf, postingCompanyOf } from "../companies/work";
import { toPublicLoad } from "../loads/serialize";
import { unreadByLoad } from "../messages/messages";
import { listActivity } from "../platform/activity";
import { fromUsd, loadRates, toUsd } from "../platform/fx";
import { lastPositions } from "../trips/trip";

const round2 = (n: number) => Math.round(n * 100) / 100;
const monthStart = (now: number) => {
  const d = new Date(now);
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
};

/** Driver figures: rating, trips, this month's earnings from completed loads (in the driver's currency), active bids. */
export const driverStats = async (db: TDb, driver: User, now = Date.now()) => {
  const rates = await loadRates(db);
  const earned = await db
    .select({ amountMinor: loads.agreedAmountMinor, currency: loads.agreedCurrency })
    .from(loads)
    .where(
      and(
        isNotNull(loads.agreedAmountMinor),
        eq(loads.assignedDriverId, driver.id),
        eq(loads.status, "completed"),
        gte(loads.completedAt, monthStart(now)),
      ),
    );
  // The agreed amount (an accepted counter-offer's, or the accepted bid's) is what the trip pays.
  const usd = earned.reduce(
    (s, e) => s + toUsd(rates, fromMinor(e.amountMinor ?? 0, e.currency ?? "USD"), e.currency ?? "USD"),
    0,
  );
  const u = toPublicUser(driver);
  return {
    rating: u.rating,
    totalRatings: u.totalRatings,
    totalTrips: u.totalTrips,
    monthlyEarnings: { amount: round2(fromUsd(rates, usd, driver.currency)), currency: driver.currency },
    activeBids: await pendingBidCount(db, driver.id),
    location:
      driver.latitude != null && driver.longitude != null
        ? {
            latitude: driver.latitude,
            longitude: driver.longitude,
            updatedAt: driver.locationUpdatedAt ? new Date(driver.locationUpdatedAt).toISOString() : null,
          }
        : null,
    isAvailable: driver.isAvailable,
  };
};

/** The loads assigned to a driver that are not finished, with what the driver must do next. */
export const driverTrips = async (db: TDb, driver: User) => {
  // An owner or dispatcher of a carrier also follows the company's trips, whichever of its drivers runs them.
  const companyId = await biddingCompanyOf(db, driver);
  const rows = await db
    .select()
    .from(loads)
    .where(
      and(
        companyId === null
          ? eq(loads.assignedDriverId, driver.id)
          : or(eq(loads.assignedDriverId, driver.id), eq(loads.carrierCompanyId, companyId)),
        inArray(loads.status, ["assigned", "in_transit", "delivered", "disputed", "completed"]),
      ),
    )
    .orderBy(desc(loads.updatedAt))
    .limit(50);
  const rated = new Set(
    rows.length
      ? (
          await db
            .select({ loadId: ratings.loadId })
            .from(ratings)
            .where(
              and(
                eq(ratings.raterId, driver.id),
                inArray(
                  ratings.loadId,
                  rows.map((r) => r.id),
                ),
              ),
            )
        ).map((r) => r.loadId)
      : [],
  );
  return rows.map((l) => ({ ...toPublicLoad(l), hasRated: rated.has(l.id) }));
};

/** Which of a shipper's loads a list shows: all they manage (default), only the ones they posted, or the company's. */
export const SHIPPER_LOAD_SCOPES = ["all", "mine", "company"] as const;
export type TShipperLoadScope = (typeof SHIPPER_LOAD_SCOPES)[number];

/**
 * The loads a shipper manages: the ones they posted and, when they belong to a shipper company, the company's (its
 * owners' and staff's, `loads.shipper_company_id`). "mine" keeps their own; "company" the company's (none outside one).
 */
const shipperLoadsWhere = async (db: TDb, shipper: User, scope: TShipperLoadScope = "all") => {
  const companyId = await postingCompanyOf(db, shipper);
  if (scope === "mine" || companyId == null) return scope === "company" ? sql`1 = 0` : eq(loads.shipperId, shipper.id);
  if (scope === "company") return eq(loads.shipperCompanyId, companyId);
  return or(eq(loads.shipperId, shipper.id), eq(loads.shipperCompanyId, companyId))!;
};

/**
 * Shipper figures over the loads they manage (their own and their company's): active loads (not completed or
 * cancelled), bids received, average savings, completed.
 */
export const shipperStats = async (db: TDb, shipper: User) => {
  const rates = await loadRates(db);
  const managed = await shipperLoadsWhere(db, shipper);
  const [counts] = await db
    .select({
      active:
        sql<number>`coalesce(sum(case when ${loads.status} not in ('completed', 'cancelled') then 1 else 0 end), 0)`.mapWith(
          Number,
        ),
      completed: sql<number>`coalesce(sum(case when ${loads.status} = 'completed' then 1 else 0 end), 0)`.mapWith(
        Number,
      ),
    })
    .from(loads)
    .where(managed);
  const totalBids =
    (
      await db
        .select({ n: count() })
        .from(bids)
        .innerJoin(loads, eq(loads.id, bids.loadId))
        .where(and(managed, ne(bids.status, "withdrawn")))
    )[0]?.n ?? 0;
  const awarded = await db
    .select({
      budgetMinor: loads.budgetMinor,
      budgetCurrency: loads.budgetCurrency,
      amountMinor: loads.agreedAmountMinor,
      currency: loads.agreedCurrency,
    })
    .from(loads)
    .where(and(managed, isNotNull(loads.agreedAmountMinor)));
  const savings = awarded.map((a) => {
    const budget = toUsd(rates, fromMinor(a.budgetMinor, a.budgetCurrency), a.budgetCurrency);
    const paid = toUsd(rates, fromMinor(a.amountMinor ?? 0, a.currency ?? "USD"), a.currency ?? "USD");
    return budget > 0 ? (budget - paid) / budget : 0;
  });
  return {
    active: counts?.active ?? 0,
    totalBids,
    avgSavings: savings.length ? Math.round((savings.reduce((s, x) => s + x, 0) / savings.length) * 1000) / 1000 : null,
    awardedLoads: savings.length,
    completed: counts?.completed ?? 0,
  };
};

/** A shipper's loads, newest first, with bid counts, unread messages, the driver and the last position. */
export type TMyLoadsQuery = {
  status?: Load["status"];
  q?: string;
  page?: number;
  pageSize?: number;
  scope?: TShipperLoadScope;
};

/** A shipper's loads, newest first: one page, optionally of one status or matching a search in title or places. */
export const shipperLoadsPage = async (db: TDb, shipper: User, p: TMyLoadsQuery = {}) => {
  const page = p.page ?? 1;
  const pageSize = p.pageSize ?? 20;
  // Case-insensitive on both engines (PostgreSQL's LIKE minds case, SQLite's does not): lower() on both sides.
  const like = p.q?.trim() ? `%${p.q.trim().replace(/[%_]/g, "").toLowerCase()}%` : null;
  const where = and(
    await shipperLoadsWhere(db, shipper, p.scope),
    p.status ? eq(loads.status, p.status) : undefined,
    like
      ? or(
          ...[loads.title, loads.pickupCity, loads.deliveryCity, loads.pickupCountry, loads.deliveryCountry].map(
            (column) => sql`lower(${column}) LIKE ${like}`,
          ),
        )
      : undefined,
  );
  const total = first(await db.select({ n: count() }).from(loads).where(where))?.n ?? 0;
  const rows = await db
    .select()
    .from(loads)
    .where(where)
    .orderBy(desc(loads.createdAt), desc(loads.id))
    .limit(pageSize)
    .offset((page - 1) * pageSize);
  return {
    items: await withShipperDetails(db, shipper, rows),
    page,
    pageSize,
    total,
    hasMore: page * pageSize < total,
  };
};

/** GET /api/loads/shipper: the latest 200 loads the shipper manages (theirs and their company's). */
export const shipperLoads = async (db: TDb, shipper: User) =>
  withShipperDetails(
    db,
    shipper,
    await db
      .select()
      .from(loads)
      .where(await shipperLoadsWhere(db, shipper))
      .orderBy(desc(loads.createdAt), desc(loads.id))
      .limit(200),
  );

/**
 * Bids waiting (how many, and the lowest in US dollars, as the bid's own amount and currency), the agreed price after
 * the award, unread messages, the driver, the last position and whether the shipper rated, for each load.
 */
const withShipperDetails = async (db: TDb, shipper: User, rows: Load[]) => {
  const ids = rows.map((r) => r.id);
  const pending = ids.length
    ? await db
        .select({ loadId: bids.loadId, amountMinor: bids.amountMinor, currency: bids.currency })
        .from(bids)
        .where(and(inArray(bids.loadId, ids), eq(bids.status, "pending")))
    : [];
  const rates = pending.length ? await loadRates(db) : null;
  const bidCounts = new Map<number, number>();
  const best = new Map<number, { amount: number; currency: string; usd: number }>();
  for (const b of pending) {
    bidCounts.set(b.loadId, (bidCounts.get(b.loadId) ?? 0) + 1);
    const amount = fromMinor(b.amountMinor, b.currency);
    const usd = toUsd(rates!, amount, b.currency);
    const was = best.get(b.loadId);
    if (!was || usd < was.usd) best.set(b.loadId, { amount, currency: b.currency, usd });
  }
  const bestOf = (loadId: number) => {
    const b = best.get(loadId);
    return b ? { amount: b.amount, currency: b.currency } : null;
  };
  // After the award the price is the agreed one the award stored on the load (the accepted bid's or an accepted
  // counter-offer's), in its own currency; pending bids are gone with the award.
  const agreedOf = (l: (typeof rows)[number]) =>
    l.agreedAmountMinor != null && l.agreedCurrency
      ? { amount: fromMinor(Number(l.agreedAmountMinor), l.agreedCurrency), currency: l.agreedCurrency }
      : null;
  const unread = await unreadByLoad(db, shipper, ids, await postingCompanyOf(db, shipper));
  const positions = await lastPositions(
    db,
    rows.filter((l) => l.status === "in_transit" || l.status === "delivered").map((l) => l.id),
  );
  // Drivers and, for a company's loads, who posted each: one read of the names.
  const driverIds = [
    ...new Set(rows.flatMap((r) => [r.assignedDriverId, r.shipperId]).filter((d): d is number => d != null)),
  ];
  const drivers = new Map(
    driverIds.length
      ? (
          await db
            .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(inArray(users.id, driverIds))
        ).map((d) => [d.id, `${d.firstName} ${d.lastName}`.trim()])
      : [],
  );
  // The shipper's side rated: the poster or any member of the company (one rating per side, trips/trip.ts).
  const rated = new Set(
    ids.length
      ? (
          await db
            .select({ loadId: ratings.loadId, rateeId: ratings.rateeId })
            .from(ratings)
            .where(inArray(ratings.loadId, ids))
        )
          .filter((r) => rows.some((l) => l.id === r.loadId && l.shipperId !== r.rateeId))
          .map((r) => r.loadId)
      : [],
  );
  return rows.map((l) => ({
    ...toPublicLoad(l),
    pendingBids: bidCounts.get(l.id) ?? 0,
    bestBid: bestOf(l.id),
    agreedPrice: agreedOf(l),
    unreadMessages: unread.get(l.id) ?? 0,
    assignedDriverName: l.assignedDriverId ? (drivers.get(l.assignedDriverId) ?? null) : null,
    lastPosition: positions.get(l.id) ?? null,
    cancelReason: l.cancelReason,
    hasRated: rated.has(l.id),
    postedBy:
      l.shipperId == null
        ? null
        : { id: l.shipperId, name: drivers.get(l.shipperId) ?? null, isMe: l.shipperId === shipper.id },
  }));
};

/** The home dashboard: the user's own figures and their recent activity. */
export const homeSummary = async (db: TDb, user: User) => ({
  userType: user.userType,
  driver: user.userType === "driver" ? await driverStats(db, user) : null,
  shipper: user.userType === "shipper" ? await shipperStats(db, user) : null,
  activity: await listActivity(db, user.id, 15),
});
