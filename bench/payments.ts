// Freight payments under load, end to end on the real server, two job workers and the Stripe and Chapa emulators:
// N loads (default 1,000) awarded to drivers with payout methods (Stripe Connect accounts for dollars and euros,
// telebirr wallets through Chapa for birr) are funded at once through the providers' hosted payments, picked up,
// delivered and accepted at once (the acceptance releases the driver's share), and paid out by two worker processes
// (`main.ts --role worker`) against the same database, while the emulators send their webhooks shuffled and twice
// (Stripe: each batch shuffled, half its events sent again; Chapa: every payout webhook twice). Then:
//  - imbalance: the problems `mytess ledger check --json` lists (the ledger is the judge);
//  - double_transfers: payments the emulators made more than one transfer for;
//  - missing_transfers: released payments the emulators made no transfer for;
//  - release_p99_ms: from the shipper's acceptance (which releases) to the payment being paid out, p99.
// Any of the three not 0, a payment not paid out in time, or a transfer the ledger does not name fails the run (exit 1).
//   bun bench/payments.ts --loads 1000 --clients 32 --timeout 600
//   DATABASE_URL=postgres://… bun bench/payments.ts   (a temporary database on that server)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { like } from "drizzle-orm";
import { createTestDatabase, type DbHandle, migrateDb, openDb, openPgDb } from "../db/client";
import { ENGINE } from "../db/engine";
import { freightPaymentEvents, freightPayments, ledgerEntries, sessions, users } from "../db/tables";
import { startPaymentEmulators } from "../emulators/payments/server";
import { hashToken } from "../src/server/modules/accounts/sessions";
import { FREIGHT_STRIPE_KEY } from "../src/server/modules/payments/freight";
import { PAYOUT_ATTEMPT_KEY, parseChapaPayoutRef } from "../src/server/modules/payments/payout-transfer";
import { SESSION_COOKIE } from "../src/shared/constants";
import { mulberry32, percentile } from "./lib/generate";

const { values } = parseArgs({
  options: {
    loads: { type: "string", default: "1000" },
    clients: { type: "string", default: "32" },
    // Seconds to wait for every payment to be paid out after the last acceptance.
    timeout: { type: "string", default: "600" },
  },
});
const N = Number(values.loads);
const C = Number(values.clients);
const TIMEOUT_MS = Number(values.timeout) * 1000;
const DAY = 86_400_000;
const root = join(import.meta.dir, "..");

const fail = (what: string): never => {
  console.error(`DISAGREE: ${what}`);
  throw new Error(what);
};

/** Runs `fn` over the items with at most `c` at a time. */
const pool = async <T>(items: T[], c: number, fn: (item: T, i: number) => Promise<void>) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(c, items.length) }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
};

const dir = mkdtempSync(join(tmpdir(), "mytess-payments-bench-"));
const file = join(dir, "bench.db");
const pgDatabase = await createTestDatabase();
let handle: DbHandle;
if (pgDatabase) {
  handle = await openPgDb(pgDatabase.url);
} else {
  handle = await openDb(file);
  await migrateDb(handle.db);
}
const db = handle.db;
const now = Date.now();
const rand = mulberry32(27);

// Accounts, filled directly: shippers with a confirmed email (funding waits for one), drivers, a session for each.
const SHIPPERS = Math.max(1, Math.ceil(N / 25));
const DRIVERS = Math.max(2, Math.ceil(N / 10));
const insertUsers = async (kind: "shipper" | "driver", n: number) => {
  const rows = await db
    .insert(users)
    .values(
      Array.from({ length: n }, (_, i) => ({
        email: `${kind}${i}@bench.example`,
        emailVerifiedAt: now,
        firstName: kind === "shipper" ? "Bench" : "Abebe",
        lastName: `${kind === "shipper" ? "Shipper" : "Kebede"} ${i}`,
        userType: kind,
        trialEndsAt: now + 30 * DAY,
      })),
    )
    .returning({ id: users.id });
  const tokens = rows.map(() => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("hex"));
  await db.insert(sessions).values(
    rows.map((r, i) => ({
      idHash: hashToken(tokens[i]!),
      userId: r.id,
      expiresAt: now + 30 * DAY,
      lastSeenAt: now,
      userAgent: "bench",
      createdAt: now,
    })),
  );
  return tokens.map((t) => `${SESSION_COOKIE}=${t}`);
};
const shippers = await insertUsers("shipper", SHIPPERS);
const drivers = await insertUsers("driver", DRIVERS);
await handle.close();

