// SQLite's own queries, behind the handle's `q`: "near me" through the R*Tree, candidate checks in batches through
// json_each, and other reads that drizzle's shared subset cannot say. A PostgreSQL module answers the same functions.
import type { Database } from "bun:sqlite";
import { getTableColumns } from "drizzle-orm";
import { boundingBox, haversineMiles } from "../../src/shared/geo";
import type { TLoadSearchInput } from "../../src/shared/schemas/loads";
import type { TTruckSearchInput } from "../../src/shared/schemas/trucks";
import type { TGate } from "../client";
import type { TAlertCandidate, TBoardStatsRow, TLastPosition, TQueries, TSearchRows, TTruckRows } from "../queries";
import { type Load, loads, type NewLoad, trucks } from "../schema";

// "Near me" reads the R*Tree of pickup points, never every load (CROSS JOIN keeps SQLite from driving the join from
// the status index instead, which would visit every posted load). Sorted by distance, it widens a box around the point
// until the nearest page is certain (every load inside the box's inscribed circle is known), so the work follows the
// page size, not the number of loads. Other sorts read the radius's box once and let SQLite sort.

const snake = (k: string) => k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
const SELECT_LOAD = Object.keys(getTableColumns(loads))
  .map((k) => `l.${snake(k)} AS "${k}"`)
  .join(", ");

// Rate per mile in USD, for the rate sort and the minimum-rate filter (budgets come in several currencies).
const USD_PER_MILE = "(l.budget_minor / 100.0 / fx.rate_per_usd) / MAX(l.trip_miles, 1)";
/** Great-circle miles from ($lat, $lng), or another centre's parameters, to a point given by two SQL expressions. */
const haversine = (la: string, lo: string, lat = "$lat", lng = "$lng") => `(2 * 3959 * asin(min(1, sqrt(
  power(sin(radians(${la} - ${lat}) / 2), 2) +
  cos(radians(${lat})) * cos(radians(${la})) * power(sin(radians(${lo} - ${lng}) / 2), 2)))))`;
const HAVERSINE = haversine("l.pickup_latitude", "l.pickup_longitude");
const DELIVERY_HAVERSINE = haversine("l.delivery_latitude", "l.delivery_longitude", "$dlat", "$dlng");

type TFilters = { where: string[]; params: Record<string, string | number> };

/**
 * The SQL conditions of a search. A load that is no longer posted belongs to its parties: only its shipper and its
 * assigned driver find it (nobody, anonymously). `fromPostedPoints`: the candidates come from `postedPoints`, which
 * already holds only posted loads the viewer may see, of the source asked for; the other filters are left.
 */
const filtersOf = (p: TLoadSearchInput, viewerId: number | null, fromPostedPoints = false): TFilters => {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  if (!fromPostedPoints) {
    where.push("l.status = $status");
    params.status = p.status;
    if (p.status !== "posted") {
      where.push("(l.shipper_id = $viewerId OR l.assigned_driver_id = $viewerId)");
      params.viewerId = viewerId ?? -1;
    }
    // External loads synced from a board belong to the user whose configuration brought them.
    where.push("(l.source_type = 'mytess' OR l.source_owner_id = $ownerId)");
    params.ownerId = viewerId ?? -1;
    if (p.sourceType !== "all") {
      where.push("l.source_type = $sourceType");
      params.sourceType = p.sourceType;
    }
  }
  if (p.equipmentType?.length) {
    where.push("l.equipment_type IN (SELECT value FROM json_each($equipmentTypes))");
    params.equipmentTypes = JSON.stringify(p.equipmentType);
  }
  if (p.loadSize) {
    where.push("l.load_size = $loadSize");
    params.loadSize = p.loadSize;
  }
  if (p.pickupFrom !== undefined) {
    where.push("l.pickup_date >= $pickupFrom");
    params.pickupFrom = p.pickupFrom;
  }
  if (p.pickupTo !== undefined) {
    where.push("l.pickup_date <= $pickupTo");
    params.pickupTo = p.pickupTo;
  }
  if (p.destinationLatitude !== undefined && p.destinationLongitude !== undefined) {
    where.push(`${DELIVERY_HAVERSINE} <= $destinationRadius`);
    Object.assign(params, {
      dlat: p.destinationLatitude,
      dlng: p.destinationLongitude,
      destinationRadius: p.destinationRadius,
    });
  }
  if (p.maxWeight !== undefined) {
    where.push("l.weight_lbs <= $maxWeight");
    params.maxWeight = p.maxWeight;
  }
  if (p.minRate !== undefined) {
    where.push(`${USD_PER_MILE} >= $minRate`);
    params.minRate = p.minRate;
  }
  if (p.location) {
    where.push(
      "(l.pickup_city LIKE $location OR l.pickup_state LIKE $location OR l.pickup_country LIKE $location OR " +
        "l.delivery_city LIKE $location OR l.delivery_state LIKE $location OR l.delivery_country LIKE $location)",
    );
    params.location = `%${p.location.replace(/[%_]/g, "")}%`;
  }
  return { where, params };
};

