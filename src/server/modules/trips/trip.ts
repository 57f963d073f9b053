import { and, eq, lte, sql } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { bids, type Load, loads, ratings, type User, users } from "../../../../db/tables";
import type { TDeliveryInput } from "../../../shared/schemas/documents";
import { POD_ANSWER_MS, type TTripEventKind } from "../../../shared/schemas/trips";
import { AppError } from "../../errors";
import { closeOpenCounters } from "../bids/counter-state";
import { actsAsShipper } from "../companies/work";
import { proofDocuments } from "../documents/documents";
import { LOAD_NOT_FOUND, LOAD_STATUS_WORD } from "../loads/errors";
import { enqueueNotify } from "../notifications/notify";
import { holdForLoad, refundForLoad, releaseForLoad } from "../payments/escrow";
import { recordActivity } from "../platform/activity";
import { thinnedPoints } from "../tracking/positions";
import { emitWebhookEvent } from "../webhooks/emit";
import { recordTripEvent } from "./events";

type TStatus = Load["status"];

/** A move the current status does not allow: 409 naming both. */
const notAllowed = (load: Load, to: TStatus, from: [TStatus] | [TStatus, TStatus]) => {
  const [word, toWord, fromWord] = [LOAD_STATUS_WORD[load.status], LOAD_STATUS_WORD[to], LOAD_STATUS_WORD[from[0]]];
  return new AppError(
    "CONFLICT",
    from.length === 1
      ? /*i18n*/ {
          id: "error.load.cannotMove",
          message: "Cannot move this load to {to}: it is {status}, and must be {from}",
          values: { to: toWord, status: word, from: fromWord },
        }
      : /*i18n*/ {
          id: "error.load.cannotMoveEither",
          message: "Cannot move this load to {to}: it is {status}, and must be {from} or {other}",
          values: { to: toWord, status: word, from: fromWord, other: LOAD_STATUS_WORD[from[1]] },
        },
  );
};

type TMove = {
  to: TStatus;
  from: [TStatus] | [TStatus, TStatus];
  who: "driver" | "shipper";
  stamp: Partial<Pick<Load, "pickedUpAt" | "deliveredAt" | "completedAt">>;
  /** The activity and notification kind, when the step has one. */
  kind?: "load_picked_up" | "load_delivered" | "load_completed";
  /** The trip events the step writes, in order. */
  events: [TTripEventKind, ...TTripEventKind[]];
  detail?: Record<string, unknown>;
  /** A check on the load as read under the lock, before anything is written. */
  check?: (load: Load, tx: TTx) => void | Promise<void>;
};

/**
 * Every change of a load's status, or of its bids', takes the load's lock first (as bids.ts does) and reads under it;
 * the updates also stay conditional on the status read. So on PostgreSQL a cancel cannot miss a bid placed at the
 * same moment, and two moves of one load take turns.
 */
const lockLoad = (db: TDb, tx: TTx, loadId: number) => db.q.lockKeys(tx, [`load:${loadId}`]);

