// Test helper: a separate process that claims and completes jobs from its configured database (DATABASE_URL, else the
// SQLite file at DATABASE_PATH) until none are left, then prints the ids it ran.
import { openConfiguredDb } from "../../../../db/client";
import { claimJobs, completeJob } from "../queue";

const handle = await openConfiguredDb(process.env.DATABASE_PATH!);
const me = `child-${process.pid}`;
const ran: number[] = [];
for (;;) {
  const [job] = await claimJobs(handle.db, me, 1);
  if (!job) break;
  ran.push(job.id);
  await completeJob(handle.db, job, me);
}
await handle.close();
console.log(JSON.stringify(ran));
