import { Database } from "bun:sqlite";
// GET /api/loads over HTTP: fills a temporary database with N loads (default 100,000), starts the real server on a
// free loopback port, signs a driver in, and drives near-me queries with C concurrent clients for D seconds.
// Prints requests per second and latency percentiles.   bun bench/loads-http.ts --loads 100000 --clients 32 --seconds 10
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { migrateDb, openDb } from "../db/client";
import { CITIES, generateLoads, mulberry32, nearCity, percentile } from "./lib/generate";

const { values } = parseArgs({
  options: {
    loads: { type: "string", default: "100000" },
    clients: { type: "string", default: "32" },
    seconds: { type: "string", default: "10" },
  },
});
const N = Number(values.loads);
const C = Number(values.clients);
const SECONDS = Number(values.seconds);

const dir = mkdtempSync(join(tmpdir(), "mytess-http-bench-"));
const dbPath = join(dir, "bench.db");
const handle = await openDb(dbPath);
await migrateDb(handle.db);
await handle.close();
const filler = new Database(dbPath);
generateLoads(filler, N);
filler.exec("ANALYZE");
filler.close();

const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
const server = Bun.spawn(["bun", "run", join(import.meta.dir, "..", "src", "server", "main.ts")], {
  env: {
    ...process.env,
    PORT: String(port),
    HOST: "127.0.0.1",
    DATABASE_PATH: dbPath,
    LOG_LEVEL: "silent",
    WEB_DIST: dir,
  },
  stdout: "ignore",
  stderr: "inherit",
});

const stop = () => {
  server.kill("SIGTERM");
  rmSync(dir, { recursive: true, force: true });
};

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (i > 100) throw new Error("the server did not start");
    await Bun.sleep(100);
  }
  const reg = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      email: `bench-${Date.now()}@example.com`,
      password: "bench-password",
      firstName: "Bench",
      lastName: "Driver",
      userType: "driver",
    }),
  });
  const cookie = reg.headers.getSetCookie()[0]?.split(";")[0];
  if (!cookie) throw new Error(`could not sign in: ${reg.status}`);

  const rand = mulberry32(11);
  const urls = Array.from({ length: 2000 }, () => {
    const c = nearCity(rand, CITIES[Math.floor(rand() * CITIES.length)], 10);
    return `${base}/api/loads?latitude=${c.lat.toFixed(5)}&longitude=${c.lng.toFixed(5)}&radius=50`;
  });

  // Warm-up.
  await Promise.all(
    urls.slice(0, 200).map((u) => fetch(u, { headers: { Cookie: cookie } }).then((r) => r.arrayBuffer())),
  );

  const latencies: number[] = [];
  let errors = 0;
  let next = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const worker = async () => {
    while (performance.now() < deadline) {
      const url = urls[next++ % urls.length];
      const t = performance.now();
      const res = await fetch(url, { headers: { Cookie: cookie } });
      await res.arrayBuffer();
      latencies.push(performance.now() - t);
      if (!res.ok) errors++;
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: C }, worker));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const rps = latencies.length / elapsed;
  console.log(
    `${latencies.length} requests in ${elapsed.toFixed(1)} s with ${C} clients over ${N.toLocaleString("en-US")} loads, ${errors} errors`,
  );
  console.log(
    `p50 ${percentile(latencies, 50).toFixed(2)} ms, p90 ${percentile(latencies, 90).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`,
  );
  console.log("targets: >= 2000 req/s, p99 <= 50 ms (client and server share this machine's cores)");
  console.log(
    `loads=${N} clients=${C} seconds=${SECONDS} requests=${latencies.length} errors=${errors} rps=${rps.toFixed(0)} p50_ms=${percentile(latencies, 50).toFixed(2)} p99_ms=${percentile(latencies, 99).toFixed(2)}`,
  );
} finally {
  stop();
}
