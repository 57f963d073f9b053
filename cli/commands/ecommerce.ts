import { Command } from "commander";
import { CliError, cliDate, i18n, openSystem } from "../context";

const list = new Command("list")
  .description("List every store integration with its owner (credentials are never shown)")
  .option("--json", "print JSON")
  .action(async (o: { json?: boolean }) => {
    const { handle, caller } = await openSystem();
    try {
      const all = await caller.stores.all();
      if (o.json) {
        console.log(JSON.stringify(all, null, 2));
        return;
      }
      if (!all.length) {
        console.log(i18n._({ id: "cli.ecommerce.none", message: "No store integrations." }));
        return;
      }
      for (const i of all) {
        const last = i.lastSyncAt ? cliDate(i.lastSyncAt, true) : "-";
        console.log(
          `${String(i.id).padStart(5)}  ${i.platform.padEnd(8)}  ${(i.isActive ? "active" : "inactive").padEnd(8)}  ${i.name}${i.sandbox ? " (Sandbox)" : ""}  ${i.owner}  ${i.totalOrdersSynced}  ${last}${i.lastError ? `  ${i.lastError}` : ""}`,
        );
      }
    } finally {
      await handle.close();
    }
  });

const sync = new Command("sync")
  .description("Sync store orders now (every active integration, or one)")
  .option("--integration <id>", "only this integration")
  .option("--json", "print the results as JSON")
  .action(async (o: { integration?: string; json?: boolean }) => {
    let only: number | undefined;
    if (o.integration !== undefined) {
      only = Number(o.integration);
      if (!Number.isSafeInteger(only) || only <= 0)
        throw new CliError(
          i18n._({ id: "cli.ecommerce.badId", message: "--integration must be an integration number" }),
        );
    }
    const { handle, caller } = await openSystem();
    try {
      const targets = (await caller.stores.all()).filter((i) => i.isActive && (only === undefined || i.id === only));
      if (only !== undefined && !targets.length)
        throw new CliError(
          i18n._({
            id: "cli.ecommerce.notFound",
            message: "Integration {id} does not exist or is inactive.",
            values: { id: only },
          }),
        );
      const results: { id: number; name: string; created?: number; updated?: number; error?: string }[] = [];
      for (const [n, i] of targets.entries()) {
        if (!o.json && process.stdout.isTTY) process.stdout.write(`[${n + 1}/${targets.length}] ${i.name}… `);
        try {
          const r = await caller.stores.syncNow({ integrationId: i.id });
          results.push({ id: i.id, name: i.name, created: r.created, updated: r.updated });
          if (!o.json)
            console.log(
              `${i.name}: ${i18n._({
                id: "cli.ecommerce.synced",
                comment: "Operator CLI store sync summary: orders new and updated",
                message: "{created} new orders, {updated} updated",
                values: { created: r.created, updated: r.updated },
              })}`,
            );
        } catch (err) {
          const error = err instanceof Error ? err.message : String(err);
          results.push({ id: i.id, name: i.name, error });
          if (!o.json) console.log(`${i.name}: ${error}`);
          process.exitCode = 1;
        }
      }
      if (o.json) console.log(JSON.stringify(results, null, 2));
      else if (!targets.length) console.log(i18n._({ id: "cli.ecommerce.nothing", message: "No store to sync." }));
    } finally {
      await handle.close();
    }
  });

export const ecommerce = new Command("ecommerce")
  .description("Store integrations: list, sync orders")
  .addCommand(list)
  .addCommand(sync);
