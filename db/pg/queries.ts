// PostgreSQL's own queries, behind the handle's `q`, answering the same functions as db/sqlite/queries.ts: "near me"
// in the order of the GiST index over earth points (contrib's cube + earthdistance, migration 0001), board figures,
// trips' last positions, and the transaction-scoped locks that serialize sign-in attempts per key. Distances and the
// radius use the same haversine (3,959-mile sphere) as SQLite, so both engines find and count the same loads; the
// earth box only narrows the search to the index.
import type { SQL } from "bun";
import { getTableColumns, sql } from "drizzle-orm";
import { haversineMiles } from "../../src/shared/geo";
import type { TLoadSearchInput } from "../../src/shared/schemas/loads";
import type { TTruckSearchInput } from "../../src/shared/schemas/trucks";
import type { TAlertCandidate, TBoardStatsRow, TLastPosition, TQueries, TSearchRows, TTruckRows } from "../queries";
import type { Load, NewLoad, Truck } from "../schema";
import { loads, trucks } from "./schema";

const MILE_M = 1609.344;
const snake = (k: string) => k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
const UPSERT_KEYS = Object.keys(getTableColumns(loads)).filter((k) => k !== "id") as (keyof NewLoad)[];
const KEEP_ON_UPDATE = new Set(["createdAt", "sourceConfigId", "sourceExternalId", "shipperId"]);
const ARRAY_TYPE: Record<string, string> = {
  "double precision": "float8",
  bigint: "int8",
  integer: "int4",
  text: "text",
};
const UPSERT_TYPES = UPSERT_KEYS.map((k) => {
  const t = getTableColumns(loads)[k].getSQLType();
  const a = ARRAY_TYPE[t];
  if (!a) throw new Error(`loads.${k}: no array type for ${t}`);
  return a;
});
const UPSERT_SQL_HEAD = `INSERT INTO loads (${UPSERT_KEYS.map(snake).join(", ")}) SELECT * FROM unnest(${UPSERT_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(", ")})`;
const UPSERT_CONFLICT = `ON CONFLICT (source_config_id, source_external_id) DO UPDATE SET ${UPSERT_KEYS.filter(
  (k) => !KEEP_ON_UPDATE.has(k),
)
  .map((k) => `${snake(k)} = excluded.${snake(k)}`)
  .join(", ")}`;
const UPSERT_SQL = `${UPSERT_SQL_HEAD} ${UPSERT_CONFLICT}`;
const USD_PER_MILE = "(l.budget_minor / 100.0 / fx.rate_per_usd) / GREATEST(l.trip_miles, 1)";
const PICKUP = "ll_to_earth(l.pickup_latitude, l.pickup_longitude)";

/** Positional parameters ($1, $2, …) collected as the SQL is built. */
const params = () => {
  const values: unknown[] = [];
  return { values, p: (v: unknown) => `$${values.push(v)}` };
};
type TParams = ReturnType<typeof params>;

const haversine = (lat: string, lng: string, end = "pickup") => `(2 * 3959 * asin(least(1, sqrt(
  power(sin(radians(l.${end}_latitude - ${lat}) / 2), 2) +
  cos(radians(${lat})) * cos(radians(l.${end}_latitude)) * power(sin(radians(l.${end}_longitude - ${lng}) / 2), 2)))))`;

// The lane index's point (migration 0017): both ends as earth points (earth()'s sphere, 6,378,168 m) and the pickup day.
const EARTH_M = 6_378_168;
const LANE_POINT =
  "lane_point(l.pickup_latitude, l.pickup_longitude, l.delivery_latitude, l.delivery_longitude, l.pickup_date)";
const UNBOUNDED = 1e12;
/**
 * The lane's box in the index's seven dimensions: around each end given, its earth point plus or minus the radius
 * (a chord is shorter than its arc; 1% more covers the two spheres' difference), unbounded otherwise.
 */
