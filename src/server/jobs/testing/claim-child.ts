// Test helper: a separate process working on jobs of its configured database (DATABASE_URL, else the SQLite file at
// DATABASE_PATH).
// - By default it claims and completes jobs until none are left, then prints the ids it ran.
// - With CLAIM_CHILD_WORKER=1 it is a real worker (the production handlers, notifiers and boards from its environment)
//   that prints "claimed <id>" when a handler starts and "handled <id>" when it returns, and then hangs before the job
//   is marked done, so a test can kill it -9 at a known point: mid-job, or after the job's effects but before its end.
import { openConfiguredDb } from "../../../../db/client";
import { boardServicesForDatabase } from "../../integrations/boards/services";
import { notifiersFromEnv } from "../../integrations/notifiers/registry";
import { storeServicesFrom } from "../../integrations/stores/services";
import { logger } from "../../logger";
import { jobHandlers, startWorker } from "../../modules/jobs";
import { claimJobs, completeJob } from "../queue";
import type { TJobRegistry } from "../worker";

const handle = await openConfiguredDb(process.env.DATABASE_PATH!);
const me = `child-${process.pid}`;

if (process.env.CLAIM_CHILD_WORKER === "1") {
  const boards = boardServicesForDatabase(process.env, process.env.DATABASE_PATH!, true);
  const real = jobHandlers({
    notifiers: notifiersFromEnv(process.env, { vapidKeyFile: null }),
    baseUrl: "https://mytess.example",
    boards,
    stores: storeServicesFrom(boards),
  });
  const handlers: TJobRegistry = {};
  for (const [kind, job] of Object.entries(real))
    handlers[kind] = {
      ...job,
      run: async (payload, ctx) => {
        console.log(`claimed ${ctx.job.id}`);
        await job.run(payload, ctx);
        console.log(`handled ${ctx.job.id}`);
        await new Promise(() => {});
      },
    };
  startWorker({ db: handle.db, log: logger, handlers, schedules: [], workerId: me, pollMs: 50 });
} else {
  const ran: number[] = [];
  for (;;) {
    const [job] = await claimJobs(handle.db, me, 1);
    if (!job) break;
    ran.push(job.id);
    await completeJob(handle.db, job, me);
  }
  await handle.close();
  console.log(JSON.stringify(ran));
}
