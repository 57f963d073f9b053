import { and, asc, count, desc, eq, gte, inArray, isNull, lt, or, sql } from "drizzle-orm";
import { perHandle, type TDb, type TTx, txStatement } from "../../../../db/client";
import { bids, type Load, loads, tripAlerts, tripPoints, type User, users } from "../../../../db/tables";
import { haversineMiles } from "../../../shared/geo";
import { ARRIVAL_MILES, type TPosition, type TTrack } from "../../../shared/schemas/tracking";
import { AppError, type TAppIssue } from "../../errors";
import { publishLiveOn } from "../../live/publish";
import { isTripParty } from "../companies/work";
import { moveLoadAlerts } from "../loads/alerts";
import { LOAD_NOT_FOUND, LOAD_STATUS_WORD } from "../loads/errors";
import { enqueueNotify } from "../notifications/notify";
import { emitWebhookEvent } from "../webhooks/emit";
import { MIN_MOVING_MPH, RECENT_SPEED_WINDOW_MS, remainingRoadMiles, thin, tripSpeedMph } from "./eta";

/** A phone's clock may run a little ahead of ours: a point up to this far in the future is taken as now. */
export const CLOCK_SKEW_MS = 2 * 60_000;
/** The most points a track answer carries for the map, spread evenly over the whole trip. */
export const MAX_TRACK_POINTS = 500;

type TTrackable = Pick<
  Load,
  | "id"
  | "status"
  | "shipperId"
  | "assignedDriverId"
  | "acceptedBidId"
  | "updatedAt"
  | "deliveredAt"
  | "pickupLatitude"
  | "pickupLongitude"
  | "deliveryLatitude"
  | "deliveryLongitude"
>;

const TRACKED: Load["status"][] = ["assigned", "in_transit", "delivered", "completed"];

/** What a batch and a track read of their load (the hottest paths there are: not the load's forty-odd columns). */
const BATCH_COLUMNS = {
  id: loads.id,
  status: loads.status,
  shipperId: loads.shipperId,
  assignedDriverId: loads.assignedDriverId,
  acceptedBidId: loads.acceptedBidId,
  updatedAt: loads.updatedAt,
  deliveredAt: loads.deliveredAt,
  deliveryDate: loads.deliveryDate,
  pickupLatitude: loads.pickupLatitude,
  pickupLongitude: loads.pickupLongitude,
  deliveryLatitude: loads.deliveryLatitude,
  deliveryLongitude: loads.deliveryLongitude,
};
type TBatchLoad = TTrackable & Pick<Load, "deliveryDate">;

// A batch's statements, built once (db/client.ts txStatement): thousands of drivers report every few seconds.
const batchLoad = txStatement((on) =>
  on
    .select(BATCH_COLUMNS)
    .from(loads)
    .where(eq(loads.id, sql.placeholder("loadId"))),
);
const awardedAt = txStatement((on) =>
  on
    .select({ at: bids.updatedAt })
    .from(bids)
    .where(eq(bids.id, sql.placeholder("bidId"))),
);

/** When the trip began: the award (the accepted bid's last change), which is when the load became the driver's. */
const tripStart = async (db: TDb, tx: TTx, load: TTrackable) => {
  if (load.acceptedBidId == null) return load.updatedAt;
  const [bid] = await awardedAt(db, tx, { bidId: load.acceptedBidId });
  return bid?.at ?? load.updatedAt;
};

const iso = (ms: number) => new Date(ms).toISOString();

const notTracked = (load: Pick<Load, "status">) =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.tracking.notTracked",
      message: "This load's trip is not being tracked: it is {status}",
      values: { status: LOAD_STATUS_WORD[load.status] },
    },
  );

const pointIssue = (index: number, message: TAppIssue["message"]): TAppIssue => ({
  path: `positions.${index}.recordedAt`,
  message,
});

/**
 * Stores a batch of the assigned driver's positions on the load's track. Every point is checked before anything is
 * written (a point in the future or before the award is a 400 naming it); a point already stored (the same time on
 * the same load: a batch sent again after a lost answer) and points after the delivery are ignored. The driver's own
 * position follows the newest point, and the shipper's screens are told the track moved.
 */
