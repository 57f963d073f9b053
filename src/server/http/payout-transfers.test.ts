import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { signChapaPayload } from "../integrations/payments/chapa";
import { enqueue } from "../jobs/queue";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger, type TLogger } from "../logger";
import { NOTIFICATIONS_JOBS } from "../modules/notifications/jobs";
import { PAYMENTS_JOBS } from "../modules/payments/jobs";
import { chapaPayoutRef, freightPayoutJob, stripePayoutKey } from "../modules/payments/payout-transfer";
import { sealPayoutNumbers } from "../modules/payouts/payouts";
import { loadInput, type TTestApp } from "../testing";
import { payoutFixture, type TClient } from "./testing-payments";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

const { fx, emu } = payoutFixture();
let t: TTestApp;
let shipper: TClient;
let driver: TClient;
beforeEach(() => {
  ({ t, shipper, driver } = fx);
});

const lastPart = (url: string) => url.split("/").pop()!;

/** Runs the payout and notification jobs that are due (returns how many ran). */
const worker = (log: TLogger = logger) =>
  runWorker({
    db: t.db,
    log,
    handlers: bindJobs([...PAYMENTS_JOBS, ...NOTIFICATIONS_JOBS], t.services, "http://localhost"),
    schedules: [],
    autoStart: false,
  });

const awarded = async (amount: number, currency: string) => {
  const loadId = (await shipper.post("/api/loads", loadInput({ budgetAmount: amount, budgetCurrency: currency }))).json
    .id as number;
  const bid = await driver.post(`/api/loads/${loadId}/bids`, { amount, currency });
  expect(bid.status).toBe(201);
  expect((await shipper.post(`/api/bids/${bid.json.bid.id}/accept`)).status).toBe(200);
  return loadId;
};

/** A load funded in USD with Stripe (events shuffled and sent twice), delivered and accepted: released. */
const releasedWithStripe = async (amount = 900) => {
  const loadId = await awarded(amount, "USD");
  const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
  const paid = await emu.controls.stripe.payPayment(lastPart(res.json.url));
  await emu.controls.stripe.settled();
  await deliverAndAccept(loadId);
  return { loadId, chargeId: paid.chargeId };
};

/** A load funded in birr with Chapa, delivered and accepted: released. */
const releasedWithChapa = async (amount = 25_000) => {
  const loadId = await awarded(amount, "ETB");
  const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" });
  await emu.controls.chapa.pay(decodeURIComponent(lastPart(res.json.url)));
  await emu.controls.chapa.settled();
  await deliverAndAccept(loadId);
  return { loadId };
};

const deliverAndAccept = async (loadId: number) => {
  expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
  expect((await driver.post(`/api/loads/${loadId}/deliver`)).status).toBe(200);
  expect((await shipper.post(`/api/loads/${loadId}/pod/accept`)).status).toBe(200);
};

const paymentOf = async (loadId: number) => (await driver.get(`/api/loads/${loadId}/payment`)).json.payment;

/** The driver's Stripe Connect account, onboarded (payouts on). */
const stripeAccount = async (onboarded = true) => {
  const { accountId } = (await driver.post("/api/payouts/account", {})).json as { accountId: string };
  if (onboarded) {
    await emu.controls.stripe.completeOnboarding(accountId);
    await emu.controls.stripe.settled();
  }
  return accountId;
};

const TELEBIRR = {
  bankCode: 855,
  accountNumber: "0911223344",
  accountName: "Abebe Kebede",
  accountNameConfirmed: true,
};

const transferCalls = () => emu.controls.stripe.requests.filter((r) => r.path === "/v1/transfers");
const chapaTransferCalls = () =>
  emu.controls.chapa.requests.filter((r) => r.method === "POST" && r.path === "/v1/transfers");

/** The driver's bell: the titles of their notifications, oldest first. */
const bell = async () =>
  (
    await t.rows<{ title: string; body: string }>(
      "select title, body from notifications where channel = 'in_app' order by id",
    )
  ).map((r) => r.title);

const releaseRows = () =>
  t.rows<{ account: string; amount_minor: number; provider_object: string | null }>(
    "select account, amount_minor, provider_object from ledger_entries where txn like 'release:%' order by id",
  );

