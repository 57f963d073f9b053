// Trip tracking at scale, through HTTP on the real server: fills a temporary database with D drivers (default 10,000),
// each with a load in transit and a session, and about 1,000,000 stored positions (plus one long trip of 100,000
// points); starts the server; then
//  1. C clients send each driver's positions in batches of 10 (`POST /api/loads/:id/positions`) for S seconds: the
//     positions stored per second (`positions_per_s=`; target >= 5,000/s on SQLite) and the server's CPU time per
//     position (`server_cpu_us_per_position=`, all its processes: what a change costs, even on a busy machine);
//  2. batches sent again are checked to store nothing, and the database's count to match what the answers said;
//  3. `GET /api/loads/:id/track` on random trips (`track_p99_ms=`; target <= 20 ms) and on the long trip
//     (`long_track_p99_ms=`), each answer checked (point count, first and last point) against what was stored.
// Any disagreement fails the run (exit 1).
//   bun bench/positions.ts --drivers 10000 --stored 1000000 --clients 32 --seconds 15
//   DATABASE_URL=postgres://… bun bench/positions.ts   (a temporary database on that server)
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { sql } from "drizzle-orm";
import { createTestDatabase, type DbHandle, migrateDb, openDb, openPgDb } from "../db/client";
import { ENGINE } from "../db/engine";
import { loads, sessions, tripPoints, users } from "../db/tables";
import { hashToken } from "../src/server/modules/accounts/sessions";
import { MAX_TRACK_POINTS } from "../src/server/modules/tracking/positions";
import { SESSION_COOKIE } from "../src/shared/constants";
import { haversineMiles } from "../src/shared/geo";
import { CITIES, mulberry32, nearCity, percentile } from "./lib/generate";

const { values } = parseArgs({
  options: {
    drivers: { type: "string", default: "10000" },
    stored: { type: "string", default: "1000000" },
    long: { type: "string", default: "100000" },
    clients: { type: "string", default: "32" },
    seconds: { type: "string", default: "15" },
    "track-queries": { type: "string", default: "2000" },
    // Where the server's time goes: a markdown CPU profile of one server process, written to this folder on exit.
    "cpu-prof": { type: "string" },
  },
});
const D = Number(values.drivers);
const STORED = Number(values.stored);
const LONG = Number(values.long);
const C = Number(values.clients);
const SECONDS = Number(values.seconds);
const TQ = Number(values["track-queries"]);
const BATCH = 10;
const MIN = 60_000;
const DAY = 24 * 60 * MIN;

const fail = (what: string): never => {
  console.error(`DISAGREE: ${what}`);
  throw new Error(what);
};

const dir = mkdtempSync(join(tmpdir(), "mytess-positions-bench-"));
const file = join(dir, "bench.db");
const pgDatabase = await createTestDatabase();
let handle: DbHandle;
if (pgDatabase) {
  handle = await openPgDb(pgDatabase.url);
} else {
  handle = await openDb(file);
  await migrateDb(handle.db);
}
const db = handle.db;
const now = Date.now();
// The trips began ten days ago; the stored history fills their first day, the bench's batches the days after.
const tripStart = now - 10 * DAY;
const batchStart = now - 8 * DAY;
const rand = mulberry32(7);
const t = performance.now();

const chunked = async <T>(rows: T[], size: number, write: (part: T[]) => Promise<unknown>) => {
  for (let i = 0; i < rows.length; i += size) await write(rows.slice(i, i + size));
};

// Accounts: one shipper and D drivers, each with a session whose token the bench keeps.
const [shipper] = await db
  .insert(users)
  .values({
    email: "shipper@bench.example",
    firstName: "Bench",
    lastName: "Shipper",
    userType: "shipper",
    trialEndsAt: now + 30 * DAY,
  })
  .returning({ id: users.id });
