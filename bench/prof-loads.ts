// In-process profile of GET /api/loads (100k loads on SQLite): the request through the app's handler without HTTP, to
// find where a request's time goes.   bun --cpu-prof-md --cpu-prof-dir=/tmp/prof bench/prof-loads.ts [--shippers 2000]
// (--shippers: accounts posting the MyTess loads, as in loads-http.ts; 0 for loads without a shipper)
import { Database } from "bun:sqlite";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { migrateDb, openDb } from "../db/client";
import { loadConfig } from "../src/server/config";
import { createApp } from "../src/server/http/app";
import { addShippers, CITIES, generateLoads, mulberry32, nearCity } from "./lib/generate";

const { values } = parseArgs({ options: { shippers: { type: "string", default: "2000" } } });

const dir = mkdtempSync(join(tmpdir(), "mytess-prof-"));
const dbPath = join(dir, "bench.db");
{
  const h = await openDb(dbPath);
  await migrateDb(h.db);
  await h.close();
  const filler = new Database(dbPath);
  generateLoads(filler, 100_000);
  addShippers(filler, Number(values.shippers));
  filler.exec("ANALYZE");
  filler.close();
}
const handle = await openDb(dbPath);
const app = createApp({ db: handle.db, config: { ...loadConfig({}), databasePath: dbPath, webDist: dir }, env: {} });
const reg = await app.handle(
  new Request("http://localhost/api/auth/register", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      email: "prof@example.com",
      password: "bench-password",
      firstName: "P",
      lastName: "D",
      userType: "driver",
    }),
  }),
);
const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;
const rand = mulberry32(11);
const urls = Array.from({ length: 500 }, () => {
  const c = nearCity(rand, CITIES[Math.floor(rand() * CITIES.length)], 10);
  return `http://localhost/api/loads?latitude=${c.lat.toFixed(5)}&longitude=${c.lng.toFixed(5)}&radius=50`;
});
// Wall time and this process's CPU time (user + system) per request: on a busy machine the CPU time moves less.
const run = async (n: number) => {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  for (let i = 0; i < n; i++) {
    const res = await app.handle(new Request(urls[i % urls.length]!, { headers: { Cookie: cookie } }));
    await res.arrayBuffer();
  }
  const cpu = process.cpuUsage(c0);
  return { wall: (performance.now() - t0) / n, cpu: (cpu.user + cpu.system) / 1000 / n };
};
await run(300);
const best = { wall: Infinity, cpu: Infinity };
for (let round = 0; round < 3; round++) {
  const r = await run(2000);
  best.wall = Math.min(best.wall, r.wall);
  best.cpu = Math.min(best.cpu, r.cpu);
}
console.log(
  `ms per request: ${best.wall.toFixed(3)} (best of 3 rounds of 2000), cpu_ms_per_request=${best.cpu.toFixed(3)}`,
);
await handle.close();
rmSync(dir, { recursive: true, force: true });