describe("paying the driver with Stripe (USD)", () => {
  test("released: one transfer from the charge to the connected account, paid out once whatever confirms it", async () => {
    const accountId = await stripeAccount();
    emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 1, seed: 11, retries: 3 };
    const { loadId, chargeId } = await releasedWithStripe();
    expect((await paymentOf(loadId)).state).toBe("released");
    // No provider call inside the release: the transfer is the outbox job's.
    expect(transferCalls()).toHaveLength(0);
    await worker().runOnce();
    await emu.controls.stripe.settled();
    const calls = transferCalls();
    expect(calls).toHaveLength(1);
    expect(Object.fromEntries(calls[0]!.params)).toMatchObject({
      amount: "90000",
      currency: "usd",
      destination: accountId,
      source_transaction: chargeId,
      transfer_group: `load-${loadId}`,
    });
    const payment = await paymentOf(loadId);
    expect(calls[0]!.headers["idempotency-key"]).toBe(stripePayoutKey(payment.id, 0));
    expect(payment.state).toBe("paid_out");
    const [transfer] = emu.controls.stripe.transfers();
    expect(transfer!.amount).toBe(90000);
    // transfer.created came (twice, shuffled) and changed nothing more: one paid_out in the history.
    const delivered = emu.controls.stripe.deliveries.filter((d) => d.event.type === "transfer.created");
    expect(delivered.length).toBe(2);
    expect(delivered.every((d) => d.status === 200)).toBe(true);
    expect(payment.history.map((h: { state: string }) => h.state)).toEqual([
      "awaiting_payment",
      "funded",
      "released",
      "paid_out",
    ]);
    expect(payment.history.at(-1).detail.transfer).toBe(transfer!.id);
    // The ledger names the transfer on the release (escrow → driver); Stripe reports no fee on a transfer.
    expect((await releaseRows()).map((r) => [r.account, Number(r.amount_minor), r.provider_object])).toEqual([
      ["escrow", -90000, transfer!.id],
      ["driver", 90000, transfer!.id],
    ]);

    // The job run again (a retry, a second worker): the payment is paid out, nothing is asked.
    await enqueue(t.db, freightPayoutJob, { paymentId: payment.id }, { uniqueKey: "again" });
    await worker().runOnce();
    expect(transferCalls()).toHaveLength(1);
  });

  test("a crash after Stripe made the transfer and before our write: the next run gets the same transfer", async () => {
    const accountId = await stripeAccount();
    const { loadId, chargeId } = await releasedWithStripe();
    const payment = await paymentOf(loadId);
    // What the dead run did: the transfer asked under this attempt's key, its answer lost.
    const first = await t.services.payments.stripe!.createTransfer({
      amountMinor: 90000,
      currency: "usd",
      destination: accountId,
      sourceTransaction: chargeId,
      transferGroup: `load-${loadId}`,
      metadata: { mytess_freight_payment: String(payment.id), mytess_payout_attempt: "0", load: String(loadId) },
      idempotencyKey: stripePayoutKey(payment.id, 0),
    });
    await worker().runOnce();
    await emu.controls.stripe.settled();
    expect(emu.controls.stripe.transfers().map((x) => x.id)).toEqual([first.id]);
    const paid = await paymentOf(loadId);
    expect(paid.state).toBe("paid_out");
    expect(paid.history.at(-1).detail.transfer).toBe(first.id);
  });

  test("the driver is told: funded, released, paid out (the bell, pointing at the load)", async () => {
    await stripeAccount();
    const { loadId } = await releasedWithStripe(400);
    await worker().runOnce();
    await worker().runOnce();
    const rows = await t.rows<{ title: string; body: string; url: string; type: string }>(
      "select title, body, url, type from notifications where channel = 'in_app' and type = 'paymentReceived' order by id",
    );
    expect(rows.map((r) => [r.title, r.url])).toEqual([
      ["Payment secured", `/loads/${loadId}`],
      ["Payment released", `/loads/${loadId}`],
      ["Paid out", `/loads/${loadId}`],
    ]);
    expect(rows[2]!.body).toContain("$400.00");
  });

  test("an account not enabled yet: the money waits, the driver is told; enabling it pays what waited", async () => {
    const accountId = await stripeAccount(false);
    const { loadId } = await releasedWithStripe();
    await worker().runOnce();
    expect(transferCalls()).toHaveLength(0);
    const waiting = await paymentOf(loadId);
    expect(waiting.state).toBe("released");
    expect(waiting.history.at(-1).state).toBe("payout_waiting");
    await worker().runOnce();
    expect(await bell()).toContain("Add a payout method to be paid");
    // A second run tells nobody twice.
    await enqueue(t.db, freightPayoutJob, { paymentId: waiting.id }, { uniqueKey: "again" });
    await worker().runOnce();
    await worker().runOnce();
    expect((await bell()).filter((x) => x === "Add a payout method to be paid")).toHaveLength(1);

    emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 1, seed: 5, retries: 2 };
    await emu.controls.stripe.completeOnboarding(accountId);
    await emu.controls.stripe.settled();
    await worker().runOnce();
    await emu.controls.stripe.settled();
    expect(emu.controls.stripe.transfers()).toHaveLength(1);
    expect((await paymentOf(loadId)).state).toBe("paid_out");
  });

  test("Stripe refuses the transfer (platform balance): retried by the job, paid once it goes through", async () => {
    await stripeAccount();
    const { loadId } = await releasedWithStripe();
    emu.controls.stripe.failTransfers = 1;
    await worker().runOnce();
    expect((await paymentOf(loadId)).state).toBe("released");
    // The retry waits for its backoff: make it due now.
    await t.rows("update jobs set run_at = 0 where kind = 'freight_payout'");
    await worker().runOnce();
    await emu.controls.stripe.settled();
    expect((await paymentOf(loadId)).state).toBe("paid_out");
    expect(emu.controls.stripe.transfers()).toHaveLength(1);
  });
});

