// "New load near you": drivers choose a radius and equipment; when a load is posted, the worker finds the drivers
// whose alert circle (around their last position) holds its pickup, through an index over the alert areas (SQLite's
// R*Tree of their bounding boxes, PostgreSQL's GiST of earth boxes), and writes one notification job each.
import { and, eq, inArray, sql } from "drizzle-orm";
import { type TBuilder, type TDb, txStatement } from "../../../../db/client";
import { type Load, loadAlerts, loads, type User, users } from "../../../../db/tables";
import { DEFAULT_RADIUS, EARTH_RADIUS_MILES, type TEquipmentType } from "../../../shared/constants";
import { haversineMiles } from "../../../shared/geo";
import type { TLoadAlertsInput } from "../../../shared/schemas/alerts";
import { enqueueMany } from "../../jobs/queue";
import { premiumWhere, requirePremium } from "../billing/premium";
import { notifyJob } from "../notifications/jobs";

const MILES_PER_DEGREE = (Math.PI * EARTH_RADIUS_MILES) / 180;

/**
 * The box around the alert circle, a little larger than the circle. Near a pole or across the 180th meridian the box
 * takes every longitude (the exact distance check decides).
 */
export const alertBox = (lat: number, lng: number, radiusMiles: number) => {
  const dLat = (radiusMiles / MILES_PER_DEGREE) * 1.01;
  const minLat = Math.max(-90, lat - dLat);
  const maxLat = Math.min(90, lat + dLat);
  const cos = Math.cos((Math.max(Math.abs(minLat), Math.abs(maxLat)) * Math.PI) / 180);
  const dLng = cos > 1e-6 ? (radiusMiles / (MILES_PER_DEGREE * cos)) * 1.01 : 360;
  const wraps = lng - dLng < -180 || lng + dLng > 180 || dLng >= 180;
  return {
    minLat,
    maxLat,
    minLng: wraps ? -180 : lng - dLng,
    maxLng: wraps ? 180 : lng + dLng,
  };
};

