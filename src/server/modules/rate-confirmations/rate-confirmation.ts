import { and, asc, eq, inArray } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { type Load, loads, tripEvents, type User, users } from "../../../../db/tables";
import { fromMinor } from "../../../shared/money";
import type { TRateConfirmationAnswer, TTripParty } from "../../../shared/schemas/answers/rate-confirmations";
import { AppError } from "../../errors";
import { actsAsShipper } from "../companies/work";
import { LOAD_NOT_FOUND, LOAD_STATUS_WORD } from "../loads/errors";
import { enqueueNotify } from "../notifications/notify";
import { agreedAmount } from "../payments/freight";
import { recordTripEvent } from "../trips/events";

type TSide = "shipper" | "driver";

const NOT_AWARDED = /*i18n*/ {
  id: "error.rateConfirmation.notAwarded",
  message: "This load is not awarded yet: its rate confirmation comes with the award",
};
const CANCELLED = (load: Load) =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.rateConfirmation.closed",
      message: "This load is {status}: its rate confirmation can no longer be accepted",
      values: { status: LOAD_STATUS_WORD[load.status] },
    },
  );

/** The caller's side of the load: 404 for anyone but its shipper and assigned driver, as for a missing load. */
const sideOf = async (db: TDb | TTx, load: Load | undefined, actor: User): Promise<TSide> => {
  if (load && (await actsAsShipper(db, load, actor))) return "shipper";
  if (load && load.assignedDriverId != null && load.assignedDriverId === actor.id) return "driver";
  throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
};

/**
 * Which side an acceptance was given for: the side recorded with it (`detail.role`), else (none recorded) the load's
 * assigned driver's or the shipper's.
 */
const sideOfEvent = (e: { actorId: number | null; detail: unknown }, load: Pick<Load, "assignedDriverId">): TSide => {
  const role = (e.detail as { role?: unknown } | null)?.role;
  if (role === "shipper" || role === "driver") return role;
  return e.actorId != null && e.actorId === load.assignedDriverId ? "driver" : "shipper";
};

/** The agreed amount and the driver it was agreed with: 409 before the award. */
const agreedOf = async (db: TDb | TTx, load: Load) => {
  const agreed = await agreedAmount(db, load);
  if (!agreed || load.shipperId == null) throw new AppError("CONFLICT", NOT_AWARDED);
  return { ...agreed, shipperId: load.shipperId };
};

/** An awarded load read for one of its parties, with the caller's side and the agreement. */
export const awardedLoadFor = async (db: TDb, actor: User, loadId: number) => {
  const [load] = await db.select().from(loads).where(eq(loads.id, loadId));
  const you = await sideOf(db, load, actor);
  return { load: load!, you, agreed: await agreedOf(db, load!) };
};

const partyOf = (u: User, role: TSide): TTripParty => ({
  id: u.id,
  role,
  name: `${u.firstName} ${u.lastName}`.trim(),
  phone: u.phone ?? null,
  rating: u.totalRatings > 0 ? Math.round((u.ratingSum / u.totalRatings) * 10) / 10 : 0,
  totalRatings: u.totalRatings,
  completedTrips: u.totalTrips,
});

/**
 * The rate confirmation's state for one of the load's parties: the agreed amount, both parties (each one's proven
 * phone number included, for a call: they have a trip together), and when each side accepted it.
 */
export const rateConfirmationOf = async (db: TDb, actor: User, loadId: number): Promise<TRateConfirmationAnswer> => {
  const { load, you, agreed } = await awardedLoadFor(db, actor, loadId);
  const people = await db
    .select()
    .from(users)
    .where(inArray(users.id, [agreed.shipperId, agreed.driverId]));
  const shipper = people.find((u) => u.id === agreed.shipperId);
  const driver = people.find((u) => u.id === agreed.driverId);
  if (!shipper || !driver) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  const events = await db
    .select({
      kind: tripEvents.kind,
      actorId: tripEvents.actorId,
      detail: tripEvents.detail,
      createdAt: tripEvents.createdAt,
    })
    .from(tripEvents)
    .where(and(eq(tripEvents.loadId, load.id), inArray(tripEvents.kind, ["awarded", "rate_confirmation_accepted"])))
    .orderBy(asc(tripEvents.id));
  // A side's acceptance is its first: any member of a shipper company may give the shipper's, once.
  const acceptedBy = (side: TSide) => {
    const e = events.find((x) => x.kind === "rate_confirmation_accepted" && sideOfEvent(x, load) === side);
    return e ? { at: new Date(e.createdAt).toISOString(), accountId: e.actorId ?? 0 } : null;
  };
  const awarded = events.filter((e) => e.kind === "awarded").at(-1);
  return {
    loadId: load.id,
    status: load.status,
    agreed: { amount: fromMinor(agreed.amountMinor, agreed.currency), currency: agreed.currency },
    awardedAt: awarded ? new Date(awarded.createdAt).toISOString() : null,
    shipper: partyOf(shipper, "shipper"),
    driver: partyOf(driver, "driver"),
    you,
    accepted: { shipper: acceptedBy("shipper"), driver: acceptedBy("driver") },
    pdfUrl: `/api/loads/${load.id}/rate-confirmation.pdf`,
  };
};

/**
 * One party accepts the rate confirmation: a `rate_confirmation_accepted` trip event with their account, their side
 * and the time, written once per side: the shipper's side is the poster and every owner or staff member of the
 * load's shipper company, and the first of them to accept accepts for it; a second member (or the same one again)
 * gets the state as it is, with no second event and no second notification. Under the load's lock, so two accepts at
 * once (a double tap, a replayed request, two colleagues) write one event. Refused once the load is cancelled.
 */
export const acceptRateConfirmation = async (db: TDb, actor: User, loadId: number, now = Date.now()) => {
  await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`load:${loadId}`]);
    const [load] = await tx.select().from(loads).where(eq(loads.id, loadId));
    const you = await sideOf(tx, load, actor);
    await agreedOf(tx, load!);
    const accepted = await tx
      .select({ actorId: tripEvents.actorId, detail: tripEvents.detail })
      .from(tripEvents)
      .where(and(eq(tripEvents.loadId, loadId), eq(tripEvents.kind, "rate_confirmation_accepted")));
    const already = accepted.some((e) => sideOfEvent(e, load!) === you);
    if (already) return;
    if (load!.status === "cancelled") throw CANCELLED(load!);
    await recordTripEvent(tx, loadId, "rate_confirmation_accepted", actor.id, now, { role: you });
    // The other side hears of it (the acting party is never told of their own step).
    await enqueueNotify(
      tx,
      [load!.shipperId, load!.assignedDriverId],
      { event: "rate_confirmation_accepted", loadId, actorId: actor.id },
      now,
    );
  });
  return rateConfirmationOf(db, actor, loadId);
};