describe("paying the driver with Chapa (ETB)", () => {
  test("a telebirr payout: queued, confirmed by the webhook (sent three times) and verify, paid out once with Chapa's fee", async () => {
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    emu.controls.chapa.payoutCopies = 3;
    const { loadId } = await releasedWithChapa();
    await worker().runOnce();
    await emu.controls.chapa.settled();
    const calls = chapaTransferCalls();
    expect(calls).toHaveLength(1);
    const payment = await paymentOf(loadId);
    expect(JSON.parse(calls[0]!.body)).toEqual({
      account_name: "Abebe Kebede",
      account_number: "0911223344",
      amount: "25000.00",
      currency: "ETB",
      reference: chapaPayoutRef(payment.id, 0),
      bank_code: 855,
    });
    expect(payment.state).toBe("paid_out");
    expect(payment.history.filter((h: { state: string }) => h.state === "paid_out")).toHaveLength(1);
    const payouts = emu.controls.chapa.deliveries.filter((d) => d.event === "payout.success");
    expect(payouts).toHaveLength(3);
    expect(payouts.every((d) => d.status === 200)).toBe(true);
    const sent = emu.controls.chapa.transfer(chapaPayoutRef(payment.id, 0))!;
    // The release names Chapa's transfer; Chapa's fee moves from the platform's fees to the provider's.
    expect((await releaseRows()).every((r) => r.provider_object === sent.chapa_transfer_id)).toBe(true);
    const fee = await t.rows<{ account: string; amount_minor: number }>(
      "select account, amount_minor from ledger_entries where txn like 'payout_fee:%' order by id",
    );
    expect(fee.map((r) => [r.account, Number(r.amount_minor)])).toEqual([
      ["platform_fees", -Math.round(sent.charge * 100)],
      ["provider_fees", Math.round(sent.charge * 100)],
    ]);

    // The job again (a retry, a second worker): the payment is paid out, Chapa is not asked again.
    await enqueue(t.db, freightPayoutJob, { paymentId: payment.id }, { uniqueKey: "again" });
    await worker().runOnce();
    expect(chapaTransferCalls()).toHaveLength(1);
  });

  test("a crash after Chapa took the transfer and before our write: the next run finds it, no second transfer", async () => {
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    emu.controls.chapa.transfers = "manual";
    const { loadId } = await releasedWithChapa(3_000);
    const payment = await paymentOf(loadId);
    // What the dead run did: the transfer asked under this attempt's reference.
    await t.services.payments.chapa!.transfer({
      accountName: "Abebe Kebede",
      accountNumber: "0911223344",
      amount: 3000,
      currency: "ETB",
      reference: chapaPayoutRef(payment.id, 0),
      bankCode: 855,
    });
    await worker().runOnce();
    expect(emu.controls.chapa.allTransfers()).toHaveLength(1);
    // Still queued at Chapa: the job waits for the webhook (or asks again later).
    expect((await paymentOf(loadId)).state).toBe("released");
    // A late webhook of another reference, and one naming no payout of ours, change nothing.
    for (const reference of [chapaPayoutRef(payment.id, 7), "someone-else-1"]) {
      const body = JSON.stringify({ event: "payout.failed", type: "Payout", reference, status: "failed" });
      const sig = signChapaPayload(body, emu.controls.chapa.webhookSecret);
      const res = await t.app.handle(
        new Request("http://localhost/api/webhooks/chapa", {
          method: "POST",
          headers: { "Chapa-Signature": sig, "x-chapa-signature": sig },
          body,
        }),
      );
      expect(res.status).toBe(200);
    }
    expect((await paymentOf(loadId)).state).toBe("released");
    await emu.controls.chapa.settleTransfer(chapaPayoutRef(payment.id, 0), "success");
    expect((await paymentOf(loadId)).state).toBe("paid_out");
    // The job's later look finds it done.
    await t.rows("update jobs set run_at = 0 where kind = 'freight_payout'");
    await worker().runOnce();
    expect(emu.controls.chapa.allTransfers()).toHaveLength(1);
    expect((await paymentOf(loadId)).history.filter((h: { state: string }) => h.state === "paid_out")).toHaveLength(1);
  });

  test("the bank rejects the name: failed with what to fix; saving the right name sends it again, once", async () => {
    emu.controls.chapa.holders.set("855:0911223344", "Abebe Kebede Tesfaye");
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    const { loadId } = await releasedWithChapa(8_000);
    await worker().runOnce();
    await emu.controls.chapa.settled();
    const failed = await paymentOf(loadId);
    expect(failed.state).toBe("failed");
    expect(failed.note).toBe("Account name mismatch");
    // The driver sees what to fix; the shipper sees the money still secured, and cannot pay a second time.
    expect(failed).toMatchObject({ secured: true, payoutIssue: "account_name" });
    const shipperView = (await shipper.get(`/api/loads/${loadId}/payment`)).json.payment;
    expect(shipperView).toMatchObject({ state: "failed", secured: true, payoutIssue: null });
    expect((await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" })).status).toBe(409);
    expect(failed.history.at(-1)).toMatchObject({
      state: "failed",
      detail: { stage: "payout", attempt: 0, fix: "account_name" },
    });
    await worker().runOnce();
    const [notice] = await t.rows<{ title: string; body: string; url: string }>(
      "select title, body, url from notifications where title = 'Your payout failed'",
    );
    expect(notice!.body).toContain("the account holder's name does not match the bank's records");
    expect(notice!.url).toBe("/settings");

    // The failed webhook again, late: nothing changes.
    await emu.controls.chapa.settled();
    expect((await paymentOf(loadId)).state).toBe("failed");

    const fixed = await driver.put("/api/payouts/method", { ...TELEBIRR, accountName: "Abebe Kebede Tesfaye" });
    expect(fixed.status).toBe(200);
    expect((await paymentOf(loadId)).state).toBe("released");
    await worker().runOnce();
    await emu.controls.chapa.settled();
    const paid = await paymentOf(loadId);
    expect(paid.state).toBe("paid_out");
    expect(paid.note).toBeNull();
    expect(paid.payoutIssue).toBeNull();
    const refs = emu.controls.chapa.allTransfers().map((x) => [x.reference, x.status]);
    expect(refs).toEqual([
      [chapaPayoutRef(paid.id, 0), "failed"],
      [chapaPayoutRef(paid.id, 1), "success"],
    ]);
    // Saving the same details again queues nothing more.
    await driver.put("/api/payouts/method", { ...TELEBIRR, accountName: "Abebe Kebede Tesfaye" });
    await worker().runOnce();
    expect(emu.controls.chapa.allTransfers()).toHaveLength(2);
  });

  test("no payout method: the birr waits (released), the driver is told; adding telebirr pays it", async () => {
    const { loadId } = await releasedWithChapa(1_500);
    await worker().runOnce();
    expect(chapaTransferCalls()).toHaveLength(0);
    expect(await paymentOf(loadId)).toMatchObject({ state: "released", secured: true, payoutIssue: "waiting_method" });
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    await worker().runOnce();
    await emu.controls.chapa.settled();
    expect(chapaTransferCalls()).toHaveLength(1);
    expect((await paymentOf(loadId)).state).toBe("paid_out");
  });

  test("a number saved before sealing is sealed at start and still paid to; no answer, export, notice, job or log has it", async () => {
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    // A row as saved before numbers were sealed: the number readable, no last 4 digits apart.
    await t.rows("update payout_methods set account_number = '0911223344', account_last4 = null");
    expect(await sealPayoutNumbers(t.db, t.services.secrets)).toBe(1);
    expect(await sealPayoutNumbers(t.db, t.services.secrets)).toBe(0);
    const [stored] = await t.rows<{ account_number: string; account_last4: string }>(
      "select account_number, account_last4 from payout_methods",
    );
    expect(stored!.account_number).toStartWith("v1.");
    expect(stored!.account_number).not.toContain("0911223344");
    expect(stored!.account_last4).toBe("3344");

    const lines: string[] = [];
    const log: TLogger = {
      info: (m, d) => lines.push(JSON.stringify([m, d])),
      warn: (m, d) => lines.push(JSON.stringify([m, d])),
      error: (m, d) => lines.push(JSON.stringify([m, d])),
    };
    const { loadId } = await releasedWithChapa(4_000);
    await worker(log).runOnce();
    await emu.controls.chapa.settled();
    // Chapa is sent the number itself, opened from the seal.
    const calls = chapaTransferCalls();
    expect(calls).toHaveLength(1);
    expect(JSON.parse(calls[0]!.body)).toMatchObject({ account_number: "0911223344", bank_code: 855 });
    expect((await paymentOf(loadId)).state).toBe("paid_out");
    await worker(log).runOnce();
    const notices = await t.rows<{ title: string; body: string }>("select title, body, url from notifications");
    expect(notices.length).toBeGreaterThan(0);
    expect((await driver.get("/api/payouts/account")).json.chapa.method.accountNumber).toBe("•••• 3344");
    const seen = [
      (await driver.get("/api/payouts/account")).text,
      (await driver.get("/api/payments")).text,
      (await shipper.get("/api/payments")).text,
      (await driver.get(`/api/loads/${loadId}/payment`)).text,
      (await driver.get("/api/user/export")).text,
      JSON.stringify(notices),
      JSON.stringify(await t.rows("select payload, last_error from jobs")),
      JSON.stringify(await t.rows("select detail from freight_payment_events")),
      lines.join("\n"),
    ];
    for (const text of seen) expect(text).not.toContain("0911223344");
  });

  test("a bank's reason that quotes the account keeps only its last 4 digits", async () => {
    emu.controls.chapa.transfers = "failed";
    emu.controls.chapa.transferFailure = "Account 0911223344 is closed";
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    const { loadId } = await releasedWithChapa(5_000);
    await worker().runOnce();
    await emu.controls.chapa.settled();
    await worker().runOnce();
    const res = await driver.get(`/api/loads/${loadId}/payment`);
    expect(res.json.payment.state).toBe("failed");
    expect(res.text).toContain("Account •••• 3344 is closed");
    expect(res.text).not.toContain("0911223344");
    const notices = await t.rows<{ body: string }>("select body from notifications");
    expect(JSON.stringify(notices)).not.toContain("0911223344");
  });

  test("two workers at once on the same payment: one transfer", async () => {
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    const { loadId } = await releasedWithChapa(2_000);
    const payment = await paymentOf(loadId);
    await enqueue(t.db, freightPayoutJob, { paymentId: payment.id }, { uniqueKey: "second" });
    await Promise.all([worker().runOnce(), worker().runOnce()]);
    await emu.controls.chapa.settled();
    expect(emu.controls.chapa.allTransfers()).toHaveLength(1);
    expect((await paymentOf(loadId)).state).toBe("paid_out");
  });
});

describe("many at once", () => {
  test("loads in dollars and birr released together, two workers, webhooks shuffled and duplicated: each paid out once", async () => {
    await stripeAccount();
    expect((await driver.put("/api/payouts/method", TELEBIRR)).status).toBe(200);
    emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 1, seed: 23, retries: 3 };
    emu.controls.chapa.payoutCopies = 2;
    const loads: number[] = [];
    for (let i = 0; i < 3; i++) {
      loads.push((await releasedWithStripe(100 + i)).loadId);
      loads.push((await releasedWithChapa(1_000 + i)).loadId);
    }
    // Every payout job twice (a second worker's copy), then two workers drain the queue together.
    const ids = (await t.rows<{ id: number }>("select id from freight_payments order by id")).map((r) => Number(r.id));
    for (const id of ids) await enqueue(t.db, freightPayoutJob, { paymentId: id }, { uniqueKey: `copy:${id}` });
    await Promise.all([worker().runOnce(), worker().runOnce()]);
    await Promise.all([worker().runOnce(), worker().runOnce()]);
    await emu.controls.stripe.settled();
    await emu.controls.chapa.settled();
    for (const loadId of loads) expect((await paymentOf(loadId)).state).toBe("paid_out");
    // One transfer per payment at each provider: none twice, none missing.
    const stripeTransfers = emu.controls.stripe.transfers().map((x) => x.metadata.mytess_freight_payment);
    const chapaTransfers = emu.controls.chapa.allTransfers().map((x) => x.reference);
    expect(stripeTransfers).toHaveLength(3);
    expect(new Set(stripeTransfers).size).toBe(3);
    expect(chapaTransfers).toHaveLength(3);
    expect(new Set(chapaTransfers).size).toBe(3);
    const paidOut = await t.rows<{ n: number }>(
      "select CAST(count(*) AS INTEGER) n from freight_payment_events where state = 'paid_out'",
    );
    expect(Number(paidOut[0]!.n)).toBe(6);
  });
});
