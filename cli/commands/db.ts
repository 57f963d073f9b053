import { Command } from "commander";
import { databaseLabel } from "../../db/engine";
import { isDatabaseEmpty, seedDemo } from "../../db/seed/demo";
import { CliError, i18n, openSystem } from "../context";

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

export const db = new Command("db").description("Database operations").addCommand(migrate).addCommand(seed);
