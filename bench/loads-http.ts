import { Database } from "bun:sqlite";
// GET /api/loads over HTTP: fills a temporary database with N loads (default 100,000), starts the real server on a
// free loopback port, signs a driver in, and drives near-me queries with C concurrent clients for D seconds.
// Prints requests per second and latency percentiles.   bun bench/loads-http.ts --loads 100000 --clients 32 --seconds 10
// With --wrk the load comes from wrk (Debian's `wrk` package), an external generator that does not share Bun's event
// loop with a client written in Bun: the figure to compare with the target.   bun bench/loads-http.ts --wrk
// The server keeps REST board pages while nothing on them changes (modules/boards/page-cache.ts): --writes-per-s W
// updates random loads while measuring, as other users' edits would, so kept pages are let go and read again;
// BOARD_PAGE_CACHE_MB=0 in the environment turns the cache off. After the run, 40 of the pages asked are compared with
// a fresh read of the same query (tRPC, never served from the REST cache): any difference fails the bench (agree=).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { migrateDb, openDb } from "../db/client";
import { addShippers, CITIES, generateLoads, mulberry32, nearCity, percentile } from "./lib/generate";

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
    // Shipper accounts the MyTess loads are posted by (their trust signals are in every answer); 0 for none.
    shippers: { type: "string", default: "2000" },
    // Writes to loads per second while measuring (each bumps the board version, so kept pages are read again).
    "writes-per-s": { type: "string", default: "0" },
    // Writes the server's CPU profile (Bun's --cpu-prof, markdown beside it) into this folder; one server process.
    "cpu-prof": { type: "string" },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(`bun bench/loads-http.ts [options]
  --loads N         loads in the temporary database (100000)
  --clients C       concurrent connections (32)
  --seconds D       measured seconds (10)
  --wrk             load from wrk (Debian's package) instead of a Bun client: the figure to compare with the target
  --threads T       wrk threads (2)
  --anonymous       no session cookie
  --shippers S      shipper accounts posting the MyTess loads (2000; 0: loads without a shipper)
  --writes-per-s W  update W random loads a second while measuring (each lets the kept board pages go)
  --page-size N     loads per answer (the route's default when absent)
  --path P          ask this path instead of the board (e.g. /api/health)
  --cpu-prof DIR    write the server's CPU profile (.cpuprofile and .md) into DIR; runs one server process`);
  process.exit(0);
}
const N = Number(values.loads);
const C = Number(values.clients);
const SECONDS = Number(values.seconds);
const SHIPPERS = Number(values.shippers);
const WRITES = Number(values["writes-per-s"]);

const dir = mkdtempSync(join(tmpdir(), "mytess-http-bench-"));
const dbPath = join(dir, "bench.db");
const handle = await openDb(dbPath);
await migrateDb(handle.db);
await handle.close();
const filler = new Database(dbPath);
generateLoads(filler, N);
addShippers(filler, SHIPPERS);
filler.exec("ANALYZE");
filler.close();

const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
const profile = values["cpu-prof"]
  ? ["--cpu-prof", "--cpu-prof-md", `--cpu-prof-dir=${values["cpu-prof"]}`, "--cpu-prof-interval=250"]
  : [];
