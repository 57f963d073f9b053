// A worker killed -9 in the middle of a job, for real: a child process (testing/claim-child.ts) runs the production
// handlers, the test kills it at a known point, and a second worker takes the job over. The second worker's clock is
// moved past the lease instead of waiting for it.
import { afterAll, afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import webpush from "web-push";
import { type DbHandle, openDb, openPgDb } from "../../../db/client";
import { ENGINE } from "../../../db/engine";
import { scratchDatabase, type TScratchDb } from "../../../db/testing";
import { createFeedEmulator } from "../../../emulators/boards/feed";
import { BOARD_SANDBOX_CREDENTIALS } from "../../../emulators/boards/server";
import { startNotifyEmulators } from "../../../emulators/notifiers/server";
import { boardServicesForDatabase } from "../integrations/boards/services";
import { notifiersFromEnv } from "../integrations/notifiers/registry";
import { logger } from "../logger";
import { createUser } from "../modules/accounts/users";
import { createMarketplace } from "../modules/boards/configs";
import { RUN_INTERRUPTED, startManualSync } from "../modules/boards/sync";
import { jobHandlers, startWorker } from "../modules/jobs";
import { subscribe } from "../modules/notifications/push";
import { insertJob as enqueue, JOB_LEASE_MS, listJobs } from "./queue";

// Per file: Bun 1.4 ignores bunfig's test timeout; spawned processes are slow on a loaded machine.
setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "mytess-killed-"));
const emu = startNotifyEmulators();
const cleanups: (() => unknown)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(() => {
  emu.stop();
  rmSync(dir, { recursive: true, force: true });
});

const vapid = webpush.generateVAPIDKeys();
const silent = { ...logger, info: () => {}, warn: () => {} };

/** A scratch database the child and this test share, and this test's own handle on it. */
const shared = async (name: string): Promise<{ scratch: TScratchDb; h: DbHandle; env: Record<string, string> }> => {
  const scratch = await scratchDatabase(dir, name);
  const h = ENGINE === "pg" ? await openPgDb(scratch.env.DATABASE_URL!) : await openDb(scratch.env.DATABASE_PATH);
  cleanups.push(scratch.drop, h.close);
  const env = {
    ...(process.env as Record<string, string>),
    ...scratch.env,
    ...emu.env(),
    VAPID_PUBLIC_KEY: vapid.publicKey,
    VAPID_PRIVATE_KEY: vapid.privateKey,
    VAPID_SUBJECT: "mailto:ops@mytess.example",
    // Boards and the child agree on the key that seals credentials; the child waits on a held board for ever.
    MYTESS_SECRET_KEY: Buffer.alloc(32, 7).toString("base64"),
    BOARD_TIMEOUT_MS: "600000",
    LOG_LEVEL: "silent",
  };
  return { scratch, h, env };
};

/** The child worker; resolves when it prints `line` (e.g. "handled 1"), so the test knows where the job is. */
const childWorker = (env: Record<string, string>) => {
  const child = Bun.spawn(["bun", join(import.meta.dir, "testing", "claim-child.ts")], {
    env: { ...env, CLAIM_CHILD_WORKER: "1" },
    stdout: "pipe",
    stderr: "pipe",
  });
  cleanups.push(() => child.kill("SIGKILL"));
  const lines: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  void (async () => {
    let rest = "";
    const reader = child.stdout.getReader();
    for (;;) {
      const { value: chunk, done } = await reader.read();
      if (done) break;
      rest += new TextDecoder().decode(chunk);
      const parts = rest.split("\n");
      rest = parts.pop() ?? "";
      lines.push(...parts.map((l) => l.trim()));
      for (const w of waiters) if (lines.includes(w.line)) w.resolve();
    }
  })();
  return {
    child,
    printed: (line: string) =>
      Promise.race([
        new Promise<void>((resolve) => {
          if (lines.includes(line)) resolve();
          else waiters.push({ line, resolve });
        }),
        child.exited.then(async (code) => {
          throw new Error(`child exited (${code}) before "${line}": ${await new Response(child.stderr).text()}`);
        }),
      ]),
  };
};

const someone = (db: DbHandle["db"], email: string) =>
  createUser(db, { email, passwordHash: null, firstName: "Abebe", lastName: "Kebede", userType: "driver" });

