// The migrated databases themselves, SQLite beside PostgreSQL (on the PostgreSQL run only): schema-parity.test.ts
// compares the two drizzle schemas, this compares what the two migration folders actually build, hand-written SQL
// included, so a migration edited on one engine alone is caught. Tables, columns (type family, nullability, default),
// primary keys, foreign keys and indexes (columns, uniqueness, partial condition) must agree.
//
// Declared exceptions, each answering "near me" on its own engine: SQLite's R*Tree virtual tables (with their shadow
// tables and the triggers that fill them) and `loads_owner_posted_idx` (a viewer's own synced loads by owner and
// point); PostgreSQL's GiST indexes over earth points (cube + earthdistance), the lane search's among them (a cube of
// both ends and the pickup day, SQLite's loads_lane_rtree).
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { type DbHandle, migrateDb, openDb, openTestDb } from "./client";
import { ENGINE } from "./engine";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const SQLITE_ONLY_TABLE = /(_rtree(_node|_parent|_rowid)?|^sqlite_sequence|^__drizzle_migrations)$/;
const SQLITE_ONLY_INDEXES = new Set(["loads_owner_posted_idx"]);
const PG_ONLY_INDEXES = new Set([
  "loads_pickup_earth_idx",
  "loads_posted_earth_idx",
  "load_alerts_area_idx",
  "loads_lane_idx",
  "trucks_origin_earth_idx",
]);

type TColumn = { name: string; family: string; notNull: boolean; default: string | null; primary: boolean };
type TIndex = { name: string; table: string; unique: boolean; columns: string[]; where: string | null };
type TForeignKey = { table: string; column: string; references: string; onDelete: string };
type TCatalog = { tables: Record<string, TColumn[]>; indexes: TIndex[]; foreignKeys: TForeignKey[] };

/** A default as a value: quotes, casts and the dialect's "now in epoch ms" spelled the same way. */
const normalizeDefault = (d: string | null) => {
  if (d === null) return null;
  if (/unixepoch\('subsec'\)|extract\(epoch from now\(\)\)/i.test(d)) return "now_ms";
  return d
    .replace(/::[a-z ]+$/i, "")
    .replace(/^'(.*)'$/, "$1")
    .replace(/^\((.*)\)$/, "$1");
};

