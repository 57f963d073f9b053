import { and, desc, eq, inArray, ne, sql } from "drizzle-orm";
import type { Db } from "../../../../db/client";
import { type Bid, bids, type Load, loads, type User, users } from "../../../../db/schema";
import { haversineMiles } from "../../../shared/geo";
import { fromMinor, toMinor } from "../../../shared/money";
import type { TPlaceBidInput } from "../../../shared/schemas/loads";
import { AppError } from "../../errors";
import { recordActivity } from "../activity/activity";
import { fromUsd, loadRates, toUsd } from "../fx";
import { findLoad } from "../loads/loads";
import { toPublicLoad } from "../loads/serialize";

const toPublicBid = (b: Bid) => ({
  id: b.id,
  loadId: b.loadId,
  driverId: b.driverId,
  amount: fromMinor(b.amountMinor, b.currency),
  currency: b.currency,
  proposedPickupDate: b.proposedPickupDate ? new Date(b.proposedPickupDate).toISOString() : null,
  notes: b.notes,
  status: b.status,
  createdAt: new Date(b.createdAt).toISOString(),
  updatedAt: new Date(b.updatedAt).toISOString(),
});
export type TPublicBid = ReturnType<typeof toPublicBid>;

/** A driver's bid on a posted load; a second bid on the same load replaces the pending one. */
export const placeBid = (db: Db, driver: User, loadId: number, input: TPlaceBidInput, now = Date.now()) =>
  db.transaction(
    (tx) => {
      const load = tx.select().from(loads).where(eq(loads.id, loadId)).get();
      if (!load) throw new AppError("NOT_FOUND", "Load not found");
      if (load.status !== "posted") {
        throw new AppError("CONFLICT", `Bids are taken only on posted loads; this load is ${load.status}`);
      }
      const values = {
        amountMinor: toMinor(input.amount, input.currency),
        currency: input.currency,
        proposedPickupDate: input.proposedPickupDate ?? null,
        notes: input.notes,
        updatedAt: now,
      };
      const pending = tx
        .select()
        .from(bids)
        .where(and(eq(bids.loadId, loadId), eq(bids.driverId, driver.id), eq(bids.status, "pending")))
        .get();
      const bid = pending
        ? tx.update(bids).set(values).where(eq(bids.id, pending.id)).returning().get()
        : tx
            .insert(bids)
            .values({ ...values, loadId, driverId: driver.id, status: "pending", createdAt: now })
            .returning()
            .get();
      recordActivity(tx, [driver.id], "bid_placed", loadId, driver.id, now);
      recordActivity(tx, [load.shipperId], "bid_received", loadId, driver.id, now);
      return { bid: toPublicBid(bid), replaced: Boolean(pending) };
    },
    { behavior: "immediate" },
  );

/** A driver's own bids, newest first, each with its load. */
export const listDriverBids = (db: Db, driver: User) =>
  db
    .select({ bid: bids, load: loads })
    .from(bids)
    .innerJoin(loads, eq(loads.id, bids.loadId))
    .where(eq(bids.driverId, driver.id))
    .orderBy(desc(bids.updatedAt), desc(bids.id))
    .all()
    .map(({ bid, load }) => ({ ...toPublicBid(bid), load: toPublicLoad(load) }));

const initialsOf = (u: Pick<User, "firstName" | "lastName">) =>
  `${u.firstName.charAt(0)}${u.lastName.charAt(0)}`.toUpperCase();

/** The bids on a shipper's load, with who bid, how far they are from the pickup, and amounts in the viewer's currency. */
export const listLoadBids = (db: Db, shipper: User, loadId: number) => {
  const load = findLoad(db, loadId);
  if (!load || load.shipperId !== shipper.id) throw new AppError("NOT_FOUND", "Load not found");
  const rates = loadRates(db);
  const rows = db
    .select({ bid: bids, driver: users })
    .from(bids)
    .innerJoin(users, eq(users.id, bids.driverId))
    .where(and(eq(bids.loadId, loadId), ne(bids.status, "withdrawn")))
    .orderBy(bids.amountMinor)
    .all();
  const withDistance = rows.map(({ bid, driver }) => {
    const distance =
      driver.latitude != null && driver.longitude != null
        ? Math.round(
            haversineMiles(driver.latitude, driver.longitude, load.pickupLatitude, load.pickupLongitude) * 10,
          ) / 10
        : null;
    const amount = fromMinor(bid.amountMinor, bid.currency);
    return {
      ...toPublicBid(bid),
      driverName: `${driver.firstName} ${driver.lastName}`.trim(),
      initials: initialsOf(driver),
      rating: driver.totalRatings > 0 ? Math.round((driver.ratingSum / driver.totalRatings) * 10) / 10 : 0,
      totalRatings: driver.totalRatings,
      trips: driver.totalTrips,
      distance,
      amountInViewerCurrency:
        Math.round(fromUsd(rates, toUsd(rates, amount, bid.currency), shipper.currency) * 100) / 100,
      viewerCurrency: shipper.currency,
      isClosest: false,
    };
  });
  const known = withDistance.filter((b) => b.distance != null && b.status === "pending");
  if (known.length) {
    const min = Math.min(...known.map((b) => b.distance!));
    for (const b of known) if (b.distance === min) b.isClosest = true;
  }
  return withDistance;
};

