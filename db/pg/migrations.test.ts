// Runs only against PostgreSQL (DATABASE_URL=postgres://…, e.g. from scripts/pg-test-cluster.sh): the generated
// migrations apply, twice without harm, give the tables SQLite has, and near-me is answered in GiST index order.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { getTableColumns, getTableName, is, sql } from "drizzle-orm";
import { SQLiteTable } from "drizzle-orm/sqlite-core";
import * as sqliteSchema from "../schema";
import { migratePg, openPg } from "./migrate";
import * as pgSchema from "./schema";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const url = process.env.DATABASE_URL ?? "";
const onPg = /^postgres(ql)?:\/\//.test(url);

describe.skipIf(!onPg)("PostgreSQL schema and migrations", () => {
  const pg = onPg ? openPg(url) : null;
  afterAll(() => pg?.close());

  test("the migrations apply (and again, as a no-op) and the rates are seeded", async () => {
    await migratePg(pg!.db);
    await migratePg(pg!.db);
    const rates = await pg!.db.select().from(pgSchema.fxRates);
    expect(rates.map((r) => r.currency).sort()).toEqual(["CAD", "ETB", "EUR", "GBP", "USD"]);
  });

  test("every SQLite table and column exists with the same name", async () => {
    const cols = await pg!.db.execute<{ table_name: string; column_name: string }>(
      sql`SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = 'public'`,
    );
    const have = new Set([...cols].map((c) => `${c.table_name}.${c.column_name}`));
    const snake = (k: string) => k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`);
    let checked = 0;
    for (const t of Object.values(sqliteSchema)) {
      if (!is(t, SQLiteTable)) continue;
      for (const [key, column] of Object.entries(getTableColumns(t))) {
        // A column named apart from its field (accountNumberSealed is stored as account_number) keeps its own name.
        expect(have).toContain(`${getTableName(t)}.${column.keyAsName ? snake(key) : column.name}`);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100);
  });

  test("near me reads the posted loads' GiST index in distance order", async () => {
    await pg!.db.execute(sql`SET enable_seqscan = off`);
    const plan = await pg!.db.execute<{ "QUERY PLAN": string }>(
      sql`EXPLAIN SELECT id FROM loads WHERE status = 'posted'
          ORDER BY ll_to_earth(pickup_latitude, pickup_longitude) <-> ll_to_earth(9.03, 38.74) LIMIT 51`,
    );
    expect([...plan].map((r) => r["QUERY PLAN"]).join("\n")).toContain("loads_posted_earth_idx");
  });
});