const driverRows = Array.from({ length: D }, (_, i) => ({
  email: `driver${i}@bench.example`,
  firstName: "Driver",
  lastName: String(i),
  userType: "driver" as const,
  trialEndsAt: now + 30 * DAY,
}));
const driverIds: number[] = [];
await chunked(driverRows, 500, async (part) => {
  for (const r of await db.insert(users).values(part).returning({ id: users.id })) driverIds.push(r.id);
});
const tokens = driverIds.map(() => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex"));
await chunked(
  driverIds.map((userId, i) => ({
    idHash: hashToken(tokens[i]!),
    userId,
    expiresAt: now + 30 * DAY,
    lastSeenAt: now,
    userAgent: "bench",
    createdAt: now,
  })),
  1000,
  (part) => db.insert(sessions).values(part),
);

// A load in transit per driver (plus the long trip's, on driver 0), from one freight city towards another.
type TTrip = { loadId: number; driver: number; from: { lat: number; lng: number }; to: { lat: number; lng: number } };
const tripInputs = Array.from({ length: D + 1 }, (_, i) => {
  const a = CITIES[Math.floor(rand() * CITIES.length)]!;
  const b = CITIES[Math.floor(rand() * CITIES.length)]!;
  const from = nearCity(rand, a, 5);
  const to = nearCity(rand, b === a ? CITIES[(CITIES.indexOf(a) + 1) % CITIES.length]! : b, 5);
  return { driver: i === D ? 0 : i, from, to, city: [a, b] as const };
});
const trips: TTrip[] = [];
await chunked(tripInputs, 200, async (part) => {
  const rows = await db
    .insert(loads)
    .values(
      part.map((p) => ({
        shipperId: shipper!.id,
        title: "Bench trip",
        pickupAddress: p.city[0].sites[0]!,
        pickupCity: p.city[0].city,
        pickupCountry: p.city[0].country,
        pickupLatitude: p.from.lat,
        pickupLongitude: p.from.lng,
        deliveryAddress: p.city[1].sites[0]!,
        deliveryCity: p.city[1].city,
        deliveryCountry: p.city[1].country,
        deliveryLatitude: p.to.lat,
        deliveryLongitude: p.to.lng,
        pickupDate: tripStart,
        deliveryDate: now + 10 * DAY,
        weightLbs: 20_000,
        equipmentType: "dry_van",
        budgetMinor: 100_000,
        tripMiles: haversineMiles(p.from.lat, p.from.lng, p.to.lat, p.to.lng),
        status: "in_transit" as const,
        assignedDriverId: driverIds[p.driver]!,
        pickedUpAt: tripStart,
        createdAt: tripStart,
        updatedAt: tripStart,
      })),
    )
    .returning({ id: loads.id });
  rows.forEach((r, i) => {
    const p = part[i]!;
    trips.push({ loadId: r.id, driver: p.driver, from: p.from, to: p.to });
  });
});
const longTrip = trips.pop()!;

/** Where a trip is at step k of its history (a minute apart) or its batches (30 s apart): along the line, short of it. */
const along = (trip: TTrip, fraction: number) => ({
  latitude: trip.from.lat + (trip.to.lat - trip.from.lat) * Math.min(0.9, fraction),
  longitude: trip.from.lng + (trip.to.lng - trip.from.lng) * Math.min(0.9, fraction),
});

// The stored history: STORED points spread over the trips' first day, and the long trip's LONG points.
const perTrip = Math.floor(STORED / D);
const pointsOf = new Map<number, { count: number; first: number; last: number }>();
const historyRows = function* () {
  for (const trip of trips)
    for (let k = 0; k < perTrip; k++)
      yield { loadId: trip.loadId, ...along(trip, k / 50_000), recordedAt: tripStart + k * MIN };
  for (let k = 0; k < LONG; k++)
    yield { loadId: longTrip.loadId, ...along(longTrip, k / (LONG * 2)), recordedAt: tripStart + k * 5_000 };
};
let part: ReturnType<typeof historyRows> extends Generator<infer R> ? R[] : never = [];
for (const row of historyRows()) {
  part.push(row);
  if (part.length === 1000) {
    await db.insert(tripPoints).values(part);
    part = [];
  }
}
if (part.length) await db.insert(tripPoints).values(part);
for (const trip of trips)
  pointsOf.set(trip.loadId, {
    count: perTrip,
    first: tripStart,
    last: perTrip ? tripStart + (perTrip - 1) * MIN : 0,
  });
pointsOf.set(longTrip.loadId, { count: LONG, first: tripStart, last: tripStart + (LONG - 1) * 5_000 });
if (ENGINE === "pg") await handle.pg!.unsafe("ANALYZE");
else await db.run(sql`ANALYZE`);
const storedBefore = perTrip * trips.length + LONG;
console.log(
  `filled ${D.toLocaleString("en-US")} drivers, ${trips.length.toLocaleString("en-US")} trips in transit and ${storedBefore.toLocaleString("en-US")} positions on ${ENGINE === "pg" ? "PostgreSQL" : "SQLite"} in ${((performance.now() - t) / 1000).toFixed(1)} s`,
);
await handle.close();

const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
const env: Record<string, string | undefined> = {
  ...process.env,
  PORT: String(port),
  HOST: "127.0.0.1",
  LOG_LEVEL: "silent",
  WEB_DIST: dir,
  VAPID_SUBJECT: process.env.VAPID_SUBJECT ?? "mailto:bench@mytess.example",
};
if (pgDatabase) env.DATABASE_URL = pgDatabase.url;
else {
  env.DATABASE_PATH = file;
  delete env.DATABASE_URL;
}
const profile = values["cpu-prof"] ? ["--cpu-prof-md", `--cpu-prof-dir=${values["cpu-prof"]}`] : [];
if (profile.length) env.WEB_CONCURRENCY = "1";
const server = Bun.spawn(["bun", ...profile, join(import.meta.dir, "..", "src", "server", "main.ts")], {
  env,
  stdout: "ignore",
  stderr: "inherit",
});

/**
 * CPU seconds used so far by the server and every process under it (Linux's /proc; null elsewhere). On a shared
 * machine the positions per second follow whatever else runs; the server's CPU time per position does not.
 */
const serverCpuSeconds = (root: number): number | null => {
  try {
    const stats = new Map<number, { ppid: number; ticks: number }>();
    for (const name of readdirSync("/proc")) {
      if (!/^\d+$/.test(name)) continue;
      try {
        // The fields after the command (which may hold spaces) in parentheses: state, ppid, …, utime (14), stime (15).
        const text = readFileSync(`/proc/${name}/stat`, "utf8");
        const f = text.slice(text.lastIndexOf(")") + 2).split(" ");
        stats.set(Number(name), { ppid: Number(f[1]), ticks: Number(f[11]) + Number(f[12]) });
      } catch {}
    }
    let ticks = 0;
    const walk = (pid: number) => {
      ticks += stats.get(pid)?.ticks ?? 0;
      for (const [child, s] of stats) if (s.ppid === pid) walk(child);
    };
    walk(root);
    // Linux counts these in clock ticks of 1/100 s.
    return ticks / 100;
  } catch {
    return null;
  }
};

const cookieOf = (driver: number) => `${SESSION_COOKIE}=${tokens[driver]}`;
const batchOf = (trip: TTrip, n: number) =>
  Array.from({ length: BATCH }, (_, j) => {
    const k = n * BATCH + j;
    return { ...along(trip, 0.02 + k / 40_000), recordedAt: new Date(batchStart + k * 30_000).toISOString() };
  });
const send = async (trip: TTrip, n: number) => {
  const res = await fetch(`${base}/api/loads/${trip.loadId}/positions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Cookie: cookieOf(trip.driver) },
    body: JSON.stringify({ positions: batchOf(trip, n) }),
  });
  const body = (await res.json()) as { stored?: number; ignored?: number; message?: string };
  if (res.status !== 200) fail(`positions answered ${res.status}: ${body.message}`);
  return body as { stored: number; ignored: number };
};

let exitCode = 0;
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (i > 300) throw new Error("the server did not start");
    await Bun.sleep(100);
  }

  // 1. Positions stored per second.
  const batchesSent = new Map<number, number>();
  let next = 0;
  let stored = 0;
  const sendLatencies: number[] = [];
  for (let i = 0; i < 100; i++) {
    const trip = trips[next++ % trips.length]!;
    const n = batchesSent.get(trip.loadId) ?? 0;
    batchesSent.set(trip.loadId, n + 1);
    stored += (await send(trip, n)).stored;
  }
  const cpuBefore = serverCpuSeconds(server.pid);
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  let timedStored = 0;
  await Promise.all(
    Array.from({ length: C }, async () => {
      while (performance.now() < deadline) {
        const trip = trips[next++ % trips.length]!;
        const n = batchesSent.get(trip.loadId) ?? 0;
        batchesSent.set(trip.loadId, n + 1);
        const t0 = performance.now();
        const answer = await send(trip, n);
        sendLatencies.push(performance.now() - t0);
        if (answer.stored !== BATCH) fail(`a new batch stored ${answer.stored} of ${BATCH} points`);
        timedStored += answer.stored;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  const cpuAfter = serverCpuSeconds(server.pid);
  const cpuUsPerPosition =
    cpuBefore != null && cpuAfter != null ? ((cpuAfter - cpuBefore) * 1e6) / timedStored : Number.NaN;
  stored += timedStored;
  const perSecond = timedStored / elapsed;
  sendLatencies.sort((a, b) => a - b);
  console.log(
    `${timedStored.toLocaleString("en-US")} positions stored in ${elapsed.toFixed(1)} s by ${C} clients (${sendLatencies.length} batches of ${BATCH}): ${perSecond.toFixed(0)}/s, batch p50 ${percentile(sendLatencies, 50).toFixed(2)} ms, p99 ${percentile(sendLatencies, 99).toFixed(2)} ms; the server's CPU ${cpuUsPerPosition.toFixed(0)} µs a position`,
  );
  for (const [loadId, n] of batchesSent) {
    const p = pointsOf.get(loadId)!;
    p.count += n * BATCH;
    p.last = batchStart + (n * BATCH - 1) * 30_000;
  }

  // 2. A batch sent again stores nothing; the database holds exactly what the answers said.
  const resent = [...batchesSent.keys()].slice(0, 50);
  for (const loadId of resent) {
    const trip = trips.find((x) => x.loadId === loadId)!;
    const again = await send(trip, 0);
    if (again.stored !== 0 || again.ignored !== BATCH) fail(`a batch sent again stored ${again.stored}`);
  }
  const check = pgDatabase ? await openPgDb(pgDatabase.url) : await openDb(file);
  const [{ n: inDb }] = await check.db.select({ n: sql<number>`count(*)` }).from(tripPoints);
  await check.close();
  if (Number(inDb) !== storedBefore + stored)
    fail(`the database holds ${inDb} positions, the answers said ${storedBefore + stored}`);

  // 3. The track, on random trips and on the long one, each answer checked.
  const trackOnce = async (trip: TTrip) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/api/loads/${trip.loadId}/track`, { headers: { Cookie: cookieOf(trip.driver) } });
    const body = (await res.json()) as {
      positions: { recordedAt: string }[];
      lastPosition: { recordedAt: string } | null;
    };
    const ms = performance.now() - t0;
    const want = pointsOf.get(trip.loadId)!;
    if (res.status !== 200) fail(`track answered ${res.status}`);
    if (body.positions.length !== Math.min(MAX_TRACK_POINTS, want.count))
      fail(`trip ${trip.loadId}: ${body.positions.length} points, expected ${Math.min(MAX_TRACK_POINTS, want.count)}`);
    if (want.count && body.positions[0]!.recordedAt !== new Date(want.first).toISOString())
      fail(`trip ${trip.loadId}: the first point is ${body.positions[0]!.recordedAt}`);
    if (want.count && body.lastPosition?.recordedAt !== new Date(want.last).toISOString())
      fail(
        `trip ${trip.loadId}: the last point is ${body.lastPosition?.recordedAt}, expected ${new Date(want.last).toISOString()}`,
      );
    return ms;
  };
  const pick = mulberry32(3);
  for (let i = 0; i < 50; i++) await trackOnce(trips[Math.floor(pick() * trips.length)]!);
  const trackTimes: number[] = [];
  let q = 0;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (q++ < TQ) trackTimes.push(await trackOnce(trips[Math.floor(pick() * trips.length)]!));
    }),
  );
  trackTimes.sort((a, b) => a - b);
  const longTimes: number[] = [];
  for (let i = 0; i < 50; i++) longTimes.push(await trackOnce(longTrip));
  longTimes.sort((a, b) => a - b);
  const total = storedBefore + stored;
  console.log(
    `track over ${total.toLocaleString("en-US")} stored positions: p50 ${percentile(trackTimes, 50).toFixed(2)} ms, p99 ${percentile(trackTimes, 99).toFixed(2)} ms (${trackTimes.length} answers checked); the ${LONG.toLocaleString("en-US")}-point trip: p50 ${percentile(longTimes, 50).toFixed(2)} ms, p99 ${percentile(longTimes, 99).toFixed(2)} ms`,
  );
  console.log("targets: positions_per_s >= 5000 on SQLite, track_p99_ms <= 20");
  console.log(
    `engine=${ENGINE} drivers=${D} stored_total=${total} positions_per_s=${perSecond.toFixed(0)} server_cpu_us_per_position=${cpuUsPerPosition.toFixed(0)} batch_p99_ms=${percentile(sendLatencies, 99).toFixed(2)} track_p50_ms=${percentile(trackTimes, 50).toFixed(2)} track_p99_ms=${percentile(trackTimes, 99).toFixed(2)} long_track_p99_ms=${percentile(longTimes, 99).toFixed(2)} agree=${trackTimes.length + longTimes.length}/${trackTimes.length + longTimes.length}`,
  );
} catch (err) {
  console.error(String(err));
  exitCode = 1;
} finally {
  server.kill("SIGTERM");
  await server.exited;
  await pgDatabase?.drop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