// The emulators, in this process on loopback; their webhooks go to the server over HTTP.
const emu = startPaymentEmulators();
emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 0.5, seed: 27, retries: 3 };
emu.controls.chapa.payoutCopies = 2;

const port = 20000 + Math.floor(Math.random() * 20000);
const base = `http://127.0.0.1:${port}`;
emu.controls.stripe.setWebhookUrl(`${base}/api/webhooks/stripe`);
emu.controls.chapa.setWebhookUrl(`${base}/api/webhooks/chapa`);
const env: Record<string, string | undefined> = {
  ...process.env,
  ...emu.env(),
  PORT: String(port),
  HOST: "127.0.0.1",
  LOG_LEVEL: "silent",
  WEB_DIST: dir,
  VAPID_SUBJECT: process.env.VAPID_SUBJECT ?? "mailto:bench@mytess.example",
  MYTESS_LANG: "en",
};
if (pgDatabase) env.DATABASE_URL = pgDatabase.url;
else {
  env.DATABASE_PATH = file;
  delete env.DATABASE_URL;
}
const main = join(root, "src", "server", "main.ts");
const spawnRole = (role: "web" | "worker") =>
  Bun.spawn(["bun", main, "--role", role], { env, stdout: "ignore", stderr: "inherit" });
const server = spawnRole("web");
const workers = [spawnRole("worker"), spawnRole("worker")];

const call = async (cookie: string, method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { "Content-Type": "application/json", Cookie: cookie },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (res.status >= 300) fail(`${method} ${path} answered ${res.status}: ${JSON.stringify(json)}`);
  return json as Record<string, never>;
};

type TLoad = {
  loadId: number;
  shipper: string;
  driver: string;
  provider: "stripe" | "chapa";
  currency: string;
  amount: number;
  acceptedAt: number;
  acceptMs: number;
};

