// What a driver sees of a shipper before bidding, and a shipper of a carrier before accepting: the name they deal with
// (the company's when the account acts for one), the rating, loads posted or trips, the Verified badge and how fast the
// shipper's money is released. Answers listing many loads or bids ask once per page: each figure is one query over all
// the page's accounts, never one per row.
import { and, count, eq, inArray, isNotNull, lte, sql } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import {
  companies,
  companyMembers,
  freightPaymentEvents,
  freightPayments,
  loads,
  ratings,
  users,
} from "../../../../db/tables";
import type { TBidCarrier, TBoardShipper } from "../../../shared/schemas/answers/common";
import type { TCompanyProfile } from "../../../shared/schemas/answers/trust";
import type { TVerifiedBadge } from "../../../shared/schemas/answers/verification";
import { AppError } from "../../errors";
import { addisDay, badgesFor } from "../verification/verification";

type TReader = Pick<TDb, "select">;

const HOUR = 60 * 60 * 1000;
/** How fast a shipper pays rests on their newest paid loads, and says nothing until there are a few. */
export const PAY_SPEED_LOADS = 20;
export const PAY_SPEED_MIN_LOADS = 3;

const COMPANY_NOT_FOUND = /*i18n*/ { id: "error.company.notFound", message: "Company not found" };

const ratingOf = (sum: number, n: number) => (n > 0 ? Math.round((sum / n) * 10) / 10 : null);

/** First name and the initial of the last: enough to recognise, not enough to look the person up. */
const shortName = (firstName: string, lastName: string) =>
  [firstName, lastName ? `${lastName.charAt(0)}.` : ""].filter(Boolean).join(" ");

/**
 * A badge shows only while everything it vouches for holds: insurance past its last day takes the whole badge away
 * until a new submission is approved.
 */
const shown = (badge: TVerifiedBadge | undefined) => (badge && !badge.insuranceLapsed ? badge : null);

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/** Each company's owners (the accounts whose badge is the company's), one query for all the companies. */
const ownersOf = async (db: TReader, companyIds: number[]) => {
  const out = new Map<number, number[]>();
  if (!companyIds.length) return out;
  const rows = await db
    .select({ companyId: companyMembers.companyId, userId: companyMembers.userId })
    .from(companyMembers)
    .where(and(inArray(companyMembers.companyId, companyIds), eq(companyMembers.role, "owner")))
    .orderBy(companyMembers.createdAt, companyMembers.userId);
  for (const r of rows) out.set(r.companyId, [...(out.get(r.companyId) ?? []), r.userId]);
  return out;
};

/** The badge of a company: its first owner's that shows. */
const companyBadge = (owners: number[] | undefined, badges: Map<number, TVerifiedBadge>) => {
  for (const id of owners ?? []) {
    const badge = shown(badges.get(id));
    if (badge) return badge;
  }
  return null;
};

/**
 * MyTess loads each account posted, whatever became of them: one grouped count read from the shipper index alone (an
 * outside board's load has no shipper, so no other column needs reading).
 */
const loadsPostedBy = async (db: TReader, shipperIds: number[]) => {
  const out = new Map<number, number>();
  if (!shipperIds.length) return out;
  const rows = await db
    .select({ shipperId: loads.shipperId, n: count() })
    .from(loads)
    .where(inArray(loads.shipperId, shipperIds))
    .groupBy(loads.shipperId);
  for (const r of rows) if (r.shipperId != null) out.set(r.shipperId, Number(r.n));
  return out;
};

/**
 * Median whole hours from a load's delivery to the release of its money, over each shipper's newest
 * PAY_SPEED_LOADS released payments (absent below PAY_SPEED_MIN_LOADS). One query numbers every shipper's released
 * payments newest first and keeps the first PAY_SPEED_LOADS of each.
 */
export const paySpeedOf = async (db: TReader, shipperIds: number[]) => {
  const out = new Map<number, number>();
  if (!shipperIds.length) return out;
  const released = db
    .select({
      shipperId: sql<number>`${freightPayments.shipperId}`.as("shipper_id"),
      deliveredAt: sql<number>`${loads.deliveredAt}`.as("delivered_at"),
      releasedAt: sql<number>`${freightPaymentEvents.createdAt}`.as("released_at"),
      rn: sql<number>`row_number() over (partition by ${freightPayments.shipperId} order by ${freightPaymentEvents.createdAt} desc, ${freightPayments.id} desc)`.as(
        "rn",
      ),
    })
    .from(freightPayments)
    .innerJoin(loads, eq(loads.id, freightPayments.loadId))
    .innerJoin(
      freightPaymentEvents,
      and(eq(freightPaymentEvents.paymentId, freightPayments.id), eq(freightPaymentEvents.state, "released")),
    )
    .where(
      and(
        inArray(freightPayments.shipperId, shipperIds),
        inArray(freightPayments.state, ["released", "paid_out"]),
        isNotNull(loads.deliveredAt),
      ),
    )
    .as("released");
  const rows = await db
    .select({ shipperId: released.shipperId, deliveredAt: released.deliveredAt, releasedAt: released.releasedAt })
    .from(released)
    .where(lte(released.rn, PAY_SPEED_LOADS));
  const hours = new Map<number, number[]>();
  for (const r of rows) {
    const id = Number(r.shipperId);
    hours.set(id, [...(hours.get(id) ?? []), Math.max(0, Number(r.releasedAt) - Number(r.deliveredAt)) / HOUR]);
  }
  for (const [id, xs] of hours) if (xs.length >= PAY_SPEED_MIN_LOADS) out.set(id, Math.round(median(xs)));
  return out;
};

