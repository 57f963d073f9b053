// "Near me" at scale: fills a temporary database with N loads (default 1,000,000) clustered around real cities, then
// times the board's near-me query (radius 50 mi, default filters, 50 results by distance: SQLite's R*Tree, or
// PostgreSQL's GiST index on ll_to_earth) against a full-scan haversine query over the same data.
//   bun bench/nearby.ts --loads 1000000 --queries 2000 --scan-queries 20
//   DATABASE_URL=postgres://… bun bench/nearby.ts --loads 1000000   (a temporary database on that server)
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase, type DbHandle, migrateDb, openDb, openPgDb } from "../db/client";
import { ENGINE } from "../db/engine";
import { searchLoads } from "../src/server/modules/loads/search";
import { ZLoadSearchInput } from "../src/shared/schemas/loads";
import { CITIES, generateLoads, generateLoadsPg, mulberry32, nearCity, percentile } from "./lib/generate";

const { values } = parseArgs({
  options: {
    loads: { type: "string", default: "1000000" },
    queries: { type: "string", default: "2000" },
    "scan-queries": { type: "string", default: "20" },
  },
});
const N = Number(values.loads);
const Q = Number(values.queries);
const SQ = Number(values["scan-queries"]);

const dir = mkdtempSync(join(tmpdir(), "mytess-bench-"));
const file = join(dir, "bench.db");
const pgDatabase = await createTestDatabase();
let handle: DbHandle;
let t = performance.now();
if (pgDatabase) {
  handle = await openPgDb(pgDatabase.url);
  await generateLoadsPg(handle.pg!, N);
  await handle.pg!.unsafe("ANALYZE loads");
} else {
  handle = await openDb(file);
  await migrateDb(handle.db);
  // Filled through bun:sqlite's prepared statements (fastest), then read through the app's own handle.
  const filler = new Database(file);
  generateLoads(filler, N);
  filler.exec("ANALYZE");
  filler.close();
}
console.log(
  `filled ${N.toLocaleString("en-US")} loads on ${ENGINE === "pg" ? "PostgreSQL" : "SQLite"} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);

const rand = mulberry32(7);
const points = Array.from({ length: Math.max(Q, SQ) }, () => {
  const c = nearCity(rand, CITIES[Math.floor(rand() * CITIES.length)], 10);
  return { latitude: c.lat, longitude: c.lng };
});

const nearInput = (p: { latitude: number; longitude: number }) =>
  ZLoadSearchInput.parse({ latitude: p.latitude, longitude: p.longitude, radius: 50, sort: "distance", pageSize: 50 });

// Warm up the statement cache and the page cache.
for (let i = 0; i < 50; i++) await searchLoads(handle.db, nearInput(points[i % points.length]));

const near: number[] = [];
let found = 0;
for (let i = 0; i < Q; i++) {
  const input = nearInput(points[i]);
  t = performance.now();
  const page = await searchLoads(handle.db, input);
  near.push(performance.now() - t);
  found += page.items.length;
}
near.sort((a, b) => a - b);

// The same question answered without the index: haversine over every posted load a signed-out visitor may see (MyTess
// loads; an external load is seen only by the account whose board brought it, and this search has no viewer).
const haversine = (
  lat: string,
  lng: string,
) => `(2 * 3959 * asin(least(1, sqrt(power(sin(radians(pickup_latitude - ${lat}) / 2), 2) +
     cos(radians(${lat})) * cos(radians(pickup_latitude)) * power(sin(radians(pickup_longitude - ${lng}) / 2), 2)))))`;
const scanSqlite = `SELECT id, ${haversine("$lat", "$lng").replace("least(", "min(")} AS d
   FROM loads WHERE status = 'posted' AND source_type = 'mytess' AND d <= 50 ORDER BY d LIMIT 50`;
const scanPg = `SELECT id, d FROM (SELECT id, ${haversine("$1", "$2")} AS d FROM loads
   WHERE status = 'posted' AND source_type = 'mytess') s WHERE d <= 50 ORDER BY d LIMIT 50`;
const fullScan = async (p: { latitude: number; longitude: number }) =>
  handle.pg
    ? ([...(await handle.pg.unsafe(scanPg, [p.latitude, p.longitude]))] as { id: number; d: number }[])
    : handle
        .sqlite!.query<{ id: number; d: number }, { lat: number; lng: number }>(scanSqlite)
        .all({ lat: p.latitude, lng: p.longitude });
const scan: number[] = [];
let agree = 0;
for (let i = 0; i < SQ; i++) {
  const p = points[i];
  t = performance.now();
  const rows = await fullScan(p);
  scan.push(performance.now() - t);
  const viaPage = (await searchLoads(handle.db, nearInput(p))).items;
  const viaIndex = viaPage.map((l) => l.id);
  if (
    rows.length === viaIndex.length &&
    rows.every((r, j) => r.id === viaIndex[j] || Math.abs(r.d - (viaPage[j]?.distance ?? -1)) < 0.1)
  )
    agree++;
}
scan.sort((a, b) => a - b);

const p50 = percentile(near, 50);
const p99 = percentile(near, 99);
const scanP50 = percentile(scan, 50);
const scanP99 = percentile(scan, 99);
console.log(
  `near-me (${ENGINE === "pg" ? "GiST" : "R*Tree"}): ${Q} queries, ${(found / Q).toFixed(1)} loads each: p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms`,
);
console.log(`full scan:        ${SQ} queries: p50 ${scanP50.toFixed(1)} ms, p99 ${scanP99.toFixed(1)} ms`);
console.log(`same answers from both in ${agree}/${SQ} checked queries`);
console.log(`targets at 1M loads: p99 <= ${ENGINE === "pg" ? 10 : 5} ms, >= 50x faster than the scan`);
await handle.close();
await pgDatabase?.drop();
rmSync(dir, { recursive: true, force: true });
console.log(
  `engine=${ENGINE} loads=${N} queries=${Q} p50_ms=${p50.toFixed(3)} p99_ms=${p99.toFixed(3)} scan_p50_ms=${scanP50.toFixed(2)} scan_p99_ms=${scanP99.toFixed(2)} speedup=${(scanP99 / p99).toFixed(1)} agree=${agree}/${SQ}`,
);
if (agree !== SQ) {
  console.error(`FAILED: the index and the full scan disagree on ${SQ - agree} of ${SQ} queries`);
  process.exit(1);
}
