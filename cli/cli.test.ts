import { afterAll, describe, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scratchDatabase, type TScratchDb } from "../db/testing";
import { startBoardEmulators } from "../emulators/boards/server";
import { sampleNumber } from "../emulators/carriers/numbers";
import { emulatorEnv, startCarrierEmulators } from "../emulators/carriers/server";
import { startStoreEmulators } from "../emulators/stores/server";
import { createSecretBox, loadSecretKey } from "../src/server/secrets";
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

describe("boards, stores and premium from the CLI, against the emulators", () => {
  const KEY = "22".repeat(32);
  const box = createSecretBox(loadSecretKey({ MYTESS_SECRET_KEY: KEY }, null));
  // Spawned without blocking: the emulators answer from this process meanwhile.
  const keyed = async (...args: string[]) => {
    const p = Bun.spawn(["bun", join(import.meta.dir, "index.ts"), ...args], {
      // The emulators are this deployment's Sandbox: the only loopback addresses its configurations may be called at.
      env: {
        ...env,
        MYTESS_SECRET_KEY: KEY,
        SANDBOX_ORIGINS: [...Object.values(boards.urls), ...Object.values(stores.urls)]
          .map((u) => new URL(u).origin)
          .join(","),
      },
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
  const pg = Boolean(db.env.DATABASE_URL);
  const yes = pg ? "true" : "1";
  const boards = startBoardEmulators();
  const stores = startStoreEmulators();
  stores.controls.shopify.restoreRate = 1000;
  afterAll(() => {
    boards.stop();
    stores.stop();
  });

  test("marketplaces list hides credentials; sync runs the boards with sync on; ecommerce sync imports orders; subscription grant and show", async () => {
    expect(run("db", "migrate").code).toBe(0);
    expect(
      run(
        "user",
        "create",
        "--email",
        "sync@example.com",
        "--password",
        "long-enough-1",
        "--first",
        "Sara",
        "--last",
        "Ali",
        "--type",
        "shipper",
      ).code,
    ).toBe(0);
    const [{ id: userId }] = (await db.rows<{ id: number }>(
      "SELECT CAST(id AS INTEGER) AS id FROM users WHERE email = 'sync@example.com'",
    )) as [{ id: number }];
    await db.run("UPDATE users SET latitude = 41.85, longitude = -87.65 WHERE id = ?", userId);
    const now = Date.now();
    await db.run(
      `INSERT INTO marketplace_configs (user_id, provider, name, api_base_url, is_active, sync_enabled, sync_interval_minutes,
         rate_limit_per_hour, credentials, credential_fields, created_at, updated_at)
       VALUES (?, 'truckstop', 'Truckstop desk', ?, ${yes}, ${yes}, 30, 1000, ?, '["username","password","integrationId"]', ?, ?)`,
      userId,
      boards.urls.truckstop,
      box.seal(JSON.stringify({ username: "sandbox", password: "sandbox", integrationId: "sandbox" })),
      now,
      now,
    );
    const listed = await keyed("marketplaces", "list", "--json");
    expect(listed.code).toBe(0);
    const configs = JSON.parse(listed.out);
    expect(configs).toMatchObject([
      {
        provider: "truckstop",
        name: "Truckstop desk",
        owner: "sync@example.com",
        sandbox: true,
        config: { password: true },
      },
    ]);
    expect(listed.out).not.toContain('sandbox",\n');
    const synced = await keyed("sync", "--json");
    expect(synced.code).toBe(0);
    const [run1] = JSON.parse(synced.out);
    expect(run1).toMatchObject({ configId: configs[0].id, trigger: "manual", error: null });
    expect(run1.created).toBeGreaterThan(0);
    expect((await keyed("sync")).out).toContain("Truckstop desk: found");
    expect((await keyed("sync", "--marketplace", "abc")).err).toContain("--marketplace must be a configuration number");

    const settings = JSON.stringify({
      warehouse: {
        address: "Dock 4",
        city: "Chicago",
        state: "IL",
        country: "United States",
        latitude: 41.83,
        longitude: -87.66,
      },
      defaultEquipmentType: "dry_van",
      budget: { mode: "perMile", amount: 2.5, currency: "USD" },
      defaultWeightLbs: 500,
      pickupLeadDays: 1,
      importStatuses: ["pending", "processing"],
      syncIntervalMinutes: 30,
      apiBaseUrl: stores.urls.shopify,
    });
    await db.run(
      `INSERT INTO ecommerce_integrations (user_id, platform, name, is_active, credentials, credential_fields, settings, created_at, updated_at)
       VALUES (?, 'shopify', 'Chicago shop', ${yes}, ?, '["shopDomain","accessToken"]', ?, ?, ?)`,
      userId,
      box.seal(JSON.stringify({ shopDomain: "sandbox", accessToken: "sandbox" })),
      settings,
      now,
      now,
    );
    const orders = await keyed("ecommerce", "sync", "--json");
    expect(orders.code).toBe(0);
    const [shop] = JSON.parse(orders.out);
    expect(shop).toMatchObject({ name: "Chicago shop" });
    expect(shop.created).toBeGreaterThan(0);
    expect((await keyed("ecommerce", "list")).out).toContain("Chicago shop");

    const granted = await keyed("subscription", "grant", "sync@example.com", "--months", "2");
    expect(granted.code).toBe(0);
    expect(granted.out).toContain("sync@example.com has premium until");
    const shown = JSON.parse((await keyed("subscription", "show", "sync@example.com", "--json")).out);
    expect(shown).toMatchObject({ subscriptionStatus: "active", provider: "grant" });
    expect(shown.payments[0]).toMatchObject({ provider: "grant", months: 2, amount: 0 });
    expect((await keyed("subscription", "grant", "sync@example.com", "--months", "0")).err).toContain(
      "--months must be a whole number from 1 to 36",
    );
    expect((await keyed("subscription", "show", "nobody@example.com")).err).toContain("No account with that email");
  }, 120_000);
});
