import { Command } from "commander";
import { CliError, cliDate, i18n, openSystem } from "../context";

const list = new Command("list")
  .description("List background jobs, newest first")
  .option("--status <status>", "pending, running, done or dead")
  .option("--json", "print JSON")
  .action(async (o: { status?: string; json?: boolean }) => {
    const { handle, caller } = await openSystem();
    try {
      const jobs = await caller.admin.listJobs({ status: o.status as never, limit: 100 });
      if (o.json) {
        console.log(JSON.stringify(jobs, null, 2));
        return;
      }
      if (!jobs.length) {
        console.log(
          i18n._({
            id: "cli.jobs.none",
            comment: "Operator CLI: the list of background jobs is empty",
            message: "No jobs.",
          }),
        );
        return;
      }
      for (const j of jobs) {
        const when = cliDate(j.finishedAt ?? j.runAt ?? "", true);
        console.log(
          `${String(j.id).padStart(6)}  ${j.status.padEnd(7)}  ${j.kind.padEnd(14)}  ${j.attempts}/${j.maxAttempts}  ${when}${j.lastError ? `  ${j.lastError}` : ""}`,
        );
      }
    } finally {
      await handle.close();
    }
  });

const retry = new Command("retry")
  .description("Put a dead job back in the queue")
  .argument("<id>", "job number")
  .action(async (id: string) => {
    const n = Number(id);
    if (!Number.isSafeInteger(n) || n <= 0)
      throw new CliError(i18n._({ id: "cli.jobs.badId", message: "id must be a job number" }));
    const { handle, caller } = await openSystem();
    try {
      const job = await caller.admin.retryJob({ id: n });
      console.log(
        i18n._({
          id: "cli.jobs.retried",
          message: "Job {id} ({kind}) is queued again.",
          values: { id: job.id, kind: job.kind },
        }),
      );
    } finally {
      await handle.close();
    }
  });

export const jobs = new Command("jobs")
  .description("Background jobs: list them, retry dead ones")
  .addCommand(list)
  .addCommand(retry);