export const recordPositions = async (
  db: TDb,
  driver: Pick<User, "id">,
  loadId: number,
  positions: TPosition[],
  now = Date.now(),
) =>
  // A shared transaction: on SQLite, batches that arrive while one commits are written together (one COMMIT for many
  // drivers' batches, each in its own savepoint), which is what lets thousands of drivers report at once.
  db.q.sharedTransaction(async (tx) => {
    // The load's lock orders a batch with the load's status moves, and with another batch of the same trip.
    await db.q.lockKeys(tx, [`load:${loadId}`]);
    const [load] = await batchLoad(db, tx, { loadId });
    if (!load || load.assignedDriverId !== driver.id) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
    if (!TRACKED.includes(load.status)) throw notTracked(load);
    const start = await tripStart(db, tx, load);
    const issues: TAppIssue[] = [];
    positions.forEach((p, i) => {
      if (p.recordedAt > now + CLOCK_SKEW_MS)
        issues.push(
          pointIssue(i, /*i18n*/ { id: "error.tracking.future", message: "recordedAt must not be in the future" }),
        );
      else if (p.recordedAt < start)
        issues.push(
          pointIssue(
            i,
            /*i18n*/ { id: "error.tracking.beforeTrip", message: "recordedAt must not be before the load was awarded" },
          ),
        );
    });
    if (issues.length) {
      const first = issues[0];
      throw new AppError(
        "BAD_REQUEST",
        /*i18n*/ {
          id: "error.tracking.badPoint",
          message: "{path}: a position's time must lie between the award and now",
          values: { path: first.path },
        },
        { issues },
      );
    }
    const kept = positions.filter((p) => load.deliveredAt == null || p.recordedAt <= load.deliveredAt);
    const stored = kept.length ? await insertPoints(db, tx, kept, load.id) : [];
    if (stored.length) {
      await afterStored(db, tx, driver.id, load, stored, now);
      await noticeArrivalAndDelay(db, tx, load, stored, now);
    }
    const newest = stored.reduce<(typeof stored)[number] | null>(
      (a, p) => (a && a.recordedAt >= p.recordedAt ? a : p),
      null,
    );
    return {
      stored: stored.length,
      ignored: positions.length - stored.length,
      lastPosition: newest
        ? { latitude: newest.latitude, longitude: newest.longitude, recordedAt: iso(newest.recordedAt) }
        : null,
    };
  });

type TStored = { latitude: number; longitude: number; recordedAt: number };

const POINT_FIELDS = ["latitude", "longitude", "recordedAt", "accuracy", "speed", "heading"] as const;

/** One insert of n points (its text depends on n only: one statement per batch size, up to MAX_POSITIONS_PER_CALL). */
const pointsInsert = txStatement((on, n: number) =>
  on
    .insert(tripPoints)
    .values(
      Array.from({ length: n }, (_, i) => ({
        loadId: sql.placeholder("loadId"),
        ...Object.fromEntries(POINT_FIELDS.map((f) => [f, sql.placeholder(`${f}${i}`)])),
      })) as never,
    )
    .onConflictDoNothing()
    .returning({ latitude: tripPoints.latitude, longitude: tripPoints.longitude, recordedAt: tripPoints.recordedAt }),
);

/** The placeholder names of the i-th point's fields, made once (building them per batch showed in profiles). */
const POINT_KEYS: [field: (typeof POINT_FIELDS)[number], key: string][][] = [];
const pointKeys = (i: number) => {
  POINT_KEYS[i] ??= POINT_FIELDS.map((f) => [f, `${f}${i}`]);
  return POINT_KEYS[i];
};

const insertPoints = (db: TDb, tx: TTx, points: TPosition[], loadId: number): Promise<TStored[]> => {
  const params: Record<string, number | null> = { loadId };
  for (let i = 0; i < points.length; i++) {
    const p = points[i];
    for (const [f, key] of pointKeys(i)) params[key] = p[f] ?? null;
  }
  return pointsInsert(db, tx, params, points.length);
};

const driverMoves = txStatement((on) =>
  on
    .update(users)
    .set({
      latitude: sql.placeholder("latitude"),
      longitude: sql.placeholder("longitude"),
      locationUpdatedAt: sql.placeholder("at"),
    } as never)
    .where(
      and(
        eq(users.id, sql.placeholder("driverId")),
        or(isNull(users.locationUpdatedAt), lt(users.locationUpdatedAt, sql.placeholder("at"))),
      ),
    )
    .returning({ id: users.id }),
);