const ORDER = { rate: `${USD_PER_MILE} DESC, l.id DESC`, date: "l.pickup_date ASC, l.id ASC" } as const;

/** Boxes that cross the antimeridian are split in two so the R*Tree can answer them. */
const lngRanges = (minLng: number, maxLng: number): [number, number][] => {
  if (maxLng - minLng >= 360) return [[-180, 180]];
  if (minLng < -180)
    return [
      [minLng + 360, 180],
      [-180, maxLng],
    ];
  if (maxLng > 180)
    return [
      [minLng, 180],
      [-180, maxLng - 360],
    ];
  return [[minLng, maxLng]];
};

const boxClause = (ranges: [number, number][], params: Record<string, string | number>) =>
  `(${ranges
    .map(([a, b], i) => {
      params[`lngMin${i}`] = a;
      params[`lngMax${i}`] = b;
      return `(r.min_lng >= $lngMin${i} AND r.max_lng <= $lngMax${i})`;
    })
    .join(" OR ")}) AND r.min_lat >= $latMin AND r.max_lat <= $latMax`;

/**
 * Candidates (id, la, lo) whose pickup lies in the box ($latMin, $latMax and the ranges' $lngMin<i>, $lngMax<i>).
 * Posted: MyTess loads from their R*Tree (migration 0018: every user may see them) and the viewer's own external loads
 * through the index of their owner (nobody else's synced loads are ever read); otherwise the R*Tree of every MyTess load.
 */
const pointsInBox = (
  p: TLoadSearchInput,
  viewerId: number | null,
  ranges: [number, number][],
  params: Record<string, string | number>,
) => {
  const box = boxClause(ranges, params);
  const tree = (name: string) =>
    `SELECT r.id AS id, (r.min_lat + r.max_lat) / 2 AS la, (r.min_lng + r.max_lng) / 2 AS lo FROM ${name} r WHERE ${box}`;
  if (p.status !== "posted") return tree("loads_pickup_rtree");
  const parts: string[] = [];
  if (p.sourceType !== "external") parts.push(tree("loads_posted_rtree"));
  if (p.sourceType !== "mytess" && viewerId !== null) {
    params.pointsOwner = viewerId;
    parts.push(
      `SELECT e.id AS id, e.pickup_latitude AS la, e.pickup_longitude AS lo FROM loads e INDEXED BY loads_owner_posted_idx
       WHERE e.source_owner_id = $pointsOwner AND e.status = 'posted' AND e.pickup_latitude BETWEEN $latMin AND $latMax
         AND (${ranges.map((_, i) => `e.pickup_longitude BETWEEN $lngMin${i} AND $lngMax${i}`).join(" OR ")})`,
    );
  }
  return parts.length ? parts.join(" UNION ALL ") : "SELECT 0 AS id, 0.0 AS la, 0.0 AS lo WHERE 0";
};

/**
 * The lane search's candidates (ids): posted MyTess loads from the lane R*Tree, one box over both ends and the pickup
 * window (an end without a point is unbounded), and the viewer's own external loads through the index of their owner.
 * Overlap, not containment: the tree's 32-bit coordinates are rounded outwards. The exact filters are the caller's.
 */
