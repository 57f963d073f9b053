import { and, count, desc, eq, inArray, ne } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { type Bid, bids, type Load, loads, trucks, type User, users } from "../../../../db/tables";
import { haversineMiles } from "../../../shared/geo";
import { fromMinor, toMinor } from "../../../shared/money";
import type { TBidTruck } from "../../../shared/schemas/answers/common";
import type { TPlaceBidInput } from "../../../shared/schemas/loads";
import { AppError } from "../../errors";
import { publishLive } from "../../live/publish";
import { actsAsShipper, biddingCompanyOf } from "../companies/work";
import { BID_STATUS_WORD, LOAD_NOT_FOUND, LOAD_STATUS_WORD } from "../loads/errors";
import { findLoad } from "../loads/loads";
import { toPublicLoad } from "../loads/serialize";
import { enqueueNotify, type TOffer } from "../notifications/notify";
import { recordActivity } from "../platform/activity";
import { fromUsd, loadRates, toUsd } from "../platform/fx";
import { recordTripEvent } from "../trips/events";
import { carrierTrust } from "../trust/trust";
import { emitWebhookEvent } from "../webhooks/emit";
import { closeOpenCounters, negotiationsOf } from "./counter-state";

export const BID_NOT_FOUND = /*i18n*/ { id: "error.bid.notFound", message: "Bid not found" };

const TRUCK_NOT_YOURS = /*i18n*/ { id: "error.bid.truckNotYours", message: "truckId must be one of your trucks" };

/** The truck a bid offers, from the copy kept on the bid. */
export const bidTruckOf = (
  b: Pick<Bid, "truckId" | "truckEquipmentType" | "truckCapacityLbs" | "truckPlate">,
): TBidTruck | null =>
  b.truckEquipmentType == null || b.truckCapacityLbs == null
    ? null
    : {
        id: b.truckId,
        equipmentType: b.truckEquipmentType as TBidTruck["equipmentType"],
        capacityLbs: b.truckCapacityLbs,
        plate: b.truckPlate,
      };

/**
 * The truck a bid names, which must be the bidder's own (a dispatcher's too: trucks belong to the driver who posted
 * them, not to a company). Another account's truck and a missing one get the same answer, so ids cannot be probed.
 */
const offeredTruck = async (tx: TTx, driver: User, truckId: number | null | undefined) => {
  if (truckId == null) return { truckId: null, truckEquipmentType: null, truckCapacityLbs: null, truckPlate: null };
  const [truck] = await tx
    .select()
    .from(trucks)
    .where(and(eq(trucks.id, truckId), eq(trucks.driverId, driver.id)));
  if (!truck)
    throw new AppError("BAD_REQUEST", TRUCK_NOT_YOURS, { issues: [{ path: "truckId", message: TRUCK_NOT_YOURS }] });
  return {
    truckId: truck.id,
    truckEquipmentType: truck.equipmentType,
    truckCapacityLbs: truck.capacityLbs,
    truckPlate: truck.plate,
  };
};

/** The truck the load's accepted bid offered (null before the award or when the bid named none). */
export const awardedTruckOf = async (db: TDb, load: Pick<Load, "acceptedBidId">) => {
  if (load.acceptedBidId == null) return null;
  const [bid] = await db
    .select({
      truckId: bids.truckId,
      truckEquipmentType: bids.truckEquipmentType,
      truckCapacityLbs: bids.truckCapacityLbs,
      truckPlate: bids.truckPlate,
    })
    .from(bids)
    .where(eq(bids.id, load.acceptedBidId));
  return bid ? bidTruckOf(bid) : null;
};

const toPublicBid = (b: Bid) => ({
  id: b.id,
  loadId: b.loadId,
  driverId: b.driverId,
  amount: fromMinor(b.amountMinor, b.currency),
  currency: b.currency,
  proposedPickupDate: b.proposedPickupDate ? new Date(b.proposedPickupDate).toISOString() : null,
  notes: b.notes,
  truck: bidTruckOf(b),
  status: b.status,
  createdAt: new Date(b.createdAt).toISOString(),
  updatedAt: new Date(b.updatedAt).toISOString(),
});
export type TPublicBid = ReturnType<typeof toPublicBid>;