/** One step of the trip; `actor` null is the system, which may move any load. */
const move = (db: TDb, actor: User | null, loadId: number, m: TMove, now: number) =>
  db.transaction(async (tx) => {
    await lockLoad(db, tx, loadId);
    const [load] = await tx.select().from(loads).where(eq(loads.id, loadId));
    const isParty =
      load &&
      (actor === null ||
        (m.who === "driver" ? load.assignedDriverId === actor.id : await actsAsShipper(tx, load, actor)));
    if (!load || !isParty) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
    if (!m.from.includes(load.status)) throw notAllowed(load, m.to, m.from);
    await m.check?.(load, tx);
    const [updated] = await tx
      .update(loads)
      .set({ status: m.to, ...m.stamp, updatedAt: now })
      .where(and(eq(loads.id, load.id), eq(loads.status, load.status)))
      .returning();
    if (!updated) throw notAllowed(load, m.to, m.from);
    for (const kind of m.events) await recordTripEvent(tx, load.id, kind, actor?.id ?? null, now, m.detail ?? null);
    // The load's payment follows its trip in this same transaction: completed releases, disputed holds.
    if (m.to === "completed") await releaseForLoad(tx, load.id, now);
    if (m.to === "disputed")
      await holdForLoad(tx, load.id, typeof m.detail?.reason === "string" ? m.detail.reason : null, now);
    if (m.to === "completed" && load.assignedDriverId) {
      await tx
        .update(users)
        .set({ totalTrips: sql`${users.totalTrips} + 1` })
        .where(eq(users.id, load.assignedDriverId));
    }
    if (m.kind) {
      await recordActivity(tx, [load.shipperId, load.assignedDriverId], m.kind, load.id, actor?.id ?? null, now);
      await enqueueNotify(tx, [load.shipperId, load.assignedDriverId], {
        event: m.kind,
        loadId: load.id,
        actorId: actor?.id ?? null,
      });
    }
    return updated;
  });

export const markPickedUp = (db: TDb, driver: User, loadId: number, now = Date.now()) =>
  move(
    db,
    driver,
    loadId,
    {
      to: "in_transit",
      from: ["assigned"],
      who: "driver",
      stamp: { pickedUpAt: now },
      kind: "load_picked_up",
      events: ["picked_up"],
    },
    now,
  );

export const markDelivered = (db: TDb, driver: User, loadId: number, now = Date.now()) =>
  move(
    db,
    driver,
    loadId,
    {
      to: "delivered",
      from: ["in_transit"],
      who: "driver",
      stamp: { deliveredAt: now },
      kind: "load_delivered",
      events: ["delivered"],
    },
    now,
  );

/**
 * The driver records the delivery with its proof: the receiver's name and at least one photo or drawn signature
 * already uploaded to this load (`documentIds`, of type photo or pod). The shipper then has 48 hours to answer.
 */
export const deliverWithProof = (db: TDb, driver: User, input: TDeliveryInput, now = Date.now()) =>
  move(
    db,
    driver,
    input.loadId,
    {
      to: "delivered",
      from: ["in_transit"],
      who: "driver",
      stamp: { deliveredAt: now },
      kind: "load_delivered",
      events: ["delivered"],
      detail: { receiverName: input.receiverName, documentIds: [...new Set(input.documentIds)] },
      check: async (load, tx) => {
        const ids = [...new Set(input.documentIds)];
        const found = await proofDocuments(tx, load.id, ids);
        if (found.length !== ids.length) {
          const message = /*i18n*/ {
            id: "error.trip.proofDocuments",
            message: "documentIds must be photos or signatures uploaded to this load",
          };
          throw new AppError("BAD_REQUEST", message, { issues: [{ path: "documentIds", message }] });
        }
      },
    },
    now,
  );

/**
 * The shipper accepts the proof of delivery: the load is completed. Also from `disputed`, which is how a shipper
 * withdraws a dispute once it is settled.
 */
export const acceptDelivery = (db: TDb, shipper: User, loadId: number, now = Date.now()) =>
  move(
    db,
    shipper,
    loadId,
    {
      to: "completed",
      from: ["delivered", "disputed"],
      who: "shipper",
      stamp: { completedAt: now },
      kind: "load_completed",
      events: ["pod_accepted", "completed"],
    },
    now,
  );

/** The shipper disputes the delivery, with a reason, within 48 hours of it; a disputed load never completes by itself. */
export const disputeDelivery = (db: TDb, shipper: User, loadId: number, reason: string, now = Date.now()) =>
  move(
    db,
    shipper,
    loadId,
    {
      to: "disputed",
      from: ["delivered"],
      who: "shipper",
      stamp: {},
      events: ["disputed"],
      detail: { reason },
      check: (load) => {
        if (load.deliveredAt != null && now - load.deliveredAt > POD_ANSWER_MS)
          throw new AppError(
            "CONFLICT",
            /*i18n*/ {
              id: "error.trip.disputeTooLate",
              message: "A delivery can be disputed within 48 hours; this one was delivered more than 48 hours ago",
            },
          );
      },
    },
    now,
  );

