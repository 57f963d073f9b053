// An operator settles a payment whose payout Stripe reversed (`mytess payments resolve <id> --release | --refund`):
// paid again as a new attempt (one transfer however often its job runs), or refunded to the shipper from the escrow
// the reversal returned, or split; the ledger check stays clean after each.
import { beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import type { AppError } from "../errors";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { NOTIFICATIONS_JOBS } from "../modules/notifications/jobs";
import { PAYMENTS_JOBS } from "../modules/payments/jobs";
import { payOut, payWaitingFor, stripePayoutKey } from "../modules/payments/payout-transfer";
import { loadInput, type TTestApp } from "../testing";
import { createContext } from "../trpc/context";
import { createCaller } from "../trpc/root";
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
const worker = () =>
  runWorker({
    db: t.db,
    log: logger,
    handlers: bindJobs([...PAYMENTS_JOBS, ...NOTIFICATIONS_JOBS], t.services, "http://localhost"),
    schedules: [],
    autoStart: false,
  });
/** The operator, as the CLI calls the router. */
const operator = () =>
  createCaller(createContext({ db: t.db, system: true, channel: "cli", locale: "en", services: t.services }));
const caught = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e as AppError;
  }
  throw new Error("expected an error");
};
const paymentOf = async (c: TClient, loadId: number) => (await c.get(`/api/loads/${loadId}/payment`)).json.payment;
const states = (p: { history: { state: string }[] }) => p.history.map((h) => h.state);
const ledger = async (like: string) =>
  (
    await t.rows<{ txn: string; account: string; amount_minor: number; provider_object: string | null }>(
      "select txn, account, amount_minor, provider_object from ledger_entries where txn like ? order by id",
      like,
    )
  ).map((r) => [r.txn, r.account, Number(r.amount_minor), r.provider_object]);
const notices = async (userId: number) =>
  (
    await t.rows<{ title: string; body: string }>(
      "select title, body from notifications where channel = 'in_app' and user_id = ? order by id",
      userId,
    )
  ).filter((n) => n.title === "Reversed payout settled");

/** A USD 900 load paid out to the driver's Stripe account, then wholly (or `amount` of it) reversed by Stripe. */
const reversed = async (amount?: number) => {
  const { accountId } = (await driver.post("/api/payouts/account", {})).json as { accountId: string };
  await emu.controls.stripe.completeOnboarding(accountId);
  await emu.controls.stripe.settled();
  const loadId = (await shipper.post("/api/loads", loadInput({ budgetAmount: 900, budgetCurrency: "USD" }))).json
    .id as number;
  const bid = await driver.post(`/api/loads/${loadId}/bids`, { amount: 900, currency: "USD" });
  expect((await shipper.post(`/api/bids/${bid.json.bid.id}/accept`)).status).toBe(200);
  const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider: "stripe" });
  await emu.controls.stripe.payPayment(lastPart(res.json.url));
  await emu.controls.stripe.settled();
  expect((await driver.post(`/api/loads/${loadId}/pickup`)).status).toBe(200);
  expect((await driver.post(`/api/loads/${loadId}/deliver`)).status).toBe(200);
  expect((await shipper.post(`/api/loads/${loadId}/pod/accept`)).status).toBe(200);
  await worker().runOnce();
  await emu.controls.stripe.settled();
  const [transfer] = emu.controls.stripe.transfers();
  await emu.controls.stripe.reverseTransfer(transfer!.id, amount);
  await emu.controls.stripe.settled();
  const p = await paymentOf(driver, loadId);
  expect(p.state).toBe("failed");
  const [row] = await t.rows<{ id: number; charge_ref: string; shipper_id: number; driver_id: number }>(
    "select id, charge_ref, shipper_id, driver_id from freight_payments where load_id = ?",
    loadId,
  );
  return {
    loadId,
    paymentId: Number(row!.id),
    chargeId: row!.charge_ref,
    shipperId: Number(row!.shipper_id),
    driverId: Number(row!.driver_id),
    transferId: transfer!.id,
  };
};

