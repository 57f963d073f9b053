import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scratchDatabase, type TScratchDb } from "../db/testing";
import { sampleNumber } from "../emulators/carriers/numbers";
import { emulatorEnv, startCarrierEmulators } from "../emulators/carriers/server";
import { formatDate } from "../src/shared/dates";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

const dir = mkdtempSync(join(tmpdir(), "mytess-cli-"));
// The commands' database, on the engine the tests run on; empty: the first test migrates it.
const db = await scratchDatabase(dir, "cli", { unmigrated: true });
const seedDb = await scratchDatabase(dir, "seed", { unmigrated: true });
const env = { ...process.env, ...db.env, MYTESS_LANG: "en" };
afterAll(async () => {
  for (const d of [db, seedDb] as TScratchDb[]) await d.drop();
  rmSync(dir, { recursive: true, force: true });
});

const run = (...args: string[]) => {
  const p = Bun.spawnSync(["bun", join(import.meta.dir, "index.ts"), ...args], { env });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

test("--help lists the commands on every level", () => {
  expect(run("--help").out).toContain("db");
  expect(run("user", "--help").out).toContain("create");
  expect(run("user", "create", "--help").out).toContain("--email <email>");
  expect(run("db", "seed", "--help").out).toContain("--demo");
});

test("db migrate, then user create and user list go through the router", () => {
  expect(run("db", "migrate")).toMatchObject({ code: 0 });
  const created = run(
    "user",
    "create",
    "--email",
    "Ayele@Example.com",
    "--password",
    "long-enough-1",
    "--first",
    "Ayele",
    "--last",
    "Girma",
    "--type",
    "driver",
  );
  expect(created.code).toBe(0);
  expect(created.out).toContain("Created driver account ayele@example.com");
  const listed = run("user", "list", "--json");
  expect(listed.code).toBe(0);
  const users = JSON.parse(listed.out);
  expect(users).toHaveLength(1);
  expect(users[0]).toMatchObject({ email: "ayele@example.com", firstName: "Ayele", userType: "driver" });
  expect(users[0].passwordHash).toBeUndefined();
  expect(run("user", "list").out).toContain("ayele@example.com");
  // Dates in the operator's calendar and language: the Ethiopian calendar in Amharic and in Afaan Oromo.
  const since = new Date(users[0].createdAt);
  const inCalendar = (lang: string) =>
    Bun.spawnSync(["bun", join(import.meta.dir, "index.ts"), "user", "list"], {
      env: { ...env, MYTESS_LANG: lang, MYTESS_CALENDAR: "ethiopic" },
    }).stdout.toString();
  expect(inCalendar("am")).toContain(formatDate(since, { language: "am", calendar: "ethiopic" }));
  expect(inCalendar("am")).toContain("ዓ.ም.");
  expect(inCalendar("om")).toContain(formatDate(since, { language: "om", calendar: "ethiopic" }));
});

test("bad input exits non-zero with a message naming the field, and creates nothing", () => {
  const bad = run(
    "user",
    "create",
    "--email",
    "nope",
    "--password",
    "short",
    "--first",
    "A",
    "--last",
    "B",
    "--type",
    "pilot",
  );
  expect(bad.code).toBe(1);
  expect(bad.err).toContain("email: email must be a valid email address");
  expect(bad.err).toContain("password: password must be at least 8 characters");
  expect(bad.err).toContain('userType: userType must be "driver" or "shipper"');
  const missing = run("user", "create", "--email", "x@example.com");
  expect(missing.code).not.toBe(0);
  expect(missing.err).toContain("required option");
  expect(JSON.parse(run("user", "list", "--json").out)).toHaveLength(1);
});

test("a taken email is refused", () => {
  const again = run(
    "user",
    "create",
    "--email",
    "ayele@example.com",
    "--password",
    "long-enough-1",
    "--first",
    "A",
    "--last",
    "G",
    "--type",
    "shipper",
  );
  expect(again.code).toBe(1);
  expect(again.err).toContain("An account with this email already exists");
});

test("the router's refusals are printed in the operator's language", () => {
  const taken = ["--email", "ayele@example.com", "--password", "long-enough-1", "--first", "A", "--last", "G"];
  const said = {
    am: "ስህተት፦ በዚህ ኢሜይል የተከፈተ መለያ አስቀድሞ አለ",
    om: "Dogoggora: Imeelii kanaan herregni duraan banameera",
  };
  for (const [lang, message] of Object.entries(said)) {
    const args = ["bun", join(import.meta.dir, "index.ts"), "user", "create", ...taken, "--type", "shipper"];
    const p = Bun.spawnSync(args, { env: { ...env, MYTESS_LANG: lang } });
    expect(p.exitCode).toBe(1);
    expect(p.stderr.toString().trim()).toBe(message);
  }
});

test("db seed --demo fills an empty database once", () => {
  const fresh = { ...env, ...seedDb.env };
  const seed = () => Bun.spawnSync(["bun", join(import.meta.dir, "index.ts"), "db", "seed", "--demo"], { env: fresh });
  const first = seed();
  expect(first.exitCode).toBe(0);
  expect(first.stdout.toString()).toContain("250 posted loads");
  const second = seed();
  expect(second.exitCode).toBe(1);
  expect(second.stderr.toString()).toContain("already has data");
});

describe("parcel commands, through the same procedures, against the carrier emulators", () => {
  const emu = startCarrierEmulators();
  afterAll(() => emu.stop());
  const carrierEnv = {
    ...env,
    ...emulatorEnv(emu.urls),
  };
  const cli = async (...args: string[]) => {
    const p = Bun.spawn(["bun", join(import.meta.dir, "index.ts"), ...args], {
      env: carrierEnv,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, err, code] = await Promise.all([
      new Response(p.stdout).text(),
      new Response(p.stderr).text(),
      p.exited,
    ]);
    return { code, out, err };
  };

  test("mytess rates lists every carrier's options, cheapest first; --json gives the procedure's answer", async () => {
    const table = await cli("rates", "--from-zip", "95014", "--to-zip", "10118", "--weight", "5");
    expect(table.code).toBe(0);
    expect(table.out).toContain("FEDEX");
    expect(table.out).toContain("UPS");
    expect(table.out).toContain("USPS");
    const json = JSON.parse(
      (await cli("rates", "--from-zip", "95014", "--to-zip", "10118", "--weight", "5", "--carrier", "ups", "--json"))
        .out,
    );
    expect(json.errors).toEqual([]);
    expect(json.rates.every((r: { carrier: string }) => r.carrier === "ups")).toBe(true);
    const costs = json.rates.map((r: { totalCost: number }) => r.totalCost);
    expect(costs).toEqual([...costs].sort((a: number, b: number) => a - b));
  });

  test("mytess track detects the carrier and prints the history; bad input exits non-zero", async () => {
    const n = sampleNumber("usps", "delivered");
    const out = await cli("track", n);
    expect(out.code).toBe(0);
    expect(out.out).toContain(`USPS ${n}: delivered`);
    expect((await cli("track", "12345")).err).toContain("does not match a FedEx, UPS or USPS format");
    expect((await cli("track", n, "--carrier", "dhl")).code).toBe(1);
    expect((await cli("rates", "--from-zip", "1", "--to-zip", "2", "--weight", "heavy")).err).toContain(
      "--weight must be a number of pounds",
    );
  });
});

test("jobs list shows dead jobs; jobs retry queues one again, and says why when it cannot", async () => {
  expect(run("db", "migrate").code).toBe(0);
  const now = Date.now();
  await db.run(
    `INSERT INTO jobs (kind, payload, status, run_at, attempts, max_attempts, last_error, created_at, updated_at, finished_at)
     VALUES ('notify', '{}', 'dead', ?, 5, 5, 'Telegram: bot was blocked by the user', ?, ?, ?)`,
    now,
    now,
    now,
    now,
  );
  const [{ id }] = (await db.rows<{ id: number }>("SELECT CAST(max(id) AS INTEGER) AS id FROM jobs")) as [
    { id: number },
  ];

  const dead = JSON.parse(run("jobs", "list", "--status", "dead", "--json").out);
  expect(dead).toMatchObject([
    { id, kind: "notify", status: "dead", lastError: "Telegram: bot was blocked by the user" },
  ]);
  expect(run("jobs", "list", "--status", "dead").out).toContain("bot was blocked");
  const retried = run("jobs", "retry", String(id));
  expect(retried.code).toBe(0);
  expect(retried.out).toContain(`Job ${id} (notify) is queued again.`);
  expect(run("jobs", "list", "--status", "dead").out).toContain("No jobs.");
  const again = run("jobs", "retry", String(id));
  expect(again.code).not.toBe(0);
  expect(again.err).toContain("only a dead job can be retried");
  expect(run("jobs", "retry", "999999").err).toContain("Job 999999 not found");
  expect(run("jobs", "retry", "abc").err).toContain("id must be a job number");
  expect(run("jobs", "list", "--status", "lost").err).toContain("status must be one of pending, running, done, dead");
}, 60_000);

test("notify broadcast queues one job per chosen user, and refuses bad options", async () => {
  expect(run("db", "migrate").code).toBe(0);
  const mk = (email: string, type: string) =>
    run(
      "user",
      "create",
      "--email",
      email,
      "--password",
      "strong-password-1",
      "--first",
      "A",
      "--last",
      "B",
      "--type",
      type,
    );
  expect(mk(`d.${Date.now()}@example.com`, "driver").code).toBe(0);
  expect(mk(`s.${Date.now()}@example.com`, "shipper").code).toBe(0);
  const drivers = await db.rows<{ id: number }>("SELECT id FROM users WHERE user_type = 'driver'");
  const before = (await db.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM jobs"))[0].n;
  const out = run("notify", "broadcast", "--title", "Maintenance", "--message", "Back at 06:00", "--role", "driver");
  expect(out.code).toBe(0);
  expect(out.out).toContain(`Queued for ${drivers.length} users`);
  const queued = await db.rows<{ payload: unknown }>(
    "SELECT payload FROM jobs WHERE kind = 'notify' ORDER BY id DESC LIMIT ?",
    drivers.length,
  );
  const payloads = queued.map((q) => (typeof q.payload === "string" ? JSON.parse(q.payload) : q.payload));
  expect(payloads.map((p) => p.userId).sort()).toEqual(drivers.map((d) => d.id).sort());
  expect(payloads[0]).toMatchObject({ event: "system_alert", loadId: null, text: { title: "Maintenance" } });
  const bad = run("notify", "broadcast", "--title", "x", "--message", "y", "--type", "sms");
  expect(bad.code).not.toBe(0);
  expect(bad.err).toContain("--type must be systemAlerts or marketing");
  const empty = run("notify", "broadcast", "--title", " ", "--message", "y");
  expect(empty.code).not.toBe(0);
  expect(empty.err).toContain("title is required");
  expect((await db.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) AS n FROM jobs"))[0].n).toBe(
    before + drivers.length,
  );
});