/**
 * Loads delivered more than 48 hours ago whose shipper neither accepted nor disputed complete by themselves (the
 * system is the actor). Each load is its own transaction under its lock, so a shipper's answer at the same moment wins
 * or loses cleanly. Returns the ids completed.
 */
export const autoCompleteDeliveries = async (db: TDb, now = Date.now()) => {
  const due = await db
    .select({ id: loads.id })
    .from(loads)
    .where(and(eq(loads.status, "delivered"), lte(loads.deliveredAt, now - POD_ANSWER_MS)))
    .limit(500);
  const done: number[] = [];
  for (const { id } of due) {
    try {
      await move(
        db,
        null,
        id,
        {
          to: "completed",
          from: ["delivered"],
          who: "shipper",
          stamp: { completedAt: now },
          kind: "load_completed",
          events: ["completed"],
          detail: { automatic: true },
          check: (load) => {
            if (load.deliveredAt == null || now - load.deliveredAt < POD_ANSWER_MS)
              throw notAllowed(load, "completed", ["delivered"]);
          },
        },
        now,
      );
      done.push(id);
    } catch (err) {
      // The shipper answered (or the load moved) since it was read: nothing to do for it.
      if (!(err instanceof AppError)) throw err;
    }
  }
  return done;
};

/** A shipper cancels a posted load, or an assigned one with a reason; pending bids are rejected with it. */
export const cancelLoad = (db: TDb, shipper: User, loadId: number, reason: string | null, now = Date.now()) =>
  db.transaction((tx) => cancelLoadIn(db, tx, shipper, loadId, reason, now));

/** cancelLoad inside a transaction the caller holds (deleting an account cancels its open loads in its own). */
export const cancelLoadIn = async (
  db: TDb,
  tx: TTx,
  shipper: User,
  loadId: number,
  reason: string | null,
  now = Date.now(),
) => {
  await lockLoad(db, tx, loadId);
  const [load] = await tx.select().from(loads).where(eq(loads.id, loadId));
  if (!load || !(await actsAsShipper(tx, load, shipper))) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  if (load.status !== "posted" && load.status !== "assigned")
    throw notAllowed(load, "cancelled", ["posted", "assigned"]);
  if (load.status === "assigned" && !reason) {
    const required = /*i18n*/ {
      id: "error.load.cancelReasonRequired",
      message: "reason is required to cancel an assigned load",
    };
    throw new AppError("BAD_REQUEST", required, { issues: [{ path: "reason", message: required }] });
  }
  const [updated] = await tx
    .update(loads)
    .set({ status: "cancelled", cancelledById: shipper.id, cancelReason: reason, cancelledAt: now, updatedAt: now })
    .where(and(eq(loads.id, load.id), eq(loads.status, load.status)))
    .returning();
  if (!updated) throw notAllowed(load, "cancelled", ["posted", "assigned"]);
  // Cancelled before pickup: a funded payment goes back to the shipper in full.
  if (load.status === "assigned") await refundForLoad(tx, load.id, now);
  const pending = await tx
    .select({ driverId: bids.driverId })
    .from(bids)
    .where(and(eq(bids.loadId, load.id), eq(bids.status, "pending")));
  await tx
    .update(bids)
    .set({ status: "rejected", updatedAt: now })
    .where(and(eq(bids.loadId, load.id), eq(bids.status, "pending")));
  await closeOpenCounters(tx, { loadId: load.id }, now);
  await recordActivity(
    tx,
    [shipper.id, load.assignedDriverId, ...pending.map((p) => p.driverId)],
    "load_cancelled",
    load.id,
    shipper.id,
    now,
  );
  await enqueueNotify(tx, [load.assignedDriverId, ...pending.map((p) => p.driverId)], {
    event: "load_cancelled",
    loadId: load.id,
    actorId: shipper.id,
  });
  await emitWebhookEvent(tx, {
    event: "load.cancelled",
    loadId: load.id,
    to: [shipper.id, load.assignedDriverId, ...pending.map((p) => p.driverId)],
    data: { status: "cancelled", reason },
    now,
  });
  return updated;
};

