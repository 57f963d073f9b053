// Fills a database with synthetic loads clustered around real freight cities, fast (SQLite: one prepared statement in
// one transaction; PostgreSQL: batches through unnest). Used by the benchmarks only.
import type { Database } from "bun:sqlite";
import type { SQL } from "bun";
import { ETHIOPIA_CORRIDOR, EUROPE_LANES, US_LANES } from "../../db/seed/places";
import { EQUIPMENT_TYPES } from "../../src/shared/constants";
import { haversineMiles } from "../../src/shared/geo";

export const CITIES = [...ETHIOPIA_CORRIDOR, ...US_LANES, ...EUROPE_LANES];

export const mulberry32 = (seed: number) => () => {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
};

/** A point near a city: normally distributed, about 30 miles spread. */
export const nearCity = (rand: () => number, city: { lat: number; lng: number }, sigmaMiles = 30) => {
  const g = () => Math.sqrt(-2 * Math.log(rand() || 1e-9)) * Math.cos(2 * Math.PI * rand());
  const dLat = (g() * sigmaMiles) / 69;
  const dLng = (g() * sigmaMiles) / (69 * Math.cos((city.lat * Math.PI) / 180));
  return { lat: Math.max(-89.9, Math.min(89.9, city.lat + dLat)), lng: ((city.lng + dLng + 540) % 360) - 180 };
};

const LOAD_COLUMNS = [
  "title",
  "pickup_address",
  "pickup_city",
  "pickup_state",
  "pickup_country",
  "pickup_latitude",
  "pickup_longitude",
  "delivery_address",
  "delivery_city",
  "delivery_state",
  "delivery_country",
  "delivery_latitude",
  "delivery_longitude",
  "pickup_date",
  "delivery_date",
  "weight_lbs",
  "equipment_type",
  "budget_minor",
  "budget_currency",
  "trip_miles",
  "status",
  "source_type",
  "created_at",
  "updated_at",
] as const;
/** PostgreSQL's type for each column, in LOAD_COLUMNS order (for the unnest of a batch). */
const PG_TYPES =
  "text text text text text float8 float8 text text text text float8 float8 int8 int8 int8 text int8 text float8 text text int8 int8".split(
    " ",
  );

/** N synthetic loads as rows of values in LOAD_COLUMNS order; the same rows for the same seed. */
function* loadRows(n: number, seed: number) {
  const rand = mulberry32(seed);
  const now = Date.now();
  const statuses = [
    "posted",
    "posted",
    "posted",
    "posted",
    "posted",
    "posted",
    "assigned",
    "in_transit",
    "completed",
    "cancelled",
  ];
  for (let i = 0; i < n; i++) {
    const from = CITIES[Math.floor(rand() * CITIES.length)];
    const to = CITIES[Math.floor(rand() * CITIES.length)];
    const p = nearCity(rand, from);
    const d = nearCity(rand, to);
    const miles = haversineMiles(p.lat, p.lng, d.lat, d.lng);
    const pickup = now + rand() * 14 * 86_400_000;
    yield [
      `Load ${i}`,
      from.sites[0],
      from.city,
      from.state,
      from.country,
      p.lat,
      p.lng,
      to.sites[0],
      to.city,
      to.state,
      to.country,
      d.lat,
      d.lng,
      Math.round(pickup),
      Math.round(pickup + (1 + miles / 400) * 86_400_000),
      10_000 + Math.round(rand() * 34_000),
      EQUIPMENT_TYPES[Math.floor(rand() * EQUIPMENT_TYPES.length)],
      Math.round((200 + miles * (2 + rand() * 1.5)) * 100),
      "USD",
      miles,
      statuses[Math.floor(rand() * statuses.length)],
      rand() < 0.2 ? "external" : "mytess",
      now,
      now,
    ] as (string | number | null)[];
  }
}

/** Fills a SQLite file's loads: one prepared statement, one transaction. */
export const generateLoads = (sqlite: Database, n: number, seed = 42) => {
  const insert = sqlite.prepare(
    `INSERT INTO loads (${LOAD_COLUMNS.join(", ")}) VALUES (${LOAD_COLUMNS.map(() => "?").join(", ")})`,
  );
  sqlite.transaction(() => {
    for (const row of loadRows(n, seed)) insert.run(...(row as never[]));
  })();
};

/** Fills a PostgreSQL database's loads (the same rows as generateLoads): batches of 10,000 through unnest(). */
export const generateLoadsPg = async (pg: SQL, n: number, seed = 42) => {
  const sql = `INSERT INTO loads (${LOAD_COLUMNS.join(", ")}) SELECT * FROM unnest(${PG_TYPES.map((t, i) => `$${i + 1}::${t}[]`).join(", ")})`;
  let batch: (string | number | null)[][] = LOAD_COLUMNS.map(() => []);
  let size = 0;
  const flush = async () => {
    if (!size) return;
    await pg.unsafe(sql, batch.map((col, i) => pg.array(col, PG_TYPES[i]!.toUpperCase() as never)) as never[]);
    batch = LOAD_COLUMNS.map(() => []);
    size = 0;
  };
  for (const row of loadRows(n, seed)) {
    row.forEach((v, i) => {
      batch[i]!.push(v);
    });
    if (++size === 10_000) await flush();
  }
  await flush();
};

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];

/**
 * Gives the MyTess loads of a filled SQLite file shippers, as a live board has: `n` shipper accounts (ids 1..n when
 * the file has no users yet), some rated, each MyTess load posted by one of them in turn. Outside boards' loads keep
 * no shipper.
 */
export const addShippers = (sqlite: Database, n: number, seed = 7) => {
  if (n <= 0) return;
  const rand = mulberry32(seed);
  const insert = sqlite.prepare(
    `INSERT INTO users (email, first_name, last_name, user_type, rating_sum, total_ratings, trial_ends_at)
     VALUES (?, ?, ?, 'shipper', ?, ?, 0)`,
  );
  sqlite.transaction(() => {
    for (let i = 1; i <= n; i++) {
      const ratings = rand() < 0.6 ? 1 + Math.floor(rand() * 40) : 0;
      insert.run(`shipper-${i}@bench.example`, `Shipper${i}`, "Bench", Math.round(ratings * (3 + rand() * 2)), ratings);
    }
    sqlite.run(
      `UPDATE loads SET shipper_id = (SELECT min(id) FROM users) + (loads.id % ?) WHERE source_type = 'mytess'`,
      [n],
    );
  })();
};
