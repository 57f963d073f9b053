import { Command } from "commander";
import { CliError, cliDate, i18n, openSystem } from "../context";

const positiveId = (v: string | undefined) => {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new CliError(i18n._({ id: "cli.sync.badId", message: "--marketplace must be a configuration number" }));
  return n;
};

/** A text progress bar: [#####.....] 3/6 */
const bar = (done: number, total: number, width = 20) => {
  const filled = total ? Math.round((done / total) * width) : width;
  return `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}`;
};

const list = new Command("list")
  .description("List every board configuration with its owner (credentials are never shown)")
  .option("--json", "print JSON")
  .action(async (o: { json?: boolean }) => {
    const { handle, caller } = await openSystem();
    try {
      const all = await caller.boards.all();
      if (o.json) {
        console.log(JSON.stringify(all, null, 2));
        return;
      }
      if (!all.length) {
        console.log(i18n._({ id: "cli.marketplaces.none", message: "No board configurations." }));
        return;
      }
      for (const c of all) {
        const state = !c.isActive ? "inactive" : c.syncEnabled ? `sync/${c.syncIntervalMinutes}m` : "live";
        const last = c.lastSyncAt ? cliDate(c.lastSyncAt, true) : "-";
        console.log(
          `${String(c.id).padStart(5)}  ${c.provider.padEnd(12)}  ${state.padEnd(9)}  ${c.name}${c.sandbox ? " (Sandbox)" : ""}  ${c.owner}  ${last}${c.lastError ? `  ${c.lastError}` : ""}`,
        );
      }
    } finally {
      await handle.close();
    }
  });

export const marketplaces = new Command("marketplaces").description("External load boards").addCommand(list);

export const sync = new Command("sync")
  .description("Sync external load boards now (every active board with sync on, or one configuration)")
  .option("--marketplace <id>", "only this configuration (even with its sync switched off)")
  .option("--json", "print the runs as JSON")
  .action(async (o: { marketplace?: string; json?: boolean }) => {
    const only = positiveId(o.marketplace);
    const { handle, caller } = await openSystem();
    try {
      const targets = (await caller.boards.all()).filter(
        (c) => c.isActive && c.canSync && (only ? c.id === only : c.syncEnabled),
      );
      if (only && !targets.length)
        throw new CliError(
          i18n._({
            id: "cli.sync.notSyncable",
            message: "Configuration {id} does not exist, is inactive, or is DAT (searched live only).",
            values: { id: only },
          }),
        );
      const runs = [];
      const tty = !o.json && process.stdout.isTTY;
      for (const [i, c] of targets.entries()) {
        if (tty) process.stdout.write(`\r${bar(i, targets.length)}  ${c.name}…`.padEnd(80));
        const [run] = await caller.boards.syncNow({ marketplaceId: c.id });
        if (run) runs.push(run);
        if (!o.json) {
          if (tty) process.stdout.write(`\r${bar(i + 1, targets.length)}`.padEnd(80));
          console.log(
            run?.error
              ? `\n${c.name}: ${i18n._({ id: "cli.sync.failed", comment: "Operator CLI board sync: the sync of one board failed, with the error", message: "failed: {error}", values: { error: run.error } })}`
              : `\n${c.name}: ${i18n._({
                  id: "cli.sync.done",
                  comment:
                    "Operator CLI board sync summary: loads found, new, updated and removed (expired), and the time taken",
                  message: "found {found}, new {created}, updated {updated}, expired {expired} in {ms} ms",
                  values: {
                    found: run?.found ?? 0,
                    created: run?.created ?? 0,
                    updated: run?.updated ?? 0,
                    expired: run?.expired ?? 0,
                    ms: run?.durationMs ?? 0,
                  },
                })}`,
          );
        }
      }
      if (o.json) console.log(JSON.stringify(runs, null, 2));
      else if (!targets.length) console.log(i18n._({ id: "cli.sync.none", message: "No board to sync." }));
      if (runs.some((r) => r.error)) process.exitCode = 1;
    } finally {
      await handle.close();
    }
  });