const server = Bun.spawn(["bun", ...profile, "run", join(import.meta.dir, "..", "src", "server", "main.ts")], {
  env: {
    ...process.env,
    ...(profile.length ? { WEB_CONCURRENCY: "1" } : {}),
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

/**
 * CPU seconds (user + system) spent so far by the server and every process below it (the web role's children), from
 * Linux's /proc: the server's cost per request, which moves less than latency when other work shares the machine.
 */
const serverCpuSeconds = () => {
  const procs: { pid: number; ppid: number; cpu: number }[] = [];
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      // After the command's ")": state, ppid, …; utime and stime are the 14th and 15th fields, in clock ticks (100/s).
      const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      procs.push({ pid: Number(name), ppid: Number(f[1]), cpu: (Number(f[11]) + Number(f[12])) / 100 });
    } catch {}
  }
  const mine = new Set([server.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const p of procs)
      if (!mine.has(p.pid) && mine.has(p.ppid)) {
        mine.add(p.pid);
        grew = true;
      }
  }
  return procs.filter((p) => mine.has(p.pid)).reduce((n, p) => n + p.cpu, 0);
};

/** Resident memory (MB) of the server and the processes below it, from /proc: the page cache's memory shows here. */
const serverRssMb = () => {
  let kb = 0;
  const parents = new Map<number, number>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      parents.set(Number(name), Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]));
    } catch {}
  }
  const mine = new Set([server.pid]);
  for (let grew = true; grew; ) {
    grew = false;
    for (const [pid, ppid] of parents)
      if (!mine.has(pid) && mine.has(ppid)) {
        mine.add(pid);
        grew = true;
      }
  }
  for (const pid of mine) {
    try {
      kb += Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
    } catch {}
  }
  return (kb / 1024).toFixed(0);
};

/**
 * Updates random loads at --writes-per-s while measuring, as other users' edits would (through the database file, like
 * another process): each write bumps the board version, so every kept board page is read again. Returns a stop.
 */
const startWrites = () => {
  if (!WRITES) return () => 0;
  const writer = new Database(dbPath);
  writer.exec("PRAGMA busy_timeout = 5000");
  // A column every page shows (the title): a write that no page shows would not let any page go.
  const touch = writer.query("UPDATE loads SET title = ? || substr(title, 1, 60), updated_at = ? WHERE id = ?");
  const max = (writer.query("SELECT max(id) AS n FROM loads").get() as { n: number }).n;
  let n = 0;
  const timer = setInterval(() => {
    touch.run(`${n % 10}`, Date.now(), 1 + Math.floor(Math.random() * max));
    n++;
  }, 1000 / WRITES);
  return () => {
    clearInterval(timer);
    writer.close();
    return n;
  };
};

/**
 * The REST answers (kept pages, when the cache holds them) must be what a fresh read says: the same pages asked
 * through tRPC, which never answers from the REST cache. Any difference fails the bench.
 */
const checkAgainstFresh = async (urls: string[], cookie: string) => {
  let agree = 0;
  const sample = urls.slice(0, 40);
  for (const u of sample) {
    const url = new URL(u);
    const input = Object.fromEntries([...url.searchParams].map(([k, v]) => [k, Number(v)]));
    const rest = await (await fetch(u, { headers: { Cookie: cookie } })).text();
    const viaTrpc = (await (
      await fetch(`${base}/trpc/loads.search?input=${encodeURIComponent(JSON.stringify(input))}`, {
        headers: { Cookie: cookie },
      })
    ).json()) as { result: { data: { items: unknown[] } } };
    if (rest !== JSON.stringify(viaTrpc.result.data.items))
      throw new Error(`${url.pathname}${url.search}: the REST answer is not what a fresh read gives`);
    agree++;
  }
  return `agree=${agree}/${sample.length}`;
};
const cpuPerRequest = (cpuSeconds: number, requests: number) =>
  `server_cpu_ms_per_request=${requests ? ((cpuSeconds * 1000) / requests).toFixed(3) : "n/a"}`;
const TARGETS = "targets: >= 4000 req/s and p99 <= 30 ms on a quiet box, >= 2000 req/s on a busy one";

const stop = async () => {
  server.kill("SIGTERM");
  // The profile is written as the server exits.
  if (profile.length) await server.exited;
  rmSync(dir, { recursive: true, force: true });
};

try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (i > 600) throw new Error("the server did not start");
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
  else if (!values.path) await checkShippers(urls[0]!, cookie);

  if (values.wrk) {
    await runWrk(urls, cookie);
  } else {
    await runBun(urls, cookie);
  }
} finally {
  await stop();
}