/** After completion each side rates the other once, 1 to 5. */
export const rateLoad = (db: TDb, rater: User, loadId: number, score: number, now = Date.now()) =>
  db.transaction(async (tx) => {
    await lockLoad(db, tx, loadId);
    const [load] = await tx.select().from(loads).where(eq(loads.id, loadId));
    const isShipper = load != null && (await actsAsShipper(tx, load, rater));
    const isDriver = !isShipper && load?.assignedDriverId === rater.id;
    if (!load || (!isShipper && !isDriver)) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
    if (load.status !== "completed") {
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.rating.notCompleted",
          message: "Ratings open when the load is completed; it is {status}",
          values: { status: LOAD_STATUS_WORD[load.status] },
        },
      );
    }
    const rateeId = isShipper ? load.assignedDriverId : load.shipperId;
    if (!rateeId)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ { id: "error.rating.nobody", message: "There is nobody to rate on this load" },
      );
    // Once per side: a shipper company's members share the shipper's side, so one of them rating closes it for all
    // (read under the load's lock, which every rating of the load takes).
    const [sideDone] = await tx
      .select({ id: ratings.id })
      .from(ratings)
      .where(and(eq(ratings.loadId, load.id), eq(ratings.rateeId, rateeId)))
      .limit(1);
    if (sideDone)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ { id: "error.rating.already", message: "You have already rated this load" },
      );
    // And per rater, kept by the unique (load, rater) index: of two ratings at once the second inserts nothing (on
    // PostgreSQL it waits for the first to commit) and is told so, instead of failing on the index.
    const inserted = await tx
      .insert(ratings)
      .values({ loadId: load.id, raterId: rater.id, rateeId, score, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: ratings.id });
    if (!inserted.length)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ { id: "error.rating.already", message: "You have already rated this load" },
      );
    const [ratee] = await tx
      .update(users)
      .set({ ratingSum: sql`${users.ratingSum} + ${score}`, totalRatings: sql`${users.totalRatings} + 1` })
      .where(eq(users.id, rateeId))
      .returning();
    await recordActivity(tx, [rateeId], "rated", load.id, rater.id, now);
    return {
      loadId: load.id,
      score,
      ratee: {
        id: rateeId,
        rating: Math.round((ratee.ratingSum / ratee.totalRatings) * 10) / 10,
        totalRatings: ratee.totalRatings,
      },
    };
  });

/** Which sides have rated a load already. */
export const ratingsOf = (db: TDb, loadId: number) => db.select().from(ratings).where(eq(ratings.loadId, loadId));

/** The newest recorded position of each of these loads, in one query. */
export const lastPositions = async (db: TDb, loadIds: number[]) =>
  new Map(
    (await db.q.lastPositions(loadIds)).map((r) => [
      r.loadId,
      { latitude: r.latitude, longitude: r.longitude, recordedAt: new Date(r.recordedAt).toISOString() },
    ]),
  );

/**
 * The trip's last known position and its track for the load's two parties: the whole trip thinned to at most 500
 * points (the tracking module's reading, so the load page and the track answer draw the same line).
 */
export const trackOf = async (db: TDb, loadId: number) => {
  const points = (await thinnedPoints(db, loadId)).map((p) => ({
    latitude: p.latitude,
    longitude: p.longitude,
    recordedAt: new Date(p.recordedAt).toISOString(),
  }));
  return { lastPosition: points.at(-1) ?? null, points };
};
