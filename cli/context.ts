import { migrateDb, openConfiguredDb } from "../db/client";
import { loadConfig } from "../src/server/config";
import { i18n, languageFromEnv } from "../src/server/i18n";
import { boardServicesForDatabase } from "../src/server/integrations/boards/services";
import { carriersFromEnv } from "../src/server/integrations/carriers/registry";
import { notifiersFromEnv, vapidKeyFileFor } from "../src/server/integrations/notifiers/registry";
import { whatsappWebSecretFileFor } from "../src/server/integrations/notifiers/whatsapp-web";
import { paymentsFromEnv } from "../src/server/integrations/payments/registry";
import { storeServicesFrom } from "../src/server/integrations/stores/services";
import { logger } from "../src/server/logger";
import { createContext } from "../src/server/trpc/context";
import { createCaller } from "../src/server/trpc/root";
import { formatDate, type TCalendar } from "../src/shared/dates";

export const cliLocale = () => languageFromEnv();

/** The calendar the CLI prints dates in: MYTESS_CALENDAR=ethiopic, else Gregorian. */
export const cliCalendar = (): TCalendar => (process.env.MYTESS_CALENDAR === "ethiopic" ? "ethiopic" : "gregorian");

/** A date (and clock time) as the operator reads it: their language and calendar (MYTESS_ETHIOPIAN_TIME=1 adds it). */
export const cliDate = (iso: string, withTime = false) =>
  formatDate(iso, {
    language: cliLocale(),
    calendar: cliCalendar(),
    ethiopianTime: process.env.MYTESS_ETHIOPIAN_TIME === "1",
    dateStyle: "medium",
    ...(withTime ? { timeStyle: "short" as const } : {}),
  });

// CLI messages speak the user's language (MYTESS_LANG or LANG).
i18n.activate(cliLocale());

export { i18n };

/** The database named by DATABASE_PATH, migrated, and a router caller acting as the operator. */
export const openSystem = async () => {
  const config = loadConfig();
  const handle = await openConfiguredDb(config.databasePath);
  await migrateDb(handle.db);
  const boards = boardServicesForDatabase(process.env, config.databasePath, config.demo);
  const ctx = createContext({
    db: handle.db,
    system: true,
    channel: "cli",
    locale: cliLocale(),
    services: {
      carriers: carriersFromEnv(),
      notifiers: notifiersFromEnv(process.env, {
        vapidKeyFile: vapidKeyFileFor(config.databasePath),
        whatsappWebSecretFile: whatsappWebSecretFileFor(config.databasePath),
      }),
      boards,
      stores: storeServicesFrom(boards),
      payments: paymentsFromEnv(process.env),
      log: { ...logger, info: () => {} },
    },
  });
  return { config, handle, caller: createCaller(ctx) };
};

export class CliError extends Error {}