const ownedBidAndLoad = (tx: Pick<Db, "select">, bidId: number) => {
  const row = tx
    .select({ bid: bids, load: loads })
    .from(bids)
    .innerJoin(loads, eq(loads.id, bids.loadId))
    .where(eq(bids.id, bidId))
    .get();
  if (!row) throw new AppError("NOT_FOUND", "Bid not found");
  return row;
};

/**
 * Awards the load to the bid's driver: the load becomes assigned and every other pending bid rejected, all at once.
 * The conditional update on the load's status makes a second, concurrent accept fail instead of awarding twice.
 */
export const acceptBid = (db: Db, shipper: User, bidId: number, now = Date.now()) =>
  db.transaction(
    (tx) => {
      const { bid, load } = ownedBidAndLoad(tx, bidId);
      if (load.shipperId !== shipper.id) throw new AppError("NOT_FOUND", "Bid not found");
      if (bid.status !== "pending")
        throw new AppError("CONFLICT", `This bid is ${bid.status}; only a pending bid can be accepted`);
      const awarded = tx
        .update(loads)
        .set({ status: "assigned", assignedDriverId: bid.driverId, acceptedBidId: bid.id, updatedAt: now })
        .where(and(eq(loads.id, load.id), eq(loads.status, "posted")))
        .returning({ id: loads.id })
        .get();
      if (!awarded) {
        throw new AppError(
          "CONFLICT",
          `The load is ${load.status === "posted" ? "already awarded" : load.status}; it must be posted to accept a bid`,
        );
      }
      tx.update(bids).set({ status: "accepted", updatedAt: now }).where(eq(bids.id, bid.id)).run();
      const others = tx
        .select({ id: bids.id, driverId: bids.driverId })
        .from(bids)
        .where(and(eq(bids.loadId, load.id), eq(bids.status, "pending"), ne(bids.id, bid.id)))
        .all();
      if (others.length) {
        tx.update(bids)
          .set({ status: "rejected", updatedAt: now })
          .where(
            inArray(
              bids.id,
              others.map((o) => o.id),
            ),
          )
          .run();
      }
      recordActivity(tx, [bid.driverId, shipper.id], "bid_accepted", load.id, shipper.id, now);
      recordActivity(
        tx,
        others.map((o) => o.driverId),
        "bid_rejected",
        load.id,
        shipper.id,
        now,
      );
      return {
        bidId: bid.id,
        loadId: load.id,
        status: "assigned" as const,
        assignedDriverId: bid.driverId,
        rejected: others.length,
      };
    },
    { behavior: "immediate" },
  );

export const rejectBid = (db: Db, shipper: User, bidId: number, now = Date.now()) =>
  db.transaction(
    (tx) => {
      const { bid, load } = ownedBidAndLoad(tx, bidId);
      if (load.shipperId !== shipper.id) throw new AppError("NOT_FOUND", "Bid not found");
      if (bid.status !== "pending")
        throw new AppError("CONFLICT", `This bid is ${bid.status}; only a pending bid can be rejected`);
      tx.update(bids).set({ status: "rejected", updatedAt: now }).where(eq(bids.id, bid.id)).run();
      recordActivity(tx, [bid.driverId], "bid_rejected", load.id, shipper.id, now);
      return { bidId: bid.id, status: "rejected" as const };
    },
    { behavior: "immediate" },
  );

export const withdrawBid = (db: Db, driver: User, bidId: number, now = Date.now()) =>
  db.transaction(
    (tx) => {
      const { bid, load } = ownedBidAndLoad(tx, bidId);
      if (bid.driverId !== driver.id) throw new AppError("NOT_FOUND", "Bid not found");
      if (bid.status !== "pending")
        throw new AppError("CONFLICT", `This bid is ${bid.status}; only a pending bid can be withdrawn`);
      tx.update(bids).set({ status: "withdrawn", updatedAt: now }).where(eq(bids.id, bid.id)).run();
      recordActivity(tx, [load.shipperId], "bid_withdrawn", load.id, driver.id, now);
      return { bidId: bid.id, status: "withdrawn" as const };
    },
    { behavior: "immediate" },
  );

export const pendingBidCount = (db: Db, driverId: number) =>
  db
    .select({ n: sql<number>`count(*)` })
    .from(bids)
    .where(and(eq(bids.driverId, driverId), eq(bids.status, "pending")))
    .get()?.n ?? 0;

export type { Load };
