// The async SQLite handle keeps transactions whole: nothing of another request runs inside one, a throw leaves
// nothing behind, and a transaction opened inside another's callback fails instead of waiting for itself.

import { Database } from "bun:sqlite";
import { afterEach, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { eq } from "drizzle-orm";
import { type DbHandle, first, migrateDb, openDb, statementCache } from "./client";
import { fxRates } from "./schema";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const open: DbHandle[] = [];
const dirs: string[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const tick = () => new Promise((r) => setTimeout(r, 5));
const rateOf = async (h: DbHandle, currency: string) =>
  first(await h.db.select().from(fxRates).where(eq(fxRates.currency, currency)).limit(1))?.ratePerUsd;

for (const where of ["memory", "file"] as const) {
  // SQLite whatever engine the other tests run on: this is the gate's test.
  const openOne = async () => {
    let path = ":memory:";
    if (where === "file") {
      const dir = mkdtempSync(join(tmpdir(), "mytess-client-"));
      dirs.push(dir);
      path = join(dir, "t.db");
    }
    const h = await openDb(path);
    await migrateDb(h.db);
    return h;
  };

  test(`${where}: another request's statements wait until a transaction ends`, async () => {
    const h = await openOne();
    open.push(h);
    const seen: string[] = [];
    const txDone = h.db.transaction(async (tx) => {
      await tx.update(fxRates).set({ ratePerUsd: 1000 }).where(eq(fxRates.currency, "ETB"));
      seen.push("tx wrote");
      await tick(); // the other request gets the event loop here
      const [inside] = await tx.select().from(fxRates).where(eq(fxRates.currency, "ETB"));
      seen.push(`tx reads ${inside.ratePerUsd}`);
      await tick();
      await tx.update(fxRates).set({ ratePerUsd: 1001 }).where(eq(fxRates.currency, "ETB"));
      seen.push("tx commits");
    });
    await tick();
    // "Another request": a write and a read issued while the transaction is open.
    const other = (async () => {
      await h.db.update(fxRates).set({ ratePerUsd: 7 }).where(eq(fxRates.currency, "ETB"));
      seen.push("other wrote");
      seen.push(`other reads ${await rateOf(h, "ETB")}`);
    })();
    await Promise.all([txDone, other]);
    expect(seen).toEqual(["tx wrote", "tx reads 1000", "tx commits", "other wrote", "other reads 7"]);
  });

  test(`${where}: a throw rolls back every statement of the transaction`, async () => {
    const h = await openOne();
    open.push(h);
    const before = await rateOf(h, "ETB");
    await expect(
      h.db.transaction(async (tx) => {
        await tx.update(fxRates).set({ ratePerUsd: 1 }).where(eq(fxRates.currency, "ETB"));
        await tx
          .insert(fxRates)
          .values({ currency: "XXX", name: "Test", symbol: "X", ratePerUsd: 2, locale: "en", updatedAt: 0 });
        await tick();
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await rateOf(h, "ETB")).toBe(before);
    expect(await rateOf(h, "XXX")).toBeUndefined();
    // The handle is usable afterwards, and transactions queue one after another.
    const order: number[] = [];
    await Promise.all(
      [1, 2, 3].map((n) =>
        h.db.transaction(async (tx) => {
          await tx.update(fxRates).set({ ratePerUsd: n }).where(eq(fxRates.currency, "ETB"));
          await tick();
          order.push(n);
        }),
      ),
    );
    expect(order).toEqual([1, 2, 3]);
    expect(await rateOf(h, "ETB")).toBe(3);
  });

  test(`${where}: a transaction inside a transaction's callback throws instead of waiting for itself`, async () => {
    const h = await openOne();
    open.push(h);
    await expect(
      h.db.transaction(async () => {
        await h.db.transaction(async () => {});
      }),
    ).rejects.toThrow("use tx.transaction");
    expect(await rateOf(h, "USD")).toBe(1);
  });
}

test("the statement cache keeps more texts than a request runs, and finalizes the least recently used past its size", () => {
  const sqlite = new Database(":memory:");
  const statement = statementCache(sqlite, 30);
  const texts = Array.from({ length: 30 }, (_, i) => `SELECT ${i} AS x`);
  // bun:sqlite's own cache keeps 20: cycling through 30 texts with it would prepare each one again every time.
  const first = texts.map((t) => statement(t));
  const again = texts.map((t) => statement(t));
  expect(again.every((s, i) => s === first[i])).toBe(true);
  expect(statement(texts[0]!).values()).toEqual([[0]]);
  // Text 1 is now the least recently used (text 0 was just used): a new text drops it, and it is prepared anew.
  statement("SELECT 'new' AS x");
  expect(statement(texts[2]!)).toBe(first[2]!);
  expect(statement(texts[1]!)).not.toBe(first[1]!);
  expect(() => first[1]!.values()).toThrow();
  sqlite.close();
});