const laneBox = (f: TLoadSearchInput) => {
  const lo: number[] = [];
  const hi: number[] = [];
  const end = (lat: number | undefined, lng: number | undefined, miles: number) => {
    if (lat === undefined || lng === undefined) {
      lo.push(-UNBOUNDED, -UNBOUNDED, -UNBOUNDED);
      hi.push(UNBOUNDED, UNBOUNDED, UNBOUNDED);
      return;
    }
    const [la, ln] = [(lat * Math.PI) / 180, (lng * Math.PI) / 180];
    const r = (miles * MILE_M) / 0.99;
    for (const c of [
      EARTH_M * Math.cos(la) * Math.cos(ln),
      EARTH_M * Math.cos(la) * Math.sin(ln),
      EARTH_M * Math.sin(la),
    ]) {
      lo.push(c - r);
      hi.push(c + r);
    }
  };
  end(f.latitude, f.longitude, f.radius);
  end(f.destinationLatitude, f.destinationLongitude, f.destinationRadius);
  // Days as float8: a millisecond either side keeps the window's ends inside whatever the division rounds to.
  lo.push(f.pickupFrom === undefined ? -UNBOUNDED : (f.pickupFrom - 1) / 86_400_000);
  hi.push(f.pickupTo === undefined ? UNBOUNDED : (f.pickupTo + 1) / 86_400_000);
  return { lo, hi };
};
/** A posted search with a destination is a lane: the lane index answers it. */
const isLane = (f: TLoadSearchInput) => f.status === "posted" && f.destinationLatitude !== undefined;

/** The conditions of a search (as SQLite's filtersOf): non-posted loads only for their shipper and assigned driver. */
const filtersOf = (f: TLoadSearchInput, viewerId: number | null, { p }: TParams) => {
  const where = [`l.status = ${p(f.status)}`];
  if (f.status !== "posted") {
    const v = p(viewerId ?? -1);
    // Only MyTess loads leave the posted state; saying so lets the partial earth index of those loads answer.
    where.push(`l.source_type = 'mytess'`, `(l.shipper_id = ${v} OR l.assigned_driver_id = ${v})`);
  }
  // External loads synced from a board belong to the user whose configuration brought them.
  where.push(`(l.source_type = 'mytess' OR l.source_owner_id = ${p(viewerId ?? -1)})`);
  if (f.sourceType !== "all") where.push(`l.source_type = ${p(f.sourceType)}`);
  if (f.equipmentType?.length) where.push(`l.equipment_type = ANY(${p(f.equipmentType)}::text[])`);
  if (f.loadSize) where.push(`l.load_size = ${p(f.loadSize)}`);
  if (f.pickupFrom !== undefined) where.push(`l.pickup_date >= ${p(f.pickupFrom)}`);
  if (f.pickupTo !== undefined) where.push(`l.pickup_date <= ${p(f.pickupTo)}`);
  if (f.destinationLatitude !== undefined && f.destinationLongitude !== undefined) {
    const miles = haversine(`${p(f.destinationLatitude)}::float8`, `${p(f.destinationLongitude)}::float8`, "delivery");
    where.push(`${miles} <= ${p(f.destinationRadius)}`);
  }
  if (isLane(f)) {
    const box = laneBox(f);
    where.push(`${LANE_POINT} <@ cube(${p(box.lo)}::float8[], ${p(box.hi)}::float8[])`);
  }
  if (f.maxWeight !== undefined) where.push(`l.weight_lbs <= ${p(f.maxWeight)}`);
  if (f.minRate !== undefined) where.push(`${USD_PER_MILE} >= ${p(f.minRate)}`);
  if (f.location) {
    const like = p(`%${f.location.replace(/[%_]/g, "")}%`);
    where.push(
      `(${["pickup_city", "pickup_state", "pickup_country", "delivery_city", "delivery_state", "delivery_country"]
        .map((c) => `l.${c} ILIKE ${like}`)
        .join(" OR ")})`,
    );
  }
  return where;
};

/**
 * Within `radius` miles of the point: the earth box (index) narrows, the haversine decides. A lane is narrowed by the
 * lane index instead (filtersOf), so the pickup box is left out for the planner to take that one.
 */
const withinRadius = (f: TLoadSearchInput, { p }: TParams) => {
  const lat = p(f.latitude);
  const lng = p(f.longitude);
  const distance = haversine(`${lat}::float8`, `${lng}::float8`);
  const conditions = [`${distance} <= ${p(f.radius)}`];
  // The box is drawn a little larger than the radius: the earth's model here differs slightly from the haversine's.
  if (!isLane(f))
    conditions.unshift(`earth_box(ll_to_earth(${lat}, ${lng}), ${p((f.radius * MILE_M) / 0.99)}) @> ${PICKUP}`);
  return { conditions, lat, lng, distance };
};

