// The SQLite schema (db/schema.ts) and the PostgreSQL schema (db/pg/schema.ts) describe one database: the domain is
// written once against their shared table and column names, and `mytess db copy` moves rows from one to the other. This
// compares the two drizzle schemas table by table, so neither can change without the other: tables, columns, each
// column's type under the mapping below, nullability, defaults, primary keys, identities, foreign keys, indexes
// (columns, uniqueness, partial conditions) and unique constraints.
//
// The type mapping (SQLite → PostgreSQL):
// - integer holding epoch milliseconds or money in minor units → bigint read as a number (`mode: "number"`); every
//   other integer → integer;
// - integer in boolean mode (0/1) → boolean;
// - real → double precision;
// - text in JSON mode → jsonb; any other text → text (a text column that holds JSON without the JSON mode, as
//   `load_alerts.equipment_types`, stays text on both);
// - the same enum values where a text column names them.
//
// Declared exceptions, written in the migrations' SQL rather than the schemas and so not compared here: SQLite's R*Tree
// virtual tables over pickup points, alert areas and truck origins (and the triggers that keep them), PostgreSQL's GiST indexes over
// earth points (cube + earthdistance). The PostgreSQL run also compares the migrated databases (db/catalog.test.ts).
import { describe, expect, test } from "bun:test";
import { type Column, getTableName, is, SQL } from "drizzle-orm";
import { PgDialect, PgTable, getTableConfig as pgConfig } from "drizzle-orm/pg-core";
import { SQLiteSyncDialect, SQLiteTable, getTableConfig as sqliteConfig } from "drizzle-orm/sqlite-core";
import * as pgSchema from "./pg/schema";
import * as sqliteSchema from "./schema";

const pgDialect = new PgDialect();
const sqliteDialect = new SQLiteSyncDialect();

/** Columns that hold epoch milliseconds or money in minor units: bigint on PostgreSQL. */
const WIDE = /(At|Date|Until|Start|End|Time|Cursor|SentFor|Minor)$|^at$/;

/** The same "now, in epoch milliseconds" default in each dialect. */
const SQL_DEFAULTS: Record<string, string> = {
  "(unixepoch('subsec') * 1000)": "(extract(epoch from now()) * 1000)::bigint",
};

const sqliteTables = new Map(
  (Object.values(sqliteSchema) as unknown[])
    .filter((t): t is SQLiteTable => is(t, SQLiteTable))
    .map((t) => [getTableName(t), sqliteConfig(t)] as const),
);
const pgTables = new Map(
  (Object.values(pgSchema) as unknown[])
    .filter((t): t is PgTable => is(t, PgTable))
    .map((t) => [getTableName(t), pgConfig(t)] as const),
);

/** What PostgreSQL type a SQLite column must have, from its SQLite type, mode and what it holds. */
const expectedPgType = (c: Column) => {
  switch (c.columnType) {
    case "SQLiteBoolean":
      return "boolean";
    case "SQLiteInteger":
      return WIDE.test(c.name) ? "bigint" : "integer";
    case "SQLiteReal":
      return "double precision";
    case "SQLiteTextJson":
      return "jsonb";
    case "SQLiteText":
      return "text";
    default:
      return `no mapping for SQLite's ${c.columnType}`;
  }
};

const describeDefault = (c: Column, dialect: "sqlite" | "pg") => {
  if (!c.hasDefault || c.default === undefined) return undefined;
  if (!is(c.default, SQL)) return JSON.stringify(c.default);
  const text = (dialect === "sqlite" ? sqliteDialect : pgDialect).sqlToQuery(c.default).sql;
  return dialect === "sqlite" ? `sql:${SQL_DEFAULTS[text] ?? `(no PostgreSQL form of ${text})`}` : `sql:${text}`;
};

