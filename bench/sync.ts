// Board sync at scale: N external loads, as a board answers them, written through the sync path (map to our Load, diff
// against what the configuration holds, batched upserts, expiry), on a temporary database. Three passes: the first sync
// (every load new), a re-sync of the same list (nothing written), and a sync where a tenth changed and a tenth left the
// board (updates and expiry). Prints each pass's time; the last line is key=value.
//   bun bench/sync.ts --loads 100000
//   DATABASE_URL=postgres://… bun bench/sync.ts --loads 100000   (a temporary database on that server)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTestDatabase, type DbHandle, migrateDb, openDb, openPgDb } from "../db/client";
import { ENGINE } from "../db/engine";
import { loads, marketplaceConfigs, users } from "../db/tables";
import type { TBoardLoad } from "../src/server/integrations/boards/types";
import { upsertExternalLoads } from "../src/server/modules/boards/sync";
import { EQUIPMENT_TYPES } from "../src/shared/constants";
import { CITIES, mulberry32, nearCity } from "./lib/generate";

const { values } = parseArgs({ options: { loads: { type: "string", default: "100000" } } });
const N = Number(values.loads);

const dir = mkdtempSync(join(tmpdir(), "mytess-sync-bench-"));
const pgDatabase = await createTestDatabase();
const handle: DbHandle = pgDatabase ? await openPgDb(pgDatabase.url) : await openDb(join(dir, "bench.db"));
if (!pgDatabase) await migrateDb(handle.db);
const db = handle.db;

const now = Date.now();
const [user] = await db
  .insert(users)
  .values({
    email: "bench-driver@example.com",
    firstName: "Bench",
    lastName: "Driver",
    userType: "driver",
    trialEndsAt: now,
    createdAt: now,
    updatedAt: now,
  })
  .returning({ id: users.id });
const [cfg] = await db
  .insert(marketplaceConfigs)
  .values({
    userId: user!.id,
    provider: "truckstop",
    name: "Bench board",
    apiBaseUrl: "http://127.0.0.1:1",
    credentials: "v1.x.x.x",
    credentialFields: [],
    syncEnabled: true,
    createdAt: now,
    updatedAt: now,
  })
  .returning();
const config = { id: cfg!.id, userId: user!.id, provider: "truckstop" };

const rand = mulberry32(7);
const DAY = 86_400_000;
const place = (c: (typeof CITIES)[number]) => {
  const p = nearCity(rand, c, 25);
  return { city: c.city, state: null, country: "US", latitude: p.lat, longitude: p.lng };
};
const list: TBoardLoad[] = Array.from({ length: N }, (_, i) => {
  const from = CITIES[Math.floor(rand() * CITIES.length)]!;
  const to = CITIES[Math.floor(rand() * CITIES.length)]!;
  return {
    externalId: `TS-${100000 + i}`,
    title: `Load ${i}`,
    description: null,
    pickup: place(from),
    delivery: place(to),
    pickupDate: now + (1 + (i % 7)) * DAY,
    deliveryDate: now + (3 + (i % 7)) * DAY,
    weightLbs: 10_000 + (i % 30) * 1000,
    equipmentType: EQUIPMENT_TYPES[i % EQUIPMENT_TYPES.length]!,
    rateMinor: 150_000 + (i % 100) * 1000,
    currency: "USD",
    tripMiles: 200 + (i % 900),
    contact: { company: "Bench Logistics", name: null, phone: "+1 312 555 0100", email: null, mcNumber: "123456" },
    postedAt: now - (i % 60) * 60_000,
  };
});

const time = async (f: () => Promise<unknown>) => {
  const t = performance.now();
  const r = await f();
  return { ms: performance.now() - t, r };
};

const first = await time(() => upsertExternalLoads(db, config, list, now));
const again = await time(() => upsertExternalLoads(db, config, list, now + 1000));
const changed = list
  .filter((_, i) => i % 10 !== 0)
  .map((l, i) => (i % 9 === 0 ? { ...l, rateMinor: (l.rateMinor ?? 0) + 5000 } : l));
const third = await time(() => upsertExternalLoads(db, config, changed, now + 2000));
const stored = (await db.select({ id: loads.id }).from(loads)).length;

console.log(`first sync: ${N} loads in ${first.ms.toFixed(0)} ms`, first.r);
console.log(`re-sync, nothing changed: ${again.ms.toFixed(0)} ms`, again.r);
console.log(`re-sync, a tenth changed and a tenth gone: ${third.ms.toFixed(0)} ms`, third.r);
console.log(`stored after the third pass: ${stored}; target: first sync <= 5000 ms`);
console.log(
  `engine=${ENGINE} loads=${N} upsert_ms=${first.ms.toFixed(0)} resync_ms=${again.ms.toFixed(0)} change_ms=${third.ms.toFixed(0)} stored=${stored}`,
);

await handle.close();
await pgDatabase?.drop();
rmSync(dir, { recursive: true, force: true });
