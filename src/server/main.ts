// Starts MyTess. The primary process applies migrations (and seeds demo data in demo mode), then either serves itself
// (WEB_CONCURRENCY=1) or starts one server process per core, all listening on the same port (SO_REUSEPORT) over the
// same SQLite file in WAL mode. SIGTERM drains requests in flight and closes the database.
import { availableParallelism } from "node:os";
import { migrateDb, openDb } from "../../db/client";
import { isDatabaseEmpty, seedDemo } from "../../db/seed/demo";
import { emulatorEnv, startCarrierEmulators } from "../../emulators/carriers/server";
import { loadConfig } from "./config";
import { purgeExpiredSessions } from "./domain/auth/sessions";
import { createApp } from "./http/app";
import { MAX_JSON_BODY_BYTES } from "./http/body";
import { logger } from "./logger";

const config = loadConfig();
const isWorker = process.env.MYTESS_WORKER === "1";
const concurrency = Math.max(1, Number(process.env.WEB_CONCURRENCY ?? availableParallelism()) || 1);
const hostname = process.env.HOST ?? "0.0.0.0";

/** Demo mode: every carrier the environment does not name is answered by its local emulator. */
const startDemoEmulators = () => {
  const missing = (["FEDEX", "UPS", "USPS"] as const).filter((c) => !process.env[`${c}_CLIENT_ID`]);
  if (!missing.length) return;
  const emu = startCarrierEmulators();
  for (const [key, value] of Object.entries(emulatorEnv(emu.urls))) {
    if (missing.some((c) => key.startsWith(`${c}_`))) process.env[key] = value;
  }
  logger.info("demo: carrier emulators started", { carriers: missing, urls: emu.urls });
};

const prepare = async () => {
  const handle = openDb(config.databasePath);
  migrateDb(handle.db);
  purgeExpiredSessions(handle.db);
  if (config.demo && isDatabaseEmpty(handle.db)) {
    const summary = await seedDemo(handle.db);
    logger.info("demo data seeded", summary);
  }
  return handle;
};

const serve = (handle: ReturnType<typeof openDb>) => {
  const app = createApp({ db: handle.db, config });
  // Bun stops reading a body past this size (413) before any handler runs; routes apply their own 1 MB JSON limit.
  app.listen({ port: config.port, hostname, reusePort: concurrency > 1, maxRequestBodySize: 2 * MAX_JSON_BODY_BYTES });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    // Stop accepting connections and wait for requests in flight, then close the database.
    await app.server?.stop(false);
    handle.close();
    if (!isWorker) logger.info("stopped", { signal });
    process.exit(0);
  };
  process.on("SIGTERM", () => void shutdown("SIGTERM"));
  process.on("SIGINT", () => void shutdown("SIGINT"));
};

if (isWorker) {
  serve(openDb(config.databasePath));
} else {
  if (config.demo) startDemoEmulators();
  const handle = await prepare();
  const where = {
    url: `http://localhost:${config.port}`,
    database: config.databasePath,
    demo: config.demo,
    processes: concurrency,
  };
  if (concurrency === 1) {
    serve(handle);
    logger.info("MyTess is listening", where);
  } else {
    handle.close();
    let stopping = false;
    const workers = new Set<ReturnType<typeof Bun.spawn>>();
    const start = (restarts = 0) => {
      const child = Bun.spawn(["bun", import.meta.path], {
        env: { ...process.env, MYTESS_WORKER: "1", WEB_CONCURRENCY: String(concurrency) },
        stdout: "inherit",
        stderr: "inherit",
        onExit: (proc, code) => {
          workers.delete(proc);
          if (stopping) return;
          logger.error("server process exited; starting another", { code });
          setTimeout(() => start(restarts + 1), Math.min(30_000, 500 * 2 ** restarts));
        },
      });
      workers.add(child);
    };
    for (let i = 0; i < concurrency; i++) start();
    logger.info("MyTess is listening", where);
    const shutdown = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      for (const w of workers) w.kill("SIGTERM");
      await Promise.all([...workers].map((w) => w.exited));
      logger.info("stopped", { signal });
      process.exit(0);
    };
    process.on("SIGTERM", () => void shutdown("SIGTERM"));
    process.on("SIGINT", () => void shutdown("SIGINT"));
  }
}
