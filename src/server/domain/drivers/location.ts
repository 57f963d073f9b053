import { and, eq } from "drizzle-orm";
import type { Db } from "../../../../db/client";
import { loads, tripPoints, type User, users } from "../../../../db/schema";

/** Stores a driver's position; while a load of theirs is in transit, the position joins that trip's track. */
export const updateDriverLocation = (db: Db, driver: User, latitude: number, longitude: number, now = Date.now()) =>
  db.transaction((tx) => {
    const user = tx
      .update(users)
      .set({ latitude, longitude, locationUpdatedAt: now, updatedAt: now })
      .where(eq(users.id, driver.id))
      .returning()
      .get();
    const active = tx
      .select({ id: loads.id })
      .from(loads)
      .where(and(eq(loads.assignedDriverId, driver.id), eq(loads.status, "in_transit")))
      .all();
    if (active.length)
      tx.insert(tripPoints)
        .values(active.map((l) => ({ loadId: l.id, latitude, longitude, recordedAt: now })))
        .run();
    return {
      latitude: user.latitude!,
      longitude: user.longitude!,
      updatedAt: new Date(now).toISOString(),
      isAvailable: user.isAvailable,
      trackedLoadIds: active.map((l) => l.id),
    };
  });

export const setDriverAvailability = (db: Db, driver: User, isAvailable: boolean) =>
  db.update(users).set({ isAvailable, updatedAt: Date.now() }).where(eq(users.id, driver.id)).returning().get();