/** The page's shippers must be what the database says (name, rating, loads posted): a bench of wrong answers fails. */
async function checkShippers(url: string, cookie: string) {
  type TItem = { id: number; source: { type: string }; shipper: Record<string, unknown> | null };
  const items = (await (await fetch(url, { headers: { Cookie: cookie } })).json()) as TItem[];
  const db = new Database(dbPath, { readonly: true });
  try {
    const expected = db.query<
      { shipper_id: number | null; first_name: string | null; n: number; s: number; r: number },
      [number]
    >(
      `SELECT l.shipper_id, u.first_name, u.rating_sum AS s, u.total_ratings AS r,
              (SELECT count(*) FROM loads x WHERE x.shipper_id = l.shipper_id) AS n
       FROM loads l LEFT JOIN users u ON u.id = l.shipper_id WHERE l.id = ?`,
    );
    for (const item of items) {
      const e = expected.get(item.id)!;
      const want =
        item.source.type === "mytess" && e.shipper_id != null
          ? {
              name: `${e.first_name} B.`,
              ratings: e.r,
              rating: e.r ? Math.round((e.s / e.r) * 10) / 10 : null,
              loadsPosted: e.n,
            }
          : null;
      const got = item.shipper && {
        name: item.shipper.name,
        ratings: item.shipper.ratings,
        rating: item.shipper.rating,
        loadsPosted: item.shipper.loadsPosted,
      };
      if (JSON.stringify(got) !== JSON.stringify(want))
        throw new Error(`load ${item.id}: the answer's shipper ${JSON.stringify(got)} is not ${JSON.stringify(want)}`);
    }
    console.log(`checked ${items.length} loads' shippers against the database`);
  } finally {
    db.close();
  }
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
  const run = async (seconds: number) => {
    const p = Bun.spawn(["wrk", `-t${values.threads}`, `-c${C}`, `-d${seconds}s`, "--latency", "-s", lua, base], {
      stdout: "pipe",
      stderr: "pipe",
    });
    const text = await new Response(p.stdout).text();
    await p.exited;
    return text;
  };
  await run(3); // warm-up
  const stopWrites = startWrites();
  const cpu0 = serverCpuSeconds();
  const out = await run(SECONDS);
  const cpu = serverCpuSeconds() - cpu0;
  const writes = stopWrites();
  const rss = serverRssMb();
  const agree = values.path || values.anonymous ? "agree=n/a" : await checkAgainstFresh(urls, cookie);
  console.log(out.trim());
  const m = /WRK (.*)/.exec(out);
  if (!m) throw new Error("wrk printed no summary");
  console.log(`${TARGETS} (wrk from Debian's packages as the load generator)`);
  const requests = Number(/requests=(\d+)/.exec(m[1]!)?.[1] ?? 0);
  console.log(
    `generator=wrk loads=${N} shippers=${SHIPPERS} clients=${C} seconds=${SECONDS} writes=${writes} ${m[1]} ${cpuPerRequest(cpu, requests)} server_rss_mb=${rss} ${agree}`,
  );
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
  const cpu0 = serverCpuSeconds();
  await Promise.all(Array.from({ length: C }, worker));
  const cpu = serverCpuSeconds() - cpu0;
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const rps = latencies.length / elapsed;
  console.log(
    `${latencies.length} requests in ${elapsed.toFixed(1)} s with ${C} clients over ${N.toLocaleString("en-US")} loads, ${errors} errors`,
  );
  console.log(
    `p50 ${percentile(latencies, 50).toFixed(2)} ms, p90 ${percentile(latencies, 90).toFixed(2)} ms, p99 ${percentile(latencies, 99).toFixed(2)} ms`,
  );
  console.log(`${TARGETS} (client and server share this machine's cores)`);
  console.log(
    `generator=bun loads=${N} shippers=${SHIPPERS} clients=${C} seconds=${SECONDS} requests=${latencies.length} errors=${errors} rps=${rps.toFixed(0)} p50_ms=${percentile(latencies, 50).toFixed(2)} p99_ms=${percentile(latencies, 99).toFixed(2)} ${cpuPerRequest(cpu, latencies.length)}`,
  );
}