/** A driver's bid on a posted load; a second bid on the same load replaces the pending one. */
export const placeBid = (db: TDb, driver: User, loadId: number, input: TPlaceBidInput, now = Date.now()) =>
  db.transaction(async (tx) => {
    // One bid change or award per load at a time (PostgreSQL; SQLite's transactions already take turns): a driver's
    // two bids at once leave one pending bid, and a bid never lands beside an award that did not see it.
    await db.q.lockKeys(tx, [`load:${loadId}`]);
    const [load] = await tx.select().from(loads).where(eq(loads.id, loadId));
    if (!load || (load.sourceType === "external" && load.sourceOwnerId !== driver.id))
      throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
    if (load.sourceType === "external")
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.bid.externalLoad",
          message: "Bids are not taken on loads from external boards: contact the poster through the board",
        },
      );
    if (load.status !== "posted") {
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.bid.loadNotPosted",
          message: "Bids are taken only on posted loads; this load is {status}",
          values: { status: LOAD_STATUS_WORD[load.status] },
        },
      );
    }
    const values = {
      // An owner or dispatcher of a carrier bids for it.
      companyId: await biddingCompanyOf(tx, driver),
      amountMinor: toMinor(input.amount, input.currency),
      currency: input.currency,
      proposedPickupDate: input.proposedPickupDate ?? null,
      notes: input.notes,
      // A changed bid offers what it names now: leaving the truck out takes the earlier one off.
      ...(await offeredTruck(tx, driver, input.truckId)),
      updatedAt: now,
    };
    const [pending] = await tx
      .select()
      .from(bids)
      .where(and(eq(bids.loadId, loadId), eq(bids.driverId, driver.id), eq(bids.status, "pending")));
    // A changed bid starts the negotiation afresh: an offer made against the old amount no longer answers it.
    if (pending) await closeOpenCounters(tx, { bidIds: [pending.id] }, now);
    const bid = pending
      ? await updatePending(tx, pending.id, values)
      : (
          await tx
            .insert(bids)
            .values({ ...values, loadId, driverId: driver.id, status: "pending", createdAt: now })
            .returning()
        )[0];
    await recordActivity(tx, [driver.id], "bid_placed", loadId, driver.id, now);
    await recordActivity(tx, [load.shipperId], "bid_received", loadId, driver.id, now);
    await enqueueNotify(tx, [load.shipperId], {
      event: "bid_received",
      loadId,
      actorId: driver.id,
      bidId: bid.id,
      ref: `${bid.id}.${now}`,
    });
    await emitWebhookEvent(tx, {
      event: "load.bid_received",
      loadId,
      to: [load.shipperId],
      data: {
        bidId: bid.id,
        driverId: driver.id,
        amount: fromMinor(bid.amountMinor, bid.currency),
        currency: bid.currency,
        replaced: Boolean(pending),
      },
      now,
    });
    return { bid: toPublicBid(bid), replaced: Boolean(pending) };
  });

/** A driver's own bids, newest first, each with its load. */
export const listDriverBids = async (db: TDb, driver: User) =>
  (
    await db
      .select({ bid: bids, load: loads })
      .from(bids)
      .innerJoin(loads, eq(loads.id, bids.loadId))
      .where(eq(bids.driverId, driver.id))
      .orderBy(desc(bids.updatedAt), desc(bids.id))
  ).map(({ bid, load }) => ({ ...toPublicBid(bid), load: toPublicLoad(load) }));

/** A driver's own bids, each with its negotiation (the open counter-offer and every offer so far). */
export const listDriverBidsWithOffers = async (db: TDb, driver: User) => {
  const list = await listDriverBids(db, driver);
  const offers = await negotiationsOf(
    db,
    list.map((b) => b.id),
  );
  return list.map((b) => ({ ...b, ...offers.get(b.id)! }));
};

const initialsOf = (u: Pick<User, "firstName" | "lastName">) =>
  `${u.firstName.charAt(0)}${u.lastName.charAt(0)}`.toUpperCase();

/** The bids on a shipper's load, with who bid, how far they are from the pickup, and amounts in the viewer's currency. */
export const listLoadBids = async (db: TDb, shipper: User, loadId: number) => {
  const load = await findLoad(db, loadId);
  if (!load || !(await actsAsShipper(db, load, shipper))) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  const rates = await loadRates(db);
  const rows = await db
    .select({ bid: bids, driver: users })
    .from(bids)
    .innerJoin(users, eq(users.id, bids.driverId))
    .where(and(eq(bids.loadId, loadId), ne(bids.status, "withdrawn")))
    .orderBy(bids.amountMinor);
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
  const [offers, carriers] = await Promise.all([
    negotiationsOf(
      db,
      withDistance.map((b) => b.id),
    ),
    carrierTrust(
      db,
      rows.map(({ bid }) => bid),
    ),
  ]);
  const known = withDistance.filter((b) => b.distance != null && b.status === "pending");
  if (known.length) {
    const min = Math.min(...known.map((b) => b.distance!));
    for (const b of known) if (b.distance === min) b.isClosest = true;
  }
  return withDistance.map((b) => ({ ...b, carrier: carriers.get(b.id)!, ...offers.get(b.id)! }));
};

