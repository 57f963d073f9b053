import { Database } from "bun:sqlite";
import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "mytess-main-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const boot = async (concurrency: number, args: string[] = [], name = `main-${concurrency}`) => {
  const port = 30000 + Math.floor(Math.random() * 20000);
  const dbPath = join(dir, `${name}.db`);
  const proc = Bun.spawn(["bun", join(import.meta.dir, "main.ts"), ...args], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_PATH: dbPath,
      WEB_CONCURRENCY: String(concurrency),
      LOG_LEVEL: "silent",
      WEB_DIST: dir,
    },
    stdout: "ignore",
    stderr: "pipe",
  });
  for (let i = 0; i < 100; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { proc, port, dbPath };
    } catch {}
    await Bun.sleep(100);
  }
  proc.kill();
  throw new Error("server did not start");
};

test.each([1, 2])(
  "with %i server process(es): migrates, never seeds, serves, and stops cleanly on SIGTERM",
  async (concurrency) => {
    const { proc, port, dbPath } = await boot(concurrency);
    const stats = await (await fetch(`http://127.0.0.1:${port}/api/platform-stats`)).json();
    expect(stats.totalLoads).toBe(0);
    // A request in flight when the signal arrives still gets its answer.
    const inFlight = fetch(`http://127.0.0.1:${port}/api/auth/register`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({
        email: `drain${concurrency}@example.com`,
        password: "long-enough-1",
        firstName: "Drain",
        lastName: "Test",
        userType: "driver",
      }),
    });
    await Bun.sleep(5);
    proc.kill("SIGTERM");
    expect((await inFlight).status).toBe(201);
    expect(await proc.exited).toBe(0);
    // The database was closed cleanly: it opens, and the write made while stopping is there.
    const db = new Database(dbPath, { readonly: true });
    expect(db.query("select count(*) n from users").get()).toEqual({ n: 1 });
    db.close();
  },
);

/** The jobs the process has run so far, read from its database file. */
const jobsIn = (dbPath: string) => {
  const db = new Database(dbPath, { readonly: true });
  try {
    return db.query("select kind, status from jobs").all() as { kind: string; status: string }[];
  } finally {
    db.close();
  }
};

const waitFor = async (check: () => boolean) => {
  for (let i = 0; i < 100 && !check(); i++) await Bun.sleep(100);
  return check();
};

test("by default one box serves and runs the jobs; --role web serves only", async () => {
  const all = await boot(1, [], "role-all");
  expect(await waitFor(() => jobsIn(all.dbPath).some((j) => j.kind === "housekeeping" && j.status === "done"))).toBe(
    true,
  );
  all.proc.kill("SIGTERM");
  expect(await all.proc.exited).toBe(0);

  const web = await boot(1, ["--role", "web"], "role-web");
  await Bun.sleep(1500);
  expect(jobsIn(web.dbPath)).toEqual([]);
  web.proc.kill("SIGTERM");
  expect(await web.proc.exited).toBe(0);
}, 60_000);

test("--role worker runs the jobs without serving HTTP, and stops on SIGTERM", async () => {
  const port = 30000 + Math.floor(Math.random() * 20000);
  const dbPath = join(dir, "role-worker.db");
  const proc = Bun.spawn(["bun", join(import.meta.dir, "main.ts"), "--role", "worker"], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      DATABASE_PATH: dbPath,
      LOG_LEVEL: "silent",
      WEB_DIST: dir,
    },
    stdout: "ignore",
    stderr: "pipe",
  });
  expect(
    await waitFor(() => {
      try {
        return jobsIn(dbPath).some((j) => j.kind === "housekeeping" && j.status === "done");
      } catch {
        return false;
      }
    }),
  ).toBe(true);
  expect(
    await fetch(`http://127.0.0.1:${port}/api/health`).then(
      () => "answered",
      () => "refused",
    ),
  ).toBe("refused");
  proc.kill("SIGTERM");
  expect(await proc.exited).toBe(0);
}, 60_000);

test("an unknown role is refused with a message", async () => {
  const proc = Bun.spawn(["bun", join(import.meta.dir, "main.ts"), "--role", "cron"], {
    env: { ...process.env, DATABASE_PATH: join(dir, "role-bad.db"), LOG_LEVEL: "silent" },
    stdout: "ignore",
    stderr: "pipe",
  });
  expect(await proc.exited).toBe(2);
  expect(await new Response(proc.stderr).text()).toContain("--role must be one of all, web, worker");
});
