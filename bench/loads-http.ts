import { Database } from "bun:sqlite";
// GET /api/loads over HTTP: fills a temporary database with N loads (default 100,000), starts the real server on a
// free loopback port, signs a driver in, and drives near-me queries with C concurrent clients for D seconds.
// Prints requests per second and latency percentiles.   bun bench/loads-http.ts --loads 100000 --clients 32 --seconds 10
// With --wrk the load comes from wrk (Debian's `wrk` package), an external generator that does not share Bun's event
// loop with a client written in Bun: the figure to compare with the target.   bun bench/loads-http.ts --wrk
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
    wrk: { type: "boolean", default: false },
    threads: { type: "string", default: "2" },
    // Variants that show where the time goes: no session, one load per answer, or the health check alone.
    anonymous: { type: "boolean", default: false },
    "page-size": { type: "string" },
    path: { type: "string" },
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
    VAPID_SUBJECT: process.env.VAPID_SUBJECT ?? "mailto:bench@mytess.example",
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
  let cookie = reg.headers.getSetCookie()[0]?.split(";")[0];
  if (!cookie) throw new Error(`could not sign in: ${reg.status}`);

  const rand = mulberry32(11);
  const size = values["page-size"] ? `&pageSize=${values["page-size"]}` : "";
  const urls = Array.from({ length: 2000 }, () => {
    if (values.path) return `${base}${values.path}`;
    const c = nearCity(rand, CITIES[Math.floor(rand() * CITIES.length)], 10);
    return `${base}/api/loads?latitude=${c.lat.toFixed(5)}&longitude=${c.lng.toFixed(5)}&radius=50${size}`;
  });
  if (values.anonymous) cookie = "none=1";

  if (values.wrk) {
    await runWrk(urls, cookie);
  } else {
    await runBun(urls, cookie);
  }
} finally {
  stop();
}

async function runWrk(urls: string[], cookie: string) {
  const lua = join(dir, "urls.lua");
  const paths = urls.map((u) => new URL(u).pathname + new URL(u).search);
  await Bun.write(
    lua,
    `local paths = {${paths.map((p) => JSON.stringify(p)).join(",")}}
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i], { ["Cookie"] = ${JSON.stringify(cookie)} })
end
done = function(summary, latency, requests)
  io.write(string.format("WRK rps=%.0f p50_ms=%.2f p90_ms=%.2f p99_ms=%.2f errors=%d requests=%d\\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(90) / 1000,
    latency:percentile(99) / 1000, summary.errors.status + summary.errors.connect + summary.errors.read +
    summary.errors.write + summary.errors.timeout, summary.requests))
end
`,
  );
  const run = (seconds: number) =>
    Bun.spawnSync(["wrk", `-t${values.threads}`, `-c${C}`, `-d${seconds}s`, "--latency", "-s", lua, base], {
      stdout: "pipe",
      stderr: "pipe",
    });
  run(3); // warm-up
  const out = run(SECONDS).stdout.toString();
  console.log(out.trim());
  const m = /WRK (.*)/.exec(out);
  if (!m) throw new Error("wrk printed no summary");
  console.log("targets: >= 2000 req/s, p99 <= 50 ms (wrk from Debian's packages as the load generator)");
  console.log(`generator=wrk loads=${N} clients=${C} seconds=${SECONDS} ${m[1]}`);
}

async function runBun(urls: string[], cookie: string) {
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
    `generator=bun loads=${N} clients=${C} seconds=${SECONDS} requests=${latencies.length} errors=${errors} rps=${rps.toFixed(0)} p50_ms=${percentile(latencies, 50).toFixed(2)} p99_ms=${percentile(latencies, 99).toFixed(2)}`,
  );
}