const parseTypes = (s: string): TEquipmentType[] => {
  try {
    const v = JSON.parse(s);
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
};

/** The driver's alert settings (off, 50 miles, any equipment when never saved) and the position they use. */
export const getLoadAlerts = async (db: TDb, driver: User) => {
  const [a] = await db.select().from(loadAlerts).where(eq(loadAlerts.userId, driver.id));
  const [u] = await db
    .select({ latitude: users.latitude, longitude: users.longitude, at: users.locationUpdatedAt })
    .from(users)
    .where(eq(users.id, driver.id));
  return {
    enabled: a?.enabled ?? false,
    radiusMiles: a?.radiusMiles ?? DEFAULT_RADIUS,
    equipmentTypes: a ? parseTypes(a.equipmentTypes) : [],
    location:
      u?.latitude != null && u.longitude != null
        ? { latitude: u.latitude, longitude: u.longitude, updatedAt: u.at ? new Date(u.at).toISOString() : null }
        : null,
  };
};

const positioned = (lat: number | null, lng: number | null, radius: number) =>
  lat != null && lng != null
    ? { latitude: lat, longitude: lng, ...alertBox(lat, lng, radius) }
    : { latitude: null, longitude: null, minLat: null, maxLat: null, minLng: null, maxLng: null };

/** Saves the driver's alerts. They are premium, as bidding is: switching them on needs it; changing or switching off not. */
export const saveLoadAlerts = async (db: TDb, driver: User, input: TLoadAlertsInput, now = Date.now()) => {
  if (input.enabled) {
    const [was] = await db
      .select({ enabled: loadAlerts.enabled })
      .from(loadAlerts)
      .where(eq(loadAlerts.userId, driver.id));
    if (!was?.enabled) requirePremium(driver, now);
  }
  const [u] = await db
    .select({ latitude: users.latitude, longitude: users.longitude })
    .from(users)
    .where(eq(users.id, driver.id));
  const values = {
    enabled: input.enabled,
    radiusMiles: input.radiusMiles,
    equipmentTypes: JSON.stringify([...new Set(input.equipmentTypes)]),
    ...positioned(u?.latitude ?? null, u?.longitude ?? null, input.radiusMiles),
    updatedAt: now,
  };
  await db
    .insert(loadAlerts)
    .values({ userId: driver.id, ...values })
    .onConflictDoUpdate({ target: loadAlerts.userId, set: values });
  return getLoadAlerts(db, driver);
};

/** The driver became available or not: only available drivers are told about loads. */
export const setLoadAlertsAvailable = (tx: Pick<TDb, "update">, userId: number, available: boolean) =>
  tx.update(loadAlerts).set({ available }).where(eq(loadAlerts.userId, userId));

/** The driver moved: their alert area moves with them (inside the location update's transaction). */
// The driver's alert area follows every position batch: its two statements are built once per handle (txStatement).
const alertRadius = txStatement((on) =>
  on
    .select({ radius: loadAlerts.radiusMiles })
    .from(loadAlerts)
    .where(eq(loadAlerts.userId, sql.placeholder("userId"))),
);
const alertMoves = txStatement((on) =>
  on
    .update(loadAlerts)
    .set({
      latitude: sql.placeholder("latitude"),
      longitude: sql.placeholder("longitude"),
      minLat: sql.placeholder("minLat"),
      maxLat: sql.placeholder("maxLat"),
      minLng: sql.placeholder("minLng"),
      maxLng: sql.placeholder("maxLng"),
    } as never)
    .where(eq(loadAlerts.userId, sql.placeholder("userId")))
    .returning({ userId: loadAlerts.userId }),
);

/** The driver moved: their alert area (if they have alerts) is centred on the new position. */
export const moveLoadAlerts = async (db: TDb, tx: TBuilder, userId: number, lat: number, lng: number) => {
  const [a] = await alertRadius(db, tx, { userId });
  if (!a) return;
  await alertMoves(db, tx, { userId, latitude: lat, longitude: lng, ...alertBox(lat, lng, a.radius) });
};

/**
 * The drivers to tell about a load: inside their circle (the index gives the candidates whose box holds the pickup and
 * who take its equipment), not the load's own shipper.
 */
export const matchLoadAlerts = async (
  db: TDb,
  load: Pick<Load, "pickupLatitude" | "pickupLongitude" | "equipmentType" | "shipperId">,
) => {
  const candidates = await db.q.alertCandidates(load.pickupLatitude, load.pickupLongitude, load.equipmentType);
  const out: { userId: number; distance: number }[] = [];
  for (const c of candidates) {
    if (c.userId === load.shipperId) continue;
    const distance = haversineMiles(c.latitude, c.longitude, load.pickupLatitude, load.pickupLongitude);
    if (distance <= c.radiusMiles) out.push({ userId: c.userId, distance: Math.round(distance) });
  }
  return out;
};

/**
 * The `load_alerts` job (enqueued with the load's posting): one `notify` job per matching driver, written in batches;
 * each fans out to the bell and the driver's channels when it runs. Keys make a re-run add nothing.
 */
export const enqueueLoadAlerts = async (db: TDb, loadId: number, now = Date.now()) => {
  const [load] = await db.select().from(loads).where(eq(loads.id, loadId));
  if (load?.status !== "posted") return { matched: 0 };
  // Only drivers with premium are told (they are the ones who may bid); the others keep their settings for later.
  const matched = await matchLoadAlerts(db, load);
  const premium = new Set<number>();
  for (let i = 0; i < matched.length; i += 500) {
    const ids = matched.slice(i, i + 500).map((m) => m.userId);
    for (const u of await db
      .select({ id: users.id })
      .from(users)
      .where(and(inArray(users.id, ids), premiumWhere(now))))
      premium.add(u.id);
  }
  const matches = matched.filter((m) => premium.has(m.userId));
  await enqueueMany(
    db,
    notifyJob,
    matches.map((m) => ({
      payload: { userId: m.userId, event: "load_nearby", loadId, actorId: load.shipperId, distance: m.distance },
      uniqueKey: `notify:load_nearby:${loadId}::${m.userId}`,
    })),
    now,
  );
  return { matched: matches.length };
};
