import { Database as Sqlite } from "bun:sqlite";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { drizzle } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import * as schema from "./schema";

export const MIGRATIONS_FOLDER = join(import.meta.dir, "migrations");

export type Db = ReturnType<typeof drizzle<typeof schema>>;
export type DbHandle = { db: Db; sqlite: Sqlite; close: () => void };

/** Opens (creating if needed) the SQLite file, with WAL, a busy timeout and foreign keys on. ":memory:" for tests. */
export const openDb = (path: string): DbHandle => {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Sqlite(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL;");
  sqlite.exec("PRAGMA busy_timeout = 5000;");
  sqlite.exec("PRAGMA foreign_keys = ON;");
  sqlite.exec("PRAGMA synchronous = NORMAL;");
  const db = drizzle({ client: sqlite, schema, casing: "snake_case" });
  return { db, sqlite, close: () => sqlite.close() };
};

export const migrateDb = (db: Db) => migrate(db, { migrationsFolder: MIGRATIONS_FOLDER });

/** A migrated in-memory database: what each test starts from. */
export const openTestDb = (): DbHandle => {
  const handle = openDb(":memory:");
  migrateDb(handle.db);
  return handle;
};