const describeColumn = (c: Column, dialect: "sqlite" | "pg") => {
  const generated =
    dialect === "pg" ? (c as unknown as { generatedIdentity?: { type: string } }).generatedIdentity : null;
  const autoIncrement = dialect === "sqlite" && (c as unknown as { autoIncrement?: boolean }).autoIncrement;
  return {
    type: dialect === "sqlite" ? expectedPgType(c) : c.getSQLType(),
    notNull: c.notNull,
    primary: c.primary,
    // SQLite's AUTOINCREMENT ids are PostgreSQL identities (by default, so a copy keeps its ids).
    identity: Boolean(autoIncrement) || generated?.type === "byDefault",
    default: describeDefault(c, dialect),
    enumValues: c.enumValues ?? null,
  };
};

const whereOf = (where: SQL | undefined, dialect: "sqlite" | "pg") =>
  where ? (dialect === "sqlite" ? sqliteDialect : pgDialect).sqlToQuery(where).sql : null;

type TConfig = ReturnType<typeof sqliteConfig> | ReturnType<typeof pgConfig>;
const describeTable = (t: TConfig, dialect: "sqlite" | "pg") => ({
  columns: Object.fromEntries(t.columns.map((c) => [c.name, describeColumn(c, dialect)])),
  primaryKeys: t.primaryKeys.map((p) => p.columns.map((c) => c.name)),
  foreignKeys: t.foreignKeys
    .map((f) => {
      const r = f.reference();
      return {
        columns: r.columns.map((c) => c.name),
        table: getTableName(r.foreignTable),
        foreignColumns: r.foreignColumns.map((c) => c.name),
        onDelete: f.onDelete ?? "no action",
        onUpdate: f.onUpdate ?? "no action",
      };
    })
    .sort((a, b) => a.columns.join().localeCompare(b.columns.join())),
  indexes: t.indexes
    .map((i) => ({
      name: i.config.name ?? "(unnamed)",
      unique: i.config.unique,
      columns: i.config.columns.map((c) => (c as Column).name),
      where: whereOf(i.config.where, dialect),
    }))
    .sort((a, b) => a.name.localeCompare(b.name)),
  uniqueConstraints: t.uniqueConstraints.map((u) => u.columns.map((c) => c.name)).sort(),
});

describe("the SQLite and PostgreSQL schemas", () => {
  test("have the same tables", () => {
    expect([...pgTables.keys()].sort()).toEqual([...sqliteTables.keys()].sort());
    expect(sqliteTables.size).toBeGreaterThan(25);
  });

  for (const [name, sqlite] of sqliteTables) {
    test(`${name}: the same columns, types, nullability, defaults, keys and indexes`, () => {
      const pg = pgTables.get(name);
      expect(pg, `${name} is missing from db/pg/schema.ts`).toBeDefined();
      expect(describeTable(pg!, "pg")).toEqual(describeTable(sqlite, "sqlite"));
    });
  }

  test("every bigint is read as a number, and every PostgreSQL index is a plain b-tree", () => {
    for (const t of pgTables.values()) {
      for (const c of t.columns)
        if (c.getSQLType() === "bigint") expect(`${t.name}.${c.name}: ${c.columnType}`).toEndWith("PgBigInt53");
      for (const i of t.indexes) expect(`${t.name}.${i.config.name}: ${i.config.method}`).toEndWith("btree");
    }
  });

  test("the type mapping is checked, not assumed: a column of the wrong width is told apart", () => {
    const users = sqliteTables.get("users")!;
    const trial = users.columns.find((c) => c.name === "trialEndsAt")!;
    const rating = users.columns.find((c) => c.name === "ratingSum")!;
    expect(describeColumn(trial, "sqlite").type).toBe("bigint");
    expect(describeColumn(rating, "sqlite").type).toBe("integer");
    const pgUsers = pgTables.get("users")!;
    expect(describeColumn(pgUsers.columns.find((c) => c.name === "trialEndsAt")!, "pg").type).toBe("bigint");
  });
});
