// Fills a database with synthetic loads clustered around real freight cities, fast (one prepared statement, one
// transaction). Used by the benchmarks only.
import type { Database } from "bun:sqlite";
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

export const generateLoads = (sqlite: Database, n: number, seed = 42) => {
  const rand = mulberry32(seed);
  const now = Date.now();
  const insert = sqlite.prepare(
    `INSERT INTO loads (title, pickup_address, pickup_city, pickup_state, pickup_country, pickup_latitude, pickup_longitude,
       delivery_address, delivery_city, delivery_state, delivery_country, delivery_latitude, delivery_longitude,
       pickup_date, delivery_date, weight_lbs, equipment_type, budget_minor, budget_currency, trip_miles, status, source_type,
       created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
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
  sqlite.transaction(() => {
    for (let i = 0; i < n; i++) {
      const from = CITIES[Math.floor(rand() * CITIES.length)];
      const to = CITIES[Math.floor(rand() * CITIES.length)];
      const p = nearCity(rand, from);
      const d = nearCity(rand, to);
      const miles = haversineMiles(p.lat, p.lng, d.lat, d.lng);
      const pickup = now + rand() * 14 * 86_400_000;
      insert.run(
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
      );
    }
  })();
};

export const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
