// Trucks: a driver posts where and when a truck is free, where it would go, its equipment and capacity; shippers find
// trucks near their pickup. A truck is its driver's alone: another account's id answers 404, as if it did not exist.
// Past its available-to date a truck is hidden from search (the driver still sees it, marked expired) and housekeeping
// removes it a week later.
import { and, count, desc, eq, inArray, lt } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type Truck, truckInvitations, trucks, type User, users } from "../../../../db/tables";
import type {
  TCreateTruckInput,
  TTruck,
  TTruckSearchInput,
  TTruckSearchPage,
  TTruckSearchResult,
} from "../../../shared/schemas/trucks";
import { AppError } from "../../errors";
import { badgesFor } from "../verification/verification";

export const TRUCK_NOT_FOUND = /*i18n*/ { id: "error.truck.notFound", message: "Truck not found" };
/** How many trucks one driver may have posted at a time (expired ones count until housekeeping removes them). */
export const TRUCKS_PER_DRIVER_MAX = 20;
/** How long an expired truck stays in its driver's list before housekeeping removes it. */
export const EXPIRED_TRUCK_KEPT_MS = 7 * 24 * 60 * 60 * 1000;
// A phone's clock a few minutes behind is not a mistake.
const PAST_GRACE_MS = 5 * 60 * 1000;

const iso = (ms: number) => new Date(ms).toISOString();

/** A truck as its driver sees it. */
export const toPublicTruck = (t: Truck, now = Date.now()): TTruck => ({
  id: t.id,
  origin: { name: t.originName, latitude: t.originLatitude, longitude: t.originLongitude },
  availableFrom: iso(t.availableStart),
  availableTo: iso(t.availableEnd),
  destination:
    t.destinationLatitude === null || t.destinationLongitude === null
      ? null
      : {
          name: t.destinationName,
          latitude: t.destinationLatitude,
          longitude: t.destinationLongitude,
          radiusMiles: t.destinationRadiusMiles ?? 100,
        },
  equipmentType: t.equipmentType as TTruck["equipmentType"],
  capacityLbs: t.capacityLbs,
  lengthFt: t.lengthFt,
  plate: t.plate,
  note: t.note,
  expired: t.availableEnd < now,
  createdAt: iso(t.createdAt),
});

/** The driver's trucks, newest first. */
export const listMyTrucks = async (db: TDb, driver: User, now = Date.now()) => {
  const rows = await db.select().from(trucks).where(eq(trucks.driverId, driver.id)).orderBy(desc(trucks.id));
  return rows.map((t) => toPublicTruck(t, now));
};

const issue = (path: string, message: { id: string; message: string; values?: Record<string, unknown> }) =>
  new AppError("BAD_REQUEST", message, { issues: [{ path, message }] });

export const createTruck = async (db: TDb, driver: User, input: TCreateTruckInput, now = Date.now()) => {
  if (input.availableTo < now - PAST_GRACE_MS)
    throw issue(
      "availableTo",
      /*i18n*/ { id: "error.truck.availableToPast", message: "availableTo must not be in the past" },
    );
  const anywhere = input.destinationLatitude == null || input.destinationLongitude == null;
  return db.transaction(async (tx) => {
    // Two posts at once must not both pass the count: on PostgreSQL they take turns on the driver's key (SQLite's
    // transactions already do).
    await db.q.lockKeys(tx, [`trucks:${driver.id}`]);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(trucks).where(eq(trucks.driverId, driver.id));
    if (Number(n) >= TRUCKS_PER_DRIVER_MAX)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.truck.limit",
          message: "You can post at most {max} trucks: delete one you no longer need first",
          values: { max: TRUCKS_PER_DRIVER_MAX },
        },
      );
    const [row] = await tx
      .insert(trucks)
      .values({
        driverId: driver.id,
        originName: input.originName,
        originLatitude: input.originLatitude,
        originLongitude: input.originLongitude,
        availableStart: input.availableFrom,
        availableEnd: input.availableTo,
        destinationName: anywhere ? null : input.destinationName,
        destinationLatitude: anywhere ? null : input.destinationLatitude,
        destinationLongitude: anywhere ? null : input.destinationLongitude,
        destinationRadiusMiles: anywhere ? null : input.destinationRadius,
        equipmentType: input.equipmentType,
        capacityLbs: input.capacityLbs,
        lengthFt: input.lengthFt ?? null,
        plate: input.plate,
        note: input.note,
        createdAt: now,
      })
      .returning();
    return toPublicTruck(row!, now);
  });
};

