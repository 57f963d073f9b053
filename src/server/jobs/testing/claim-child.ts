// Test helper: a separate process that claims and completes jobs from the SQLite file in argv[2] until none are left,
// then prints the ids it ran.
import { openDb } from "../../../../db/client";
import { claimJobs, completeJob } from "../queue";

const handle = await openDb(process.argv[2]!);
const me = `child-${process.pid}`;
const ran: number[] = [];
for (;;) {
  const [job] = await claimJobs(handle.db, me, 1);
  if (!job) break;
  ran.push(job.id);
  await completeJob(handle.db, job, me);
}
handle.close();
console.log(JSON.stringify(ran));