/**
 * The bid and its load, read under the load's lock: every change of a bid's status (place, change, withdraw, reject,
 * accept, and the load's cancellation) takes this lock first and decides on what it reads after, so on PostgreSQL two
 * changes of one load take turns as they do on SQLite, and the second sees what the first did.
 */
export const lockedBidAndLoad = async (db: TDb, tx: TTx, bidId: number) => {
  const [found] = await tx.select({ loadId: bids.loadId }).from(bids).where(eq(bids.id, bidId));
  if (!found) throw new AppError("NOT_FOUND", BID_NOT_FOUND);
  await db.q.lockKeys(tx, [`load:${found.loadId}`]);
  const [row] = await tx
    .select({ bid: bids, load: loads })
    .from(bids)
    .innerJoin(loads, eq(loads.id, bids.loadId))
    .where(eq(bids.id, bidId));
  if (!row) throw new AppError("NOT_FOUND", BID_NOT_FOUND);
  return row;
};

export const notPending = (action: "accept" | "reject" | "withdraw", status: Bid["status"]) => {
  const values = { status: BID_STATUS_WORD[status] };
  if (action === "accept")
    return new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.bid.notPendingToAccept",
        message: "This bid is {status}; only a pending bid can be accepted",
        values,
      },
    );
  if (action === "reject")
    return new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.bid.notPendingToReject",
        message: "This bid is {status}; only a pending bid can be rejected",
        values,
      },
    );
  return new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.bid.notPendingToWithdraw",
      message: "This bid is {status}; only a pending bid can be withdrawn",
      values,
    },
  );
};

const BID_CHANGED = /*i18n*/ {
  id: "error.bid.changedMeanwhile",
  message: "This bid was changed by another request at the same moment; reload and try again",
};

/** Changes a bid only while it is still pending (the state the caller read); anything else is a 409. */
export const updatePending = async (tx: TTx, bidId: number, values: Partial<Bid>) => {
  const [changed] = await tx
    .update(bids)
    .set(values)
    .where(and(eq(bids.id, bidId), eq(bids.status, "pending")))
    .returning();
  if (!changed) throw new AppError("CONFLICT", BID_CHANGED);
  return changed;
};

/**
 * Awards the load to the bid's driver at `agreed` (the bid's own amount, or an accepted counter-offer's): the load
 * becomes assigned with the agreed amount stored on it, the bid accepted, and every other pending bid rejected, all
 * at once. Runs under the load's lock (the caller took it with `lockedBidAndLoad`); the updates stay conditional on
 * the states read (load posted, bid pending), so even a writer that skipped the lock could not make an award beside a
 * withdrawn or rejected bid, or award twice.
 */
export const awardBid = async (
  tx: TTx,
  load: Load,
  bid: Bid,
  agreed: { amountMinor: number; currency: string },
  actorId: number,
  now: number,
  notify: { event: "bid_accepted" | "counter_accepted"; to: number; ref: string | number; offer?: TOffer },
) => {
  const [awarded] = await tx
    .update(loads)
    .set({
      status: "assigned",
      assignedDriverId: bid.driverId,
      acceptedBidId: bid.id,
      // A company's bid awards the load to the company: its dispatchers assign the driver and follow the trip.
      carrierCompanyId: bid.companyId,
      agreedAmountMinor: agreed.amountMinor,
      agreedCurrency: agreed.currency,
      updatedAt: now,
    })
    .where(and(eq(loads.id, load.id), eq(loads.status, "posted")))
    .returning({ id: loads.id });
  if (!awarded) {
    throw new AppError(
      "CONFLICT",
      load.status === "posted"
        ? /*i18n*/ {
            id: "error.bid.loadAwarded",
            message: "The load is already awarded; it must be posted to accept a bid",
          }
        : /*i18n*/ {
            id: "error.bid.loadNotOpen",
            message: "The load is {status}; it must be posted to accept a bid",
            values: { status: LOAD_STATUS_WORD[load.status] },
          },
    );
  }
  await updatePending(tx, bid.id, { status: "accepted", updatedAt: now });
  await recordTripEvent(tx, load.id, "awarded", actorId, now, {
    bidId: bid.id,
    driverId: bid.driverId,
    amountMinor: agreed.amountMinor,
    currency: agreed.currency,
  });
  const others = await tx
    .select({ id: bids.id, driverId: bids.driverId })
    .from(bids)
    .where(and(eq(bids.loadId, load.id), eq(bids.status, "pending"), ne(bids.id, bid.id)));
  if (others.length) {
    await tx
      .update(bids)
      .set({ status: "rejected", updatedAt: now })
      .where(
        and(
          inArray(
            bids.id,
            others.map((o) => o.id),
          ),
          eq(bids.status, "pending"),
        ),
      );
  }
  // The award ends every negotiation on the load: the winner's open offer (if it won at its own amount) and the
  // others' (their bids are rejected).
  await closeOpenCounters(tx, { loadId: load.id }, now);
  await recordActivity(tx, [bid.driverId, load.shipperId], "bid_accepted", load.id, actorId, now);
  await recordActivity(
    tx,
    others.map((o) => o.driverId),
    "bid_rejected",
    load.id,
    load.shipperId,
    now,
  );
  await enqueueNotify(tx, [notify.to], {
    event: notify.event,
    loadId: load.id,
    actorId,
    bidId: bid.id,
    ref: notify.ref,
    offer: notify.offer,
  });
  for (const o of others)
    await enqueueNotify(tx, [o.driverId], {
      event: "bid_rejected",
      loadId: load.id,
      actorId: load.shipperId,
      ref: o.id,
    });
  return {
    bidId: bid.id,
    loadId: load.id,
    status: "assigned" as const,
    assignedDriverId: bid.driverId,
    agreedAmount: fromMinor(agreed.amountMinor, agreed.currency),
    agreedCurrency: agreed.currency,
    rejected: others.length,
  };
};