test("killed after a push went out: the job is taken over once the 60 s lease lapses, and the push replaces, not repeats", async () => {
  const { h, env } = await shared("killed-push");
  const user = await someone(h.db, "push@example.com");
  const browser = emu.push.subscribe({ applicationServerKey: vapid.publicKey });
  await subscribe(h.db, notifiersFromEnv(env, { vapidKeyFile: null }), user.id, browser.subscription);
  const jobId = await enqueue(h.db, {
    kind: "notify",
    payload: {
      userId: user.id,
      event: "payment_received",
      loadId: null,
      billing: { amount: "29.00 USD", until: new Date(Date.now() + 30 * 86_400_000).toISOString() },
      channel: "web_push",
    },
    uniqueKey: `notify:payment_received:killed:${user.id}:web_push`,
    maxAttempts: 8,
  });

  const w = childWorker(env);
  await w.printed(`handled ${jobId}`);
  const first = emu.push.received(browser.id);
  expect(first).toHaveLength(1);
  expect(first[0]!.topic).toMatch(/^[\w-]{32}$/);
  w.child.kill("SIGKILL");
  await w.child.exited;

  const notifiers = notifiersFromEnv(env, { vapidKeyFile: null });
  const takeOver = (clock: () => number) =>
    startWorker({
      db: h.db,
      log: silent,
      handlers: jobHandlers({ notifiers, baseUrl: "https://mytess.example" }),
      schedules: [],
      autoStart: false,
      clock,
    }).runOnce();
  // Within the lease the dead worker still holds the job.
  expect(await takeOver(() => Date.now() + JOB_LEASE_MS / 2)).toBe(0);
  expect(await takeOver(() => Date.now() + JOB_LEASE_MS + 1000)).toBe(1);
  const [job] = await listJobs(h.db);
  expect(job).toMatchObject({ id: jobId, status: "done", attempts: 2 });
  // Sent again under the same topic: the push service kept the newer message only, and the device sees one.
  const inbox = emu.push.received(browser.id);
  expect(inbox).toHaveLength(1);
  expect(inbox[0]!.id).not.toBe(first[0]!.id);
  expect(inbox[0]!.topic).toBe(first[0]!.topic);
  expect(JSON.parse(inbox[0]!.text)).toMatchObject({ title: "Payment received", tag: first[0]!.topic });
});

test("killed mid-sync: the job is taken over within the lease, and the dead worker's run is closed as failed", async () => {
  const { scratch, h, env } = await shared("killed-sync");
  // The board: the load-feed emulator behind a gate that holds requests while `hold` is set.
  const feed = createFeedEmulator();
  let hold = true;
  let arrived = () => {};
  const reached = new Promise<void>((resolve) => {
    arrived = resolve;
  });
  const server = Bun.serve({
    port: 0,
    hostname: "127.0.0.1",
    fetch: async (req) => {
      if (hold) {
        arrived();
        return new Promise<Response>(() => {});
      }
      return feed.handle(req);
    },
  });
  cleanups.push(() => server.stop(true));
  const user = await someone(h.db, "sync@example.com");
  // The feed's loads are around the Horn of Africa: the driver is in Addis Ababa.
  await scratch.run("UPDATE users SET latitude = ?, longitude = ? WHERE id = ?", 9.03, 38.74, user.id);
  // The feed on loopback is the operator's Sandbox here (the child worker gets the same environment).
  env.SANDBOX_ORIGINS = `http://127.0.0.1:${server.port}`;
  const boards = boardServicesForDatabase(env, env.DATABASE_PATH!, true);
  const config = await createMarketplace(h.db, boards, user, {
    provider: "other",
    name: "Feed",
    apiBaseUrl: `http://127.0.0.1:${server.port}`,
    config: BOARD_SANDBOX_CREDENTIALS.other,
    isActive: true,
    syncEnabled: true,
    syncIntervalMinutes: 30,
    rateLimitPerHour: 1000,
  });
  await startManualSync(h.db, user, config.id);

  const w = childWorker(env);
  await reached;
  await w.printed("claimed 1");
  expect(await scratch.rows("SELECT finished_at, error, job_id FROM sync_runs")).toEqual([
    { finished_at: null, error: null, job_id: 1 },
  ]);
  w.child.kill("SIGKILL");
  await w.child.exited;
  hold = false;

  const worker = (clock: () => number) =>
    startWorker({
      db: h.db,
      log: silent,
      handlers: jobHandlers({ notifiers: notifiersFromEnv(env, { vapidKeyFile: null }), baseUrl: "", boards }),
      schedules: [],
      autoStart: false,
      clock,
    });
  expect(await worker(() => Date.now() + JOB_LEASE_MS / 2).runOnce()).toBe(0);
  expect(await worker(() => Date.now() + JOB_LEASE_MS + 1000).runOnce()).toBe(1);
  expect((await listJobs(h.db))[0]).toMatchObject({ id: 1, kind: "board_sync", status: "done", attempts: 2 });
  const runs = await scratch.rows<{ finished: number; error: string | null; found: number }>(
    "SELECT CAST(CASE WHEN finished_at IS NULL THEN 0 ELSE 1 END AS INTEGER) AS finished, error, CAST(found AS INTEGER) AS found FROM sync_runs ORDER BY id",
  );
  expect(runs).toHaveLength(2);
  expect(runs[0]).toEqual({ finished: 1, error: RUN_INTERRUPTED, found: 0 });
  expect(runs[1]!.finished).toBe(1);
  expect(runs[1]!.error).toBeNull();
  expect(runs[1]!.found).toBeGreaterThan(0);
});
