import { migrateDb, openDb } from "../db/client";
import { loadConfig } from "../src/server/config";
import { i18n, languageFromEnv } from "../src/server/i18n";
import { carriersFromEnv } from "../src/server/integrations/carriers/registry";
import { logger } from "../src/server/logger";
import type { TContext } from "../src/server/trpc/context";
import { createCaller } from "../src/server/trpc/root";

export const cliLocale = () => languageFromEnv();

// CLI messages speak the user's language (MYTESS_LANG or LANG).
i18n.activate(cliLocale());

export { i18n };

/** The database named by DATABASE_PATH, migrated, and a router caller acting as the operator. */
export const openSystem = () => {
  const config = loadConfig();
  const handle = openDb(config.databasePath);
  migrateDb(handle.db);
  const ctx: TContext = {
    db: handle.db,
    actor: null,
    system: true,
    channel: "cli",
    locale: cliLocale(),
    log: { ...logger, info: () => {} },
    sessionHash: null,
    ip: "cli",
    secure: false,
    resHeaders: new Headers(),
    carriers: carriersFromEnv(),
  };
  return { config, handle, caller: createCaller(ctx) };
};

export class CliError extends Error {}