const laneCandidates = (p: TLoadSearchInput, viewerId: number | null, params: Record<string, string | number>) => {
  const tree: string[] = [];
  const lngOverlap = (min: string, max: string, box: ReturnType<typeof boundingBox>, key: string) =>
    `(${lngRanges(box.minLng, box.maxLng)
      .map(([a, b], i) => {
        params[`${key}LngMin${i}`] = a;
        params[`${key}LngMax${i}`] = b;
        return `(r.${max} >= $${key}LngMin${i} AND r.${min} <= $${key}LngMax${i})`;
      })
      .join(" OR ")})`;
  const end = (key: "p" | "d", lat: number | undefined, lng: number | undefined, miles: number) => {
    if (lat === undefined || lng === undefined) return;
    const box = boundingBox(lat, lng, miles);
    params[`${key}LatMin`] = box.minLat;
    params[`${key}LatMax`] = box.maxLat;
    tree.push(`r.max_${key}lat >= $${key}LatMin AND r.min_${key}lat <= $${key}LatMax`);
    tree.push(lngOverlap(`min_${key}lng`, `max_${key}lng`, box, key));
  };
  end("p", p.latitude, p.longitude, p.radius);
  end("d", p.destinationLatitude, p.destinationLongitude, p.destinationRadius);
  if (p.pickupFrom !== undefined) {
    tree.push("r.max_day >= $dayFrom");
    params.dayFrom = p.pickupFrom / 86_400_000;
  }
  if (p.pickupTo !== undefined) {
    tree.push("r.min_day <= $dayTo");
    params.dayTo = p.pickupTo / 86_400_000;
  }
  const parts: string[] = [];
  if (p.sourceType !== "external")
    parts.push(`SELECT r.id AS id FROM loads_lane_rtree r WHERE ${tree.join(" AND ") || "1"}`);
  if (p.sourceType !== "mytess" && viewerId !== null) {
    params.laneOwner = viewerId;
    parts.push(
      `SELECT e.id AS id FROM loads e INDEXED BY loads_owner_posted_idx
       WHERE e.source_owner_id = $laneOwner AND e.status = 'posted'`,
    );
  }
  return parts.length ? parts.join(" UNION ALL ") : "SELECT 0 AS id WHERE 0";
};

/** A posted search with a destination is a lane: its candidates come from the lane R*Tree. */
const isLane = (p: TLoadSearchInput) => p.status === "posted" && p.destinationLatitude !== undefined;

type TRow = Load & { usdPerMile?: number };

const SELECT_TRUCK = Object.keys(getTableColumns(trucks))
  .map((k) => `t.${snake(k)} AS "${k}"`)
  .join(", ");
const TRUCK_DISTANCE = haversine("t.origin_latitude", "t.origin_longitude");
// A truck that would go somewhere takes a lane whose destination circle meets its own.
const TRUCK_DESTINATION = haversine("t.destination_latitude", "t.destination_longitude", "$dlat", "$dlng");

/**
 * Trucks near a pickup: candidates from the R*Tree of truck origins (the radius's box, split at the antimeridian),
 * then the exact distance and the other conditions on those rows only, nearest first.
 */
