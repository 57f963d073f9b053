import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { scratchDatabase } from "../db/testing";

// About a dozen CLI starts, each seconds on a loaded machine.
setDefaultTimeout(300_000);

const dir = mkdtempSync(join(tmpdir(), "mytess-cli-payments-"));
const db = await scratchDatabase(dir, "payments");
const env = { ...process.env, ...db.env, MYTESS_LANG: "en", USER: "abebe" };
afterAll(async () => {
  await db.drop();
  rmSync(dir, { recursive: true, force: true });
});
const run = async (...args: string[]) => {
  const p = Bun.spawn(["bun", join(import.meta.dir, "index.ts"), ...args], { env, stdout: "pipe", stderr: "pipe" });
  const [out, err, code] = await Promise.all([new Response(p.stdout).text(), new Response(p.stderr).text(), p.exited]);
  return { code, out, err };
};

const NOW = Date.now();
const user = async (email: string, type: "driver" | "shipper") => {
  await db.run(
    "INSERT INTO users (email, first_name, last_name, user_type, trial_ends_at, created_at, updated_at) VALUES (?, 'Test', 'User', ?, ?, ?, ?)",
    email,
    type,
    NOW,
    NOW,
    NOW,
  );
  return (await db.rows<{ id: number }>("SELECT id FROM users WHERE email = ?", email))[0]!.id;
};

/**
 * A delivered load whose payment (USD 900 + 27 fee, funded through Stripe) is in `state`, with the ledger's funding
 * transaction, as the web's funding and the shipper's dispute leave them.
 */
const payment = async (shipperId: number, driverId: number, state: string, title: string) => {
  await db.run(
    `INSERT INTO loads (shipper_id, title, pickup_address, pickup_city, pickup_country, pickup_latitude, pickup_longitude,
       delivery_address, delivery_city, delivery_country, delivery_latitude, delivery_longitude, pickup_date, delivery_date,
       weight_lbs, equipment_type, budget_minor, budget_currency, trip_miles, status, assigned_driver_id, accepted_bid_id,
       agreed_amount_minor, agreed_currency, created_at, updated_at)
     VALUES (?, ?, '1 Main St', 'Dallas', 'US', 32.7, -96.8, '2 Elm St', 'Austin', 'US', 30.3, -97.7, ?, ?, 1000, 'dry_van',
       90000, 'USD', 180, ?, ?, 1, 90000, 'USD', ?, ?)`,
    shipperId,
    title,
    NOW,
    NOW,
    state === "disputed" ? "disputed" : "assigned",
    driverId,
    NOW,
    NOW,
  );
  const loadId = (await db.rows<{ id: number }>("SELECT id FROM loads WHERE title = ?", title))[0]!.id;
  const charge = `ch_${loadId}`;
  await db.run(
    `INSERT INTO freight_payments (load_id, shipper_id, driver_id, provider, provider_ref, charge_ref, state, currency,
       agreed_minor, fee_minor, created_at, updated_at) VALUES (?, ?, ?, 'stripe', ?, ?, ?, 'USD', 90000, 2700, ?, ?)`,
    loadId,
    shipperId,
    driverId,
    `cs_${loadId}`,
    charge,
    state,
    NOW,
    NOW,
  );
  const id = (await db.rows<{ id: number }>("SELECT id FROM freight_payments WHERE load_id = ?", loadId))[0]!.id;
  for (const [account, amount] of [
    ["shipper", -92700],
    ["escrow", 90000],
    ["platform_fees", 2700],
  ] as const)
    await db.run(
      "INSERT INTO ledger_entries (txn, payment_id, load_id, account, currency, amount_minor, provider_object, created_at) VALUES (?, ?, ?, ?, 'USD', ?, ?, ?)",
      `fund:${id}`,
      id,
      loadId,
      account,
      amount,
      charge,
      NOW,
    );
  return id;
};

