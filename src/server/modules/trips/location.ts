import { and, eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { loads, type User, users } from "../../../../db/tables";
import { moveLoadAlerts, setLoadAlertsAvailable } from "../loads/alerts";
import { addPointToTrips } from "../tracking/positions";

/** Stores a driver's position; while a load of theirs is in transit, the position joins that trip's track. */
export const updateDriverLocation = (db: TDb, driver: User, latitude: number, longitude: number, now = Date.now()) =>
  db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ latitude, longitude, locationUpdatedAt: now, updatedAt: now })
      .where(eq(users.id, driver.id))
      .returning();
    await moveLoadAlerts(db, tx, driver.id, latitude, longitude);
    const active = await tx
      .select({ id: loads.id })
      .from(loads)
      .where(and(eq(loads.assignedDriverId, driver.id), eq(loads.status, "in_transit")));
    await addPointToTrips(
      tx,
      active.map((l) => l.id),
      { latitude, longitude, recordedAt: now },
      now,
    );
    return {
      latitude: user.latitude!,
      longitude: user.longitude!,
      updatedAt: new Date(now).toISOString(),
      isAvailable: user.isAvailable,
      trackedLoadIds: active.map((l) => l.id),
    };
  });

export const setDriverAvailability = (db: TDb, driver: User, isAvailable: boolean) =>
  db.transaction(async (tx) => {
    const [user] = await tx
      .update(users)
      .set({ isAvailable, updatedAt: Date.now() })
      .where(eq(users.id, driver.id))
      .returning();
    await setLoadAlertsAvailable(tx, driver.id, isAvailable);
    return user;
  });