describe("an operator settles a reversed payout", () => {
  test("--release: a new attempt, one second transfer however often its job runs, paid out, ledger clean", async () => {
    const { loadId, paymentId, driverId, shipperId, transferId } = await reversed();
    const r = await operator().payments.resolve({ paymentId, action: "release", by: "cli:abebe" });
    expect(r).toMatchObject({ paymentId, loadId, state: "released", currency: "USD", refunded: 0, released: 900 });
    expect(await ledger("release/%")).toEqual([
      [`release/1:${paymentId}`, "escrow", -90_000, null],
      [`release/1:${paymentId}`, "driver", 90_000, null],
    ]);
    // The payout job, run twice at once and then by the worker: one new transfer, under the new attempt's key.
    await Promise.all([
      payOut(t.db, t.services.payments, t.services.secrets, paymentId),
      payOut(t.db, t.services.payments, t.services.secrets, paymentId),
    ]);
    await worker().runOnce();
    await worker().runOnce();
    await emu.controls.stripe.settled();
    const transfers = emu.controls.stripe.transfers();
    expect(transfers).toHaveLength(2);
    const second = transfers.find((x) => x.id !== transferId)!;
    expect(second.amount).toBe(90_000);
    // Paid from the platform's balance, where the reversal put the money back.
    expect(second.source_transaction).toBeNull();
    expect(second.metadata.mytess_payout_attempt).toBe("1");
    const keys = emu.controls.stripe.requests
      .filter((q) => q.path === "/v1/transfers" && q.method === "POST")
      .map((q) => q.headers["idempotency-key"]);
    expect(new Set(keys)).toEqual(new Set([stripePayoutKey(paymentId, 0), stripePayoutKey(paymentId, 1)]));
    const p = await paymentOf(driver, loadId);
    expect(p.state).toBe("paid_out");
    expect(p.payoutNotice).toBeNull();
    expect(states(p).slice(-2)).toEqual(["released", "paid_out"]);
    expect(p.history.at(-2).detail).toMatchObject({ by: "cli:abebe", stage: "reversal", resolution: "release" });
    expect(await ledger("release/%")).toEqual([
      [`release/1:${paymentId}`, "escrow", -90_000, second.id],
      [`release/1:${paymentId}`, "driver", 90_000, second.id],
    ]);
    // Both parties told, once.
    await worker().runOnce();
    expect((await notices(driverId)).map((n) => n.body)).toEqual([
      expect.stringContaining("$900.00 is being paid to you again"),
    ]);
    expect(await notices(shipperId)).toHaveLength(1);
    // Settled once: another decision is 409, and a paid-out payment is never paid again by a saved method.
    const again = await caught(operator().payments.resolve({ paymentId, action: "refund", by: "x" }));
    expect(again.code).toBe("CONFLICT");
    expect(again.message).toContain("is paid_out");
    expect(await payWaitingFor(t.db, driverId, "stripe")).toBe(0);
    expect(emu.controls.stripe.transfers()).toHaveLength(2);
  });

  test("--refund: what the reversal returned goes back to the shipper (at Stripe once), refunded, ledger clean", async () => {
    const { loadId, paymentId, chargeId, shipperId, driverId } = await reversed();
    const r = await operator().payments.resolve({ paymentId, action: "refund", by: "cli:abebe" });
    expect(r).toMatchObject({ state: "refunded", refunded: 900, released: 0 });
    expect(await ledger("refund/%")).toEqual([
      [`refund/0:${paymentId}`, "shipper", 90_000, null],
      [`refund/0:${paymentId}`, "escrow", -90_000, null],
    ]);
    await worker().runOnce();
    await worker().runOnce();
    const refunds = emu.controls.stripe.requests.filter((q) => q.path === "/v1/refunds");
    expect(refunds).toHaveLength(1);
    expect(Object.fromEntries(refunds[0]!.params)).toEqual({ charge: chargeId, amount: "90000" });
    expect(refunds[0]!.headers["idempotency-key"]).toBe(`freight-refund:refund/0:${paymentId}`);
    const [entry] = await ledger("refund/%");
    expect(String(entry![3])).toStartWith("re_");
    const p = await paymentOf(shipper, loadId);
    expect(p.state).toBe("refunded");
    expect(p.history.at(-1)).toMatchObject({
      state: "refunded",
      detail: { by: "cli:abebe", stage: "reversal", resolution: "refund", refunded: 900 },
    });
    expect(emu.controls.stripe.transfers()).toHaveLength(1);
    expect((await notices(shipperId)).map((n) => n.body)).toEqual([
      expect.stringContaining("$900.00 is refunded to you"),
    ]);
    expect((await notices(driverId)).map((n) => n.body)).toEqual([
      expect.stringContaining("the money is refunded to the shipper"),
    ]);
  });

  test("--refund --amount after a partial reversal: that much back, the rest paid again; bad amounts 400", async () => {
    const { loadId, paymentId } = await reversed(30_000);
    const tooMuch = await caught(
      operator().payments.resolve({ paymentId, action: "refund", amount: "300.01", by: "x" }),
    );
    expect(tooMuch.code).toBe("BAD_REQUEST");
    expect(tooMuch.message).toBe("amount must be more than 0 and at most what the reversal returned, 300.00 USD");
    expect((await paymentOf(driver, loadId)).state).toBe("failed");
    const r = await operator().payments.resolve({ paymentId, action: "refund", amount: "100.00", by: "x" });
    expect(r).toMatchObject({ state: "released", refunded: 100, released: 200 });
    expect(await ledger("re%/%")).toEqual([
      [`refund/0:${paymentId}`, "shipper", 10_000, null],
      [`refund/0:${paymentId}`, "escrow", -10_000, null],
      [`release/1:${paymentId}`, "escrow", -20_000, null],
      [`release/1:${paymentId}`, "driver", 20_000, null],
    ]);
    await worker().runOnce();
    await worker().runOnce();
    await emu.controls.stripe.settled();
    const [, second] = emu.controls.stripe.transfers();
    expect(second!.amount).toBe(20_000);
    expect((await paymentOf(driver, loadId)).state).toBe("paid_out");
    expect(emu.controls.stripe.requests.filter((q) => q.path === "/v1/refunds")).toHaveLength(1);
  });

  test("refused: a paid-out payment 409 naming its state; a payment not reversed is not one to settle", async () => {
    const { paymentId } = await reversed();
    await operator().payments.resolve({ paymentId, action: "release", by: "x" });
    const released = await caught(operator().payments.resolve({ paymentId, action: "release", by: "x" }));
    expect(released.code).toBe("CONFLICT");
    expect(released.message).toBe(
      `Only a disputed payment or one whose payout was reversed can be resolved; payment ${paymentId} is released`,
    );
    await worker().runOnce();
    const paidOut = await caught(operator().payments.resolve({ paymentId, action: "refund", by: "x" }));
    expect(paidOut.code).toBe("CONFLICT");
    expect(paidOut.message).toContain(`payment ${paymentId} is paid_out`);
    expect(await ledger("refund%")).toEqual([]);
    // Only the operator: a signed-in user's call is refused.
    const web = await driver.post("/trpc/payments.resolve", { paymentId, action: "refund", by: "me" });
    expect(web.status).toBe(403);
  });
});