test("payments list and resolve: release, split, the refusals, JSON; the ledger still balances", async () => {
  // The first start migrates the scratch database.
  expect((await run("payments", "list")).out).toContain("No payments.");
  const shipperId = await user("shipper@example.com", "shipper");
  const driverId = await user("driver@example.com", "driver");
  const a = await payment(shipperId, driverId, "disputed", "Cement to Austin");
  const b = await payment(shipperId, driverId, "disputed", "Steel to Austin");
  const c = await payment(shipperId, driverId, "funded", "Glass to Austin");

  const listed = await run("payments", "list", "--state", "disputed", "--json");
  expect(listed.code).toBe(0);
  expect(
    JSON.parse(listed.out)
      .map((p: { id: number }) => p.id)
      .sort(),
  ).toEqual([a, b]);
  const text = await run("payments", "list");
  expect(text.out).toContain(`#${c}`);
  expect(text.out).toContain("«Cement to Austin»: shipper@example.com → driver@example.com");
  expect((await run("payments", "list", "--state", "lost")).err).toContain("--state must be one of awaiting_payment");

  // Release, in JSON: who decided is the operator's login.
  const released = await run("payments", "resolve", String(a), "--release", "--json");
  expect(released.code).toBe(0);
  expect(JSON.parse(released.out)).toMatchObject({
    paymentId: a,
    state: "released",
    refunded: 0,
    released: 900,
    by: "cli:abebe",
  });
  // A split, in words.
  const split = await run("payments", "resolve", String(b), "--refund", "--amount", "92.70");
  expect(split).toMatchObject({ code: 0 });
  expect(split.out).toContain(`Payment ${b} is split: $92.70 back to the shipper, $810.00 released to the driver.`);

  // Refused, each with its reason and exit 1, nothing written.
  const twice = await run("payments", "resolve", String(a), "--refund");
  expect(twice.code).toBe(1);
  expect(twice.err).toContain(
    `Error: Only a disputed payment or one whose payout was reversed can be resolved; payment ${a} is released`,
  );
  const funded = await run("payments", "resolve", String(c), "--release");
  expect(funded.err).toContain("is funded");
  expect((await run("payments", "resolve", "999", "--release")).err).toContain("Error: Payment not found");
  expect((await run("payments", "resolve", String(c), "--release", "--refund")).err).toContain(
    "Say --release or --refund (one of them)",
  );
  expect((await run("payments", "resolve", String(c))).err).toContain("Say --release or --refund");
  expect((await run("payments", "resolve", "x1", "--release")).err).toContain("<id> must be a payment's number");
  expect((await run("payments", "resolve", String(c), "--release", "--amount", "5")).err).toContain(
    "--amount goes with --refund only",
  );
  const badAmount = await run("payments", "resolve", String(c), "--refund", "--amount", "1.234");
  expect(badAmount.code).toBe(1);
  // The state is checked before the amount: the funded payment is refused as such.
  expect(badAmount.err).toContain("is funded");

  // The audit line: who, when, what.
  const [audit] = await db.rows<{ state: string; detail: string }>(
    "SELECT state, detail FROM freight_payment_events WHERE payment_id = ? ORDER BY id DESC LIMIT 1",
    b,
  );
  expect(audit!.state).toBe("released");
  expect(JSON.parse(audit!.detail)).toEqual({ by: "cli:abebe", resolution: "split", refunded: 92.7, released: 810 });

  const check = await run("ledger", "check", "--json");
  expect(check.code).toBe(0);
  expect(JSON.parse(check.out).problems).toEqual([]);
});

test("a bad amount on a disputed payment names the field, in the operator's language", async () => {
  const shipperId = await user("s2@example.com", "shipper");
  const driverId = await user("d2@example.com", "driver");
  const id = await payment(shipperId, driverId, "disputed", "Coffee to Austin");
  const bad = await run("payments", "resolve", String(id), "--refund", "--amount", "1.234");
  expect(bad.code).toBe(1);
  expect(bad.err).toContain("amount: amount must be minor units as a whole number (1250)");
  const over = await run("payments", "resolve", String(id), "--refund", "--amount", "927.01");
  expect(over.err).toContain("amount: amount must be more than 0 and at most the payment's total, 927.00 USD");
  const am = Bun.spawnSync(
    ["bun", join(import.meta.dir, "index.ts"), "payments", "resolve", String(id), "--refund", "--amount", "0"],
    {
      env: { ...env, MYTESS_LANG: "am" },
    },
  );
  expect(am.exitCode).toBe(1);
  expect(am.stderr.toString()).toMatch(/amount: .*[\u1200-\u137f]/);
  expect(
    (
      await db.rows<{ n: number }>("SELECT CAST(count(*) AS INTEGER) n FROM ledger_entries WHERE payment_id = ?", id)
    )[0]!.n,
  ).toBe(3);
});

test("payments payout-check and checkout-check: through the router, the refusals named", async () => {
  const shipperId = await user("shipper2@example.com", "shipper");
  const driverId = await user("driver2@example.com", "driver");
  // A Stripe payment has no Chapa payout or checkout to check: 409 with what it is; an unknown one 404.
  const s = await payment(shipperId, driverId, "funded", "Salt to Austin");
  const payout = await run("payments", "payout-check", String(s));
  expect(payout.code).toBe(1);
  expect(payout.err).toContain(`Payment ${s} is funded (stripe): only a released Chapa payment has a payout to check`);
  const checkout = await run("payments", "checkout-check", String(s));
  expect(checkout.err).toContain(`Payment ${s} is funded (stripe): only a Chapa payment whose page is open`);
  expect((await run("payments", "payout-check", "999999")).err).toContain("No payment 999999");
  expect((await run("payments", "checkout-check", "1x")).err).toContain("<id> must be a payment's number");
});
