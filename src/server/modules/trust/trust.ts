// What a driver sees of a shipper before bidding, and a shipper of a carrier before accepting: the company a load was
// posted for or a bid made for, with the company's own figures (the same as its public profile), else the person; the
// rating, loads posted or trips, the Verified badge and how fast the shipper's money is released. Answers listing many loads or bids ask once per page: each figure is one query over all
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

/** How many of the grouped loads completed. */
const COMPLETED = sql<number>`coalesce(sum(case when ${loads.status} = 'completed' then 1 else 0 end), 0)`.mapWith(
  Number,
);

/**
 * MyTess loads each account posted, whatever became of them, and how many of them completed: one grouped count read
 * from the shipper index (an outside board's load has no shipper).
 */
const loadsPostedBy = async (db: TReader, shipperIds: number[]) => {
  const out = new Map<number, { posted: number; completed: number }>();
  if (!shipperIds.length) return out;
  const rows = await db
    .select({ shipperId: loads.shipperId, n: count(), completed: COMPLETED })
    .from(loads)
    .where(inArray(loads.shipperId, shipperIds))
    .groupBy(loads.shipperId);
  for (const r of rows) if (r.shipperId != null) out.set(r.shipperId, { posted: Number(r.n), completed: r.completed });
  return out;
};

/**
 * Median whole hours from a load's delivery to the release of its money, over the newest PAY_SPEED_LOADS released
 * payments of each payer (absent below PAY_SPEED_MIN_LOADS): per account (`freight_payments.shipper_id`, the poster's)
 * or per shipper company (its loads' payments, `loads.shipper_company_id`, whichever member posted). One query numbers
 * every payer's released payments newest first and keeps the first PAY_SPEED_LOADS of each.
 */
