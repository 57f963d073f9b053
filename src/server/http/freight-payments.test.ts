import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startPaymentEmulators } from "../../../emulators/payments/server";
import { signChapaPayload } from "../integrations/payments/chapa";
import { paymentsFromEnv } from "../integrations/payments/registry";
import { signStripePayload } from "../integrations/payments/stripe";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { PAYMENTS_JOBS } from "../modules/payments/jobs";
import { checkLedger } from "../modules/payments/ledger";
import { autoCompleteDeliveries } from "../modules/trips/trip";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

let t: TTestApp;
// Webhooks and Chapa's callback go from the emulators into the test app, in process.
const emu = startPaymentEmulators({}, { fetchImpl: (req: Request) => t.app.handle(req) });
afterAll(() => emu.stop());

type TClient = ReturnType<typeof createClient>;
let shipper: TClient;
let otherShipper: TClient;
let driver: TClient;
let otherDriver: TClient;
let anon: TClient;

beforeEach(async () => {
  emu.controls.stripe.reset();
  emu.controls.chapa.reset();
  emu.controls.stripe.setWebhookUrl("http://localhost/api/webhooks/stripe");
  emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/chapa");
  t = await createTestApp({}, undefined, undefined, undefined, paymentsFromEnv(emu.env()));
  shipper = createClient(t);
  otherShipper = createClient(t);
  driver = createClient(t);
  otherDriver = createClient(t);
  anon = createClient(t);
  await registerUser(shipper, "shipper");
  await registerUser(otherShipper, "shipper");
  await registerUser(driver, "driver");
  await registerUser(otherDriver, "driver");
});
// After every test, on the engine it ran on: the ledger must be sound, whatever the test did.
afterEach(async () => {
  const check = await checkLedger(t.db);
  expect(check.problems).toEqual([]);
  await closeTestApps();
});

/** A load posted and awarded to `driver` at `amount` in `currency`. */
const awarded = async (amount: number, currency: string) => {
  const loadId = (await shipper.post("/api/loads", loadInput({ budgetAmount: amount, budgetCurrency: currency }))).json
    .id as number;
  const bid = await driver.post(`/api/loads/${loadId}/bids`, { amount, currency });
  expect(bid.status).toBe(201);
  expect((await shipper.post(`/api/bids/${bid.json.bid.id}/accept`)).status).toBe(200);
  return loadId;
};

const lastPart = (url: string) => url.split("/").pop()!;

