import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scratchDatabase } from "../db/testing";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "mytess-ledger-"));
const db = await scratchDatabase(dir, "ledger", { unmigrated: true });
const env = { ...process.env, ...db.env, MYTESS_LANG: "en" };
afterAll(async () => {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});
const run = (...args: string[]) => {
  const p = Bun.spawnSync(["bun", join(import.meta.dir, "index.ts"), ...args], { env });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

// The unbalanced cases are checkLedger's own (freight-payments.test.ts runs it after every payment test and breaks it
// on purpose once); here the command's wiring: the answer, the JSON and the exit code.
test("ledger check: a sound ledger says so and exits 0, in text and JSON", () => {
  const text = run("ledger", "check");
  expect(text).toMatchObject({ code: 0 });
  expect(text.out).toContain("The ledger balances: 0 entries over 0 payments.");
  const json = run("ledger", "check", "--json");
  expect(json.code).toBe(0);
  expect(JSON.parse(json.out)).toEqual({ entries: 0, payments: 0, problems: [] });
});