/** The driver's own position follows the trip's newest point, unless a newer one is already known. */
const afterStored = async (db: TDb, tx: TTx, driverId: number, load: TTrackable, stored: TStored[], now: number) => {
  const newest = stored.reduce((a, p) => (a.recordedAt >= p.recordedAt ? a : p));
  await emitPosition(tx, load, newest, now, db);
  const moved = await driverMoves(db, tx, {
    driverId,
    latitude: newest.latitude,
    longitude: newest.longitude,
    at: newest.recordedAt,
  });
  if (moved.length) await moveLoadAlerts(db, tx, driverId, newest.latitude, newest.longitude);
  await publishLiveOn(db, tx, [load.shipperId], "load", { loadId: load.id });
};

const batchRecentPoints = txStatement((on) =>
  recentPoints(on, sql.placeholder("loadId") as never, sql.placeholder("since") as never),
);
const lastDelayTold = txStatement((on) =>
  on
    .select({ etaAt: tripAlerts.etaAt })
    .from(tripAlerts)
    .where(and(eq(tripAlerts.loadId, sql.placeholder("loadId")), eq(tripAlerts.kind, "delayed")))
    .orderBy(desc(tripAlerts.createdAt), desc(tripAlerts.id))
    .limit(1),
);

/** A delay is told again only when the ETA slips this much past the one told last. */
export const DELAY_STEP_MS = 60 * 60_000;

const within = (p: TStored, lat: number, lng: number) =>
  haversineMiles(p.latitude, p.longitude, lat, lng) <= ARRIVAL_MILES;

/**
 * What the new points mean for the shipper: the driver's arrival at the pickup point (before pickup) or at the
 * delivery point (in transit), told once each (a unique index keeps it once even for two batches at once), and, in
 * transit, an ETA past the delivery date, told once and again only when it slips another hour.
 */
const noticeArrivalAndDelay = async (db: TDb, tx: TTx, load: TBatchLoad, stored: TStored[], now: number) => {
  const arrivals: {
    kind: "arrived_pickup" | "arrived_delivery";
    event: "driver_arrived_pickup" | "driver_arrived_delivery";
    at: TStored;
  }[] = [];
  const atPickup = stored.find((p) => within(p, load.pickupLatitude, load.pickupLongitude));
  if (load.status === "assigned" && atPickup)
    arrivals.push({ kind: "arrived_pickup", event: "driver_arrived_pickup", at: atPickup });
  const atDelivery = stored.find((p) => within(p, load.deliveryLatitude, load.deliveryLongitude));
  if (load.status === "in_transit" && atDelivery)
    arrivals.push({ kind: "arrived_delivery", event: "driver_arrived_delivery", at: atDelivery });
  for (const a of arrivals) {
    const [alert] = await tx
      .insert(tripAlerts)
      .values({ loadId: load.id, kind: a.kind, etaAt: null, createdAt: a.at.recordedAt })
      .onConflictDoNothing()
      .returning({ id: tripAlerts.id });
    if (alert)
      await enqueueNotify(
        tx,
        [load.shipperId],
        { event: a.event, loadId: load.id, actorId: load.assignedDriverId },
        now,
      );
  }
  if (load.status !== "in_transit") return;
  const newest = stored.reduce((a, p) => (a.recordedAt >= p.recordedAt ? a : p));
  // The reckoned speed is never below MIN_MOVING_MPH (slower reads as stopped and another speed is used), so when even
  // that pace arrives in time the ETA cannot be late, and the last hour's points need not be read.
  const delivery = { latitude: load.deliveryLatitude, longitude: load.deliveryLongitude };
  const slowest = now + (remainingRoadMiles(newest, delivery, delivery, true) / MIN_MOVING_MPH) * 3_600_000;
  if (slowest <= load.deliveryDate) return;
  const recent = await batchRecentPoints(db, tx, {
    loadId: load.id,
    since: newest.recordedAt - RECENT_SPEED_WINDOW_MS,
  });
  const { eta } = reckon(load, recent, now);
  if (eta == null || eta <= load.deliveryDate) return;
  const [told] = await lastDelayTold(db, tx, { loadId: load.id });
  if (told?.etaAt != null && eta < told.etaAt + DELAY_STEP_MS) return;
  const [alert] = await tx
    .insert(tripAlerts)
    .values({ loadId: load.id, kind: "delayed", etaAt: eta, createdAt: now })
    .returning({ id: tripAlerts.id });
  await enqueueNotify(
    tx,
    [load.shipperId],
    {
      event: "load_delayed",
      loadId: load.id,
      actorId: load.assignedDriverId,
      ref: alert.id,
      hoursLate: Math.floor((eta - load.deliveryDate) / 3_600_000),
    },
    now,
  );
};