describe("funding a load with Stripe (USD)", () => {
  test("the shipper sees the amount and fee, pays on Stripe's page; the load is funded once for both parties", async () => {
    const loadId = await awarded(900, "USD");
    const before = await shipper.get(`/api/loads/${loadId}/payment`);
    expect(before.status).toBe(200);
    expect(before.json).toEqual({
      quote: { currency: "USD", agreed: 900, fee: 27, feePercent: 3, total: 927, provider: "stripe", available: true },
      payment: null,
    });
    const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
    expect(res.status).toBe(200);
    expect(res.json.url).toStartWith(emu.urls.stripe);
    expect(res.json.quote.total).toBe(927);
    // Stripe was asked for a one-off Checkout of the total, tagged for the transfer later.
    const asked = emu.controls.stripe.requests.find((r) => r.path === "/v1/checkout/sessions")!;
    const params = Object.fromEntries(asked.params);
    expect(params).toMatchObject({
      mode: "payment",
      "line_items[0][price_data][unit_amount]": "92700",
      "line_items[0][price_data][currency]": "usd",
      "payment_intent_data[transfer_group]": `load-${loadId}`,
    });
    expect(asked.headers["idempotency-key"]).toStartWith("freight-checkout:");
    expect((await shipper.get(`/api/loads/${loadId}/payment`)).json.payment.state).toBe("awaiting_payment");

    // Paid: three events, shuffled, some twice.
    emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 1, seed: 7, retries: 3 };
    const paid = await emu.controls.stripe.payPayment(lastPart(res.json.url));
    await emu.controls.stripe.settled();
    expect(paid.deliveries.every((d) => d.status === 200)).toBe(true);

    const mine = (await shipper.get("/api/payments")).json;
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      loadId,
      role: "shipper",
      provider: "stripe",
      state: "funded",
      currency: "USD",
      agreed: 900,
      fee: 27,
      total: 927,
    });
    expect(mine[0].history.map((h: { state: string }) => h.state)).toEqual(["awaiting_payment", "funded"]);
    expect(mine[0].history[1].detail.charge).toBe(paid.chargeId);
    // The driver sees it too (their share, no fee).
    const theirs = (await driver.get("/api/payments")).json;
    expect(theirs[0]).toMatchObject({ role: "driver", state: "funded", agreed: 900, fee: 0, total: 900 });
    expect((await driver.get(`/api/loads/${loadId}/payment`)).json).toMatchObject({
      quote: null,
      payment: { state: "funded" },
    });
    // Others see nothing.
    expect((await otherShipper.get("/api/payments")).json).toEqual([]);
    expect((await otherDriver.get("/api/payments")).json).toEqual([]);

    // The ledger: shipper paid 927.00, escrow holds 900.00, the platform earned 27.00, named by the charge.
    const rows = await t.rows<{ account: string; amount_minor: number; provider_object: string }>(
      "select account, amount_minor, provider_object from ledger_entries order by id",
    );
    expect(rows.map((r) => [r.account, Number(r.amount_minor), r.provider_object])).toEqual([
      ["shipper", -92700, paid.chargeId],
      ["escrow", 90000, paid.chargeId],
      ["platform_fees", 2700, paid.chargeId],
    ]);

    // The check sees a tampered entry, and names it.
    await t.rows("update ledger_entries set amount_minor = amount_minor + 1 where account = 'escrow'");
    const broken = await checkLedger(t.db);
    expect(broken.problems.map((p) => p.kind)).toContain("unbalanced");
    expect(broken.problems[0]!.detail).toContain("sums to 1 in USD");
    await t.rows("update ledger_entries set amount_minor = amount_minor - 1 where account = 'escrow'");

    // Funded already: 409.
    const again = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
    expect(again.status).toBe(409);
  });

  test("a replayed event changes nothing; a forged one is refused and funds nothing", async () => {
    const loadId = await awarded(100, "USD");
    const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
    const session = emu.controls.stripe.session(lastPart(res.json.url))!;
    // Forged: a "completed" session event naming this payment, signed with another secret.
    const body = JSON.stringify({
      id: "evt_forged",
      type: "checkout.session.completed",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: session.id, metadata: { mytess_freight_payment: "1" }, payment_status: "paid" } },
    });
    const forged = await t.app.handle(
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "Stripe-Signature": await signStripePayload(body, "whsec_wrong") },
        body,
      }),
    );
    expect(forged.status).toBe(400);
    // Signed, but the session is not paid at Stripe: the event's own word is not believed.
    const unpaid = await t.app.handle(
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "Stripe-Signature": await signStripePayload(body, emu.controls.stripe.webhookSecret) },
        body,
      }),
    );
    expect(unpaid.status).toBe(200);
    expect((await shipper.get(`/api/loads/${loadId}/payment`)).json.payment.state).toBe("awaiting_payment");
    await emu.controls.stripe.payPayment(session.id);
    await emu.controls.stripe.settled();
    for (const d of emu.controls.stripe.deliveries.slice(-3))
      await t.app.handle(
        new Request("http://localhost/api/webhooks/stripe", {
          method: "POST",
          headers: { "Stripe-Signature": await signStripePayload(d.body, emu.controls.stripe.webhookSecret) },
          body: d.body,
        }),
      );
    const [n] = await t.rows<{ n: number }>("select CAST(count(*) AS INTEGER) n from ledger_entries");
    expect(n!.n).toBe(3);
    expect((await shipper.get(`/api/loads/${loadId}/payment`)).json.payment.state).toBe("funded");
  });

  test("the subscription's events still reach premium beside freight payments", async () => {
    await t.rows("update users set trial_ends_at = ?", Date.now() - 86_400_000);
    const res = await shipper.post("/api/subscription/checkout", { currency: "USD" });
    await emu.controls.stripe.pay(lastPart(res.json.url));
    await emu.controls.stripe.settled();
    expect((await shipper.get("/api/subscription/status")).json.subscriptionStatus).toBe("active");
  });
});

