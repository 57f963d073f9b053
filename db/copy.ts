// Moves an embedded SQLite database into PostgreSQL for a deployment that outgrows one machine: every table, row for
// row, with the same ids, then each identity sequence set past the largest id. The target must be migrated and empty
// (the display rates its migration seeds are replaced by the source's).
import { count, getTableName, is, sql } from "drizzle-orm";
import { getTableConfig, PgTable } from "drizzle-orm/pg-core";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import type { DbHandle } from "./client";
import * as pgSchema from "./pg/schema";
import * as sqliteSchema from "./schema";

const BATCH = 500;

type TPair = { name: string; from: SQLiteTable; to: PgTable };

/** The tables in an order where every table comes after the tables its foreign keys point at. */
export const tablesInCopyOrder = (): TPair[] => {
  const sqliteByName = new Map<string, SQLiteTable>();
  for (const t of Object.values(sqliteSchema) as unknown[])
    if (is(t, SQLiteTable)) sqliteByName.set(getTableName(t), t);
  const pgTables = (Object.values(pgSchema) as unknown[]).filter((t): t is PgTable => is(t, PgTable));
  const ordered: TPair[] = [];
  const placed = new Set<string>();
  const visit = (t: PgTable, path: string[] = []) => {
    const name = getTableName(t);
    if (placed.has(name)) return;
    if (path.includes(name)) throw new Error(`foreign keys form a cycle: ${[...path, name].join(" → ")}`);
    for (const fk of getTableConfig(t).foreignKeys) {
      const target = fk.reference().foreignTable as PgTable;
      if (getTableName(target) !== name) visit(target, [...path, name]);
    }
    const from = sqliteByName.get(name);
    if (!from) throw new Error(`table ${name} is in the PostgreSQL schema but not in SQLite's`);
    placed.add(name);
    ordered.push({ name, from, to: t });
  };
  for (const t of pgTables) visit(t);
  return ordered;
};

export type TCopyProgress = { table: string; copied: number; total: number };

/** The target already holds data: `table` has `rows` rows. */
export class CopyRefused extends Error {
  constructor(
    readonly table: string,
    readonly rows: number,
  ) {
    super(`The target database is not empty: ${table} has ${rows} rows`);
  }
}

/**
 * Copies every row of the SQLite handle `source` into the PostgreSQL handle `target` in one transaction: all or
 * nothing. Refuses (CopyRefused) a target that already holds data. Returns the rows copied per table.
 */
export const copySqliteToPostgres = async (
  source: DbHandle,
  target: DbHandle,
  onProgress: (p: TCopyProgress) => void = () => {},
) => {
  if (source.engine !== "sqlite" || target.engine !== "pg") throw new Error("copy goes from SQLite to PostgreSQL");
  // biome-ignore lint/suspicious/noExplicitAny: each handle is used with its own dialect's tables here
  const from = source.db as any;
  // biome-ignore lint/suspicious/noExplicitAny: as above
  const to = target.db as any;
  const pairs = tablesInCopyOrder();
  for (const { name, to: table } of pairs) {
    if (name === "fx_rates") continue;
    const [{ n }] = await to.select({ n: count() }).from(table);
    if (n > 0) throw new CopyRefused(name, n);
  }
  const copied: Record<string, number> = {};
  await to.transaction(async (tx: typeof to) => {
    await tx.delete(pgSchema.fxRates);
    for (const { name, from: src, to: dst } of pairs) {
      const [{ total }] = await from.select({ total: count() }).from(src);
      let done = 0;
      onProgress({ table: name, copied: 0, total });
      while (done < total) {
        const rows = await from.select().from(src).orderBy(sql`rowid`).limit(BATCH).offset(done);
        if (!rows.length) break;
        await tx.insert(dst).values(rows);
        done += rows.length;
        onProgress({ table: name, copied: done, total });
      }
      copied[name] = done;
      if (getTableConfig(dst).columns.some((c) => c.name === "id" && c.primary && c.getSQLType() === "integer")) {
        await tx.execute(
          sql`SELECT setval(pg_get_serial_sequence(${name}, 'id'), coalesce((SELECT max(id) FROM ${dst}), 0) + 1, false)`,
        );
      }
    }
  });
  return copied;
};
