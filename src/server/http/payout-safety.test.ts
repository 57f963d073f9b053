import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { paymentsFromEnv } from "../integrations/payments/registry";
import { JobDeferred } from "../jobs/queue";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { NOTIFICATIONS_JOBS } from "../modules/notifications/jobs";
import { checkCheckout } from "../modules/payments/freight";
import { PAYMENTS_JOBS } from "../modules/payments/jobs";
import {
  chapaPayoutRef,
  checkPayout,
  PAYOUT_CHECK_WINDOW_MS,
  payOut,
  payWaitingFor,
} from "../modules/payments/payout-transfer";
import { loadInput, type TTestApp } from "../testing";
import { payoutFixture, type TClient } from "./testing-payments";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

const { fx, emu } = payoutFixture({ stranger: true });
let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let stranger: TClient;
beforeEach(() => {
  ({ t, shipper, driver, stranger } = fx);
});

const lastPart = (url: string) => url.split("/").pop()!;
const MIN = 60_000;

const worker = () =>
  runWorker({
    db: t.db,
    log: logger,
    handlers: bindJobs([...PAYMENTS_JOBS, ...NOTIFICATIONS_JOBS], t.services, "http://localhost"),
    schedules: [],
    autoStart: false,
  });
/** Makes every payout job due now (a retry's backoff or a deferred check), then runs the due jobs. */
const runPayoutsNow = async () => {
  await t.rows("update jobs set run_at = 0 where kind = 'freight_payout' and status = 'pending'");
  await worker().runOnce();
};

const awarded = async (amount: number, currency: string) => {
  const loadId = (await shipper.post("/api/loads", loadInput({ budgetAmount: amount, budgetCurrency: currency }))).json
    .id as number;
  const bid = await driver.post(`/api/loads/${loadId}/bids`, { amount, currency });
  expect(bid.status).toBe(201);
  expect((await shipper.post(`/api/bids/${bid.json.bid.id}/accept`)).status).toBe(200);
  return loadId;
};
const deliverAndAccept = async (loadId: number) => {
  expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
  expect((await driver.post(`/api/loads/${loadId}/deliver`)).status).toBe(200);
  expect((await shipper.post(`/api/loads/${loadId}/pod/accept`)).status).toBe(200);
};
const releasedWithChapa = async (amount = 25_000) => {
  const loadId = await awarded(amount, "ETB");
  const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" });
  await emu.controls.chapa.pay(decodeURIComponent(lastPart(res.json.url)));
  await emu.controls.chapa.settled();
  await deliverAndAccept(loadId);
  return loadId;
};
const releasedWithStripe = async (amount = 900) => {
  const loadId = await awarded(amount, "USD");
  const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
  await emu.controls.stripe.payPayment(lastPart(res.json.url));
  await emu.controls.stripe.settled();
  await deliverAndAccept(loadId);
  return loadId;
};
const paymentOf = async (c: TClient, loadId: number) => (await c.get(`/api/loads/${loadId}/payment`)).json.payment;
const listed = async (c: TClient, loadId: number) =>
  ((await c.get("/api/payments")).json as { loadId: number; payoutNotice: string | null; state: string }[]).find(
    (p) => p.loadId === loadId,
  );
const states = (p: { history: { state: string }[] }) => p.history.map((h) => h.state);
const bell = async () =>
  (await t.rows<{ title: string }>("select title from notifications where channel = 'in_app' order by id")).map(
    (r) => r.title,
  );

const TELEBIRR = {
  bankCode: 855,
  accountNumber: "0911223344",
  accountName: "Abebe Kebede",
  accountNameConfirmed: true,
};
const chapaPosts = () => emu.controls.chapa.requests.filter((r) => r.method === "POST" && r.path === "/v1/transfers");