/** A partial index's condition, without the quoting, casts and parentheses each engine adds. */
const normalizeWhere = (w: string | null) =>
  w === null
    ? null
    : w
        .replace(/::[a-z ]+/gi, "")
        .replace(/[`"()]/g, "")
        .replace(/\s+/g, " ")
        .trim()
        .toLowerCase();

const FAMILY: Record<string, string> = {
  INTEGER: "integer",
  integer: "integer",
  bigint: "integer",
  boolean: "integer",
  REAL: "real",
  "double precision": "real",
  TEXT: "text",
  text: "text",
  jsonb: "text",
};

const sqliteCatalog = (h: DbHandle): TCatalog => {
  const s = h.sqlite!;
  const tables: TCatalog["tables"] = {};
  const indexes: TIndex[] = [];
  const foreignKeys: TForeignKey[] = [];
  const names = s
    .query<{ name: string }, []>("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
    .all()
    .map((r) => r.name)
    .filter((n) => !SQLITE_ONLY_TABLE.test(n));
  for (const table of names) {
    type TInfo = { name: string; type: string; notnull: number; dflt_value: string | null; pk: number };
    tables[table] = s
      .query<TInfo, []>(`PRAGMA table_info(${table})`)
      .all()
      .map((c) => ({
        name: c.name,
        family: FAMILY[c.type] ?? c.type,
        // A primary key column is NOT NULL on PostgreSQL whatever SQLite's table says.
        notNull: c.notnull === 1 || c.pk > 0,
        default: normalizeDefault(c.dflt_value),
        primary: c.pk > 0,
      }));
    type TList = { name: string; unique: number; origin: string; partial: number };
    for (const i of s.query<TList, []>(`PRAGMA index_list(${table})`).all()) {
      if (i.origin === "pk" || SQLITE_ONLY_INDEXES.has(i.name)) continue;
      const columns = s
        .query<{ name: string }, []>(`PRAGMA index_info(${i.name})`)
        .all()
        .map((c) => c.name);
      const sql = s.query<{ sql: string | null }, []>(`SELECT sql FROM sqlite_master WHERE name = '${i.name}'`).get();
      const where = i.partial ? (sql?.sql?.match(/\bWHERE\b([\s\S]*)$/i)?.[1] ?? null) : null;
      indexes.push({ name: i.name, table, unique: i.unique === 1, columns, where: normalizeWhere(where) });
    }
    type TFk = { table: string; from: string; to: string; on_delete: string };
    for (const f of s.query<TFk, []>(`PRAGMA foreign_key_list(${table})`).all())
      foreignKeys.push({
        table,
        column: f.from,
        references: `${f.table}.${f.to}`,
        onDelete: f.on_delete.toLowerCase(),
      });
  }
  return { tables, indexes, foreignKeys };
};

const ON_DELETE: Record<string, string> = {
  a: "no action",
  r: "restrict",
  c: "cascade",
  n: "set null",
  d: "set default",
};

const pgCatalog = async (h: DbHandle): Promise<TCatalog> => {
  const pg = h.pg!;
  const tables: TCatalog["tables"] = {};
  const primary = new Set(
    (
      await pg`SELECT c.relname AS "table", a.attname AS "column"
               FROM pg_index ix JOIN pg_class c ON c.oid = ix.indrelid
               JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = 'public'
               JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum = ANY (ix.indkey)
               WHERE ix.indisprimary`
    ).map((r: { table: string; column: string }) => `${r.table}.${r.column}`),
  );
  const columns = await pg`SELECT table_name, column_name, data_type, is_nullable, column_default
                           FROM information_schema.columns c
                           JOIN information_schema.tables t USING (table_schema, table_name)
                           WHERE table_schema = 'public' AND t.table_type = 'BASE TABLE'
                           ORDER BY table_name, ordinal_position`;
  for (const c of columns as {
    table_name: string;
    column_name: string;
    data_type: string;
    is_nullable: string;
    column_default: string | null;
  }[]) {
    tables[c.table_name] ??= [];
    tables[c.table_name]!.push({
      name: c.column_name,
      family: FAMILY[c.data_type] ?? c.data_type,
      notNull: c.is_nullable === "NO",
      default: normalizeDefault(c.column_default),
      primary: primary.has(`${c.table_name}.${c.column_name}`),
    });
  }
  const indexRows = await pg`SELECT i.relname AS name, t.relname AS "table", ix.indisunique AS "unique",
                                    pg_get_expr(ix.indpred, ix.indrelid) AS "where",
                                    ARRAY(SELECT a.attname FROM unnest(ix.indkey) WITH ORDINALITY k(attnum, n)
                                          JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = k.attnum
                                          ORDER BY k.n)::text[] AS columns
                             FROM pg_index ix JOIN pg_class i ON i.oid = ix.indexrelid
                             JOIN pg_class t ON t.oid = ix.indrelid
                             JOIN pg_namespace n ON n.oid = t.relnamespace AND n.nspname = 'public'
                             WHERE NOT ix.indisprimary`;
  const indexes = (indexRows as (Omit<TIndex, "columns"> & { columns: string[] })[])
    .filter((i) => !PG_ONLY_INDEXES.has(i.name))
    .map((i) => ({ ...i, columns: [...i.columns], where: normalizeWhere(i.where) }));
  const fkRows = await pg`SELECT c.conrelid::regclass::text AS "table", a.attname AS "column",
                                 c.confrelid::regclass::text || '.' || af.attname AS "references",
                                 c.confdeltype AS "onDelete"
                          FROM pg_constraint c
                          CROSS JOIN LATERAL unnest(c.conkey, c.confkey) AS k(attnum, refnum)
                          JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = k.attnum
                          JOIN pg_attribute af ON af.attrelid = c.confrelid AND af.attnum = k.refnum
                          WHERE c.contype = 'f'`;
  const foreignKeys = (fkRows as TForeignKey[]).map((f) => ({ ...f, onDelete: ON_DELETE[f.onDelete] ?? f.onDelete }));
  return { tables, indexes, foreignKeys };
};

const byName = <T extends { name: string }>(list: T[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
const byKey = (list: TForeignKey[]) =>
  [...list].sort((a, b) => `${a.table}.${a.column}`.localeCompare(`${b.table}.${b.column}`));

describe.skipIf(ENGINE !== "pg")("the migrated SQLite and PostgreSQL databases", () => {
  const handles: DbHandle[] = [];
  afterAll(async () => {
    for (const h of handles) await h.close();
  });
  const open = async () => {
    const sqlite = await openDb(":memory:");
    await migrateDb(sqlite.db);
    const pg = await openTestDb();
    handles.push(sqlite, pg);
    return { sqlite: sqliteCatalog(sqlite), pg: await pgCatalog(pg) };
  };

  test("have the same tables and columns: type family, nullability, default, primary key", async () => {
    const { sqlite, pg } = await open();
    expect(Object.keys(pg.tables).sort()).toEqual(Object.keys(sqlite.tables).sort());
    for (const [table, columns] of Object.entries(sqlite.tables))
      expect({ table, columns: byName(pg.tables[table] ?? []) }).toEqual({ table, columns: byName(columns) });
  });

  test("have the same indexes (besides each engine's near-me indexes) and foreign keys", async () => {
    const { sqlite, pg } = await open();
    expect(byName(pg.indexes)).toEqual(byName(sqlite.indexes));
    expect(sqlite.indexes.length).toBeGreaterThan(40);
    expect(byKey(pg.foreignKeys)).toEqual(byKey(sqlite.foreignKeys));
    expect(sqlite.foreignKeys.length).toBeGreaterThan(30);
  });
});