export const deleteTruck = async (db: TDb, driver: User, id: number) => {
  const gone = await db
    .delete(trucks)
    .where(and(eq(trucks.id, id), eq(trucks.driverId, driver.id)))
    .returning({ id: trucks.id });
  if (!gone.length) throw new AppError("NOT_FOUND", TRUCK_NOT_FOUND);
  return { deleted: true as const };
};

/** Trucks whose available-to date passed more than a week ago: housekeeping's. */
export const pruneExpiredTrucks = async (db: TDb, now = Date.now()) =>
  (
    await db
      .delete(trucks)
      .where(lt(trucks.availableEnd, now - EXPIRED_TRUCK_KEPT_MS))
      .returning({ id: trucks.id })
  ).length;

/**
 * The drivers as a shipper weighs them: the first name and the initial of the last, the average rating, how many
 * ratings and trips, and the Verified badge. Nothing that reaches the person (no id, email or phone).
 */
const driversOf = async (db: TDb, ids: number[], now: number) => {
  const unique = [...new Set(ids)];
  const out = new Map<number, TTruckSearchResult["driver"]>();
  if (!unique.length) return out;
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      ratingSum: users.ratingSum,
      totalRatings: users.totalRatings,
      totalTrips: users.totalTrips,
    })
    .from(users)
    .where(inArray(users.id, unique));
  const badges = await badgesFor(db, unique, now);
  for (const r of rows)
    out.set(r.id, {
      name: [r.firstName, r.lastName ? `${r.lastName.charAt(0)}.` : ""].filter(Boolean).join(" "),
      rating: r.totalRatings > 0 ? Math.round((r.ratingSum / r.totalRatings) * 10) / 10 : null,
      ratings: r.totalRatings,
      trips: r.totalTrips,
      verified: badges.has(r.id),
    });
  return out;
};

/** A shipper's search of trucks near a pickup (`db.q.searchTrucks`: the engine's spatial index), nearest first. */
export const searchTrucks = async (
  db: TDb,
  shipper: User,
  p: TTruckSearchInput,
  now = Date.now(),
): Promise<TTruckSearchPage> => {
  const { rows, hasMore } = await db.q.searchTrucks(p, now);
  const drivers = await driversOf(
    db,
    rows.map((r) => r.driverId),
    now,
  );
  const invited = rows.length
    ? await db
        .select({ truckId: truckInvitations.truckId, loadId: truckInvitations.loadId })
        .from(truckInvitations)
        .where(
          and(
            eq(truckInvitations.shipperId, shipper.id),
            inArray(
              truckInvitations.truckId,
              rows.map((r) => r.id),
            ),
          ),
        )
    : [];
  return {
    items: rows.map((r) => {
      const { plate: _plate, expired: _expired, ...truck } = toPublicTruck(r, now);
      return {
        ...truck,
        distanceMiles: Math.round(r.distanceMiles * 10) / 10,
        driver: drivers.get(r.driverId) ?? { name: "", rating: null, ratings: 0, trips: 0, verified: false },
        invitedLoadIds: invited
          .filter((i) => i.truckId === r.id)
          .map((i) => i.loadId)
          .sort((a, b) => a - b),
      };
    }),
    page: p.page,
    pageSize: p.pageSize,
    hasMore,
  };
};
