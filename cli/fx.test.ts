import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scratchDatabase } from "../db/testing";
import { nbeUsdRate, startNbeEmulator } from "../emulators/fx/nbe";
import { fxDay } from "../src/server/modules/fx/rates";
import { formatDate } from "../src/shared/dates";

setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "mytess-cli-fx-"));
const db = await scratchDatabase(dir, "fx");
const emu = startNbeEmulator();
const env = { ...process.env, ...db.env, MYTESS_LANG: "en", FX_SOURCE_URL: emu.url };
afterAll(async () => {
  emu.stop();
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});

// Spawned without blocking: the emulator answers from this process.
const run = async (args: string[], extra: Record<string, string> = {}) => {
  const p = Bun.spawn(["bun", join(import.meta.dir, "index.ts"), ...args], {
    env: { ...env, ...extra },
    stdout: "pipe",
    stderr: "pipe",
  });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
};
const day = (d: string, language: "en" | "am" | "om" = "en") =>
  formatDate(`${d}T12:00:00Z`, { language, calendar: "gregorian" });

test("fx list shows the first-start rates until the source has answered; fx sync fetches the days' rates", async () => {
  const first = await run(["fx", "list"]);
  expect(first.code).toBe(0);
  expect(first.out).toContain("ETB");
  expect(first.out).toContain("60.5");
  expect(first.out).toContain("first-start rate (none fetched yet)");
  const synced = await run(["fx", "sync"]);
  expect(synced.code).toBe(0);
  expect(synced.out).toContain("National Bank of Ethiopia (Sandbox): rates of");
  const rates = JSON.parse((await run(["fx", "list", "--json"])).out) as {
    currency: string;
    source: string;
    rateDate: string;
  }[];
  const etb = rates.find((r) => r.currency === "ETB")!;
  expect(etb.source).toBe("source");
  expect(etb.rateDate <= fxDay(Date.now())).toBe(true);
  expect((await run(["fx", "list"])).out).toContain(
    `National Bank of Ethiopia (Sandbox), rates of ${day(etb.rateDate)}`,
  );
  // Nothing new on a second run the same day.
  expect((await run(["fx", "sync"])).code).toBe(0);
  expect(JSON.parse((await run(["fx", "list", "--json"])).out)).toEqual(rates);
  expect((etb as unknown as { ratePerUsd: number }).ratePerUsd).toBe(nbeUsdRate(etb.rateDate));
});

test("fx set ETB <rate> --until <date> overrides the rate through that day; bad input names the field and changes nothing", async () => {
  const until = fxDay(Date.now() + 30 * 86_400_000);
  const set = await run(["fx", "set", "ETB", "157.5", "--until", until]);
  expect(set.code).toBe(0);
  expect(set.out).toContain(`operator's override of ${day(fxDay(Date.now()))}, through ${day(until)}`);
  const listed = JSON.parse((await run(["fx", "list", "--json"])).out) as { currency: string }[];
  expect(listed.find((r) => r.currency === "ETB")).toMatchObject({
    ratePerUsd: 157.5,
    source: "operator",
    validUntil: until,
  });
  // In Amharic, the operator's language.
  expect((await run(["fx", "list"], { MYTESS_LANG: "am" })).out).toContain(day(until, "am"));

  const notNumber = await run(["fx", "set", "ETB", "abc"]);
  expect(notNumber.code).toBe(1);
  expect(notNumber.err).toContain("rate must be a number of units per US dollar");
  const negative = await run(["fx", "set", "ETB", "-3"]);
  expect(negative.code).toBe(1);
  expect(negative.err).toContain("ratePerUsd: ratePerUsd must be more than 0");
  const past = await run(["fx", "set", "ETB", "150", "--until", "2020-01-01"]);
  expect(past.code).toBe(1);
  expect(past.err).toContain("until: before today");
  const badDay = await run(["fx", "set", "ETB", "150", "--until", "2026-02-30"]);
  expect(badDay.err).toContain("until: must be a date such as 2026-12-31");
  const usd = await run(["fx", "set", "USD", "2"]);
  expect(usd.err).toContain("USD has no exchange rate to set (rates are per US dollar)");
  expect(JSON.parse((await run(["fx", "list", "--json"])).out)).toEqual(listed);
});
