import { and, asc, count, eq, inArray, isNull, max, ne, or } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { bids, loads, messages, type User, users } from "../../../../db/tables";
import { AppError } from "../../errors";
import { actsAsShipper } from "../companies/work";
import { LOAD_NOT_FOUND } from "../loads/errors";
import { enqueueNotify } from "../notifications/notify";

/**
 * A conversation belongs to one load and one driver who bid on it (or was assigned it); its two parties are that
 * driver and the load's shipper. Anyone else gets NOT_FOUND.
 */
const conversation = async (db: TDb, viewer: User, loadId: number, driverId?: number) => {
  const [load] = await db.select().from(loads).where(eq(loads.id, loadId));
  // A load from an external board has no MyTess shipper to talk to: its poster is reached through the board's contact.
  if (!load || load.sourceType === "external") throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  // The shipper's side: the poster or a member of the load's shipper company (companies/work.ts).
  const isShipper = await actsAsShipper(db, load, viewer);
  const driver = isShipper ? driverId : viewer.id;
  if (!isShipper && viewer.userType !== "driver") throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  if (driver === undefined) {
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.message.driverIdRequired",
        message: "driverId is required: say which driver's conversation",
      },
      {
        issues: [
          {
            path: "driverId",
            message: /*i18n*/ { id: "error.message.driverIdMissing", message: "driverId is required" },
          },
        ],
      },
    );
  }
  const involved =
    load.assignedDriverId === driver ||
    (
      await db
        .select({ id: bids.id })
        .from(bids)
        .where(and(eq(bids.loadId, loadId), eq(bids.driverId, driver)))
        .limit(1)
    ).length > 0;
  if (!involved)
    throw new AppError(
      "NOT_FOUND",
      isShipper
        ? /*i18n*/ { id: "error.message.driverNotBidder", message: "This driver has not bid on the load" }
        : LOAD_NOT_FOUND,
    );
  // A company's trip goes on with both its bidder (the dispatcher) and the driver the company assigned.
  const awardedBidder =
    load.carrierCompanyId != null && load.acceptedBidId != null
      ? ((await db.select({ driverId: bids.driverId }).from(bids).where(eq(bids.id, load.acceptedBidId)))[0]
          ?.driverId ?? null)
      : null;
  return { load, driverId: driver, isShipper, closed: closedReason(load, driver, awardedBidder) };
};

/**
 * After the award the conversation goes on with the assigned driver only; the other bidders' conversations, and all of
 * a cancelled load's, stay readable but take no new messages.
 */
const closedReason = (
  load: typeof loads.$inferSelect,
  driverId: number,
  awardedBidder: number | null,
): "awarded_to_other" | "cancelled" | null => {
  if (load.status === "cancelled") return "cancelled";
  if (load.assignedDriverId != null && load.assignedDriverId !== driverId && awardedBidder !== driverId)
    return "awarded_to_other";
  return null;
};

/**
 * The driver's side of a conversation writes as its driver (`driverId`), so a message is the shipper's side's exactly
 * when its sender is not the conversation's driver: the poster's and their company members' messages alike.
 */
const fromDriverSide = eq(messages.senderId, messages.driverId);

const toPublicMessage = (m: typeof messages.$inferSelect, viewerIsShipper: boolean) => ({
  id: m.id,
  loadId: m.loadId,
  driverId: m.driverId,
  senderId: m.senderId,
  fromMe: viewerIsShipper ? m.senderId !== m.driverId : m.senderId === m.driverId,
  body: m.body,
  readAt: m.readAt ? new Date(m.readAt).toISOString() : null,
  createdAt: new Date(m.createdAt).toISOString(),
});

/** The conversation, oldest first (newest at the bottom); reading it marks the other side's messages read. */
export const listMessages = async (db: TDb, viewer: User, loadId: number, driverId?: number, now = Date.now()) => {
  const c = await conversation(db, viewer, loadId, driverId);
  const where = and(eq(messages.loadId, loadId), eq(messages.driverId, c.driverId));
  await db
    .update(messages)
    .set({ readAt: now })
    .where(
      and(where, c.isShipper ? fromDriverSide : ne(messages.senderId, messages.driverId), isNull(messages.readAt)),
    );
  const rows = await db.select().from(messages).where(where).orderBy(asc(messages.id)).limit(500);
  const [other] = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(eq(users.id, c.isShipper ? c.driverId : c.load.shipperId!));
  return {
    loadId,
    driverId: c.driverId,
    with: other ? { id: other.id, name: `${other.firstName} ${other.lastName}`.trim() } : null,
    /** Why no new message can be sent, or null while the conversation is open. */
    closed: c.closed,
    messages: rows.map((m) => toPublicMessage(m, c.isShipper)),
  };
};

