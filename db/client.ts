import { Database as Sqlite } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { drizzle as drizzleSync } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { drizzle, type SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import * as schema from "./schema";
import { createSqliteQueries, type TQueries } from "./sqlite/queries";

export const MIGRATIONS_FOLDER = join(import.meta.dir, "migrations");

/**
 * The handle every domain function takes: drizzle's query builders, used only in the subset that sqlite-core and
 * pg-core share (awaited builders returning arrays, `.returning()`, `await db.transaction(async (tx) => …)`), plus
 * `q`, the engine's own queries (near-me, JSON batches) from its per-dialect module (db/sqlite/queries.ts).
 */
export type TDb = SqliteRemoteDatabase<typeof schema> & { q: TQueries };
/** The handle inside `db.transaction(async (tx) => …)`. */
export type TTx = Parameters<Parameters<TDb["transaction"]>[0]>[0];
export type DbHandle = { db: TDb; sqlite: Sqlite; close: () => void };

/** The first row of a result, or undefined: `first(await db.select()…limit(1))`. */
export const first = <T>(rows: T[]): T | undefined => rows[0];

/**
 * The process's one SQLite connection, shared by every request, and a gate in front of it. bun:sqlite is synchronous
 * and has one connection, so while a transaction awaits between its statements, another request's statement would
 * otherwise run inside it. A transaction holds the gate from BEGIN IMMEDIATE to COMMIT or ROLLBACK; a statement runs
 * at once when the gate is free or when it belongs to the transaction holding it (told apart by AsyncLocalStorage),
 * and otherwise waits. Transactions of one process take turns here; other processes wait on SQLite's write lock
 * (busy_timeout).
 */
export type TGate = {
  /** Runs `f` when this context may use the connection. */
  run: <T>(f: () => T) => Promise<T>;
  /** Runs `f` holding the gate (a transaction). */
  hold: <T>(f: () => Promise<T>) => Promise<T>;
};

export const createGate = (): TGate => {
  const owner = new AsyncLocalStorage<object>();
  let holder: object | null = null;
  let tail: Promise<void> = Promise.resolve();
  const mayRun = () => holder === null || owner.getStore() === holder;
  return {
    run: async (f) => {
      while (!mayRun()) await tail;
      return f();
    },
    hold: (f) => {
      if (holder !== null && owner.getStore() === holder)
        throw new Error("A transaction inside a transaction: use tx.transaction (a savepoint), not db.transaction");
      const token = {};
      const prev = tail;
      let release!: () => void;
      tail = new Promise<void>((r) => {
        release = r;
      });
      return owner.run(token, async () => {
        await prev;
        // Statements that were waiting for the previous holder do not start between its release and this claim.
        holder = token;
        try {
          return await f();
        } finally {
          holder = null;
          release();
        }
      });
    },
  };
};

type TMethod = "run" | "all" | "values" | "get";

/** Opens (creating if needed) the SQLite file, with WAL, a busy timeout and foreign keys on. ":memory:" for tests. */
export const openDb = async (path: string): Promise<DbHandle> => {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Sqlite(path, { create: true, strict: true });
  sqlite.exec("PRAGMA journal_mode = WAL;");
  sqlite.exec("PRAGMA busy_timeout = 5000;");
  sqlite.exec("PRAGMA foreign_keys = ON;");
  sqlite.exec("PRAGMA synchronous = NORMAL;");
  const gate = createGate();
  // drizzle's async SQLite driver over a callback: statements are prepared once (bun:sqlite caches them by text).
  const exec = (text: string, params: unknown[], method: TMethod) =>
    gate.run(() => {
      const stmt = sqlite.query(text);
      const args = params as never[];
      if (method === "run") {
        stmt.run(...args);
        return { rows: [] };
      }
      const rows = stmt.values(...args);
      return { rows: method === "get" ? rows[0] : rows };
    });
  // (drizzle reads `casing` from the third argument only, so the batch callback is given too.)
  const batch = async (queries: { sql: string; params: unknown[]; method: TMethod }[]) => {
    const out: { rows: unknown }[] = [];
    for (const q of queries) out.push(await exec(q.sql, q.params, q.method));
    return out;
  };
  const base = drizzle(exec as never, batch as never, { schema, casing: "snake_case" });
  const transaction = base.transaction.bind(base);
  base.transaction = ((fn, config) =>
    gate.hold(() => transaction(fn, { behavior: "immediate", ...config }))) as typeof base.transaction;
  const db = Object.assign(base, { q: createSqliteQueries(sqlite, gate) });
  handles.set(db, sqlite);
  return { db, sqlite, close: () => sqlite.close() };
};

const handles = new WeakMap<TDb, Sqlite>();

/** Applies the migrations in db/migrations (drizzle-kit's output) through bun:sqlite's migrator. */
export const migrateDb = async (db: TDb) => {
  const sqlite = handles.get(db);
  if (!sqlite) throw new Error("migrateDb needs a handle from openDb");
  migrate(drizzleSync({ client: sqlite }), { migrationsFolder: MIGRATIONS_FOLDER });
};

/** A migrated in-memory database: what each test starts from. */
export const openTestDb = async (): Promise<DbHandle> => {
  const handle = await openDb(":memory:");
  await migrateDb(handle.db);
  return handle;
};
