// Shared transactions (group commit): writes that queue while one transaction runs share the next one, each in its
// own savepoint; a failing write undoes only itself; every caller hears back only after the COMMIT holding its write.
import { Database } from "bun:sqlite";
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type DbHandle, migrateDb, openDb } from "./client";
import { fxRates } from "./schema";
import { createSharedTransactions, GROUP_LIMIT } from "./shared-transaction";

setDefaultTimeout(60_000);

const open: DbHandle[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const openFile = async () => {
  const dir = mkdtempSync(join(tmpdir(), "mytess-shared-"));
  dirs.push(dir);
  const path = join(dir, "t.db");
  const h = await openDb(path);
  open.push(h);
  await migrateDb(h.db);
  return { h, path };
};

const rate = (currency: string, ratePerUsd: number) => ({
  currency,
  name: currency,
  symbol: currency,
  ratePerUsd,
  locale: "en-US",
  updatedAt: 0,
});

test("SQLite: each write is on disk when its caller hears back, and a failing write leaves only itself out", async () => {
  const { h, path } = await openFile();
  const other = new Database(path, { readonly: true });
  const seen: string[] = [];
  const codes = Array.from({ length: 40 }, (_, i) => `Q${String(i).padStart(2, "0")}`);
  const results = await Promise.allSettled(
    codes.map((code, i) =>
      h.db.q
        .sharedTransaction(async (tx) => {
          await tx.insert(fxRates).values(rate(code, i));
          if (i % 7 === 3) throw new Error(`write ${code} refused`);
          return code;
        })
        .then((c) => {
          // Another connection (another process, in production) already sees it: the answer followed the COMMIT.
          const row = other.query("SELECT currency FROM fx_rates WHERE currency = ?").get(c) as { currency: string };
          seen.push(row?.currency ?? "missing");
          return c;
        }),
    ),
  );
  other.close();
  const refused = codes.filter((_, i) => i % 7 === 3);
  expect(
    results.filter((r) => r.status === "rejected").map((r) => String((r as PromiseRejectedResult).reason)),
  ).toEqual(refused.map((c) => `Error: write ${c} refused`));
  expect(seen.sort()).toEqual(codes.filter((c) => !refused.includes(c)));
  const stored = (await h.db.select({ c: fxRates.currency }).from(fxRates))
    .map((r) => r.c)
    .filter((c) => c.startsWith("Q"));
  expect(stored.sort()).toEqual(codes.filter((c) => !refused.includes(c)));
});

type TFakeTx = { transaction: <T>(fn: (tx: TFakeTx) => Promise<T>) => Promise<T> };

test("writes queued while a transaction runs share the next one, at most GROUP_LIMIT to a transaction", async () => {
  const groups: number[] = [];
  let current = 0;
  const tx: TFakeTx = {
    transaction: async (fn) => {
      current++;
      return fn(tx);
    },
  };
  const db = {
    transaction: async <T>(fn: (t: TFakeTx) => Promise<T>) => {
      current = 0;
      await new Promise((r) => setTimeout(r, 1));
      const out = await fn(tx);
      groups.push(current);
      return out;
    },
  };
  const shared = createSharedTransactions<TFakeTx>(db);
  const answers = await Promise.all(Array.from({ length: 150 }, (_, i) => shared(async () => i)));
  expect(answers).toEqual(Array.from({ length: 150 }, (_, i) => i));
  // The first write starts at once, alone; the 149 that queued meanwhile go in groups of at most GROUP_LIMIT.
  expect(groups).toEqual([1, GROUP_LIMIT, GROUP_LIMIT, 149 - 2 * GROUP_LIMIT]);
});

test("a COMMIT that fails fails every write of its group, and the next group still runs", async () => {
  let calls = 0;
  const tx: TFakeTx = { transaction: async (fn) => fn(tx) };
  const db = {
    transaction: async <T>(fn: (t: TFakeTx) => Promise<T>) => {
      calls++;
      await new Promise((r) => setTimeout(r, 1));
      const out = await fn(tx);
      if (calls === 2) throw new Error("database is locked");
      return out;
    },
  };
  const shared = createSharedTransactions<TFakeTx>(db);
  const settled = await Promise.allSettled([
    shared(async () => "first"),
    shared(async () => "a"),
    shared(async () => "b"),
  ]);
  expect(settled.map((s) => (s.status === "fulfilled" ? s.value : String(s.reason)))).toEqual([
    "first",
    "Error: database is locked",
    "Error: database is locked",
  ]);
  await expect(shared(async () => "after")).resolves.toBe("after");
});