describe("funding a load with Chapa (ETB)", () => {
  test("paid on Chapa's page: verified with Chapa, funded once though webhook and callback both arrive", async () => {
    const loadId = await awarded(25_000, "ETB");
    const quote = (await shipper.get(`/api/loads/${loadId}/payment`)).json.quote;
    expect(quote).toMatchObject({ currency: "ETB", agreed: 25_000, fee: 750, total: 25_750, provider: "chapa" });
    const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" });
    expect(res.status).toBe(200);
    expect(res.json.url).toStartWith(emu.urls.chapa);
    const txRef = decodeURIComponent(lastPart(res.json.url));
    expect(txRef).toStartWith("mytess-load-");
    const init = emu.controls.chapa.requests.find((r) => r.path === "/v1/transaction/initialize")!;
    expect(JSON.stringify(init)).toContain("25750.00");
    await emu.controls.chapa.pay(txRef);
    await emu.controls.chapa.settled();
    // The webhook again, and the callback again: nothing more is written.
    const body = JSON.stringify({ event: "charge.success", tx_ref: txRef, status: "success" });
    const sig = signChapaPayload(body, emu.controls.chapa.webhookSecret);
    const hook = await t.app.handle(
      new Request("http://localhost/api/webhooks/chapa", {
        method: "POST",
        headers: { "Chapa-Signature": sig, "x-chapa-signature": sig },
        body,
      }),
    );
    expect(hook.status).toBe(200);
    await anon.get(`/api/webhooks/chapa/callback?trx_ref=${encodeURIComponent(txRef)}&status=success`);
    const p = (await driver.get("/api/payments")).json;
    expect(p[0]).toMatchObject({ provider: "chapa", state: "funded", currency: "ETB", agreed: 25_000 });
    const [n] = await t.rows<{ n: number }>("select CAST(count(*) AS INTEGER) n from ledger_entries");
    expect(n!.n).toBe(3);
  });

  test("a declined payment is failed with its reason, and the shipper may pay again", async () => {
    const loadId = await awarded(5_000, "ETB");
    const first = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" });
    await emu.controls.chapa.fail(decodeURIComponent(lastPart(first.json.url)));
    await emu.controls.chapa.settled();
    const failed = (await shipper.get(`/api/loads/${loadId}/payment`)).json.payment;
    expect(failed.state).toBe("failed");
    const second = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" });
    expect(second.status).toBe(200);
    await emu.controls.chapa.pay(decodeURIComponent(lastPart(second.json.url)));
    await emu.controls.chapa.settled();
    const paid = (await shipper.get(`/api/loads/${loadId}/payment`)).json.payment;
    expect(paid.state).toBe("funded");
    expect(paid.history.map((h: { state: string }) => h.state)).toEqual([
      "awaiting_payment",
      "failed",
      "awaiting_payment",
      "funded",
    ]);
  });
});

