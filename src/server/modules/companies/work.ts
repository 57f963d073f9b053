// A carrier company's work: its owners and dispatchers bid for it, a load awarded to one of its bids is the company's,
// they assign the trip to one of its drivers, and they keep seeing the trip after it is assigned. The trip's steps
// stay the assigned driver's (the same checks as an independent driver's), so who is a load's party is decided here,
// once, for every module that asks.
import { and, eq } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import { companyMembers, type Load, loads, type User } from "../../../../db/tables";
import { AppError } from "../../errors";
import { LOAD_NOT_FOUND } from "../loads/errors";
import { membershipOf } from "./companies";

type TReader = Pick<TDb, "select">;
/** The roles that act for a carrier: bid, assign drivers, follow the trips. */
export const CARRIER_ACTING_ROLES = ["owner", "dispatcher"] as const;

/** The carrier company a bid by this user is for: theirs when they own or dispatch for a carrier, else none. */
export const biddingCompanyOf = async (db: TReader, user: Pick<User, "id">) => {
  const m = await membershipOf(db, user.id);
  if (m?.company.kind !== "carrier") return null;
  return (CARRIER_ACTING_ROLES as readonly string[]).includes(m.member.role) ? m.company.id : null;
};

/** True when the user owns or dispatches for the carrier company the load was awarded to. */
export const dispatchesLoad = async (
  db: TReader,
  load: Pick<Load, "carrierCompanyId">,
  user: Pick<User, "id">,
): Promise<boolean> => {
  if (load.carrierCompanyId == null) return false;
  return (await biddingCompanyOf(db, user)) === load.carrierCompanyId;
};

/** The roles that act for a shipper company: every member (owners and staff) posts and manages its loads. */
export const SHIPPER_ACTING_ROLES = ["owner", "staff"] as const;

/** The shipper company a load posted by this user belongs to: theirs when they are in a shipper company, else none. */
export const postingCompanyOf = async (db: TReader, user: Pick<User, "id">) => {
  const m = await membershipOf(db, user.id);
  if (m?.company.kind !== "shipper") return null;
  return (SHIPPER_ACTING_ROLES as readonly string[]).includes(m.member.role) ? m.company.id : null;
};

/**
 * The one answer to "may this user act as the load's shipper" (edit, cancel, bids, counter-offers, award, pay, proof
 * of delivery, tracking links, ratings, messages, the lists): its poster, or an owner or staff member of the shipper
 * company it was posted for, read now, so a member who leaves loses the company's loads at once. A poster who leaves
 * keeps the loads they posted (they are still `shipper_id`); the company keeps them too.
 */
export const actsAsShipper = async (
  db: TReader,
  load: Pick<Load, "shipperId" | "shipperCompanyId">,
  user: Pick<User, "id">,
): Promise<boolean> => {
  if (load.shipperId != null && load.shipperId === user.id) return true;
  if (load.shipperCompanyId == null) return false;
  return (await postingCompanyOf(db, user)) === load.shipperCompanyId;
};

/**
 * How the user takes part in the load's trip: its shipper, its assigned driver (who runs the steps), the company's
 * dispatcher (an owner or dispatcher of the carrier it was awarded to, who sees it and assigns its driver), or none.
 */
export const tripRoleOf = async (
  db: TReader,
  load: Pick<Load, "shipperId" | "shipperCompanyId" | "assignedDriverId" | "carrierCompanyId">,
  user: Pick<User, "id">,
): Promise<"shipper" | "driver" | "dispatcher" | null> => {
  if (await actsAsShipper(db, load, user)) return "shipper";
  if (load.assignedDriverId === user.id) return "driver";
  return (await dispatchesLoad(db, load, user)) ? "dispatcher" : null;
};

/** True for the load's shipper, its assigned driver and its carrier's dispatchers: the trip's parties. */
export const isTripParty = async (
  db: TReader,
  load: Pick<Load, "shipperId" | "shipperCompanyId" | "assignedDriverId" | "carrierCompanyId">,
  user: Pick<User, "id">,
) => (await tripRoleOf(db, load, user)) !== null;

/**
 * POST /api/loads/:id/assign-driver {driverId}: an owner or dispatcher of the carrier the load was awarded to gives
 * its trip to one of the company's drivers, before pickup. Under the load's lock, conditional on the status read.
 */
export const assignDriver = async (db: TDb, user: User, loadId: number, driverId: number, now = Date.now()) =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`load:${loadId}`]);
    const load = first(await tx.select().from(loads).where(eq(loads.id, loadId)).limit(1));
    if (!load || load.carrierCompanyId == null) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
    const m = await membershipOf(tx, user.id);
    if (!m || m.company.id !== load.carrierCompanyId) {
      // Not the company's: as any other account, the load is not theirs to see once awarded.
      throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
    }
    if (!(await dispatchesLoad(tx, load, user)))
      throw new AppError(
        "FORBIDDEN",
        /*i18n*/ {
          id: "error.company.assignNeedsDispatcher",
          message: "Only the company's owners and dispatchers assign its trips",
        },
      );
    const [driver] = await tx
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(
        and(
          eq(companyMembers.companyId, load.carrierCompanyId),
          eq(companyMembers.userId, driverId),
          eq(companyMembers.role, "driver"),
        ),
      );
    if (!driver) {
      const notDriver = /*i18n*/ {
        id: "error.company.notCompanyDriver",
        message: "Choose one of the company's drivers",
      };
      throw new AppError("BAD_REQUEST", notDriver, { issues: [{ path: "driverId", message: notDriver }] });
    }
    if (load.status !== "assigned")
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.company.assignAfterPickup",
          message: "A driver is assigned before pickup only",
        },
      );
    const [updated] = await tx
      .update(loads)
      .set({ assignedDriverId: driverId, updatedAt: now })
      .where(and(eq(loads.id, loadId), eq(loads.status, "assigned")))
      .returning();
    return updated!;
  });