/** The shipper accepts a bid at its own amount. */
export const acceptBid = (db: TDb, shipper: User, bidId: number, now = Date.now()) =>
  db.transaction(async (tx) => {
    const { bid, load } = await lockedBidAndLoad(db, tx, bidId);
    if (!(await actsAsShipper(tx, load, shipper))) throw new AppError("NOT_FOUND", BID_NOT_FOUND);
    if (bid.status !== "pending") throw notPending("accept", bid.status);
    return awardBid(tx, load, bid, { amountMinor: bid.amountMinor, currency: bid.currency }, shipper.id, now, {
      event: "bid_accepted",
      to: bid.driverId,
      ref: bid.id,
    });
  });

export const rejectBid = (db: TDb, shipper: User, bidId: number, now = Date.now()) =>
  db.transaction(async (tx) => {
    const { bid, load } = await lockedBidAndLoad(db, tx, bidId);
    if (!(await actsAsShipper(tx, load, shipper))) throw new AppError("NOT_FOUND", BID_NOT_FOUND);
    if (bid.status !== "pending") throw notPending("reject", bid.status);
    await updatePending(tx, bid.id, { status: "rejected", updatedAt: now });
    await closeOpenCounters(tx, { bidIds: [bid.id] }, now);
    await recordActivity(tx, [bid.driverId], "bid_rejected", load.id, shipper.id, now);
    await enqueueNotify(tx, [bid.driverId], {
      event: "bid_rejected",
      loadId: load.id,
      actorId: shipper.id,
      ref: bid.id,
    });
    return { bidId: bid.id, status: "rejected" as const };
  });

export const withdrawBid = (db: TDb, driver: User, bidId: number, now = Date.now()) =>
  db.transaction((tx) => withdrawBidIn(db, tx, driver, bidId, now));

/** withdrawBid inside a transaction the caller holds (deleting an account withdraws its open bids in its own). */
export const withdrawBidIn = async (db: TDb, tx: TTx, driver: User, bidId: number, now = Date.now()) => {
  const { bid, load } = await lockedBidAndLoad(db, tx, bidId);
  if (bid.driverId !== driver.id) throw new AppError("NOT_FOUND", BID_NOT_FOUND);
  if (bid.status !== "pending") throw notPending("withdraw", bid.status);
  await updatePending(tx, bid.id, { status: "withdrawn", updatedAt: now });
  await closeOpenCounters(tx, { bidIds: [bid.id] }, now);
  await recordActivity(tx, [load.shipperId], "bid_withdrawn", load.id, driver.id, now);
  // No notification for a withdrawal, but the shipper's open list of bids changes.
  await publishLive(tx, [load.shipperId], "bid", { loadId: load.id, bidId: bid.id }, now);
  return { bidId: bid.id, status: "withdrawn" as const };
};

export const pendingBidCount = async (db: TDb, driverId: number) =>
  (
    await db
      .select({ n: count() })
      .from(bids)
      .where(and(eq(bids.driverId, driverId), eq(bids.status, "pending")))
  )[0]?.n ?? 0;

export type { Load };
