// `mytess db copy --to postgres://…` (PostgreSQL runs only): a demo SQLite database arrives whole, ids and sequences
// intact, and a target that already holds data is refused with nothing written.
import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asc } from "drizzle-orm";
import { createTestDatabase, type DbHandle, openDb, openPgDb } from "./client";
import { tablesInCopyOrder } from "./copy";
import { ENGINE } from "./engine";
import * as pgSchema from "./pg/schema";

setDefaultTimeout(120_000);

const cli = join(import.meta.dir, "..", "cli", "index.ts");

describe.skipIf(ENGINE !== "pg")("db copy from SQLite to PostgreSQL", () => {
  const dir = mkdtempSync(join(tmpdir(), "mytess-copy-"));
  const file = join(dir, "source.db");
  const cleanup: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const f of cleanup) await f();
    rmSync(dir, { recursive: true, force: true });
  });
  const run = (env: Record<string, string | undefined>, ...args: string[]) => {
    const p = Bun.spawnSync(["bun", cli, ...args], {
      env: { ...process.env, DATABASE_URL: undefined, DATABASE_PATH: file, MYTESS_LANG: "en", ...env },
    });
    return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
  };
  const open = async (h: Promise<DbHandle>) => {
    const handle = await h;
    cleanup.unshift(() => handle.close());
    return handle;
  };

  test("every table arrives row for row with its ids; new rows continue after them", async () => {
    // The source: the demo data plus a session and a dead job, made on SQLite by the CLI and the file itself.
    expect(run({}, "db", "seed", "--demo").code).toBe(0);
    const sqlite = await open(openDb(file));
    const now = Date.now();
    sqlite.sqlite!.run(
      "INSERT INTO sessions (id_hash, user_id, expires_at, last_seen_at, user_agent, created_at) VALUES ('h', 1, ?, ?, 'x', ?)",
      [now, now, now],
    );
    sqlite.sqlite!.run(
      `INSERT INTO jobs (kind, payload, status, run_at, attempts, max_attempts, last_error, created_at, updated_at)
       VALUES ('notify', '{"userId":1}', 'dead', ?, 5, 5, 'gone', ?, ?)`,
      [now, now, now],
    );
    const target = (await createTestDatabase({ unmigrated: true }))!;
    cleanup.push(target.drop);

    const copied = run({}, "db", "copy", "--to", target.url);
    expect(copied.err).toBe("");
    expect(copied.code).toBe(0);
    expect(copied.out).toContain("users: 7/7");
    expect(copied.out).toContain("loads: 270/270");
    expect(copied.out).toMatch(
      new RegExp(`Copied \\d+ rows in ${tablesInCopyOrder().length} tables into PostgreSQL\\.`),
    );
    expect(tablesInCopyOrder().length).toBeGreaterThanOrEqual(20);

    const pg = await open(openPgDb(target.url));
    // biome-ignore lint/suspicious/noExplicitAny: each table with its own dialect's handle
    const [from, to] = [sqlite.db as any, pg.db as any];
    for (const { name, from: a, to: b } of tablesInCopyOrder()) {
      const key = Object.values(a).find((c) => (c as { primary?: boolean }).primary) ?? Object.values(a)[0];
      const keyB = (b as unknown as Record<string, unknown>)[
        Object.keys(a).find((k) => (a as unknown as Record<string, unknown>)[k] === key)!
      ];
      const left = await from
        .select()
        .from(a)
        .orderBy(asc(key as never));
      const right = await to
        .select()
        .from(b)
        .orderBy(asc(keyB as never));
      expect({ table: name, rows: right }).toEqual({ table: name, rows: left });
    }
    // The sequences continue after the copied ids: the demo's 7 users are ids 1-7.
    const [user] = await to
      .insert(pgSchema.users)
      .values({ email: "new@example.com", firstName: "N", lastName: "U", userType: "driver", trialEndsAt: now })
      .returning({ id: pgSchema.users.id });
    expect(user.id).toBe(8);
  });

  test("a target with data, a source that is not there and a URL that is not PostgreSQL are refused", async () => {
    const target = (await createTestDatabase())!;
    cleanup.push(target.drop);
    const pg = await open(openPgDb(target.url));
    await pg.db
      // biome-ignore lint/suspicious/noExplicitAny: the pg table on a pg handle
      .insert(pgSchema.users as any)
      .values({ email: "here@example.com", firstName: "H", lastName: "E", userType: "shipper", trialEndsAt: 0 });
    const refused = run({}, "db", "copy", "--to", target.url);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain(
      "Nothing copied: the target database is not empty (users has 1 rows). Copy only into an empty database.",
    );
    expect(await pg.db.select().from(pgSchema.loads as never)).toEqual([]);
    expect(run({ DATABASE_PATH: join(dir, "missing.db") }, "db", "copy", "--to", target.url).err).toContain(
      "No SQLite database at",
    );
    expect(run({}, "db", "copy", "--to", "mysql://x").err).toContain("--to must be a postgres:// or postgresql:// URL");
  });
});
