import { Database } from "bun:sqlite";
import { afterAll, expect, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const dir = mkdtempSync(join(tmpdir(), "mytess-main-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const boot = async (concurrency: number) => {
  const port = 30000 + Math.floor(Math.random() * 20000);
  const dbPath = join(dir, `main-${concurrency}.db`);
  const proc = Bun.spawn(["bun", join(import.meta.dir, "main.ts")], {
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