/** A raw `loads` row (snake_case, bigint as text) as drizzle would give it, through each column's own mapping. */
const LOAD_COLUMNS = Object.entries(getTableColumns(loads)).map(
  ([key, column]) => [key, column.name.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`), column] as const,
);
const toLoad = (raw: Record<string, unknown>) =>
  Object.fromEntries(
    LOAD_COLUMNS.map(([key, name, column]) => [key, raw[name] == null ? null : column.mapFromDriverValue(raw[name])]),
  ) as Load;

const TRUCK_COLUMNS = Object.entries(getTableColumns(trucks)).map(
  ([key, column]) => [key, snake(column.name), column] as const,
);
const toTruck = (raw: Record<string, unknown>) => ({
  ...(Object.fromEntries(
    TRUCK_COLUMNS.map(([key, name, column]) => [key, raw[name] == null ? null : column.mapFromDriverValue(raw[name])]),
  ) as Truck),
  distanceMiles: Number(raw.distance_miles),
});

/**
 * Trucks near a pickup: the GiST index of origins answers the earth box around the point (drawn a little larger than
 * the radius, as for loads), the haversine decides; nearest first by the same haversine as SQLite, then id.
 */
const truckSearch = (f: TTruckSearchInput, now: number) => {
  const ps = params();
  const { p } = ps;
  const lat = p(f.latitude);
  const lng = p(f.longitude);
  const distance = `(2 * 3959 * asin(least(1, sqrt(
    power(sin(radians(t.origin_latitude - ${lat}::float8) / 2), 2) +
    cos(radians(${lat}::float8)) * cos(radians(t.origin_latitude)) *
    power(sin(radians(t.origin_longitude - ${lng}::float8) / 2), 2)))))`;
  const where = [
    `earth_box(ll_to_earth(${lat}, ${lng}), ${p((f.radius * MILE_M) / 0.99)}) @> ll_to_earth(t.origin_latitude, t.origin_longitude)`,
    `t.available_end >= ${p(now)}`,
    `${distance} <= ${p(f.radius)}`,
  ];
  if (f.destinationLatitude !== undefined && f.destinationLongitude !== undefined) {
    const dlat = p(f.destinationLatitude);
    const dlng = p(f.destinationLongitude);
    where.push(`(t.destination_latitude IS NULL OR (2 * 3959 * asin(least(1, sqrt(
      power(sin(radians(t.destination_latitude - ${dlat}::float8) / 2), 2) +
      cos(radians(${dlat}::float8)) * cos(radians(t.destination_latitude)) *
      power(sin(radians(t.destination_longitude - ${dlng}::float8) / 2), 2))))) <= t.destination_radius_miles + ${p(f.destinationRadius)})`);
  }
  if (f.availableFrom !== undefined) where.push(`t.available_end >= ${p(f.availableFrom)}`);
  if (f.availableTo !== undefined) where.push(`t.available_start <= ${p(f.availableTo)}`);
  if (f.equipmentType?.length) where.push(`t.equipment_type = ANY(${p(f.equipmentType)}::text[])`);
  if (f.minCapacityLbs !== undefined) where.push(`t.capacity_lbs >= ${p(f.minCapacityLbs)}`);
  const text = `SELECT t.*, ${distance} AS distance_miles FROM trucks t WHERE ${where.join(" AND ")}
    ORDER BY distance_miles ASC, t.id ASC LIMIT ${p(f.pageSize + 1)} OFFSET ${p((f.page - 1) * f.pageSize)}`;
  return { text, values: ps.values };
};

/**
 * `client` is the pool for everything; `nearest` is a small pool whose sessions have bitmap scans off, for the
 * nearest-first search: the planner underestimates how many loads an earth box holds (a fixed guess for the cube's
 * <@) and would otherwise read every load in the box through a bitmap and sort them (18 ms against 0.9 ms for the
 * ordered index scan that stops after one page, at 50k loads).
 */
export const createPgQueries = (client: SQL, nearest: SQL): Omit<TQueries, "sharedTransaction"> => {
  const rows = <T>(text: string, values: unknown[]) => client.unsafe(text, values as never[]) as Promise<T[]>;

  const searchLoads = async (f: TLoadSearchInput, viewerId: number | null): Promise<TSearchRows> => {
    const ps = params();
    const where = filtersOf(f, viewerId, ps);
    const offset = (f.page - 1) * f.pageSize;
    const want = offset + f.pageSize + 1; // one more tells whether a next page exists
    const needsFx = f.minRate !== undefined || f.sort === "rate";
    const join = needsFx ? "JOIN fx_rates fx ON fx.currency = l.budget_currency" : "";
    let order = f.sort === "rate" ? `${USD_PER_MILE} DESC, l.id DESC` : "l.pickup_date ASC, l.id ASC";
    let knn = false;
    if (f.latitude !== undefined && f.longitude !== undefined) {
      const near = withinRadius(f, ps);
      where.push(...near.conditions);
      // Nearest first in the GiST index's order (the earth chord grows with the great-circle distance). No second
      // key: the index alone gives this order, so the scan stops after `want` rows (ties are ordered below).
      if (f.sort === "distance" && isLane(f)) {
        // A lane holds few loads: ordered exactly, as SQLite orders them.
        order = `${near.distance} ASC, l.id ASC`;
      } else if (f.sort === "distance") {
        order = `${PICKUP} <-> ll_to_earth(${near.lat}, ${near.lng})`;
        knn = true;
      }
    }
    const text = `SELECT l.* FROM loads l ${join} WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT ${ps.p(want)}`;
    const found = [...(await (knn ? nearest : client).unsafe(text, ps.values as never[]))].map(toLoad);
    if (knn) {
      // Ties and the last digits ordered exactly as SQLite does: by haversine miles, then id.
      const d = (l: Load) => haversineMiles(f.latitude!, f.longitude!, l.pickupLatitude, l.pickupLongitude);
      found.sort((a, b) => d(a) - d(b) || a.id - b.id);
    }
    return { rows: found.slice(offset, offset + f.pageSize), hasMore: found.length > offset + f.pageSize };
  };

  const boardStats = async (f: TLoadSearchInput, viewerId: number | null, now: number): Promise<TBoardStatsRow> => {
    const ps = params();
    const where = filtersOf(f, viewerId, ps);
    if (f.latitude !== undefined && f.longitude !== undefined) where.push(...withinRadius(f, ps).conditions);
    const urgentBefore = ps.p(now + 2 * 24 * 60 * 60 * 1000);
    const since = ps.p(now - 86_400_000);
    const [row] = await rows<TBoardStatsRow>(
      `SELECT count(*)::int AS total,
              count(*) FILTER (WHERE l.pickup_date <= ${urgentBefore} AND l.pickup_date >= ${since})::int AS urgent,
              avg(${USD_PER_MILE})::float8 AS "avgUsdPerMile",
              count(*) FILTER (WHERE l.source_type = 'external')::int AS external
       FROM loads l JOIN fx_rates fx ON fx.currency = l.budget_currency WHERE ${where.join(" AND ")}`,
      ps.values,
    );
    return row;
  };

  /** Whether the search would find this load: the search's own conditions on the one row. */
  const matchesLoad = async (f: TLoadSearchInput, viewerId: number | null, loadId: number) => {
    const ps = params();
    const where = [`l.id = ${ps.p(loadId)}`, ...filtersOf(f, viewerId, ps)];
    if (f.latitude !== undefined && f.longitude !== undefined) where.push(...withinRadius(f, ps).conditions);
    const join = f.minRate !== undefined ? "JOIN fx_rates fx ON fx.currency = l.budget_currency" : "";
    const found = await rows<{ id: number }>(
      `SELECT l.id FROM loads l ${join} WHERE ${where.join(" AND ")}`,
      ps.values,
    );
    return found.length > 0;
  };

  const searchTrucks = async (f: TTruckSearchInput, now: number): Promise<TTruckRows> => {
    const { text, values } = truckSearch(f, now);
    const found = (await rows<Record<string, unknown>>(text, values)).map(toTruck);
    return { rows: found.slice(0, f.pageSize), hasMore: found.length > f.pageSize };
  };

  const lastPositions = async (loadIds: number[]): Promise<TLastPosition[]> => {
    if (!loadIds.length) return [];
    const ps = params();
    return rows<TLastPosition>(
      `SELECT DISTINCT ON (load_id) load_id AS "loadId", latitude, longitude, recorded_at::float8 AS "recordedAt"
       FROM trip_points WHERE load_id IN (${loadIds.map((id) => ps.p(id)).join(", ")})
       ORDER BY load_id, recorded_at DESC, id DESC`,
      ps.values,
    );
  };

  /**
   * Serializes transactions over the same keys (sign-in attempts of one account or address): transaction-scoped
   * advisory locks, taken in a fixed order so two transactions cannot wait for each other.
   */
  const lockKeys = async (tx: object, keys: string[]) => {
    const { execute } = tx as { execute: (q: ReturnType<typeof sql>) => Promise<unknown> };
    for (const key of [...keys].sort())
      await execute.call(tx, sql`SELECT pg_advisory_xact_lock(hashtextextended(${key}, 0))`);
  };

  /** FOR UPDATE SKIP LOCKED on a select: rows another worker is claiming are passed over, not waited for. */
  const skipLocked = <T>(query: T): T =>
    (query as unknown as { for: (s: "update", o: { skipLocked: boolean }) => T }).for("update", { skipLocked: true });

  /** Load alerts whose area's earth box holds the point (GiST `load_alerts_area_idx`), of available drivers. */
  const alertCandidates = (lat: number, lng: number, equipment: string) =>
    rows<TAlertCandidate>(
      `SELECT a.user_id AS "userId", a.latitude, a.longitude, a.radius_miles AS "radiusMiles"
       FROM load_alerts a
       WHERE earth_box(ll_to_earth(a.latitude, a.longitude), a.radius_miles * ${MILE_M}) @> ll_to_earth($1, $2)
         AND a.enabled AND a.latitude IS NOT NULL AND a.available
         AND (a.equipment_types = '[]' OR strpos(a.equipment_types, $3) > 0)`,
      [lat, lng, JSON.stringify(equipment)],
    );

  /**
   * Board sync's writes (as SQLite's): 10,000 rows a statement, sent as one array per column and unnested, updating the
   * row with the same identity.
   */
  const trustVersion = async () =>
    (await rows<{ version: number }>("SELECT version FROM cache_versions WHERE name = 'trust'", []))[0]?.version ?? 0;

  const cacheVersions = async () => {
    const r = (
      await rows<{ board: number | string; trust: number | string }>(
        `SELECT coalesce(max(CASE WHEN name = 'board' THEN version END), 0) AS board,
            coalesce(max(CASE WHEN name = 'trust' THEN version END), 0) AS trust FROM cache_versions`,
        [],
      )
    )[0];
    return { board: Number(r?.board ?? 0), trust: Number(r?.trust ?? 0) };
  };

  const boardChangedSince = async (
    from: number,
    to: number,
    c: { latFrom: number; latTo: number; lngFrom: number; lngTo: number },
  ) =>
    (
      await rows<{ changed: boolean }>(
        `SELECT (SELECT version FROM cache_versions WHERE name = 'board') - 100000 >= $1::integer OR EXISTS (
             SELECT 1 FROM board_changes WHERE version > $1::integer AND version <= $2::integer
               AND (cell_lat IS NULL OR (cell_lat BETWEEN $3::integer AND $4::integer AND cell_lng BETWEEN $5::integer AND $6::integer))
           ) AS changed`,
        [from, to, c.latFrom, c.latTo, c.lngFrom, c.lngTo],
      )
    )[0]?.changed ?? true;

  const upsertExternalLoads = async (rows: NewLoad[]) => {
    for (let i = 0; i < rows.length; i += 10_000) {
      const chunk = rows.slice(i, i + 10_000);
      const arrays = UPSERT_KEYS.map((k, c) =>
        client.array(
          chunk.map((r) => r[k] ?? null),
          UPSERT_TYPES[c]!.toUpperCase() as never,
        ),
      );
      await client.unsafe(UPSERT_SQL, arrays as never[]);
    }
  };

  return {
    searchLoads,
    boardStats,
    matchesLoad,
    searchTrucks,
    lastPositions,
    alertCandidates,
    lockKeys,
    skipLocked,
    upsertExternalLoads,
    trustVersion,
    cacheVersions,
    boardChangedSince,
  };
};