/** Each account with the company it belongs to (if any), in one query. */
const accountsWithCompanies = async (db: TReader, ids: number[]) =>
  ids.length
    ? db
        .select({
          id: users.id,
          firstName: users.firstName,
          lastName: users.lastName,
          ratingSum: users.ratingSum,
          totalRatings: users.totalRatings,
          totalTrips: users.totalTrips,
          companyId: companies.id,
          companyName: companies.name,
          companyKind: companies.kind,
        })
        .from(users)
        .leftJoin(companyMembers, eq(companyMembers.userId, users.id))
        .leftJoin(companies, eq(companies.id, companyMembers.companyId))
        .where(inArray(users.id, ids))
    : [];

/**
 * Who posted each load, as drivers see it (ZBoardShipper). A shipper who belongs to a shipper company posts as it: the
 * company's name and, when the account has none of its own, the company's badge (its owner's). Rating, loads posted
 * and pay speed are the account's: ratings and history are not yet credited to companies.
 */
const readShipperTrust = async (db: TReader, ids: number[], now: number) => {
  const out = new Map<number, TBoardShipper>();
  if (!ids.length) return out;
  const accounts = await accountsWithCompanies(db, ids);
  const companyIds = [...new Set(accounts.filter((a) => a.companyKind === "shipper").map((a) => a.companyId!))];
  const [owners, posted, paySpeed] = await Promise.all([
    ownersOf(db, companyIds),
    loadsPostedBy(db, ids),
    paySpeedOf(db, ids),
  ]);
  const badges = await badgesFor(db, [...ids, ...[...owners.values()].flat()], now);
  for (const a of accounts) {
    const company = a.companyKind === "shipper" ? { id: a.companyId!, name: a.companyName! } : null;
    out.set(a.id, {
      name: company?.name ?? shortName(a.firstName, a.lastName),
      companyId: company?.id ?? null,
      rating: ratingOf(a.ratingSum, a.totalRatings),
      ratings: a.totalRatings,
      loadsPosted: posted.get(a.id) ?? 0,
      verified: shown(badges.get(a.id)) ?? (company ? companyBadge(owners.get(company.id), badges) : null),
      paysInHours: paySpeed.get(a.id) ?? null,
    });
  }
  return out;
};

/**
 * Each board page and load shows its shippers' signals, and they change far less often than they are read: they are
 * kept per database handle for as long as the database's trust version (db.q.trustVersion, bumped by triggers on
 * every write to what they are read from, whichever process writes) and the day in Addis Ababa (a badge lapses by the
 * day) stay the same. The version is read before the signals, so what is kept under a version is at least as new as
 * it. At most TRUST_CACHE_SHIPPERS are kept; reads inside a transaction (a handle without `q`) are never kept.
 */
export const TRUST_CACHE_SHIPPERS = 10_000;

type TTrustCache = { version: number; day: string; entries: Map<number, TBoardShipper> };
const trustCaches = new WeakMap<object, TTrustCache>();

export const shipperTrust = async (db: TReader, shipperIds: (number | null)[], now = Date.now()) => {
  const ids = [...new Set(shipperIds.filter((id): id is number => id != null))];
  const q = (db as Partial<Pick<TDb, "q">>).q;
  if (!ids.length || !q) return readShipperTrust(db, ids, now);
  const version = await q.trustVersion();
  const day = addisDay(now);
  let cache = trustCaches.get(q);
  if (!cache || cache.day !== day || cache.version < version) {
    cache = { version, day, entries: new Map() };
    trustCaches.set(q, cache);
  }
  // A read that began before a newer version was seen here reads afresh and keeps nothing.
  if (cache.version !== version) return readShipperTrust(db, ids, now);
  const entries = cache.entries;
  const missing = ids.filter((id) => !entries.has(id));
  const read = await readShipperTrust(db, missing, now);
  for (const [id, signals] of read) entries.set(id, signals);
  // Oldest first out (a Map keeps insertion order).
  for (const id of entries.keys()) {
    if (entries.size <= TRUST_CACHE_SHIPPERS) break;
    entries.delete(id);
  }
  const out = new Map<number, TBoardShipper>();
  for (const id of ids) {
    const signals = entries.get(id) ?? read.get(id);
    if (signals) out.set(id, signals);
  }
  return out;
};

