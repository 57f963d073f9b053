import { migrateDb, openDb } from "../../db/client";
import { isDatabaseEmpty, seedDemo } from "../../db/seed/demo";
import { loadConfig } from "./config";
import { purgeExpiredSessions } from "./domain/auth/sessions";
import { createApp } from "./http/app";
import { logger } from "./logger";

const config = loadConfig();
const handle = openDb(config.databasePath);
migrateDb(handle.db);
purgeExpiredSessions(handle.db);

if (config.demo && isDatabaseEmpty(handle.db)) {
  const summary = await seedDemo(handle.db);
  logger.info("demo data seeded", summary);
}

const app = createApp({ db: handle.db, config });
app.listen({ port: config.port, hostname: process.env.HOST ?? "0.0.0.0" });
logger.info("MyTess is listening", {
  url: `http://localhost:${config.port}`,
  database: config.databasePath,
  demo: config.demo,
});

let stopping = false;
const shutdown = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  logger.info("shutting down", { signal });
  // Stop accepting connections and wait for requests in flight, then close the database.
  await app.server?.stop(false);
  handle.close();
  process.exit(0);
};
process.on("SIGTERM", () => void shutdown("SIGTERM"));
process.on("SIGINT", () => void shutdown("SIGINT"));
