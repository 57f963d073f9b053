// Load alerts at scale: fills a temporary database with N drivers who have alerts on (positions clustered around real
// freight cities, radii from the product's radius options, a third with equipment filters), then times matching one new
// load to the drivers to tell (the index over alert areas, then the exact circle and equipment) and writing all its
// jobs, and checks the matches against a scan of every driver.
//   bun bench/alerts.ts --drivers 100000 --loads 1000
//   DATABASE_URL=postgres://… bun bench/alerts.ts --drivers 100000   (a temporary database on that server)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase, type DbHandle, migrateDb, openDb, openPgDb } from "../db/client";
import { ENGINE } from "../db/engine";
import { jobs, loadAlerts, loads, users } from "../db/tables";
import { alertBox, enqueueLoadAlerts, matchLoadAlerts } from "../src/server/modules/loads/alerts";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS } from "../src/shared/constants";
import { haversineMiles } from "../src/shared/geo";
import { CITIES, mulberry32, nearCity, percentile } from "./lib/generate";

const { values } = parseArgs({
  options: {
    drivers: { type: "string", default: "100000" },
    loads: { type: "string", default: "1000" },
    "check-loads": { type: "string", default: "20" },
  },
});
const N = Number(values.drivers);
const Q = Number(values.loads);
const CHECK = Number(values["check-loads"]);

const dir = mkdtempSync(join(tmpdir(), "mytess-alerts-bench-"));
const pgDatabase = await createTestDatabase();
const handle: DbHandle = pgDatabase ? await openPgDb(pgDatabase.url) : await openDb(join(dir, "bench.db"));
if (!pgDatabase) await migrateDb(handle.db);
const db = handle.db;

const rand = mulberry32(2026);
const now = Date.now();
type TAlert = { userId: number; lat: number; lng: number; radius: number; types: string[] };
const all: TAlert[] = [];
let t = performance.now();
const [shipper] = await db
  .insert(users)
  .values({
    email: "bench-shipper@example.com",
    firstName: "Bench",
    lastName: "Shipper",
    userType: "shipper",
    trialEndsAt: now,
    createdAt: now,
    updatedAt: now,
  })
  .returning({ id: users.id });
const BATCH = 1000;
for (let i = 0; i < N; i += BATCH) {
  const people = Array.from({ length: Math.min(BATCH, N - i) }, (_, k) => {
    const p = nearCity(rand, CITIES[Math.floor(rand() * CITIES.length)], 40);
    return { n: i + k, lat: p.lat, lng: p.lng };
  });
  const ids = await db
    .insert(users)
    .values(
      people.map((p) => ({
        email: `bench-driver-${p.n}@example.com`,
        firstName: "Driver",
        lastName: String(p.n),
        userType: "driver" as const,
        latitude: p.lat,
        longitude: p.lng,
        trialEndsAt: now,
        createdAt: now,
        updatedAt: now,
      })),
    )
    .returning({ id: users.id });
  const rows = people.map((p, k) => {
    const radius = RADIUS_OPTIONS[Math.floor(rand() * 3)]; // 25, 50 or 100 miles: what drivers pick in practice
    const types = rand() < 0.33 ? [EQUIPMENT_TYPES[Math.floor(rand() * EQUIPMENT_TYPES.length)]] : [];
    all.push({ userId: ids[k].id, lat: p.lat, lng: p.lng, radius, types });
    return {
      userId: ids[k].id,
      enabled: true,
      available: true,
      radiusMiles: radius,
      equipmentTypes: JSON.stringify(types),
      latitude: p.lat,
      longitude: p.lng,
      ...alertBox(p.lat, p.lng, radius),
      updatedAt: now,
    };
  });
  await db.insert(loadAlerts).values(rows);
}
if (handle.pg) await handle.pg.unsafe("ANALYZE load_alerts; ANALYZE users");
else handle.sqlite?.exec("ANALYZE");
console.log(
  `filled ${N.toLocaleString("en-US")} drivers with alerts on ${ENGINE === "pg" ? "PostgreSQL" : "SQLite"} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);

const newLoad = () => {
  const p = nearCity(rand, CITIES[Math.floor(rand() * CITIES.length)], 20);
  return {
    pickupLatitude: p.lat,
    pickupLongitude: p.lng,
    equipmentType: EQUIPMENT_TYPES[Math.floor(rand() * EQUIPMENT_TYPES.length)],
    shipperId: shipper.id,
  };
};

// Warm-up, then matching timed load by load.
for (let i = 0; i < 20; i++) await matchLoadAlerts(db, newLoad());
const times: number[] = [];
let matched = 0;
for (let i = 0; i < Q; i++) {
  const l = newLoad();
  t = performance.now();
  matched += (await matchLoadAlerts(db, l)).length;
  times.push(performance.now() - t);
}
times.sort((a, b) => a - b);

// The answers agree with a scan of every driver.
let agree = 0;
for (let i = 0; i < CHECK; i++) {
  const l = newLoad();
  const got = new Set((await matchLoadAlerts(db, l)).map((m) => m.userId));
  const want = all.filter(
    (a) =>
      haversineMiles(a.lat, a.lng, l.pickupLatitude, l.pickupLongitude) <= a.radius &&
      (!a.types.length || a.types.includes(l.equipmentType)),
  );
  if (want.length === got.size && want.every((a) => got.has(a.userId))) agree++;
}

// One load in the busiest place: the time to write all its notification jobs (matching included).
const city = CITIES[0];
const [load] = await db
  .insert(loads)
  .values({
    shipperId: shipper.id,
    title: "Bench load",
    equipmentType: "dry_van",
    pickupAddress: "x",
    pickupCity: city.city,
    pickupCountry: "Ethiopia",
    pickupLatitude: city.lat,
    pickupLongitude: city.lng,
    deliveryAddress: "y",
    deliveryCity: "Adama",
    deliveryCountry: "Ethiopia",
    deliveryLatitude: 8.54,
    deliveryLongitude: 39.27,
    pickupDate: now + 86_400_000,
    deliveryDate: now + 2 * 86_400_000,
    weightLbs: 20000,
    budgetMinor: 100000,
    budgetCurrency: "USD",
    tripMiles: 50,
    status: "posted",
    sourceType: "mytess",
    createdAt: now,
    updatedAt: now,
  })
  .returning({ id: loads.id });
t = performance.now();
const { matched: enqueued } = await enqueueLoadAlerts(db, load.id);
const enqueueMs = performance.now() - t;
const written = (await db.select({ id: jobs.id }).from(jobs)).length;

console.log(
  `matching one new load: p50 ${percentile(times, 50).toFixed(2)} ms, p99 ${percentile(times, 99).toFixed(2)} ms over ${Q} loads (${(matched / Q).toFixed(1)} drivers each on average)`,
);
console.log(`one load near ${city.city}: ${enqueued} drivers, ${written} jobs written in ${enqueueMs.toFixed(1)} ms`);
console.log(`agree with a scan of every driver: ${agree}/${CHECK}; target: match p99 <= 20 ms`);
console.log(
  `engine=${ENGINE} drivers=${N} loads=${Q} match_p50_ms=${percentile(times, 50).toFixed(2)} match_p99_ms=${percentile(times, 99).toFixed(2)} enqueue_ms=${enqueueMs.toFixed(1)} enqueued=${enqueued} agree=${agree}/${CHECK}`,
);

await handle.close();
await pgDatabase?.drop();
rmSync(dir, { recursive: true, force: true });
