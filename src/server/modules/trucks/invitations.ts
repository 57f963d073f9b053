// Invitations to bid: a shipper who found a truck near their pickup asks its driver to bid on one of their open
// MyTess loads. At most one invitation per truck and load (the pair is unique); the driver is told through the notify
// fan-out (the bell and the channels they set up, in their language) with a link to the load, where they bid as usual.
import { and, desc, eq, gte, inArray, or } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { loads, type TruckInvitation, truckInvitations, trucks, type User, users } from "../../../../db/tables";
import { placeLabel } from "../../../shared/place";
import type { TTruckInvitation } from "../../../shared/schemas/trucks";
import { AppError } from "../../errors";
import { actsAsShipper } from "../companies/work";
import { LOAD_NOT_FOUND } from "../loads/errors";
import { enqueueNotify } from "../notifications/notify";
import { TRUCK_NOT_FOUND } from "./trucks";

type TInvitationRow = TruckInvitation & {
  loadTitle: string;
  pickupCity: string;
  pickupCountry: string;
  deliveryCity: string;
  deliveryCountry: string;
  shipperFirstName: string | null;
  shipperLastName: string | null;
};

const toPublic = (r: TInvitationRow): TTruckInvitation => ({
  id: r.id,
  truckId: r.truckId,
  loadId: r.loadId,
  shipperName: [r.shipperFirstName, r.shipperLastName ? `${r.shipperLastName.charAt(0)}.` : ""]
    .filter(Boolean)
    .join(" "),
  route: `${placeLabel(r.pickupCity, r.pickupCountry)} → ${placeLabel(r.deliveryCity, r.deliveryCountry)}`,
  loadTitle: r.loadTitle,
  createdAt: new Date(r.createdAt).toISOString(),
});

const selectInvitations = (db: TDb) =>
  db
    .select({
      id: truckInvitations.id,
      truckId: truckInvitations.truckId,
      loadId: truckInvitations.loadId,
      shipperId: truckInvitations.shipperId,
      driverId: truckInvitations.driverId,
      createdAt: truckInvitations.createdAt,
      loadTitle: loads.title,
      pickupCity: loads.pickupCity,
      pickupCountry: loads.pickupCountry,
      deliveryCity: loads.deliveryCity,
      deliveryCountry: loads.deliveryCountry,
      shipperFirstName: users.firstName,
      shipperLastName: users.lastName,
    })
    .from(truckInvitations)
    .innerJoin(loads, eq(loads.id, truckInvitations.loadId))
    .innerJoin(users, eq(users.id, truckInvitations.shipperId));

/**
 * The shipper invites the truck's driver to bid on their load. The truck must be one a search would show (not
 * expired); the load the shipper's own posted MyTess load (another's, or none, is 404 as if it did not exist).
 */
export const inviteToBid = async (db: TDb, shipper: User, truckId: number, loadId: number, now = Date.now()) => {
  const [truck] = await db
    .select()
    .from(trucks)
    .where(and(eq(trucks.id, truckId), gte(trucks.availableEnd, now)));
  if (!truck) throw new AppError("NOT_FOUND", TRUCK_NOT_FOUND);
  const [load] = await db.select().from(loads).where(eq(loads.id, loadId));
  if (load?.sourceType !== "mytess" || !(await actsAsShipper(db, load, shipper)))
    throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  if (load.status !== "posted")
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.truck.loadNotOpen",
        message: "Only a load still open for bids can be offered to a truck",
      },
    );
  const id = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(truckInvitations)
      .values({ truckId, loadId, shipperId: shipper.id, driverId: truck.driverId, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: truckInvitations.id });
    if (!row)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.truck.alreadyInvited",
          message: "You already invited this truck's driver to bid on this load",
        },
      );
    await enqueueNotify(
      tx,
      [truck.driverId],
      { event: "truck_invitation", loadId, actorId: shipper.id, ref: `truck-${truckId}` },
      now,
    );
    return row.id;
  });
  const [created] = await selectInvitations(db).where(eq(truckInvitations.id, id));
  return toPublic(created!);
};

/**
 * The invitations a driver received or a shipper sent, newest first; with `loadId`, those about that load (its page's
 * "Invited by the shipper" for the driver, "Invited" for the shipper).
 */
export const myInvitations = async (db: TDb, user: User, loadId?: number) => {
  const mine = or(eq(truckInvitations.driverId, user.id), eq(truckInvitations.shipperId, user.id));
  const rows = await selectInvitations(db)
    .where(loadId === undefined ? mine : and(mine, eq(truckInvitations.loadId, loadId)))
    .orderBy(desc(truckInvitations.id))
    .limit(100);
  return rows.map(toPublic);
};

/**
 * Which of these loads the driver was invited to bid on (by any of their trucks): the board's, the dashboard's and the
 * load page's "Invited". Only the driver's own invitations are read, so another driver's never show.
 */
export const invitedLoadIds = async (db: TDb, driverId: number, loadIds: number[]): Promise<Set<number>> => {
  const ids = [...new Set(loadIds.filter((id) => id > 0))];
  if (!ids.length) return new Set();
  const rows = await db
    .selectDistinct({ loadId: truckInvitations.loadId })
    .from(truckInvitations)
    .where(and(eq(truckInvitations.driverId, driverId), inArray(truckInvitations.loadId, ids)));
  return new Set(rows.map((r) => r.loadId));
};