const truckSearch = (p: TTruckSearchInput, now: number) => {
  const box = boundingBox(p.latitude, p.longitude, p.radius);
  const params: Record<string, string | number> = {
    lat: p.latitude,
    lng: p.longitude,
    radius: p.radius,
    latMin: box.minLat,
    latMax: box.maxLat,
    now,
    limit: p.pageSize + 1,
    offset: (p.page - 1) * p.pageSize,
  };
  const ranges = lngRanges(box.minLng, box.maxLng)
    .map(([a, b], i) => {
      params[`lngMin${i}`] = a;
      params[`lngMax${i}`] = b;
      return `(r.max_lng >= $lngMin${i} AND r.min_lng <= $lngMax${i})`;
    })
    .join(" OR ");
  const where = [`r.max_lat >= $latMin AND r.min_lat <= $latMax AND (${ranges})`, "t.available_end >= $now"];
  where.push(`${TRUCK_DISTANCE} <= $radius`);
  if (p.destinationLatitude !== undefined && p.destinationLongitude !== undefined) {
    Object.assign(params, { dlat: p.destinationLatitude, dlng: p.destinationLongitude, dradius: p.destinationRadius });
    where.push(`(t.destination_latitude IS NULL OR ${TRUCK_DESTINATION} <= t.destination_radius_miles + $dradius)`);
  }
  if (p.availableFrom !== undefined) {
    where.push("t.available_end >= $from");
    params.from = p.availableFrom;
  }
  if (p.availableTo !== undefined) {
    where.push("t.available_start <= $to");
    params.to = p.availableTo;
  }
  if (p.equipmentType?.length) {
    where.push("t.equipment_type IN (SELECT value FROM json_each($equipmentTypes))");
    params.equipmentTypes = JSON.stringify(p.equipmentType);
  }
  if (p.minCapacityLbs !== undefined) {
    where.push("t.capacity_lbs >= $minCapacity");
    params.minCapacity = p.minCapacityLbs;
  }
  return {
    sql: `SELECT ${SELECT_TRUCK}, ${TRUCK_DISTANCE} AS "distanceMiles"
          FROM trucks_origin_rtree r CROSS JOIN trucks t ON t.id = r.id
          WHERE ${where.join(" AND ")} ORDER BY "distanceMiles" ASC, t.id ASC LIMIT $limit OFFSET $offset`,
    params,
  };
};

// Every column but the id, in one order, for the external loads' upsert; on conflict all but the row's identity change.
const UPSERT_KEYS = Object.keys(getTableColumns(loads)).filter((k) => k !== "id") as (keyof NewLoad)[];
const KEEP_ON_UPDATE = new Set(["createdAt", "sourceConfigId", "sourceExternalId", "shipperId"]);
const UPSERT_EXTERNAL = `INSERT INTO loads (${UPSERT_KEYS.map(snake).join(", ")}) VALUES (${UPSERT_KEYS.map(() => "?").join(", ")})
  ON CONFLICT (source_config_id, source_external_id) DO UPDATE SET ${UPSERT_KEYS.filter((k) => !KEEP_ON_UPDATE.has(k))
    .map((k) => `${snake(k)} = excluded.${snake(k)}`)
    .join(", ")}`;