/** Adds one point (the driver's own position update) to the tracks of their loads in transit; a repeat adds nothing. */
export const addPointToTrips = async (tx: TTx, loadIds: number[], point: TStored, now = point.recordedAt) => {
  if (!loadIds.length) return;
  const added = await tx
    .insert(tripPoints)
    .values(loadIds.map((loadId) => ({ loadId, ...point })))
    .onConflictDoNothing()
    .returning({ loadId: tripPoints.loadId });
  if (!added.length) return;
  const parties = await tx
    .select({ id: loads.id, shipperId: loads.shipperId, assignedDriverId: loads.assignedDriverId })
    .from(loads)
    .where(
      inArray(
        loads.id,
        added.map((a) => a.loadId),
      ),
    );
  for (const load of parties) await emitPosition(tx, load, point, now);
};

/** A new newest point of a trip, to the webhooks of its shipper and driver (coalesced: see webhooks/emit.ts). */
const emitPosition = (
  tx: TTx,
  load: { id: number; shipperId: number | null; assignedDriverId: number | null },
  point: TStored,
  now: number,
  db?: TDb,
) =>
  emitWebhookEvent(
    tx,
    {
      event: "load.position",
      loadId: load.id,
      to: [load.shipperId, load.assignedDriverId],
      data: { latitude: point.latitude, longitude: point.longitude, recordedAt: iso(point.recordedAt) },
      now,
    },
    db,
  );

/** The track of a load the caller is a party to; 404 for everyone else. */
// The track's reads, prepared once per handle (perHandle): outside a transaction, so on both engines.
const trackLoad = perHandle((db) =>
  db
    .select({ ...BATCH_COLUMNS, carrierCompanyId: loads.carrierCompanyId, shipperCompanyId: loads.shipperCompanyId })
    .from(loads)
    .where(eq(loads.id, sql.placeholder("loadId")))
    .prepare(),
);

export const trackForParty = async (db: TDb, actor: Pick<User, "id">, loadId: number, now = Date.now()) => {
  const [load] = await trackLoad(db).execute({ loadId });
  if (!load || !(await isTripParty(db, load, actor))) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  return trackOf(db, load, now);
};

/**
 * The trip's points in time order: all of them when there are at most `max`, otherwise `max` points evenly spread
 * (the first and the last always among them, the points `thin` picks). The database numbers the points over the
 * (load, time) index, keeps the picked numbers with whole-number arithmetic (no list of wanted numbers to test each
 * row against) and joins back for their positions, so a long trip is never read whole.
 */
export const thinnedPoints = async (
  db: Pick<TDb, "select">,
  loadId: number,
  max = MAX_TRACK_POINTS,
  /** The first max + 1 points, when the caller read them already (the track, through its prepared statement). */
  readHead?: TStored[],
): Promise<TStored[]> => {
  const columns = { latitude: tripPoints.latitude, longitude: tripPoints.longitude, recordedAt: tripPoints.recordedAt };
  // Most trips hold fewer points than that: one read of at most max + 1 points says so and is the answer.
  const head =
    readHead ??
    (await db
      .select(columns)
      .from(tripPoints)
      .where(eq(tripPoints.loadId, loadId))
      .orderBy(asc(tripPoints.recordedAt))
      .limit(max + 1));
  if (head.length <= max) return head;
  const [{ n }] = await db.select({ n: count() }).from(tripPoints).where(eq(tripPoints.loadId, loadId));
  const m = n - 1;
  const k = max - 1;
  const numbered = db
    .select({
      at: sql<number>`${tripPoints.recordedAt}`.as("at"),
      rn: sql<number>`row_number() over (order by ${tripPoints.recordedAt}) - 1`.as("rn"),
    })
    .from(tripPoints)
    .where(eq(tripPoints.loadId, loadId))
    .as("numbered");
  const picked = db
    .select({ at: numbered.at })
    .from(numbered)
    .where(sql`(${numbered.rn} * CAST(${k} AS BIGINT)) % CAST(${m} AS BIGINT) < CAST(${k} AS BIGINT)`)
    .as("picked");
  const rows = await db
    .select(columns)
    .from(tripPoints)
    .innerJoin(picked, and(eq(tripPoints.loadId, loadId), eq(tripPoints.recordedAt, picked.at)))
    .orderBy(asc(tripPoints.recordedAt));
  return rows.map((r) => ({ ...r, recordedAt: Number(r.recordedAt) }));
};