const paySpeedBy = async (db: TReader, by: "account" | "company", ids: number[]) => {
  const out = new Map<number, number>();
  if (!ids.length) return out;
  const payer = by === "account" ? freightPayments.shipperId : loads.shipperCompanyId;
  const released = db
    .select({
      payerId: sql<number>`${payer}`.as("payer_id"),
      deliveredAt: sql<number>`${loads.deliveredAt}`.as("delivered_at"),
      releasedAt: sql<number>`${freightPaymentEvents.createdAt}`.as("released_at"),
      rn: sql<number>`row_number() over (partition by ${payer} order by ${freightPaymentEvents.createdAt} desc, ${freightPayments.id} desc)`.as(
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
      and(inArray(payer, ids), inArray(freightPayments.state, ["released", "paid_out"]), isNotNull(loads.deliveredAt)),
    )
    .as("released");
  const rows = await db
    .select({ payerId: released.payerId, deliveredAt: released.deliveredAt, releasedAt: released.releasedAt })
    .from(released)
    .where(lte(released.rn, PAY_SPEED_LOADS));
  const hours = new Map<number, number[]>();
  for (const r of rows) {
    const id = Number(r.payerId);
    hours.set(id, [...(hours.get(id) ?? []), Math.max(0, Number(r.releasedAt) - Number(r.deliveredAt)) / HOUR]);
  }
  for (const [id, xs] of hours) if (xs.length >= PAY_SPEED_MIN_LOADS) out.set(id, Math.round(median(xs)));
  return out;
};

/** Each account's pay speed (its own payments as the poster). */
export const paySpeedOf = (db: TReader, shipperIds: number[]) => paySpeedBy(db, "account", shipperIds);

type TCompanyFigures = {
  company: typeof companies.$inferSelect;
  owners: number[];
  verified: TVerifiedBadge | null;
  rating: number | null;
  ratings: number;
  /** Completed loads: a shipper company's own, a carrier company's trips. */
  completed: number;
  /** A shipper company's loads posted (0 for a carrier). */
  loadsPosted: number;
  /** A shipper company's pay speed (null for a carrier, and below PAY_SPEED_MIN_LOADS). */
  paysInHours: number | null;
};

/**
 * Each company's figures, credited to the company rather than summed over whoever is a member today: a shipper
 * company's MyTess loads (`loads.shipper_company_id`, posted by any member at the time), how many completed, the
 * ratings its side (the poster) received on them and its pay speed; a carrier company's trips (`loads.
 * carrier_company_id`, awarded to its bids), completed, and the ratings its drivers received on them. The badge is
 * the company's (its first owner's that shows). A member who leaves takes nothing away, and one who joins brings no
 * earlier history. A fixed number of queries for any number of companies; the profile, the board and the bids all
 * read it, so they show the same figures.
 */
export const companyFigures = async (db: TReader, companyIds: number[], now = Date.now()) => {
  const out = new Map<number, TCompanyFigures>();
  if (!companyIds.length) return out;
  const rows = await db.select().from(companies).where(inArray(companies.id, companyIds));
  const shipperIds = rows.filter((c) => c.kind === "shipper").map((c) => c.id);
  const carrierIds = rows.filter((c) => c.kind !== "shipper").map((c) => c.id);
  const history = async (ids: number[], isShipper: boolean) => {
    if (!ids.length) return { loads: [], rated: [] };
    const by = isShipper ? loads.shipperCompanyId : loads.carrierCompanyId;
    // The company's side of a rating: the poster rated (a shipper company), or the trip's driver (a carrier company).
    const ratee = isShipper ? loads.shipperId : loads.assignedDriverId;
    const [posted, rated] = await Promise.all([
      db
        .select({ id: by, posted: count(), completed: COMPLETED })
        .from(loads)
        .where(and(inArray(by, ids), eq(loads.sourceType, "mytess")))
        .groupBy(by),
      db
        .select({ id: by, n: count(), sum: sql<number>`coalesce(sum(${ratings.score}), 0)`.mapWith(Number) })
        .from(ratings)
        .innerJoin(loads, eq(loads.id, ratings.loadId))
        .where(and(inArray(by, ids), eq(ratings.rateeId, ratee)))
        .groupBy(by),
    ]);
    return { loads: posted, rated };
  };
  const [owners, ofShippers, ofCarriers, paySpeed] = await Promise.all([
    ownersOf(db, companyIds),
    history(shipperIds, true),
    history(carrierIds, false),
    paySpeedBy(db, "company", shipperIds),
  ]);
  const badges = await badgesFor(db, [...owners.values()].flat(), now);
  const loadsOf = new Map([...ofShippers.loads, ...ofCarriers.loads].map((r) => [Number(r.id), r]));
  const ratedOf = new Map([...ofShippers.rated, ...ofCarriers.rated].map((r) => [Number(r.id), r]));
  for (const company of rows) {
    const l = loadsOf.get(company.id);
    const r = ratedOf.get(company.id);
    const n = Number(r?.n ?? 0);
    out.set(company.id, {
      company,
      owners: owners.get(company.id) ?? [],
      verified: companyBadge(owners.get(company.id), badges),
      rating: ratingOf(r?.sum ?? 0, n),
      ratings: n,
      completed: l?.completed ?? 0,
      loadsPosted: company.kind === "shipper" ? Number(l?.posted ?? 0) : 0,
      paysInHours: paySpeed.get(company.id) ?? null,
    });
  }
  return out;
};

/** Whose signals a MyTess load shows: the shipper company it was posted for, else the account that posted it. */
export type TPoster = { shipperId: number | null; shipperCompanyId: number | null };
const posterKey = (p: TPoster) =>
  p.shipperCompanyId != null ? `c${p.shipperCompanyId}` : p.shipperId != null ? `u${p.shipperId}` : null;

/**
 * Who posted each load, as drivers see it (ZBoardShipper), keyed by posterKey. A load posted for a shipper company
 * shows the company with the figures of its public profile (companyFigures); a load posted alone shows the person:
 * first name and last initial, the account's rating, loads posted and completed, own badge and pay speed.
 */
const readShipperTrust = async (db: TReader, keys: string[], now: number) => {
  const out = new Map<string, TBoardShipper>();
  if (!keys.length) return out;
  const ids = keys.filter((k) => k.startsWith("u")).map((k) => Number(k.slice(1)));
  const companyIds = keys.filter((k) => k.startsWith("c")).map((k) => Number(k.slice(1)));
  const [accounts, posted, paySpeed, badges, figures] = await Promise.all([
    ids.length
      ? db
          .select({
            id: users.id,
            firstName: users.firstName,
            lastName: users.lastName,
            ratingSum: users.ratingSum,
            totalRatings: users.totalRatings,
          })
          .from(users)
          .where(inArray(users.id, ids))
      : [],
    loadsPostedBy(db, ids),
    paySpeedOf(db, ids),
    badgesFor(db, ids, now),
    companyFigures(db, companyIds, now),
  ]);
  for (const a of accounts) {
    out.set(`u${a.id}`, {
      kind: "person",
      name: shortName(a.firstName, a.lastName),
      companyId: null,
      rating: ratingOf(a.ratingSum, a.totalRatings),
      ratings: a.totalRatings,
      loadsPosted: posted.get(a.id)?.posted ?? 0,
      completed: posted.get(a.id)?.completed ?? 0,
      verified: shown(badges.get(a.id)),
      paysInHours: paySpeed.get(a.id) ?? null,
    });
  }
  for (const [id, f] of figures) {
    out.set(`c${id}`, {
      kind: "company",
      name: f.company.name,
      companyId: id,
      rating: f.rating,
      ratings: f.ratings,
      loadsPosted: f.loadsPosted,
      completed: f.completed,
      verified: f.verified,
      paysInHours: f.paysInHours,
    });
  }
  return out;
};

/**
 * Each board page and load shows its shippers' signals, and they change far less often than they are read: they are
 * kept per database handle, per poster (a company or an account), for as long as the database's trust version
 * (db.q.trustVersion, bumped by triggers on every write to what they are read from, whichever process writes) and the
 * day in Addis Ababa (a badge lapses by the day) stay the same. The version is read before the signals, so what is
 * kept under a version is at least as new as it. At most TRUST_CACHE_SHIPPERS are kept; reads inside a transaction
 * (a handle without `q`) are never kept.
 */
export const TRUST_CACHE_SHIPPERS = 10_000;

type TTrustCache = { version: number; day: string; entries: Map<string, TBoardShipper> };
const trustCaches = new WeakMap<object, TTrustCache>();

const keptShipperTrust = async (db: TReader, ids: string[], now: number) => {
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
  const out = new Map<string, TBoardShipper>();
  for (const id of ids) {
    const signals = entries.get(id) ?? read.get(id);
    if (signals) out.set(id, signals);
  }
  return out;
};

/**
 * The shipper's signals of each MyTess load of a page, read once for the page: answers the signals of any of them
 * (null for a load with no poster).
 */
export const shipperTrust = async (db: TReader, posters: TPoster[], now = Date.now()) => {
  const keys = [...new Set(posters.map(posterKey).filter((k): k is string => k != null))];
  const signals = await keptShipperTrust(db, keys, now);
  return (p: TPoster) => {
    const key = posterKey(p);
    return key == null ? null : (signals.get(key) ?? null);
  };
};

/**
 * Who stands behind each bid, as the shipper weighs it (ZBidCarrier), keyed by bid id: a bid made for a carrier
 * company (an owner's or dispatcher's) shows the company with the figures of its profile (companyFigures: rating,
 * completed trips, badge); a driver's own bid (or one whose company is gone) the driver's own badge, rating and trips.
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
  const [accounts, figures, badges] = await Promise.all([
    db
      .select({
        id: users.id,
        ratingSum: users.ratingSum,
        totalRatings: users.totalRatings,
        totalTrips: users.totalTrips,
      })
      .from(users)
      .where(inArray(users.id, bidderIds)),
    companyFigures(db, companyIds, now),
    badgesFor(db, bidderIds, now),
  ]);
  const accountOf = new Map(accounts.map((a) => [a.id, a]));
  for (const b of bidList) {
    const f = b.companyId != null ? figures.get(b.companyId) : undefined;
    if (f) {
      out.set(b.id, {
        kind: "company",
        companyId: f.company.id,
        companyName: f.company.name,
        verified: f.verified,
        rating: f.rating,
        ratings: f.ratings,
        trips: f.completed,
      });
      continue;
    }
    const a = accountOf.get(b.driverId);
    out.set(b.id, {
      kind: "person",
      companyId: null,
      companyName: null,
      verified: shown(badges.get(b.driverId)),
      rating: a ? ratingOf(a.ratingSum, a.totalRatings) : null,
      ratings: a?.totalRatings ?? 0,
      trips: a?.totalTrips ?? 0,
    });
  }
  return out;
};

/**
 * A company's public profile, for anyone: its name, kind, country, badge, and its own history (companyFigures: the
 * same figures its loads on the board and its bids show), with how many members it has and since when it exists. 404
 * for an unknown id.
 */
export const companyProfile = async (db: TReader, id: number, now = Date.now()): Promise<TCompanyProfile> => {
  const [f, [members]] = await Promise.all([
    companyFigures(db, [id], now),
    db.select({ n: count() }).from(companyMembers).where(eq(companyMembers.companyId, id)),
  ]);
  const figures = f.get(id);
  if (!figures) throw new AppError("NOT_FOUND", COMPANY_NOT_FOUND);
  const { company } = figures;
  return {
    id: company.id,
    name: company.name,
    kind: company.kind,
    country: company.country,
    verified: figures.verified,
    rating: figures.rating,
    ratings: figures.ratings,
    trips: figures.completed,
    loadsPosted: figures.loadsPosted,
    paysInHours: figures.paysInHours,
    members: Number(members?.n ?? 0),
    since: new Date(company.createdAt).toISOString(),
  };
};