/**
 * Who stands behind each bid, as the shipper weighs it (ZBidCarrier): the company the bid was made for (an owner's or
 * dispatcher's bid; null for a driver's own) and its badge (the company's owner's, else the bidder's own), the
 * bidder's rating and completed trips. Keyed by bid id.
 */
export const carrierTrust = async (
  db: TReader,
  bidList: { id: number; driverId: number; companyId: number | null }[],
  now = Date.now(),
) => {
  const out = new Map<number, TBidCarrier>();
  if (!bidList.length) return out;
  const companyIds = [...new Set(bidList.map((b) => b.companyId).filter((id): id is number => id != null))];
  const bidderIds = [...new Set(bidList.map((b) => b.driverId))];
  const [accounts, named, owners] = await Promise.all([
    accountsWithCompanies(db, bidderIds),
    companyIds.length
      ? db.select({ id: companies.id, name: companies.name }).from(companies).where(inArray(companies.id, companyIds))
      : [],
    ownersOf(db, companyIds),
  ]);
  const badges = await badgesFor(db, [...bidderIds, ...[...owners.values()].flat()], now);
  const accountOf = new Map(accounts.map((a) => [a.id, a]));
  const nameOf = new Map(named.map((c) => [c.id, c.name]));
  for (const b of bidList) {
    const a = accountOf.get(b.driverId);
    const companyName = b.companyId != null ? (nameOf.get(b.companyId) ?? null) : null;
    out.set(b.id, {
      companyId: companyName != null ? b.companyId : null,
      companyName,
      verified:
        (companyName != null ? companyBadge(owners.get(b.companyId!), badges) : null) ?? shown(badges.get(b.driverId)),
      rating: a ? ratingOf(a.ratingSum, a.totalRatings) : null,
      ratings: a?.totalRatings ?? 0,
      trips: a?.totalTrips ?? 0,
    });
  }
  return out;
};

/**
 * A company's public profile, for anyone: its name, kind, country, badge, and its own history, credited to the
 * company rather than summed over whoever is a member today: a shipper company's loads (`loads.shipper_company_id`,
 * posted by any member at the time) and the ratings its side received on them; a carrier company's trips
 * (`loads.carrier_company_id`, awarded to its bids) and the ratings its drivers received on them. A member who leaves
 * takes nothing away, and one who joins brings no earlier history. Trips are completed loads. Two grouped queries,
 * with how many members it has and since when it exists. 404 for an unknown id.
 */
export const companyProfile = async (db: TReader, id: number, now = Date.now()): Promise<TCompanyProfile> => {
  const [company] = await db.select().from(companies).where(eq(companies.id, id));
  if (!company) throw new AppError("NOT_FOUND", COMPANY_NOT_FOUND);
  const members = await db
    .select({ userId: companyMembers.userId, role: companyMembers.role })
    .from(companyMembers)
    .where(eq(companyMembers.companyId, id))
    .orderBy(companyMembers.createdAt, companyMembers.userId);
  const owners = members.filter((m) => m.role === "owner").map((m) => m.userId);
  const isShipper = company.kind === "shipper";
  const ofCompany = isShipper ? eq(loads.shipperCompanyId, id) : eq(loads.carrierCompanyId, id);
  // The company's side of a rating: the poster rated (a shipper company), or the trip's driver (a carrier company).
  const ratee = isShipper ? loads.shipperId : loads.assignedDriverId;
  const [badges, [history], [rated]] = await Promise.all([
    badgesFor(db, owners, now),
    db
      .select({
        posted: count(),
        completed: sql<number>`coalesce(sum(case when ${loads.status} = 'completed' then 1 else 0 end), 0)`.mapWith(
          Number,
        ),
      })
      .from(loads)
      .where(and(ofCompany, eq(loads.sourceType, "mytess"))),
    db
      .select({ n: count(), sum: sql<number>`coalesce(sum(${ratings.score}), 0)`.mapWith(Number) })
      .from(ratings)
      .innerJoin(loads, eq(loads.id, ratings.loadId))
      .where(and(ofCompany, eq(ratings.rateeId, ratee))),
  ]);
  const n = Number(rated?.n ?? 0);
  return {
    id: company.id,
    name: company.name,
    kind: company.kind,
    country: company.country,
    verified: companyBadge(owners, badges),
    rating: ratingOf(rated?.sum ?? 0, n),
    ratings: n,
    trips: history?.completed ?? 0,
    loadsPosted: isShipper ? Number(history?.posted ?? 0) : 0,
    members: members.length,
    since: new Date(company.createdAt).toISOString(),
  };
};
