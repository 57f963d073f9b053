import { migrateDb, openConfiguredDb } from "../db/client";
import { loadConfig, type TConfig } from "../src/server/config";
import { i18n } from "../src/server/i18n";
import { logger } from "../src/server/logger";
import { createServices } from "../src/server/services";
import { createContext } from "../src/server/trpc/context";
import { createCaller } from "../src/server/trpc/root";
import { formatDate } from "../src/shared/dates";

let config: TConfig | null = null;
/** The configuration, read once; an unusable variable stops the command, naming it. */
export const cliConfig = () => {
  config ??= loadConfig();
  return config;
};

/** The language the CLI speaks: MYTESS_LANG, else the POSIX locale (LC_ALL, LC_MESSAGES, LANG), else English. */
export const cliLocale = () => cliConfig().cli.language;

/** A date (and clock time) as the operator reads it: their language and calendar (MYTESS_ETHIOPIAN_TIME=1 adds it). */
export const cliDate = (iso: string, withTime = false) =>
  formatDate(iso, {
    language: cliLocale(),
    calendar: cliConfig().cli.calendar,
    ethiopianTime: cliConfig().cli.ethiopianTime,
    dateStyle: "medium",
    ...(withTime ? { timeStyle: "short" as const } : {}),
  });

export { i18n };

/** The database named by DATABASE_PATH (or DATABASE_URL), migrated, and a router caller acting as the operator. */
export const openSystem = async () => {
  const config = cliConfig();
  const handle = await openConfiguredDb(config.databasePath);
  await migrateDb(handle.db);
  const services = createServices(config, { log: { ...logger, info: () => {} } });
  const ctx = createContext({ db: handle.db, system: true, channel: "cli", locale: cliLocale(), services });
  return { config, handle, services, caller: createCaller(ctx) };
};

export class CliError extends Error {}