export const createSqliteQueries = (sqlite: Database, gate: TGate): Omit<TQueries, "sharedTransaction"> => {
  // Named parameters ($name), statements prepared once; through the gate like every statement of this process.
  const all = <T>(sql: string, args: Record<string, string | number> = {}) =>
    gate.run(() => sqlite.query<T, Record<string, string | number>>(sql).all(args));

  /** Whole rows of these loads, in this order (a page's, ranked before); one deleted since is left out. */
  const rowsOf = async (ids: number[]) => {
    if (!ids.length) return [];
    const rows = await all<TRow>(`SELECT ${SELECT_LOAD} FROM json_each($ids) j CROSS JOIN loads l ON l.id = j.value`, {
      ids: JSON.stringify(ids),
    });
    const byId = new Map(rows.map((row) => [row.id, row]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  };

  const searchLoads = async (p: TLoadSearchInput, viewerId: number | null): Promise<TSearchRows> => {
    const { where, params } = filtersOf(p, viewerId);
    const offset = (p.page - 1) * p.pageSize;
    const want = offset + p.pageSize + 1; // one more tells whether a next page exists
    const hasPoint = p.latitude !== undefined && p.longitude !== undefined;
    const needsFx = p.minRate !== undefined || p.sort === "rate";
    const join = needsFx ? "JOIN fx_rates fx ON fx.currency = l.budget_currency" : "";
    const page = (rows: TRow[]) => ({
      rows: rows.slice(offset, offset + p.pageSize),
      hasMore: rows.length > offset + p.pageSize,
    });

    if (isLane(p)) {
      // A lane holds few loads (both ends and a window narrow it): the exact filters and the order over all of them.
      const q: Record<string, string | number> = { ...params, limit: want };
      const conditions = [...where];
      let order: string = p.sort === "rate" ? ORDER.rate : ORDER.date;
      if (hasPoint) {
        Object.assign(q, { lat: p.latitude!, lng: p.longitude!, radius: p.radius });
        conditions.push(`${HAVERSINE} <= $radius`);
        if (p.sort === "distance") order = `${HAVERSINE} ASC, l.id ASC`;
      }
      const lane = laneCandidates(p, viewerId, q);
      // Ranked as ids (the sorter holds an id and its key per match, not whole rows), then whole rows for the page.
      const ranked = await all<{ id: number }>(
        `SELECT l.id AS id FROM (${lane}) c CROSS JOIN loads l ON l.id = c.id ${join}
         WHERE ${conditions.join(" AND ")} ORDER BY ${order} LIMIT $limit`,
        q,
      );
      return {
        rows: await rowsOf(ranked.slice(offset, offset + p.pageSize).map((r) => r.id)),
        hasMore: ranked.length > offset + p.pageSize,
      };
    }

    if (!hasPoint) {
      const order = p.sort === "rate" ? ORDER.rate : ORDER.date;
      return page(
        await all<TRow>(
          `SELECT ${SELECT_LOAD} FROM loads l ${join} WHERE ${where.join(" AND ")} ORDER BY ${order} LIMIT $limit`,
          { ...params, limit: want },
        ),
      );
    }

    const lat = p.latitude!;
    const lng = p.longitude!;

    if (p.sort !== "distance") {
      const box = boundingBox(lat, lng, p.radius);
      const q = { ...params, lat, lng, latMin: box.minLat, latMax: box.maxLat, radius: p.radius, limit: want };
      const points = pointsInBox(p, viewerId, lngRanges(box.minLng, box.maxLng), q);
      return page(
        await all<TRow>(
          `SELECT ${SELECT_LOAD} FROM (${points}) c CROSS JOIN loads l ON l.id = c.id ${join}
           WHERE ${where.join(" AND ")} AND ${HAVERSINE} <= $radius
           ORDER BY ${ORDER[p.sort]} LIMIT $limit`,
          q,
        ),
      );
    }

    // Nearest first: candidates are ids and points (pointsInBox: an R*Tree, and for posted loads the index of the
    // viewer's own external loads; no look-up of `loads`), ranked by distance. Posted loads need no check of who may see
    // them, so the default search checks nothing per candidate. Other filters are checked for the nearest candidates
    // only, a batch at a time, and full rows are read for the page alone. The window widens until `want` matching
    // loads lie within its certain radius, or the radius is reached.
    const rest = filtersOf(p, viewerId, p.status === "posted");
    const passes = new Map<number, boolean>();
    const checkSql = `SELECT l.id AS id FROM json_each($ids) j CROSS JOIN loads l ON l.id = j.value ${join} WHERE ${rest.where.join(" AND ") || "1"}`;
    const verify = async (ids: number[]) => {
      if (!rest.where.length) {
        for (const id of ids) passes.set(id, true);
        return;
      }
      for (const id of ids) passes.set(id, false);
      for (const row of await all<{ id: number }>(checkSql, { ...rest.params, ids: JSON.stringify(ids) }))
        passes.set(row.id, true);
    };
    let r = Math.min(p.radius, Math.max(1, p.radius / 16));
    for (;;) {
      const box = boundingBox(lat, lng, r);
      const q: Record<string, number> = { latMin: box.minLat, latMax: box.maxLat };
      const near = (
        await all<{ id: number; la: number; lo: number }>(
          pointsInBox(p, viewerId, lngRanges(box.minLng, box.maxLng), q),
          q,
        )
      )
        .map((c) => ({ id: c.id, d: haversineMiles(lat, lng, c.la, c.lo) }))
        .filter((c) => c.d <= r)
        .sort((a, b) => a.d - b.d || a.id - b.id);
      const hits: typeof near = [];
      for (let i = 0; i < near.length && hits.length < want; ) {
        // Check about as many as should be enough at the pass rate seen so far.
        const checked = passes.size;
        const passed = [...passes.values()].filter(Boolean).length;
        const rate = checked >= 16 ? Math.max(0.05, passed / checked) : 0.6;
        const batch = Math.ceil(((want - hits.length) / rate) * 1.1) + 4;
        const pending: number[] = [];
        for (let j = i; j < near.length && pending.length < batch; j++) {
          if (!passes.has(near[j].id)) pending.push(near[j].id);
        }
        if (pending.length) await verify(pending);
        for (; i < near.length && hits.length < want && passes.has(near[i].id); i++)
          if (passes.get(near[i].id)) hits.push(near[i]);
      }
      if (hits.length >= want || r >= p.radius) {
        const shown = hits.slice(offset, offset + p.pageSize).map((h) => h.id);
        return { rows: await rowsOf(shown), hasMore: hits.length > offset + p.pageSize };
      }
      // Aim at the radius that should hold `want` matches at the density seen so far, at least doubling.
      const density = hits.length / (Math.PI * r * r);
      const target = density > 0 ? Math.sqrt(want / (density * Math.PI)) * 1.15 : r * 4;
      r = Math.min(p.radius, Math.max(r * 2, target));
    }
  };

  /** Figures for the board's stat cards over everything the filters match (not only the page shown). */
  const boardStats = async (
    p: TLoadSearchInput,
    viewerId: number | null,
    now: number,
  ): Promise<TBoardStatsRow | undefined> => {
    const { where, params } = filtersOf(p, viewerId);
    const hasPoint = p.latitude !== undefined && p.longitude !== undefined;
    const q: Record<string, string | number> = { ...params, urgentBefore: now + 2 * 24 * 60 * 60 * 1000, now };
    let from = "loads l JOIN fx_rates fx ON fx.currency = l.budget_currency";
    const conditions = [...where];
    if (isLane(p)) {
      from = `(${laneCandidates(p, viewerId, q)}) c CROSS JOIN loads l ON l.id = c.id JOIN fx_rates fx ON fx.currency = l.budget_currency`;
      if (hasPoint) {
        Object.assign(q, { lat: p.latitude!, lng: p.longitude!, radius: p.radius });
        conditions.push(`${HAVERSINE} <= $radius`);
      }
    } else if (hasPoint) {
      const box = boundingBox(p.latitude!, p.longitude!, p.radius);
      Object.assign(q, {
        lat: p.latitude!,
        lng: p.longitude!,
        latMin: box.minLat,
        latMax: box.maxLat,
        radius: p.radius,
      });
      const points = pointsInBox(p, viewerId, lngRanges(box.minLng, box.maxLng), q);
      from = `(${points}) c CROSS JOIN loads l ON l.id = c.id JOIN fx_rates fx ON fx.currency = l.budget_currency`;
      conditions.push(`${HAVERSINE} <= $radius`);
    }
    const [row] = await all<TBoardStatsRow>(
      `SELECT count(*) AS total,
              coalesce(sum(l.pickup_date <= $urgentBefore AND l.pickup_date >= $now - 86400000), 0) AS urgent,
              avg(${USD_PER_MILE}) AS avgUsdPerMile,
              coalesce(sum(l.source_type = 'external'), 0) AS external
       FROM ${from} WHERE ${conditions.join(" AND ")}`,
      q,
    );
    return row;
  };

  /** Whether the search would find this load: the search's own conditions on the one row. */
  const matchesLoad = async (p: TLoadSearchInput, viewerId: number | null, loadId: number) => {
    const { where, params } = filtersOf(p, viewerId);
    const q: Record<string, string | number> = { ...params, loadId };
    const join = p.minRate !== undefined ? "JOIN fx_rates fx ON fx.currency = l.budget_currency" : "";
    const conditions = ["l.id = $loadId", ...where];
    if (p.latitude !== undefined && p.longitude !== undefined) {
      Object.assign(q, { lat: p.latitude, lng: p.longitude, radius: p.radius });
      conditions.push(`${HAVERSINE} <= $radius`);
    }
    const rows = await all<{ id: number }>(
      `SELECT l.id AS id FROM loads l ${join} WHERE ${conditions.join(" AND ")}`,
      q,
    );
    return rows.length > 0;
  };

  const searchTrucks = async (p: TTruckSearchInput, now: number): Promise<TTruckRows> => {
    const { sql, params } = truckSearch(p, now);
    const rows = await all<TTruckRows["rows"][number]>(sql, params);
    return { rows: rows.slice(0, p.pageSize), hasMore: rows.length > p.pageSize };
  };

  /** The newest recorded position of each of these loads, in one query. */
  const lastPositions = async (loadIds: number[]): Promise<TLastPosition[]> =>
    loadIds.length
      ? all<TLastPosition>(
          `SELECT load_id AS loadId, latitude, longitude, recorded_at AS recordedAt FROM (
             SELECT p.*, row_number() OVER (PARTITION BY p.load_id ORDER BY p.recorded_at DESC, p.id DESC) AS rn
             FROM json_each($ids) j CROSS JOIN trip_points p ON p.load_id = j.value) WHERE rn = 1`,
          { ids: JSON.stringify(loadIds) },
        )
      : Promise.resolve([]);

  /**
   * Load alerts whose area's bounding box holds the point and that take the equipment (a JSON list of names, matched
   * with its quotes), of available drivers (only drivers have alerts): the R*Tree of boxes. The caller checks the
   * exact circle.
   */
  const alertCandidates = (lat: number, lng: number, equipment: string) =>
    all<TAlertCandidate>(
      `SELECT a.user_id AS userId, a.latitude, a.longitude, a.radius_miles AS radiusMiles
       FROM load_alerts_rtree r CROSS JOIN load_alerts a ON a.user_id = r.id
       WHERE r.min_lat <= $lat AND r.max_lat >= $lat AND r.min_lng <= $lng AND r.max_lng >= $lng
         AND a.enabled AND a.available AND (a.equipment_types = '[]' OR instr(a.equipment_types, $quoted) > 0)`,
      { lat, lng, quoted: JSON.stringify(equipment) },
    );

  /** Nothing to do: every SQLite transaction already holds the database's write lock (BEGIN IMMEDIATE). */
  const lockKeys = async (_tx: object, _keys: string[]) => {};

  /**
   * A select that claims the rows it reads, skipping rows another transaction has claimed (PostgreSQL's FOR UPDATE
   * SKIP LOCKED). On SQLite the query as it is: the immediate transaction around it already excludes other writers.
   */
  const skipLocked = <T>(query: T): T => query;

  /**
   * Board sync's writes: inserts, or updates of the row with the same (configuration, external id), through one prepared
   * statement in transactions of a few thousand rows (each holds the connection only that long).
   */
  const trustVersion = async () =>
    (await all<{ version: number }>("SELECT version FROM cache_versions WHERE name = 'trust'"))[0]?.version ?? 0;

  const cacheVersions = async () =>
    (
      await all<{ board: number; trust: number }>(
        `SELECT coalesce(max(CASE WHEN name = 'board' THEN version END), 0) AS board,
            coalesce(max(CASE WHEN name = 'trust' THEN version END), 0) AS trust FROM cache_versions`,
      )
    )[0] ?? { board: 0, trust: 0 };

  const boardChangedSince = async (
    from: number,
    to: number,
    c: { latFrom: number; latTo: number; lngFrom: number; lngTo: number },
  ) =>
    Boolean(
      (
        await all<{ changed: number }>(
          `SELECT (SELECT version FROM cache_versions WHERE name = 'board') - 100000 >= $from OR EXISTS (
             SELECT 1 FROM board_changes WHERE version > $from AND version <= $to
               AND (cell_lat IS NULL OR (cell_lat BETWEEN $la AND $lb AND cell_lng BETWEEN $ga AND $gb))
           ) AS changed`,
          { from, to, la: c.latFrom, lb: c.latTo, ga: c.lngFrom, gb: c.lngTo },
        )
      )[0]?.changed ?? 1,
    );

  const upsertExternalLoads = async (rows: NewLoad[]) => {
    const stmt = sqlite.prepare<unknown, (string | number | null)[]>(UPSERT_EXTERNAL);
    const write = sqlite.transaction((chunk: NewLoad[]) => {
      for (const r of chunk) stmt.run(...UPSERT_KEYS.map((k) => (r[k] ?? null) as string | number | null));
    });
    for (let i = 0; i < rows.length; i += 5000) {
      const chunk = rows.slice(i, i + 5000);
      await gate.run(() => write(chunk));
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