describe("a Chapa payout Chapa keeps reporting pending", () => {
  test("checked less and less often, then delayed after 48 h (both parties told), never sent twice; the operator's check settles it", async () => {
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    emu.controls.chapa.transfers = "manual";
    const loadId = await releasedWithChapa(4_000);
    const { id } = await paymentOf(driver, loadId);
    const { payments, secrets } = t.services;
    // payOut below stands in for the job's runs, each at the time the previous one asked for.
    await t.rows("delete from jobs where kind = 'freight_payout'");
    // The job's own runs, each at the time the previous one asked for: when it asks next, and what it carries.
    const t0 = Date.now();
    let now = t0;
    let carried: { since?: number; checks?: number } = {};
    const gaps: number[] = [];
    let last: { status: string } | null = null;
    for (let i = 0; i < 40 && !last; i++) {
      try {
        last = await payOut(t.db, payments, secrets, id, now, carried);
      } catch (err) {
        if (!(err instanceof JobDeferred)) throw err;
        gaps.push((err.runAt - now) / MIN);
        carried = err.payload as typeof carried;
        expect(carried.since).toBe(t0);
        now = err.runAt;
      }
    }
    expect(last).toEqual({ status: "delayed" });
    // 10 min, 30 min, 1 h, 2 h, 4 h, then every 8 h, the last look exactly 48 h after the first.
    expect(gaps.slice(0, 6)).toEqual([10, 30, 60, 120, 240, 480]);
    expect(gaps.slice(6, -1).every((g) => g === 480)).toBe(true);
    expect(now - t0).toBe(PAYOUT_CHECK_WINDOW_MS);
    expect(gaps.length).toBe(11);
    // One transfer was ever asked for, whatever the number of looks.
    expect(chapaPosts()).toHaveLength(1);
    expect(emu.controls.chapa.allTransfers()).toHaveLength(1);

    // Still released (the money is the driver's), marked delayed once, for both parties.
    const p = await paymentOf(driver, loadId);
    expect(p.state).toBe("released");
    expect(p.payoutNotice).toBe("delayed");
    expect(states(p).filter((s) => s === "payout_delayed")).toHaveLength(1);
    expect((await listed(shipper, loadId))?.payoutNotice).toBe("delayed");
    expect((await listed(driver, loadId))?.payoutNotice).toBe("delayed");
    // Another account sees nothing of it.
    expect((await stranger.get(`/api/loads/${loadId}/payment`)).status).toBe(404);
    expect(await listed(stranger, loadId)).toBeUndefined();
    // A later run of the job changes nothing and sends nothing.
    expect(await payOut(t.db, payments, secrets, id, now + MIN, carried)).toEqual({ status: "delayed" });
    expect(states(await paymentOf(driver, loadId)).filter((s) => s === "payout_delayed")).toHaveLength(1);
    // The notice was queued at the (simulated) time of the last look.
    await t.rows("update jobs set run_at = 0 where kind <> 'freight_payout' and status = 'pending'");
    await worker().runOnce();
    expect(await bell()).toContain("Payout delayed");

    // The operator looks: still pending at Chapa, nothing changes.
    expect(await checkPayout(t.db, payments, id)).toMatchObject({ transfer: "pending", state: "released" });
    // Chapa sends it, but its webhook never reaches us: the operator's check settles it.
    emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/nowhere");
    await emu.controls.chapa.settleTransfer(chapaPayoutRef(id, 0), "success");
    expect((await paymentOf(driver, loadId)).state).toBe("released");
    expect(await checkPayout(t.db, payments, id)).toMatchObject({ transfer: "paid_out", state: "paid_out" });
    const paid = await paymentOf(shipper, loadId);
    expect(paid.state).toBe("paid_out");
    expect(paid.payoutNotice).toBeNull();
    expect(chapaPosts()).toHaveLength(1);
    // Checked again: a paid-out payment has no payout to check (409); an unknown one 404.
    await expect(checkPayout(t.db, payments, id)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(checkPayout(t.db, payments, 999_999)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  test("the job itself carries its looks: deferred 10 min then 30 min, verify only, one transfer", async () => {
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    emu.controls.chapa.transfers = "manual";
    const loadId = await releasedWithChapa(1_200);
    const { id } = await paymentOf(driver, loadId);
    const job = async () =>
      (
        await t.rows<{ run_at: number; payload: string | Record<string, unknown>; status: string }>(
          "select run_at, payload, status from jobs where kind = 'freight_payout'",
        )
      ).map((r) => ({
        ...r,
        run_at: Number(r.run_at),
        payload: typeof r.payload === "string" ? JSON.parse(r.payload) : r.payload,
      }))[0]!;
    const before = Date.now();
    await worker().runOnce();
    let j = await job();
    expect(j.status).toBe("pending");
    expect(j.payload).toMatchObject({ paymentId: id, checks: 1, attempt: 0 });
    expect(j.run_at - j.payload.since).toBe(10 * MIN);
    expect(j.payload.since).toBeGreaterThanOrEqual(before);
    await runPayoutsNow();
    j = await job();
    expect(j.payload).toMatchObject({ paymentId: id, checks: 2, attempt: 0 });
    expect(j.run_at - Date.now()).toBeGreaterThan(29 * MIN);
    expect(j.run_at - Date.now()).toBeLessThanOrEqual(30 * MIN);
    expect(chapaPosts()).toHaveLength(1);
    expect((await paymentOf(driver, loadId)).state).toBe("released");
    await emu.controls.chapa.settleTransfer(chapaPayoutRef(id, 0), "success");
    expect((await paymentOf(driver, loadId)).state).toBe("paid_out");
  });

  test("the operator's check of a transfer Chapa failed: failed with what to fix; the next attempt only after that", async () => {
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    emu.controls.chapa.transfers = "manual";
    const loadId = await releasedWithChapa(3_000);
    const { id } = await paymentOf(driver, loadId);
    await worker().runOnce();
    emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/nowhere");
    await emu.controls.chapa.settleTransfer(chapaPayoutRef(id, 0), "failed", "Invalid account number");
    expect(await checkPayout(t.db, t.services.payments, id)).toMatchObject({ transfer: "failed", state: "failed" });
    expect((await paymentOf(driver, loadId)).payoutIssue).toBe("account_number");
    // Only now may a new transfer go, under a new reference, once the driver saves their details.
    emu.controls.chapa.transfers = "success";
    emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/chapa");
    expect((await driver.put("/api/payouts/method", { ...TELEBIRR, accountNumber: "0911223345" })).status).toBe(200);
    await worker().runOnce();
    await emu.controls.chapa.settled();
    expect(chapaPosts().map((r) => JSON.parse(r.body).reference)).toEqual([
      chapaPayoutRef(id, 0),
      chapaPayoutRef(id, 1),
    ]);
    expect((await paymentOf(driver, loadId)).state).toBe("paid_out");
  });

  for (const lost of ["5xx", "garbage", "timeout"] as const) {
    test(`the transfer's answer lost (${lost}) and verify down: retried under the same reference, never a second transfer`, async () => {
      if (lost === "timeout") {
        // A short time limit, so that the emulator's silence is a timeout of ours.
        const short = paymentsFromEnv({ ...emu.env(), PAYMENT_TIMEOUT_MS: "400" });
        (t.services.payments as { chapa: typeof short.chapa }).chapa = short.chapa;
        emu.controls.chapa.timeoutAfterMs = 1_200;
      }
      expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
      emu.controls.chapa.transfers = "manual";
      const loadId = await releasedWithChapa(2_500);
      const { id } = await paymentOf(driver, loadId);
      emu.controls.chapa.transferAnswer = lost;
      emu.controls.chapa.verifyOutage = true;
      await worker().runOnce();
      // Chapa took it; we could not learn so: the job is retried later, nothing is marked.
      expect(emu.controls.chapa.allTransfers()).toHaveLength(1);
      let p = await paymentOf(driver, loadId);
      expect(p.state).toBe("released");
      expect(states(p)).not.toContain("failed");
      // The retry: Chapa refuses the reference it has (400), verify is still down: still nothing is decided.
      emu.controls.chapa.transferAnswer = "ok";
      await runPayoutsNow();
      p = await paymentOf(driver, loadId);
      expect(p.state).toBe("released");
      expect(states(p)).not.toContain("failed");
      expect(emu.controls.chapa.allTransfers()).toHaveLength(1);
      // Verify is back: the transfer is found queued; the job waits for it.
      emu.controls.chapa.verifyOutage = false;
      await runPayoutsNow();
      expect((await paymentOf(driver, loadId)).state).toBe("released");
      // Every ask was for the same reference, and Chapa holds one transfer.
      expect(new Set(chapaPosts().map((r) => JSON.parse(r.body).reference))).toEqual(new Set([chapaPayoutRef(id, 0)]));
      expect(emu.controls.chapa.allTransfers()).toHaveLength(1);
      await emu.controls.chapa.settleTransfer(chapaPayoutRef(id, 0), "success");
      expect((await paymentOf(driver, loadId)).state).toBe("paid_out");
    });
  }
});

describe("the operator's check of a Chapa checkout page still pending", () => {
  test("pending stays awaiting payment; paid at Chapa (the webhook lost) it is funded; the wrong state is 409", async () => {
    const loadId = await awarded(1_500, "ETB");
    const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" });
    const { id } = await paymentOf(shipper, loadId);
    expect(await checkCheckout(t.db, t.services.payments, id)).toMatchObject({
      chapa: "pending",
      state: "awaiting_payment",
    });
    // Chapa takes the payment, but neither its webhook nor the callback reaches us.
    const reach = emu.controls.chapa.fetchImpl;
    emu.controls.chapa.fetchImpl = async () => new Response("unreachable", { status: 503 });
    await emu.controls.chapa.pay(decodeURIComponent(lastPart(res.json.url)));
    await emu.controls.chapa.settled();
    emu.controls.chapa.fetchImpl = reach;
    expect((await paymentOf(shipper, loadId)).state).toBe("awaiting_payment");
    expect(await checkCheckout(t.db, t.services.payments, id)).toMatchObject({ chapa: "success", state: "funded" });
    expect((await paymentOf(shipper, loadId)).state).toBe("funded");
    await expect(checkCheckout(t.db, t.services.payments, id)).rejects.toMatchObject({ code: "CONFLICT" });
    await expect(checkCheckout(t.db, t.services.payments, 999_999)).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("Stripe reverses a payout's transfer", () => {
  const paidOutWithStripe = async (amount = 900) => {
    const { accountId } = (await driver.post("/api/payouts/account", {})).json as { accountId: string };
    await emu.controls.stripe.completeOnboarding(accountId);
    await emu.controls.stripe.settled();
    const loadId = await releasedWithStripe(amount);
    await worker().runOnce();
    await emu.controls.stripe.settled();
    expect((await paymentOf(driver, loadId)).state).toBe("paid_out");
    const [transfer] = emu.controls.stripe.transfers();
    return { loadId, accountId, transferId: transfer!.id };
  };
  const reversalRows = () =>
    t.rows<{ txn: string; account: string; amount_minor: number; provider_object: string }>(
      "select txn, account, amount_minor, provider_object from ledger_entries where txn like 'payout_reversal/%' order by id",
    );

  test("transfer.reversed twice and shuffled: one ledger reversal (driver → escrow), failed with history, the driver told once", async () => {
    const { loadId, accountId, transferId } = await paidOutWithStripe();
    emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 1, seed: 5, retries: 3 };
    const reversal = await emu.controls.stripe.reverseTransfer(transferId);
    await emu.controls.stripe.settled();
    const sent = emu.controls.stripe.events.filter((e) => e.type === "transfer.reversed");
    expect(sent.length).toBeGreaterThanOrEqual(1);
    const rows = await reversalRows();
    expect(rows.map((r) => [r.account, Number(r.amount_minor), r.provider_object])).toEqual([
      ["driver", -90_000, reversal.id],
      ["escrow", 90_000, reversal.id],
    ]);
    const p = await paymentOf(driver, loadId);
    expect(p.state).toBe("failed");
    expect(p.payoutNotice).toBe("reversed");
    expect(states(p).filter((s) => s === "payout_reversed")).toHaveLength(1);
    expect(p.history.filter((h: { detail: { stage?: string } | null }) => h.detail?.stage === "reversal")).toHaveLength(
      1,
    );
    expect((await listed(shipper, loadId))?.payoutNotice).toBe("reversed");
    await worker().runOnce();
    expect((await bell()).filter((x) => x === "Your payout was reversed")).toHaveLength(1);
    // A late, stale transfer.created (its body says nothing was reversed) changes nothing: Stripe is read back.
    const created = emu.controls.stripe.events.find((e) => e.type === "transfer.created")!;
    await emu.controls.stripe.deliver("transfer.created", created.data.object);
    await emu.controls.stripe.settled();
    expect(await reversalRows()).toHaveLength(2);
    // The account enabled again: a reversed payout is not sent again by itself.
    await emu.controls.stripe.requireMore(accountId);
    await emu.controls.stripe.completeOnboarding(accountId);
    await emu.controls.stripe.settled();
    const [{ driver_id }] = await t.rows<{ driver_id: number }>("select driver_id from freight_payments");
    expect(await payWaitingFor(t.db, Number(driver_id), "stripe")).toBe(0);
    await worker().runOnce();
    expect(emu.controls.stripe.transfers()).toHaveLength(1);
    expect((await paymentOf(driver, loadId)).state).toBe("failed");
  });

  test("two partial reversals, out of order and twice: each booked once, what was reversed and no more", async () => {
    const { loadId, transferId } = await paidOutWithStripe(500);
    emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 1, seed: 9, retries: 3 };
    const first = await emu.controls.stripe.reverseTransfer(transferId, 20_000);
    const second = await emu.controls.stripe.reverseTransfer(transferId, 10_000);
    await emu.controls.stripe.settled();
    const rows = await reversalRows();
    expect(
      rows.map((r) => [r.provider_object, r.account, Number(r.amount_minor)]).sort((a, b) => +a[2]! - +b[2]!),
    ).toEqual([
      [first.id, "driver", -20_000],
      [second.id, "driver", -10_000],
      [second.id, "escrow", 10_000],
      [first.id, "escrow", 20_000],
    ]);
    const p = await paymentOf(driver, loadId);
    expect(p.state).toBe("failed");
    expect(states(p).filter((s) => s === "payout_reversed")).toHaveLength(2);
    expect(states(p).filter((s) => s === "failed")).toHaveLength(1);
    // Stripe's own limit: no more than what is left can be reversed.
    const res = await fetch(`${emu.env().STRIPE_API_BASE}/v1/transfers/${transferId}/reversals`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${emu.controls.stripe.secretKey}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: "amount=30000",
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe("amount");
    // What is left can be: the whole transfer is then reversed, booked once more.
    const rest = await fetch(`${emu.env().STRIPE_API_BASE}/v1/transfers/${transferId}/reversals`, {
      method: "POST",
      headers: { Authorization: `Bearer ${emu.controls.stripe.secretKey}` },
    });
    expect(rest.status).toBe(200);
    await emu.controls.stripe.settled();
    expect(await reversalRows()).toHaveLength(6);
    expect((await paymentOf(driver, loadId)).state).toBe("failed");
  });
});