export const sendMessage = async (
  db: TDb,
  viewer: User,
  loadId: number,
  body: string,
  driverId?: number,
  now = Date.now(),
) => {
  const c = await conversation(db, viewer, loadId, driverId);
  if (c.closed === "cancelled")
    throw new AppError(
      "FORBIDDEN",
      /*i18n*/ {
        id: "error.message.loadCancelled",
        message: "The load was cancelled; this conversation is closed",
      },
    );
  if (c.closed)
    throw new AppError(
      "FORBIDDEN",
      /*i18n*/ {
        id: "error.message.loadTaken",
        message: "The load went to another driver; this conversation is closed",
      },
    );
  const row = await db.transaction(async (tx) => {
    const [m] = await tx
      .insert(messages)
      .values({ loadId, driverId: c.driverId, senderId: viewer.id, body, createdAt: now })
      .returning();
    // The other party: the driver of this conversation when the shipper writes, otherwise the shipper.
    await enqueueNotify(tx, [c.isShipper ? c.driverId : c.load.shipperId], {
      event: "message_received",
      loadId,
      actorId: viewer.id,
      messageId: m.id,
      ref: m.id,
    });
    return m;
  });
  return toPublicMessage(row, c.isShipper);
};

/** The shipper's side of a load: one conversation per driver who bid, with unread counts and the last line. */
export const listConversations = async (db: TDb, shipper: User, loadId: number) => {
  const [load] = await db.select().from(loads).where(eq(loads.id, loadId));
  if (!load || load.sourceType === "external" || !(await actsAsShipper(db, load, shipper)))
    throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  const drivers = await db
    .selectDistinct({ id: users.id, firstName: users.firstName, lastName: users.lastName })
    .from(bids)
    .innerJoin(users, eq(users.id, bids.driverId))
    .where(eq(bids.loadId, loadId));
  const lastIds = await db
    .select({ driverId: messages.driverId, id: max(messages.id) })
    .from(messages)
    .where(eq(messages.loadId, loadId))
    .groupBy(messages.driverId);
  const lastRows = lastIds.length
    ? await db
        .select()
        .from(messages)
        .where(
          inArray(
            messages.id,
            lastIds.flatMap((l) => (l.id == null ? [] : [l.id])),
          ),
        )
    : [];
  const last = new Map(lastRows.map((m) => [m.driverId, m]));
  const unread = new Map(
    (
      await db
        .select({ driverId: messages.driverId, n: count() })
        .from(messages)
        .where(and(eq(messages.loadId, loadId), fromDriverSide, isNull(messages.readAt)))
        .groupBy(messages.driverId)
    ).map((r) => [r.driverId, r.n]),
  );
  return drivers.map((d) => {
    const m = last.get(d.id);
    return {
      driverId: d.id,
      driverName: `${d.firstName} ${d.lastName}`.trim(),
      unread: unread.get(d.id) ?? 0,
      lastMessage: m ? toPublicMessage(m, true) : null,
    };
  });
};

/**
 * Unread messages addressed to a user, per load: a driver's own conversations; a shipper's, the driver side's
 * messages on loads they posted or (with `shipperCompanyId`) their shipper company's.
 */
export const unreadByLoad = async (db: TDb, user: User, loadIds: number[], shipperCompanyId: number | null = null) => {
  if (!loadIds.length) return new Map<number, number>();
  const shippers =
    shipperCompanyId == null
      ? eq(loads.shipperId, user.id)
      : or(eq(loads.shipperId, user.id), eq(loads.shipperCompanyId, shipperCompanyId));
  const rows = await db
    .select({ loadId: messages.loadId, n: count() })
    .from(messages)
    .innerJoin(loads, eq(loads.id, messages.loadId))
    .where(
      and(
        inArray(messages.loadId, loadIds),
        isNull(messages.readAt),
        user.userType === "driver"
          ? and(eq(messages.driverId, user.id), ne(messages.senderId, user.id))
          : and(shippers, fromDriverSide),
      ),
    )
    .groupBy(messages.loadId);
  return new Map(rows.map((r) => [r.loadId, r.n]));
};