describe("who may fund, and what is refused", () => {
  test("another account 404, a driver 403, signed out 401, bad input 400 naming the field, not awarded 409", async () => {
    const loadId = await awarded(900, "USD");
    expect((await otherShipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" })).status).toBe(404);
    expect((await otherShipper.get(`/api/loads/${loadId}/payment`)).status).toBe(404);
    expect((await otherDriver.get(`/api/loads/${loadId}/payment`)).status).toBe(404);
    expect((await driver.post(`/api/loads/${loadId}/payment`, { provider: "stripe" })).status).toBe(403);
    expect((await anon.post(`/api/loads/${loadId}/payment`, { provider: "stripe" })).status).toBe(401);
    expect((await anon.get(`/api/loads/${loadId}/payment`)).status).toBe(401);
    expect((await anon.get("/api/payments")).status).toBe(401);
    const bad = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "paypal" });
    expect(bad.status).toBe(400);
    expect(bad.json.issues[0].path).toBe("provider");
    const wrong = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" });
    expect(wrong.status).toBe(400);
    expect(wrong.json.issues[0].path).toBe("provider");
    const badId = await shipper.post("/api/loads/abc/payment", { provider: "stripe" });
    expect(badId.status).toBe(400);
    expect(badId.json.message).toContain("id");
    const posted = (await shipper.post("/api/loads", loadInput())).json.id;
    const notAwarded = await shipper.post(`/api/loads/${posted}/payment`, { provider: "stripe" });
    expect(notAwarded.status).toBe(409);
    expect((await shipper.get(`/api/loads/${posted}/payment`)).json).toEqual({ quote: null, payment: null });
    // Nothing was asked of a provider, nothing written.
    expect(emu.controls.stripe.requests.filter((r) => r.path === "/v1/checkout/sessions")).toHaveLength(0);
    const [n] = await t.rows<{ n: number }>("select CAST(count(*) AS INTEGER) n from freight_payments");
    expect(n!.n).toBe(0);
  });
  test("a shipper without a proven email or phone is refused (403, translated, naming what to do) until one is proven", async () => {
    const unproven = createClient(t, "10.0.6.1");
    const me = await registerUser(unproven, "shipper", {}, { verified: false });
    const loadId = (await unproven.post("/api/loads", loadInput({ budgetAmount: 900, budgetCurrency: "USD" }))).json
      .id as number;
    const bid = await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" });
    expect((await unproven.post(`/api/bids/${bid.json.bid.id}/accept`)).status).toBe(200);
    // Another account's load stays a 404 whatever its own contact: the load is looked up first.
    expect((await otherShipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" })).status).toBe(404);
    const refused = await unproven.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
    expect(refused.status).toBe(403);
    expect(refused.json.messageId).toBe("error.contact.requiredToFund");
    expect(refused.json.message).toBe(
      "Confirm your email or phone before you pay for a load. You can do it in Settings.",
    );
    expect((await unproven.put("/api/user/language", { language: "om" })).status).toBe(200);
    const om = await unproven.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
    expect(om.status).toBe(403);
    expect(om.json.message).toStartWith("Fe'umsaaf kaffaluu");
    expect(emu.controls.stripe.requests.filter((r) => r.path === "/v1/checkout/sessions")).toHaveLength(0);
    // Proven (as the mailed link does: its own tests are in verified-contact.test.ts): the checkout opens.
    await t.rows("UPDATE users SET email_verified_at = ? WHERE id = ?", Date.now(), me.id);
    const ok = await unproven.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
    expect(ok.status).toBe(200);
    expect(ok.json.url).toStartWith(emu.urls.stripe);
  });
});

/** Awarded and funded through Stripe's page; the charge's id. */
const fundedWithStripe = async (amount = 900) => {
  const loadId = await awarded(amount, "USD");
  const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
  const paid = await emu.controls.stripe.payPayment(lastPart(res.json.url));
  await emu.controls.stripe.settled();
  expect((await shipper.get(`/api/loads/${loadId}/payment`)).json.payment.state).toBe("funded");
  return { loadId, chargeId: paid.chargeId };
};
const worker = () =>
  runWorker({
    db: t.db,
    log: logger,
    handlers: bindJobs(PAYMENTS_JOBS, t.services, "http://localhost"),
    schedules: [],
    autoStart: false,
  });
const stateOf = async (loadId: number) => (await shipper.get(`/api/loads/${loadId}/payment`)).json.payment.state;
const txns = async () =>
  (await t.rows<{ txn: string }>("select distinct txn from ledger_entries order by txn")).map((r) => r.txn);

describe("the trip moves the money", () => {
  test("cancelled before pickup: refunded in full in the ledger at once, at Stripe by the outbox job, once", async () => {
    const { loadId, chargeId } = await fundedWithStripe();
    const cancel = await shipper.post(`/api/loads/${loadId}/cancel`, { reason: "Plans changed" });
    expect(cancel.status).toBe(200);
    expect(await stateOf(loadId)).toBe("refunded");
    const rows = await t.rows<{ account: string; amount_minor: number; provider_object: string | null }>(
      "select account, amount_minor, provider_object from ledger_entries where txn like 'refund:%' order by id",
    );
    expect(rows.map((r) => [r.account, Number(r.amount_minor)])).toEqual([
      ["shipper", 92700],
      ["escrow", -90000],
      ["platform_fees", -2700],
    ]);
    // No provider call inside the cancellation: the refund waits for the worker.
    expect(emu.controls.stripe.requests.filter((r) => r.path === "/v1/refunds")).toHaveLength(0);
    await worker().runOnce();
    const refunds = emu.controls.stripe.requests.filter((r) => r.path === "/v1/refunds");
    expect(refunds).toHaveLength(1);
    expect(Object.fromEntries(refunds[0]!.params)).toEqual({ charge: chargeId });
    expect(refunds[0]!.headers["idempotency-key"]).toStartWith("freight-refund:");
    const [entry] = await t.rows<{ provider_object: string }>(
      "select provider_object from ledger_entries where txn like 'refund:%' limit 1",
    );
    expect(entry!.provider_object).toStartWith("re_");
    expect(emu.controls.stripe.charge(chargeId)!.amount_refunded).toBe(92700);
    // Nothing more to run, and the refund's events (charge.refunded) change nothing.
    await emu.controls.stripe.settled();
    expect(await worker().runOnce()).toBe(0);
    expect(await stateOf(loadId)).toBe("refunded");
  });

  test("disputed: held; accepted after the dispute: released to the driver in the ledger", async () => {
    const { loadId } = await fundedWithStripe();
    expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
    expect((await driver.post(`/api/loads/${loadId}/deliver`)).status).toBe(200);
    expect((await shipper.post(`/api/loads/${loadId}/pod/dispute`, { reason: "Two pallets missing" })).status).toBe(
      200,
    );
    expect(await stateOf(loadId)).toBe("disputed");
    expect(await txns()).toEqual([expect.stringMatching(/^fund:/)]);
    expect((await shipper.post(`/api/loads/${loadId}/pod/accept`)).status).toBe(200);
    expect(await stateOf(loadId)).toBe("released");
    const release = await t.rows<{ account: string; amount_minor: number }>(
      "select account, amount_minor from ledger_entries where txn like 'release:%' order by id",
    );
    expect(release.map((r) => [r.account, Number(r.amount_minor)])).toEqual([
      ["escrow", -90000],
      ["driver", 90000],
    ]);
    const history = (await driver.get("/api/payments")).json[0].history.map((h: { state: string }) => h.state);
    expect(history).toEqual(["awaiting_payment", "funded", "disputed", "released"]);
  });

  test("48 hours after delivery without an answer: completed by the job, released once", async () => {
    const { loadId } = await fundedWithStripe(250);
    await driver.post(`/api/loads/${loadId}/pickup`);
    await driver.post(`/api/loads/${loadId}/deliver`);
    expect(await autoCompleteDeliveries(t.db, Date.now() + 49 * 3600_000)).toEqual([loadId]);
    expect(await autoCompleteDeliveries(t.db, Date.now() + 50 * 3600_000)).toEqual([]);
    expect(await stateOf(loadId)).toBe("released");
    expect((await txns()).length).toBe(2);
  });
});

describe("one payable page per load", () => {
  test("Stripe: asking again, or twice at once, answers the open session; a new one only after Stripe expired it", async () => {
    const loadId = await awarded(900, "USD");
    const sessionsMade = () =>
      emu.controls.stripe.requests.filter((r) => r.method === "POST" && r.path === "/v1/checkout/sessions").length;
    const [a, b] = await Promise.all([
      shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" }),
      shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.url).toBe(a.json.url);
    const again = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
    expect(again.json.url).toBe(a.json.url);
    expect(sessionsMade()).toBe(1);

    // A day later the session has expired at Stripe: it cannot be paid, and asking again opens a new one.
    const first = lastPart(a.json.url);
    emu.controls.stripe.expireAfterTime(first);
    await emu.controls.stripe.settled();
    const next = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
    expect(next.status).toBe(200);
    expect(next.json.url).not.toBe(a.json.url);
    expect(sessionsMade()).toBe(2);
    await expect(emu.controls.stripe.payPayment(first)).rejects.toThrow("expired");
    await emu.controls.stripe.payPayment(lastPart(next.json.url));
    await emu.controls.stripe.settled();
    const paid = (await shipper.get(`/api/loads/${loadId}/payment`)).json.payment;
    expect(paid.state).toBe("funded");
    expect(paid.history.map((h: { state: string }) => h.state)).toEqual([
      "awaiting_payment",
      "failed",
      "awaiting_payment",
      "funded",
    ]);
    expect((await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" })).status).toBe(409);
  });

  test("Chapa: a pending page is answered again (twice at once too); a new tx_ref only after Chapa says cancelled", async () => {
    const loadId = await awarded(5_000, "ETB");
    const initialized = () => emu.controls.chapa.requests.filter((r) => r.path === "/v1/transaction/initialize").length;
    const [a, b] = await Promise.all([
      shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" }),
      shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" }),
    ]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(b.json.url).toBe(a.json.url);
    expect((await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" })).json.url).toBe(a.json.url);
    expect(initialized()).toBe(1);

    // The shipper cancels on Chapa's page (the webhook is lost): asking again checks with Chapa, then opens anew.
    emu.controls.chapa.setWebhookUrl(null);
    const firstRef = decodeURIComponent(lastPart(a.json.url));
    await emu.controls.chapa.cancel(firstRef);
    const next = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "chapa" });
    expect(next.status).toBe(200);
    const nextRef = decodeURIComponent(lastPart(next.json.url));
    expect(nextRef).not.toBe(firstRef);
    expect(initialized()).toBe(2);
    emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/chapa");
    await emu.controls.chapa.pay(nextRef);
    await emu.controls.chapa.settled();
    const paid = (await shipper.get(`/api/loads/${loadId}/payment`)).json.payment;
    expect(paid.state).toBe("funded");
    expect(paid.history.map((h: { state: string }) => h.state)).toEqual([
      "awaiting_payment",
      "failed",
      "awaiting_payment",
      "funded",
    ]);
  });
});
