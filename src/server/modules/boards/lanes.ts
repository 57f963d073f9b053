import { and, asc, count, eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type SavedLane, savedLanes, type User } from "../../../../db/tables";
import { SAVED_LANES_MAX, type TEquipmentType } from "../../../shared/constants";
import { type TSavedLaneInput, type TUpdateSavedLaneInput, ZSavedLaneInput } from "../../../shared/schemas/lanes";
import { AppError } from "../../errors";

// A user's saved lanes (origin and radius, optional destination and radius, equipment): what board sync searches besides
// the user's last location. A lane is its owner's alone: another user's id answers 404, as if it did not exist.

const NOT_FOUND = /*i18n*/ { id: "error.lane.notFound", message: "Saved lane not found" };

/** A lane as the API shows it: the same flat fields it is saved with, so an answer can be sent back to update it. */
export const toPublicLane = (l: SavedLane) => ({
  id: l.id,
  name: l.name,
  originName: l.originName,
  originLatitude: l.originLatitude,
  originLongitude: l.originLongitude,
  originRadiusMiles: l.originRadiusMiles,
  destinationName: l.destinationName,
  destinationLatitude: l.destinationLatitude,
  destinationLongitude: l.destinationLongitude,
  destinationRadiusMiles: l.destinationRadiusMiles,
  equipmentTypes: l.equipmentTypes as TEquipmentType[],
  createdAt: new Date(l.createdAt).toISOString(),
  updatedAt: new Date(l.updatedAt).toISOString(),
});
export type TPublicLane = ReturnType<typeof toPublicLane>;

/** The user's lanes, oldest first (the order they were added in). */
export const listLanes = (db: TDb, userId: number) =>
  db.select().from(savedLanes).where(eq(savedLanes.userId, userId)).orderBy(asc(savedLanes.id));

/** The caller's own lane, or 404. */
export const ownLane = async (db: TDb, user: User, id: number) => {
  const [l] = await db
    .select()
    .from(savedLanes)
    .where(and(eq(savedLanes.id, id), eq(savedLanes.userId, user.id)));
  if (!l) throw new AppError("NOT_FOUND", NOT_FOUND);
  return l;
};

export const createLane = async (db: TDb, user: User, input: TSavedLaneInput, now = Date.now()) =>
  db.transaction(async (tx) => {
    // Two requests at once must not both pass the count: on PostgreSQL they take turns on the user's key (SQLite's
    // transactions already do).
    await db.q.lockKeys(tx, [`lanes:${user.id}`]);
    const [{ n } = { n: 0 }] = await tx.select({ n: count() }).from(savedLanes).where(eq(savedLanes.userId, user.id));
    if (n >= SAVED_LANES_MAX)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.lane.limit",
          message: "You can save at most {max} lanes: delete one you no longer run first",
          values: { max: SAVED_LANES_MAX },
        },
      );
    const [row] = await tx
      .insert(savedLanes)
      .values({ ...input, userId: user.id, createdAt: now, updatedAt: now })
      .returning();
    return row!;
  });

/** The saved lane as the create schema's input, so changes can be merged onto it and the whole checked again. */
const asInput = (l: SavedLane) => ({
  name: l.name,
  originName: l.originName,
  originLatitude: l.originLatitude,
  originLongitude: l.originLongitude,
  originRadiusMiles: l.originRadiusMiles,
  destinationName: l.destinationName,
  destinationLatitude: l.destinationLatitude,
  destinationLongitude: l.destinationLongitude,
  destinationRadiusMiles: l.destinationRadiusMiles,
  equipmentTypes: l.equipmentTypes,
});

const DESTINATION = ["destinationName", "destinationLatitude", "destinationLongitude"] as const;

/** Changed fields only; the lane they make is checked as a whole (issues name the fields, as on create). */
export const updateLane = async (db: TDb, user: User, id: number, changes: TUpdateSavedLaneInput, now = Date.now()) => {
  const lane = await ownLane(db, user, id);
  const given = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  const merged: Record<string, unknown> = { ...asInput(lane), ...given };
  // Its name or a coordinate given as null (and none of them a value): the lane no longer has a destination.
  const clears = DESTINATION.some((k) => given[k] === null) && DESTINATION.every((k) => !given[k]);
  if (clears) for (const k of [...DESTINATION, "destinationRadiusMiles"]) merged[k] = null;
  const next = ZSavedLaneInput.parse(merged);
  const [row] = await db
    .update(savedLanes)
    .set({ ...next, updatedAt: now })
    .where(and(eq(savedLanes.id, lane.id), eq(savedLanes.userId, user.id)))
    .returning();
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return row;
};

export const deleteLane = async (db: TDb, user: User, id: number) => {
  const lane = await ownLane(db, user, id);
  await db.delete(savedLanes).where(and(eq(savedLanes.id, lane.id), eq(savedLanes.userId, user.id)));
  return { success: true as const };
};
