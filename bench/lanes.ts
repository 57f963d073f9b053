// Lane searches at scale: fills a temporary database with N loads (default 1,000,000) clustered around real cities,
// then times the board's lane search (origin 50 mi, destination 100 mi, a 7-day pickup window, nearest pickups first,
// a page of 50: SQLite's lane R*Tree, PostgreSQL's lane GiST index) and checks its answers against a full scan that
// computes the same question from every load's columns. Any disagreement fails the run (exit 1).
//   bun bench/lanes.ts --loads 1000000 --queries 1000 --scan-queries 20
//   DATABASE_URL=postgres://… bun bench/lanes.ts   (a temporary database on that server)
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase, type DbHandle, migrateDb, openDb, openPgDb } from "../db/client";
import { ENGINE } from "../db/engine";
import { searchLoads } from "../src/server/modules/loads/search";
import { haversineMiles } from "../src/shared/geo";
import { ZLoadSearchInput } from "../src/shared/schemas/loads";
import { CITIES, generateLoads, generateLoadsPg, mulberry32, nearCity, percentile } from "./lib/generate";

const { values } = parseArgs({
  options: {
    loads: { type: "string", default: "1000000" },
    queries: { type: "string", default: "1000" },
    "scan-queries": { type: "string", default: "20" },
  },
});
const N = Number(values.loads);
const Q = Number(values.queries);
const SQ = Number(values["scan-queries"]);
const DAY = 86_400_000;

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
  const filler = new Database(file);
  generateLoads(filler, N);
  filler.exec("ANALYZE");
  filler.close();
}
console.log(
  `filled ${N.toLocaleString("en-US")} loads on ${ENGINE === "pg" ? "PostgreSQL" : "SQLite"} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);

// Lanes between the generator's cities (pickups are spread over the next 14 days): a start a little off a city, an
// end near another, a 7-day window starting within the next week.
const rand = mulberry32(11);
const now = Date.now();
const lanes = Array.from({ length: Math.max(Q, SQ) }, () => {
  const o = nearCity(rand, CITIES[Math.floor(rand() * CITIES.length)], 10);
  const d = nearCity(rand, CITIES[Math.floor(rand() * CITIES.length)], 10);
  const from = now + Math.floor(rand() * 7) * DAY;
  return { lat: o.lat, lng: o.lng, dlat: d.lat, dlng: d.lng, from, to: from + 7 * DAY };
});
type TLane = (typeof lanes)[number];
const laneInput = (l: TLane) =>
  ZLoadSearchInput.parse({
    latitude: l.lat,
    longitude: l.lng,
    radius: 50,
    destinationLatitude: l.dlat,
    destinationLongitude: l.dlng,
    destinationRadius: 100,
    pickupFrom: new Date(l.from).toISOString(),
    pickupTo: new Date(l.to).toISOString(),
    sort: "distance",
    pageSize: 50,
  });

for (let i = 0; i < 50; i++) await searchLoads(handle.db, laneInput(lanes[i % lanes.length]));

const times: number[] = [];
let found = 0;
for (let i = 0; i < Q; i++) {
  const input = laneInput(lanes[i]);
  t = performance.now();
  const page = await searchLoads(handle.db, input);
  times.push(performance.now() - t);
  found += page.items.length;
}
times.sort((a, b) => a - b);

// The same question over every load, without any index: the posted MyTess loads (what a viewer without synced loads
// may see) read whole, the circles and the window computed here.
type TScanRow = { id: number; pl: number; pn: number; dl: number; dn: number; pd: number };
const scanSql =
  "SELECT id, pickup_latitude AS pl, pickup_longitude AS pn, delivery_latitude AS dl, delivery_longitude AS dn, pickup_date AS pd FROM loads WHERE status = 'posted' AND source_type = 'mytess'";
const allPosted = handle.pg
  ? ([...(await handle.pg.unsafe(scanSql))] as TScanRow[]).map((r) => ({ ...r, pd: Number(r.pd) }))
  : handle.sqlite!.query<TScanRow, []>(scanSql).all();
const fullScan = (l: TLane) =>
  allPosted
    .filter(
      (r) =>
        r.pd >= l.from &&
        r.pd <= l.to &&
        haversineMiles(l.dlat, l.dlng, r.dl, r.dn) <= 100 &&
        haversineMiles(l.lat, l.lng, r.pl, r.pn) <= 50,
    )
    .map((r) => ({ id: r.id, d: haversineMiles(l.lat, l.lng, r.pl, r.pn) }))
    .sort((a, b) => a.d - b.d || a.id - b.id)
    .slice(0, 50);

const scanTimes: number[] = [];
let agree = 0;
const disagreements: string[] = [];
for (let i = 0; i < SQ; i++) {
  const l = lanes[i];
  t = performance.now();
  const expected = fullScan(l);
  scanTimes.push(performance.now() - t);
  const got = (await searchLoads(handle.db, laneInput(l))).items;
  // The same loads in the same order; two loads at the same distance to a millionth of a mile may swap.
  const same =
    expected.length === got.length &&
    expected.every((e, j) => e.id === got[j]!.id || Math.abs(e.d - (got[j]!.distance ?? -1)) < 0.1);
  if (same) agree++;
  else
    disagreements.push(
      `lane ${i}: scan ${expected.map((e) => e.id).join(",")} index ${got.map((g) => g.id).join(",")}`,
    );
}
scanTimes.sort((a, b) => a - b);

const p50 = percentile(times, 50);
const p99 = percentile(times, 99);
console.log(
  `lanes (${ENGINE === "pg" ? "GiST" : "R*Tree"}): ${Q} queries, ${(found / Q).toFixed(1)} loads each: p50 ${p50.toFixed(3)} ms, p99 ${p99.toFixed(3)} ms`,
);
console.log(`full scan: ${SQ} lanes, p50 ${percentile(scanTimes, 50).toFixed(1)} ms (over rows read once)`);
console.log(`target at 1M loads: p99 <= ${ENGINE === "pg" ? 20 : 10} ms`);
await handle.close();
await pgDatabase?.drop();
rmSync(dir, { recursive: true, force: true });
if (disagreements.length) {
  console.error(`DISAGREEMENT: the lane search and the full scan differ in ${disagreements.length} of ${SQ} lanes`);
  for (const d of disagreements.slice(0, 5)) console.error(d);
}
console.log(
  `engine=${ENGINE} loads=${N} queries=${Q} lane_p50_ms=${p50.toFixed(3)} lane_p99_ms=${p99.toFixed(3)} agree=${agree}/${SQ}`,
);
if (disagreements.length) process.exit(1);
