import { Database as Sqlite } from "bun:sqlite";
import { AsyncLocalStorage } from "node:async_hooks";
import { mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { SQL } from "bun";
import { drizzle as drizzlePg } from "drizzle-orm/bun-sql";
import { migrate as migratePgFolder } from "drizzle-orm/bun-sql/migrator";
import { drizzle as drizzleSync } from "drizzle-orm/bun-sqlite";
import { migrate } from "drizzle-orm/bun-sqlite/migrator";
import { drizzle, type SqliteRemoteDatabase } from "drizzle-orm/sqlite-proxy";
import { ENGINE, type TEngine } from "./engine";
import { createPgQueries } from "./pg/queries";
import * as pgSchema from "./pg/schema";
import type { TQueries } from "./queries";
import * as schema from "./schema";
import { createSharedTransactions } from "./shared-transaction";
import { createSqliteQueries } from "./sqlite/queries";

export const MIGRATIONS_FOLDER = join(import.meta.dir, "migrations");
export const PG_MIGRATIONS_FOLDER = join(import.meta.dir, "pg", "migrations");

/**
 * The handle every domain function takes: drizzle's query builders, used only in the subset that sqlite-core and
 * pg-core share (awaited builders returning arrays, `.returning()`, `await db.transaction(async (tx) => …)`), plus
 * `q`, the engine's own queries (near-me, JSON batches) from its per-dialect module (db/sqlite/queries.ts or
 * db/pg/queries.ts, both typed by db/queries.ts).
 */
export type TDb = SqliteRemoteDatabase<typeof schema> & { q: TQueries };
/** The handle inside `db.transaction(async (tx) => …)`. */
export type TTx = Parameters<Parameters<TDb["transaction"]>[0]>[0];
export type DbHandle = {
  db: TDb;
  engine: TEngine;
  /** The SQLite connection (SQLite handles only). */
  sqlite: Sqlite | null;
  /** The PostgreSQL client (PostgreSQL handles only). */
  pg: SQL | null;
  close: () => Promise<void>;
};

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

/** Handles whose transactions run on the handle's own connection (SQLite): its prepared statements run inside them. */
const sharesConnection = new WeakSet<TDb>();

type TMethod = "run" | "all" | "values" | "get";

/** How many prepared statements a connection keeps (the texts used least recently are finalized past this). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The connection's prepared statements by SQL text, the least recently used dropped past STATEMENT_CACHE_SIZE.
 * bun:sqlite's own cache (`query`) keeps only 20, and one request runs more distinct statements than that (a batch of
 * positions runs about 25 between its session look-up and its notification), so with it every statement of a hot path
 * was prepared again on every call: SQLite's parsing and planning, several times the cost of running it.
 */
export const statementCache = (sqlite: Sqlite, size = STATEMENT_CACHE_SIZE) => {
  const cache = new Map<string, ReturnType<Sqlite["prepare"]>>();
  return (text: string) => {
    let stmt = cache.get(text);
    if (stmt) {
      // Most recently used last: a Map keeps insertion order, so the first key is the one to drop.
      cache.delete(text);
      cache.set(text, stmt);
      return stmt;
    }
    stmt = sqlite.prepare(text);
    if (cache.size >= size) {
      const [oldest, dropped] = cache.entries().next().value!;
      cache.delete(oldest);
      dropped.finalize();
    }
    cache.set(text, stmt);
    return stmt;
  };
};

/** Opens (creating if needed) the SQLite file, with WAL, a busy timeout and foreign keys on. ":memory:" for tests. */
export const openDb = async (path: string): Promise<DbHandle> => {
  if (path !== ":memory:") mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Sqlite(path, { create: true, strict: true });
  // The busy timeout first: switching to WAL takes a lock, and another process opening the file at the same moment
  // (workers starting together) would otherwise make it fail at once with SQLITE_BUSY.
  sqlite.exec("PRAGMA busy_timeout = 5000;");
  sqlite.exec("PRAGMA journal_mode = WAL;");
  sqlite.exec("PRAGMA foreign_keys = ON;");
  sqlite.exec("PRAGMA synchronous = NORMAL;");
  // 64 MiB of page cache (SQLite's default is 2 MB): the R*Trees of pickup points are written and read at random,
  // and a board sync of 100,000 loads takes half the time with their pages kept (bench/sync.ts).
  sqlite.exec("PRAGMA cache_size = -65536;");
  const gate = createGate();
  const statement = statementCache(sqlite);
  // drizzle's async SQLite driver over a callback: statements are prepared once per text (statementCache).
  const exec = (text: string, params: unknown[], method: TMethod) =>
    gate.run(() => {
      const stmt = statement(text);
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
  const db: TDb = Object.assign(base, {
    q: { ...createSqliteQueries(sqlite, gate), sharedTransaction: createSharedTransactions<TTx>(base) },
  });
  sharesConnection.add(db);
  // Foreign keys are off while migrating: a migration that rebuilds a table (SQLite cannot drop a NOT NULL in place)
  // drops the old one, and with them on that drop would cascade into every referencing table. The migrator's own
  // transaction makes a PRAGMA inside a migration a no-op, so it is set here, and the references are checked after.
  migrators.set(db, async () => {
    sqlite.exec("PRAGMA foreign_keys = OFF;");
    try {
      migrate(drizzleSync({ client: sqlite }), { migrationsFolder: MIGRATIONS_FOLDER });
      const broken = sqlite.query("PRAGMA foreign_key_check").all();
      if (broken.length) throw new Error(`migrating left ${broken.length} broken references`);
    } finally {
      sqlite.exec("PRAGMA foreign_keys = ON;");
    }
  });
  return { db, engine: "sqlite", sqlite, pg: null, close: async () => sqlite.close() };
};

/**
 * Opens the PostgreSQL database at `url` (a pool of connections). The domain's writes stay race-safe under
 * PostgreSQL's default isolation the same way as on SQLite: conditional updates (`… WHERE status = 'posted'`), row
 * locks, and `q.lockKeys` where a count decides; SQLite's transaction options mean nothing here and are dropped.
 */
export const openPgDb = async (url: string): Promise<DbHandle> => {
  const client = new SQL(url, { max: 8 });
  const base = drizzlePg({ client, schema: pgSchema, casing: "snake_case" });
  const transaction = base.transaction.bind(base);
  base.transaction = ((fn: Parameters<typeof transaction>[0]) => transaction(fn)) as typeof base.transaction;
  // Nearest-first searches go through a small pool of sessions with bitmap scans off (see db/pg/queries.ts).
  const nearest = new SQL(url, { max: 2, connection: { enable_bitmapscan: "off" } } as never);
  const db = Object.assign(base, {
    q: {
      ...createPgQueries(client, nearest),
      sharedTransaction: (work: (tx: never) => Promise<unknown>) => base.transaction(work as never),
    },
  }) as unknown as TDb;
  // Machines starting at once migrate one at a time: a session advisory lock held on a connection of its own.
  migrators.set(db, async () => {
    const lock = await client.reserve();
    try {
      await lock`SELECT pg_advisory_lock(hashtextextended('mytess:migrate', 0))`;
      await migratePgFolder(base, { migrationsFolder: PG_MIGRATIONS_FOLDER });
    } finally {
      await lock`SELECT pg_advisory_unlock(hashtextextended('mytess:migrate', 0))`;
      lock.release();
    }
  });
  const close = async () => {
    await Promise.all([client.close(), nearest.close()]);
  };
  return { db, engine: "pg", sqlite: null, pg: client, close };
};

const migrators = new WeakMap<TDb, () => Promise<void>>();

/** Applies the engine's migrations (db/migrations or db/pg/migrations, drizzle-kit's output) to the handle's database. */
export const migrateDb = async (db: TDb) => {
  const run = migrators.get(db);
  if (!run) throw new Error("migrateDb needs a handle from openDb or openPgDb");
  await run();
};

/** The database this process is configured for: PostgreSQL at DATABASE_URL, else the SQLite file at `path`. */
export const openConfiguredDb = (path: string) =>
  ENGINE === "pg" ? openPgDb(process.env.DATABASE_URL!) : openDb(path);

// Tests on PostgreSQL: every test database is a copy of one migrated template (a copy takes ~50 ms, migrating ~200 ms).
let template: Promise<string> | null = null;
let copies = 0;
const withDatabase = (url: string, name: string) => {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
};
const adminSql = () => new SQL(process.env.DATABASE_URL!, { max: 1 });

/**
 * A new, migrated, empty database for a test or a test's child process (`unmigrated`: without tables, for tests of
 * migrating): on PostgreSQL a fresh database (its URL, and `drop` to remove it), on SQLite nothing to make (null: use a
 * file or ":memory:").
 */
export const createTestDatabase = async ({
  unmigrated = false,
} = {}): Promise<{
  url: string;
  drop: () => Promise<void>;
} | null> => {
  if (ENGINE !== "pg") return null;
  const base = process.env.DATABASE_URL!;
  template ??= (async () => {
    const name = `mytess_tpl_${process.pid}`;
    const admin = adminSql();
    await admin.unsafe(`DROP DATABASE IF EXISTS ${name}`);
    await admin.unsafe(`CREATE DATABASE ${name}`);
    await admin.close();
    const h = await openPgDb(withDatabase(base, name));
    await migrateDb(h.db);
    await h.close();
    return name;
  })();
  const name = `mytess_t_${process.pid}_${++copies}`;
  const from = unmigrated ? "template0" : await template;
  const admin = adminSql();
  await admin.unsafe(`CREATE DATABASE ${name} TEMPLATE ${from}`);
  await admin.close();
  return {
    url: withDatabase(base, name),
    drop: async () => {
      const a = adminSql();
      await a.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.close();
    },
  };
};

/** Drops this process's template database (the test run's last step, from scripts/test-setup.ts). */
export const dropTestTemplate = async () => {
  if (!template) return;
  const name = await template;
  template = null;
  const admin = adminSql();
  await admin.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.close();
};

/** A migrated, empty database of the configured engine: what each test starts from (SQLite: in memory). */
export const openTestDb = async (): Promise<DbHandle> => {
  const fresh = await createTestDatabase();
  if (!fresh) {
    const handle = await openDb(":memory:");
    await migrateDb(handle.db);
    return handle;
  }
  const handle = await openPgDb(fresh.url);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await fresh.drop();
    },
  };
};

/**
 * Something made once per database handle and kept while the handle lives: a drizzle prepared statement for a query
 * asked on every request (drizzle's building of a query costs several times running it).
 */
export const perHandle = <T>(make: (db: TDb) => T) => {
  const made = new WeakMap<TDb, T>();
  return (db: TDb) => {
    let value = made.get(db);
    if (value === undefined) {
      value = make(db);
      made.set(db, value);
    }
    return value;
  };
};

type TPreparable<P, R> = { prepare: () => { execute: (params: P) => Promise<R> } };
/** What a hot statement is built on: the handle (prepared once) or the transaction (built each call). */
export type TBuilder = Pick<TDb, "select" | "insert" | "update" | "delete">;

/**
 * A statement of a hot path that runs inside a transaction, built by drizzle once per handle and shape (`key`, when
 * its text varies, e.g. with the number of rows) instead of on every call: building a query costs drizzle several
 * times what running it costs SQLite. On SQLite a transaction runs on the handle's one connection, so the handle's
 * prepared statement runs inside it; on PostgreSQL a statement prepared on the pool would run on another connection,
 * outside the transaction, so there it is built on the transaction each call (what awaiting the builder does anyway).
 * The parameters are drizzle placeholders (`sql.placeholder("name")`).
 */
export const txStatement = <P extends Record<string, unknown>, R, K = null>(
  build: (on: TBuilder, key: K) => TPreparable<P, R>,
) => {
  const made = new WeakMap<TDb, Map<K, ReturnType<TPreparable<P, R>["prepare"]>>>();
  return (db: TDb, tx: TBuilder, params: P, key: K = null as K): Promise<R> => {
    if (!sharesConnection.has(db)) return build(tx, key).prepare().execute(params);
    let byKey = made.get(db);
    if (!byKey) {
      byKey = new Map();
      made.set(db, byKey);
    }
    let prepared = byKey.get(key);
    if (!prepared) {
      prepared = build(db, key).prepare();
      byKey.set(key, prepared);
    }
    return prepared.execute(params);
  };
};
