import { existsSync } from "node:fs";
import { Command } from "commander";
import { type DbHandle, migrateDb, openDb, openPgDb } from "../../db/client";
import { CopyRefused, copySqliteToPostgres } from "../../db/copy";
import { databaseLabel, isPostgresUrl } from "../../db/engine";
import { isDatabaseEmpty, seedDemo } from "../../db/seed/demo";
import { CliError, cliConfig, i18n, openSystem } from "../context";

const migrate = new Command("migrate").description("Apply pending database migrations").action(async () => {
  const { config, handle } = await openSystem();
  await handle.close();
  console.log(
    i18n._({
      id: "cli.db.migrated",
      message: "Database is up to date: {path}",
      values: { path: databaseLabel(config.databasePath) },
    }),
  );
});

const seed = new Command("seed")
  .description("Fill an empty database with data")
  .option("--demo", "demo accounts and realistic loads on Ethiopian, US and European lanes")
  .action(async (opts: { demo?: boolean }) => {
    if (!opts.demo) throw new CliError(i18n._({ id: "cli.db.seed.which", message: "Say which data to seed: --demo" }));
    const { handle } = await openSystem();
    try {
      if (!(await isDatabaseEmpty(handle.db))) {
        throw new CliError(
          i18n._({
            id: "cli.db.seed.notEmpty",
            message: "The database already has data; demo data goes only into an empty database.",
          }),
        );
      }
      const s = await seedDemo(handle.db);
      console.log(
        i18n._({
          id: "cli.db.seeded",
          message: "Seeded {users} demo users, {posted} posted loads and {completed} completed loads.",
          values: { users: s.users, posted: s.postedLoads, completed: s.completedLoads },
        }),
      );
    } finally {
      await handle.close();
    }
  });

const copy = new Command("copy")
  .description("Copy the SQLite database at DATABASE_PATH into an empty PostgreSQL database, ids intact")
  .requiredOption("--to <url>", "the PostgreSQL database: postgres://user:password@host:port/db")
  .action(async (opts: { to: string }) => {
    if (!isPostgresUrl(opts.to)) {
      throw new CliError(i18n._({ id: "cli.db.copy.url", message: "--to must be a postgres:// or postgresql:// URL" }));
    }
    const { databasePath } = cliConfig();
    if (!existsSync(databasePath)) {
      throw new CliError(
        i18n._({ id: "cli.db.copy.noSource", message: "No SQLite database at {path}", values: { path: databasePath } }),
      );
    }
    const source = await openDb(databasePath);
    let target: DbHandle | null = null;
    try {
      await migrateDb(source.db);
      target = await openPgDb(opts.to);
      await migrateDb(target.db);
      const copied = await copySqliteToPostgres(source, target, ({ table, copied, total }) => {
        if (copied === total || copied % 5000 === 0) console.log(`  ${table}: ${copied}/${total}`);
      });
      console.log(
        i18n._({
          id: "cli.db.copied",
          message: "Copied {rows} rows in {tables} tables into PostgreSQL.",
          values: { rows: Object.values(copied).reduce((a, b) => a + b, 0), tables: Object.keys(copied).length },
        }),
      );
    } catch (err) {
      if (err instanceof CopyRefused) {
        throw new CliError(
          i18n._({
            id: "cli.db.copy.notEmpty",
            message:
              "Nothing copied: the target database is not empty ({table} has {rows} rows). Copy only into an empty database.",
            values: { table: err.table, rows: err.rows },
          }),
        );
      }
      throw err;
    } finally {
      await source.close();
      await target?.close();
    }
  });

export const db = new Command("db")
  .description("Database operations")
  .addCommand(migrate)
  .addCommand(seed)
  .addCommand(copy);
