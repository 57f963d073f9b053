// A database for a test's child processes (the server, the CLI, a second worker), on the engine the tests run on:
// a SQLite file in `dir`, or a fresh PostgreSQL database; migrated unless `unmigrated`. The test reads and writes it
// with `rows` and `run`, written once for both engines.
import { Database } from "bun:sqlite";
import { join } from "node:path";
import { SQL } from "bun";
import { createTestDatabase, migrateDb, openDb } from "./client";

export type TScratchDb = {
  /** What a child process needs in its environment to open this database. */
  env: { DATABASE_PATH: string; DATABASE_URL?: string };
  /** Rows as objects for a query with `?` parameters; counts must be CAST(… AS INTEGER) to come back as numbers. */
  rows: <T = Record<string, unknown>>(sql: string, ...args: (string | number | null)[]) => Promise<T[]>;
  /** A statement with `?` parameters. */
  run: (sql: string, ...args: (string | number | null)[]) => Promise<void>;
  drop: () => Promise<void>;
};

export const scratchDatabase = async (dir: string, name: string, { unmigrated = false } = {}): Promise<TScratchDb> => {
  const path = join(dir, `${name}.db`);
  const pg = await createTestDatabase({ unmigrated });
  if (!pg) {
    if (!unmigrated) {
      const h = await openDb(path);
      await migrateDb(h.db);
      await h.close();
    }
    const withFile = <T>(f: (db: Database) => T) => {
      const db = new Database(path, { readwrite: true });
      try {
        return f(db);
      } finally {
        db.close();
      }
    };
    return {
      env: { DATABASE_PATH: path },
      rows: async <T>(sql: string, ...args: (string | number | null)[]) =>
        withFile((db) => db.query<T, (string | number | null)[]>(sql).all(...args)),
      run: async (sql, ...args) => {
        withFile((db) => db.query(sql).run(...args));
      },
      drop: async () => {},
    };
  }
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  const withClient = async <T>(f: (c: SQL) => Promise<T>) => {
    const c = new SQL(pg.url, { max: 1 });
    try {
      return await f(c);
    } finally {
      await c.close();
    }
  };
  return {
    env: { DATABASE_PATH: path, DATABASE_URL: pg.url },
    rows: async <T>(sql: string, ...args: (string | number | null)[]) =>
      withClient(async (c) => [...(await c.unsafe(numbered(sql), args as never[]))] as T[]),
    run: async (sql, ...args) => {
      await withClient((c) => c.unsafe(numbered(sql), args as never[]));
    },
    drop: pg.drop,
  };
};