let exitCode = 0;
try {
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) break;
    } catch {}
    if (server.exitCode !== null) throw new Error(`the server exited with ${server.exitCode}`);
    // Three processes start at once on a small, busy machine: allow two minutes.
    if (i > 1200) throw new Error("the server did not start");
    await Bun.sleep(100);
  }
  const t0 = performance.now();

  // Payout methods: even drivers have a Stripe Connect account (onboarded), odd ones a telebirr wallet for Chapa.
  await pool(drivers, C, async (cookie, i) => {
    if (i % 2 === 0) {
      const { accountId } = await call(cookie, "POST", "/api/payouts/account", {});
      await emu.controls.stripe.completeOnboarding(accountId);
    } else
      await call(cookie, "PUT", "/api/payouts/method", {
        bankCode: 855,
        accountNumber: `09${String(10_000_000 + i).slice(-8)}`,
        accountName: `Abebe Kebede ${i}`,
        accountNameConfirmed: true,
      });
  });
  await emu.controls.stripe.settled();

  // N loads, each bid on by a driver and awarded: dollars, euros (Stripe) or birr (Chapa) as the driver is paid.
  const list: TLoad[] = Array.from({ length: N }, (_, i) => {
    const d = i % DRIVERS;
    const provider = d % 2 === 0 ? ("stripe" as const) : ("chapa" as const);
    const currency = provider === "chapa" ? "ETB" : rand() < 0.5 ? "USD" : "EUR";
    const amount = currency === "ETB" ? 20_000 + Math.round(rand() * 60_000) : 500 + Math.round(rand() * 1500);
    return {
      loadId: 0,
      shipper: shippers[i % SHIPPERS]!,
      driver: drivers[d]!,
      provider,
      currency,
      amount,
      acceptedAt: 0,
      acceptMs: 0,
    };
  });
  await pool(list, C, async (l, i) => {
    const load = await call(l.shipper, "POST", "/api/loads", {
      title: `Bench load ${i}`,
      equipmentType: "flatbed",
      pickupAddress: "Kality Customs Terminal",
      pickupCity: "Addis Ababa",
      pickupCountry: "Ethiopia",
      pickupLatitude: 8.9,
      pickupLongitude: 38.77,
      deliveryAddress: "Adama Industrial Park",
      deliveryCity: "Adama",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: 8.54,
      deliveryLongitude: 39.27,
      pickupDate: new Date(now + 3 * DAY).toISOString(),
      deliveryDate: new Date(now + 4 * DAY).toISOString(),
      weight: 40000,
      budgetAmount: l.amount,
      budgetCurrency: l.currency,
    });
    l.loadId = load.id;
    const bid = await call(l.driver, "POST", `/api/loads/${l.loadId}/bids`, { amount: l.amount, currency: l.currency });
    await call(l.shipper, "POST", `/api/bids/${(bid.bid as { id: number }).id}/accept`);
  });
  console.log(
    `${N} loads awarded to ${DRIVERS} drivers of ${SHIPPERS} shippers on ${ENGINE === "pg" ? "PostgreSQL" : "SQLite"} in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );

  // 1. Funded at once: each shipper's hosted payment, paid; the providers' webhooks say so.
  const t1 = performance.now();
  await pool(list, C, async (l) => {
    const { url } = await call(l.shipper, "POST", `/api/loads/${l.loadId}/payment`, { provider: l.provider });
    const ref = decodeURIComponent(String(url).split("/").pop()!);
    if (l.provider === "stripe") await emu.controls.stripe.payPayment(ref);
    else await emu.controls.chapa.pay(ref);
  });
  await Promise.all([emu.controls.stripe.settled(), emu.controls.chapa.settled()]);
  const fundedIn = (performance.now() - t1) / 1000;
  const stateOf = async (l: TLoad) =>
    ((await call(l.driver, "GET", `/api/loads/${l.loadId}/payment`)).payment as { state: string } | null)?.state;
  await pool(list, C, async (l) => {
    const state = await stateOf(l);
    if (state !== "funded") fail(`load ${l.loadId}: the payment is ${state} after the provider was paid`);
  });
  console.log(`${N} loads funded in ${fundedIn.toFixed(1)} s (webhooks shuffled and duplicated)`);

  // 2. Picked up, delivered and accepted at once: each acceptance releases the driver's share, which the two workers
  // pay out while the rest are still being accepted.
  const t2 = performance.now();
  await pool(list, C, async (l) => {
    await call(l.driver, "POST", `/api/loads/${l.loadId}/pickup`);
    await call(l.driver, "POST", `/api/loads/${l.loadId}/deliver`);
    l.acceptedAt = Date.now();
    const a = performance.now();
    await call(l.shipper, "POST", `/api/loads/${l.loadId}/pod/accept`);
    l.acceptMs = performance.now() - a;
  });
  console.log(`${N} loads delivered and accepted in ${((performance.now() - t2) / 1000).toFixed(1)} s`);

  // 3. Wait until every payment is paid out (or the time is up), then for the webhooks still on their way.
  const check = pgDatabase ? await openPgDb(pgDatabase.url) : await openDb(file);
  const deadline = Date.now() + TIMEOUT_MS;
  let paidOut = 0;
  while (Date.now() < deadline) {
    const rows = await check.db.select({ state: freightPayments.state }).from(freightPayments);
    paidOut = rows.filter((r) => r.state === "paid_out").length;
    if (paidOut === N) break;
    await Bun.sleep(250);
  }
  const drainedIn = (performance.now() - t2) / 1000;
  await Promise.all([emu.controls.stripe.settled(), emu.controls.chapa.settled()]);
  const pays = await check.db.select().from(freightPayments);
  const paidEvents = (await check.db.select().from(freightPaymentEvents)).filter((e) => e.state === "paid_out");
  const releases = await check.db.select().from(ledgerEntries).where(like(ledgerEntries.txn, "release:%"));
  await check.close();

  // The judge of imbalance: the operator's ledger check, as the operator runs it.
  const ledger = Bun.spawnSync(["bun", join(root, "cli", "index.ts"), "ledger", "check", "--json"], { env });
  let problems: { kind: string; txn: string | null; detail: string }[];
  try {
    problems = JSON.parse(ledger.stdout.toString()).problems;
  } catch {
    problems = fail(`mytess ledger check --json answered ${ledger.exitCode}: ${ledger.stderr.toString()}`);
  }

  // Transfers counted at the emulators, per payment: Stripe's by their metadata, Chapa's by their reference.
  const transfersOf = new Map<number, string[]>();
  const add = (paymentId: number, id: string) =>
    transfersOf.set(paymentId, [...(transfersOf.get(paymentId) ?? []), id]);
  for (const t of emu.controls.stripe.transfers())
    if (t.metadata[PAYOUT_ATTEMPT_KEY] !== undefined) add(Number(t.metadata[FREIGHT_STRIPE_KEY]), t.id);
  for (const t of emu.controls.chapa.allTransfers()) {
    const ref = parseChapaPayoutRef(t.reference);
    if (ref && t.status !== "failed") add(ref.paymentId, t.chapa_transfer_id);
  }
  const released = pays.filter((p) => p.state === "released" || p.state === "paid_out");
  const double = [...transfersOf.values()].filter((ids) => ids.length > 1).length;
  const missing = released.filter((p) => !transfersOf.has(p.id)).length;
  // Each paid-out payment's release names the very transfer the provider made.
  const named = new Map(releases.filter((e) => e.providerObject).map((e) => [e.paymentId, e.providerObject]));
  const unnamed = pays.filter((p) => p.state === "paid_out" && !transfersOf.get(p.id)?.includes(named.get(p.id) ?? ""));

  const paidAt = new Map(paidEvents.map((e) => [e.paymentId, Number(e.createdAt)]));
  const loadOf = new Map(list.map((l) => [l.loadId, l]));
  const releaseTimes = pays
    .filter((p) => paidAt.has(p.id))
    .map((p) => paidAt.get(p.id)! - loadOf.get(p.loadId)!.acceptedAt)
    .sort((a, b) => a - b);
  const acceptTimes = list.map((l) => l.acceptMs).sort((a, b) => a - b);
  const byState = new Map<string, number>();
  for (const p of pays) byState.set(p.state, (byState.get(p.state) ?? 0) + 1);
  const ledgerLine = `${problems.length} ledger problems${
    problems.length
      ? `: ${problems
          .slice(0, 5)
          .map((p) => `${p.kind} ${p.txn} ${p.detail}`)
          .join("; ")}`
      : ""
  }`;
  console.log(
    `paid out ${paidOut}/${N} ${drainedIn.toFixed(1)} s after the first acceptance (${[...byState].map(([s, n]) => `${s} ${n}`).join(", ")}); ${ledgerLine}; transfers at the emulators: ${[...transfersOf.values()].flat().length} (Stripe webhooks delivered ${emu.controls.stripe.deliveries.length}, Chapa ${emu.controls.chapa.deliveries.length})`,
  );
  console.log(
    `release → paid out: p50 ${percentile(releaseTimes, 50)?.toFixed(0)} ms, p99 ${percentile(releaseTimes, 99)?.toFixed(0)} ms; the accepting request: p50 ${percentile(acceptTimes, 50)!.toFixed(2)} ms, p99 ${percentile(acceptTimes, 99)!.toFixed(2)} ms`,
  );
  if (problems.length) console.error(`DISAGREE: the ledger check lists ${problems.length} problems`);
  if (double) console.error(`DISAGREE: ${double} payments were transferred twice`);
  if (missing) console.error(`DISAGREE: ${missing} released payments have no transfer`);
  if (paidOut !== N) console.error(`DISAGREE: ${N - paidOut} payments were not paid out within ${values.timeout} s`);
  if (unnamed.length) console.error(`DISAGREE: ${unnamed.length} paid-out payments name no transfer the provider made`);
  if (problems.length || double || missing || paidOut !== N || unnamed.length) exitCode = 1;
  console.log(
    `imbalance=${problems.length} double_transfers=${double} missing_transfers=${missing} release_p99_ms=${(percentile(releaseTimes, 99) ?? Number.NaN).toFixed(0)} release_p50_ms=${(percentile(releaseTimes, 50) ?? Number.NaN).toFixed(0)} accept_p99_ms=${percentile(acceptTimes, 99)!.toFixed(2)} paid_out=${paidOut}/${N} engine=${ENGINE} loads=${N} workers=${workers.length}`,
  );
} catch (err) {
  console.error(String(err));
  exitCode = 1;
} finally {
  for (const p of [server, ...workers]) p.kill("SIGTERM");
  await Promise.all([server.exited, ...workers.map((w) => w.exited)]);
  emu.stop();
  await pgDatabase?.drop();
  rmSync(dir, { recursive: true, force: true });
}
process.exit(exitCode);