/**
 * The trip's track: at most MAX_TRACK_POINTS points spread over the whole trip, the last position, the road miles
 * left and the ETA at the trip's recent speed (with the time it was reckoned), and what the tracking told the shipper.
 * It reads the thinned track and the last hour, never every point of a long trip.
 */
// The track's reads of every answer, prepared once per handle (outside any transaction, so on both engines).
const trackHead = perHandle((db) =>
  db
    .select({ latitude: tripPoints.latitude, longitude: tripPoints.longitude, recordedAt: tripPoints.recordedAt })
    .from(tripPoints)
    .where(eq(tripPoints.loadId, sql.placeholder("loadId")))
    .orderBy(asc(tripPoints.recordedAt))
    .limit(MAX_TRACK_POINTS + 1)
    .prepare(),
);
const trackAlerts = perHandle((db) =>
  db
    .select()
    .from(tripAlerts)
    .where(eq(tripAlerts.loadId, sql.placeholder("loadId")))
    .orderBy(asc(tripAlerts.createdAt), asc(tripAlerts.id))
    .prepare(),
);

export const trackOf = async (db: TDb, load: TTrackable, now = Date.now()): Promise<TTrack> => {
  const points = await thinnedPoints(db, load.id, MAX_TRACK_POINTS, await trackHead(db).execute({ loadId: load.id }));
  const last = points.at(-1) ?? null;
  // A track that was not thinned holds the last hour already; a thinned one has it read apart.
  const since = last ? last.recordedAt - RECENT_SPEED_WINDOW_MS : 0;
  const recent = !last
    ? []
    : points.length < MAX_TRACK_POINTS
      ? points.filter((p) => p.recordedAt >= since)
      : await recentPoints(db, load.id, since);
  const events = await trackAlerts(db).execute({ loadId: load.id });
  const pickup = { latitude: load.pickupLatitude, longitude: load.pickupLongitude };
  const delivery = { latitude: load.deliveryLatitude, longitude: load.deliveryLongitude };
  const { remainingMiles, eta } = reckon(load, points, now, recent);
  return {
    loadId: load.id,
    status: load.status,
    positions: points.map(toPoint),
    lastPosition: last ? toPoint(last) : null,
    remainingMiles,
    eta: eta == null ? null : iso(eta),
    etaComputedAt: iso(now),
    pickup,
    delivery,
    events: events.map((e) => ({ kind: e.kind, at: iso(e.createdAt), eta: e.etaAt == null ? null : iso(e.etaAt) })),
  };
};

const toPoint = (p: TStored) => ({ latitude: p.latitude, longitude: p.longitude, recordedAt: iso(p.recordedAt) });

/**
 * Road miles left and the ETA (epoch ms), from the points of the track in time order (the whole trip, possibly
 * thinned, its last point the newest) and the last hour's points (read from the points when not given).
 */
export const reckon = (load: TTrackable, points: TStored[], now: number, recentOnes?: TStored[]) => {
  if (load.status === "delivered" || load.status === "completed")
    return { remainingMiles: 0, eta: load.deliveredAt ?? null };
  if (load.status !== "assigned" && load.status !== "in_transit") return { remainingMiles: null, eta: null };
  const pickup = { latitude: load.pickupLatitude, longitude: load.pickupLongitude };
  const delivery = { latitude: load.deliveryLatitude, longitude: load.deliveryLongitude };
  const last = points.at(-1);
  if (!last) return { remainingMiles: round1(remainingRoadMiles(pickup, pickup, delivery, true)), eta: null };
  const miles = remainingRoadMiles(last, pickup, delivery, load.status === "in_transit");
  const recent = recentOnes ?? points.filter((p) => p.recordedAt >= last.recordedAt - RECENT_SPEED_WINDOW_MS);
  const speed = tripSpeedMph(recent, thin(points, MAX_TRACK_POINTS));
  return { remainingMiles: round1(miles), eta: Math.round(now + (miles / speed) * 3_600_000) };
};

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The recent part of a track, for reckoning the ETA after a batch without reading the whole trip. */
export const recentPoints = (tx: Pick<TDb, "select">, loadId: number, since: number) =>
  tx
    .select({ latitude: tripPoints.latitude, longitude: tripPoints.longitude, recordedAt: tripPoints.recordedAt })
    .from(tripPoints)
    .where(and(eq(tripPoints.loadId, loadId), gte(tripPoints.recordedAt, since)))
    .orderBy(asc(tripPoints.recordedAt));
