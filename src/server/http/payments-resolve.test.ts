import { afterAll, afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startPaymentEmulators } from "../../../emulators/payments/server";
import { AppError } from "../errors";
import { paymentsFromEnv } from "../integrations/payments/registry";
import { bindJobs, runWorker } from "../jobs/worker";
import { logger } from "../logger";
import { jobRegistry } from "../modules/jobs";
import { PAYMENTS_JOBS } from "../modules/payments/jobs";
import { checkLedger } from "../modules/payments/ledger";
import { parseRefundAmount, splitRefund } from "../modules/payments/resolve";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";
import { createContext } from "../trpc/context";
import { createCaller } from "../trpc/root";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

let t: TTestApp;
const emu = startPaymentEmulators({}, { fetchImpl: (req: Request) => t.app.handle(req) });
afterAll(() => emu.stop());

type TClient = ReturnType<typeof createClient>;
let shipper: TClient;
let driver: TClient;
let otherShipper: TClient;
let anon: TClient;

beforeEach(async () => {
  emu.controls.stripe.reset();
  emu.controls.chapa.reset();
  emu.controls.stripe.setWebhookUrl("http://localhost/api/webhooks/stripe");
  emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/chapa");
  t = await createTestApp({}, undefined, undefined, undefined, paymentsFromEnv(emu.env()));
  shipper = createClient(t);
  driver = createClient(t);
  otherShipper = createClient(t);
  anon = createClient(t);
  await registerUser(shipper, "shipper");
  await registerUser(driver, "driver");
  await registerUser(otherShipper, "shipper");
});
// Whatever a test decided, the ledger stays sound (`mytess ledger check` on the same engine).
afterEach(async () => {
  expect((await checkLedger(t.db)).problems).toEqual([]);
  await closeTestApps();
});

/** The operator, as the CLI calls the router. */
const operator = () =>
  createCaller(createContext({ db: t.db, system: true, channel: "cli", locale: "en", services: t.services }));
const worker = () =>
  runWorker({
    db: t.db,
    log: logger,
    handlers: bindJobs(PAYMENTS_JOBS, t.services, "http://localhost"),
    schedules: [],
    autoStart: false,
  });
const allJobs = () =>
  runWorker({
    db: t.db,
    log: logger,
    handlers: jobRegistry(t.services, "http://localhost"),
    schedules: [],
    autoStart: false,
  });
const bell = async (c: TClient) =>
  ((await c.get("/api/notifications")).json.items as { title: string; body: string }[]).map((n) => ({
    title: n.title,
    body: n.body,
  }));
const lastPart = (url: string) => url.split("/").pop()!;
const paymentOf = async (loadId: number) => (await shipper.get(`/api/loads/${loadId}/payment`)).json.payment;
const ledgerOf = async (kind: string) =>
  (
    await t.rows<{ account: string; amount_minor: number; provider_object: string | null }>(
      "select account, amount_minor, provider_object from ledger_entries where txn like ? order by id",
      `${kind}:%`,
    )
  ).map((r) => [r.account, Number(r.amount_minor)]);
const caught = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (err) {
    // The caller wraps what the router threw: the AppError is its cause.
    const cause = (err as { cause?: unknown }).cause;
    return (cause instanceof AppError ? cause : err) as AppError;
  }
  throw new Error("expected a refusal");
};

/** A load awarded, funded with the provider of its currency, delivered and disputed by the shipper. */
const funded = async (amount: number, currency: "USD" | "ETB") => {
  const loadId = (await shipper.post("/api/loads", loadInput({ budgetAmount: amount, budgetCurrency: currency }))).json
    .id as number;
  const bid = await driver.post(`/api/loads/${loadId}/bids`, { amount, currency });
  expect((await shipper.post(`/api/bids/${bid.json.bid.id}/accept`)).status).toBe(200);
  const provider = currency === "ETB" ? "chapa" : "stripe";
  const res = await shipper.post(`/api/loads/${loadId}/payment`, { provider });
  let chargeId: string | null = null;
  if (provider === "stripe") {
    chargeId = (await emu.controls.stripe.payPayment(lastPart(res.json.url))).chargeId;
    await emu.controls.stripe.settled();
  } else {
    await emu.controls.chapa.pay(decodeURIComponent(lastPart(res.json.url)));
    await emu.controls.chapa.settled();
  }
  const p = await paymentOf(loadId);
  expect(p.state).toBe("funded");
  return { loadId, paymentId: p.id as number, chargeId };
};
const disputed = async (amount: number, currency: "USD" | "ETB") => {
  const f = await funded(amount, currency);
  expect((await driver.post(`/api/loads/${f.loadId}/pickup`)).status).toBe(200);
  expect((await driver.post(`/api/loads/${f.loadId}/deliver`)).status).toBe(200);
  expect((await shipper.post(`/api/loads/${f.loadId}/pod/dispute`, { reason: "Two pallets missing" })).status).toBe(
    200,
  );
  expect((await paymentOf(f.loadId)).state).toBe("disputed");
  return f;
};
/** The notices a settlement enqueued: one per party (each fans out to the bell and their channels when it runs). */
const noticesFor = async (paymentId: number) =>
  (
    await t.rows<{ unique_key: string }>(
      "select unique_key from jobs where unique_key like ? order by unique_key",
      `notify:payment_resolved:${paymentId}:%`,
    )
  )
    .map((r) => r.unique_key)
    .filter((k) => /^notify:payment_resolved:\d+:\d+$/.test(k));

describe("an operator settles a disputed payment", () => {
  test("release: the driver's whole share through the ordinary release, audited, both parties told, once", async () => {
    const { loadId, paymentId } = await disputed(900, "USD");
    const r = await operator().payments.resolve({ paymentId, action: "release", by: "cli:abebe" });
    expect(r).toMatchObject({ paymentId, loadId, state: "released", currency: "USD", refunded: 0, released: 900 });
    expect(await ledgerOf("release")).toEqual([
      ["escrow", -90000],
      ["driver", 90000],
    ]);
    expect(await ledgerOf("refund")).toEqual([]);
    const p = (await driver.get("/api/payments")).json[0];
    expect(p.state).toBe("released");
    const last = p.history.at(-1);
    expect(last).toMatchObject({
      state: "released",
      detail: { by: "cli:abebe", resolution: "release", refunded: 0, released: 900 },
    });
    expect(Date.parse(last.at)).toBeGreaterThan(Date.now() - 60_000);
    expect(await noticesFor(paymentId)).toHaveLength(2);
    // Decided: a second decision is refused (409), and nothing more is written.
    const again = await caught(operator().payments.resolve({ paymentId, action: "refund", by: "cli:abebe" }));
    expect(again.code).toBe("CONFLICT");
    expect(again.message).toBe(
      `Only a disputed payment or one whose payout was reversed can be resolved; payment ${paymentId} is released`,
    );
    expect(await ledgerOf("refund")).toEqual([]);
    // The jobs run: the provider is asked for nothing by a release; each party's bell says what they got.
    await allJobs().runOnce();
    expect(emu.controls.stripe.requests.filter((q) => q.path === "/v1/refunds")).toHaveLength(0);
    expect(await bell(driver)).toContainEqual({
      title: "Payment dispute settled",
      body: expect.stringMatching(/: \$900\.00 is released to you\.$/),
    });
    expect(await bell(shipper)).toContainEqual({
      title: "Payment dispute settled",
      body: expect.stringMatching(/: the payment is released to the driver\.$/),
    });
  });

  test("refund in full (Stripe): the fee too, in the ledger at once, at Stripe by the outbox job, once", async () => {
    const { loadId, paymentId, chargeId } = await disputed(900, "USD");
    const r = await operator().payments.resolve({ paymentId, action: "refund", by: "cli:abebe" });
    expect(r).toMatchObject({ state: "refunded", refunded: 927, released: 0 });
    expect(await ledgerOf("refund")).toEqual([
      ["shipper", 92700],
      ["escrow", -90000],
      ["platform_fees", -2700],
    ]);
    expect(await ledgerOf("release")).toEqual([]);
    expect((await paymentOf(loadId)).history.at(-1)).toMatchObject({
      state: "refunded",
      detail: { by: "cli:abebe", resolution: "refund", refunded: 927 },
    });
    expect(emu.controls.stripe.requests.filter((q) => q.path === "/v1/refunds")).toHaveLength(0);
    await worker().runOnce();
    const refunds = emu.controls.stripe.requests.filter((q) => q.path === "/v1/refunds");
    expect(refunds).toHaveLength(1);
    expect(Object.fromEntries(refunds[0]!.params)).toEqual({ charge: chargeId!, amount: "92700" });
    expect(refunds[0]!.headers["idempotency-key"]).toBe(`freight-refund:${paymentId}`);
    expect(emu.controls.stripe.charge(chargeId!)!.amount_refunded).toBe(92700);
    const [entry] = await t.rows<{ provider_object: string }>(
      "select provider_object from ledger_entries where txn = ?",
      `refund:${paymentId}`,
    );
    expect(entry!.provider_object).toStartWith("re_");
    await emu.controls.stripe.settled();
    expect(await worker().runOnce()).toBe(0);
    expect(await noticesFor(paymentId)).toHaveLength(2);
  });

  test("a partial refund (Chapa, birr) splits: that much back to the shipper, the rest released to the driver", async () => {
    const { loadId, paymentId } = await disputed(25_000, "ETB");
    // 25,000 agreed + 750 fee; 5,150.00 back: its fee part in proportion (150.00), 5,000.00 out of the escrow.
    const r = await operator().payments.resolve({ paymentId, action: "refund", amount: "5150.00", by: "cli:abebe" });
    expect(r).toMatchObject({ state: "released", currency: "ETB", refunded: 5150, released: 20_000 });
    expect(await ledgerOf("refund")).toEqual([
      ["shipper", 515000],
      ["escrow", -500000],
      ["platform_fees", -15000],
    ]);
    expect(await ledgerOf("release")).toEqual([
      ["escrow", -2000000],
      ["driver", 2000000],
    ]);
    expect((await paymentOf(loadId)).history.at(-1)).toMatchObject({
      state: "released",
      detail: { by: "cli:abebe", resolution: "split", refunded: 5150, released: 20_000 },
    });
    await allJobs().runOnce();
    const asked = emu.controls.chapa.requests.filter((q) => q.path.startsWith("/v1/refund/"));
    expect(asked).toHaveLength(1);
    expect(new URLSearchParams(asked[0]!.body).get("amount")).toBe("5150.00");
    const [entry] = await t.rows<{ provider_object: string }>(
      "select provider_object from ledger_entries where txn = ?",
      `refund:${paymentId}`,
    );
    expect(entry!.provider_object).toStartWith("refund:");
    expect(await bell(shipper)).toContainEqual({
      title: "Payment dispute settled",
      body: "An operator settled the payment dispute on Cement, 40 t: Br 5,150.00 is refunded to you.",
    });
  });

  test("refused: another state 409, an unknown payment 404, a bad amount 400 naming amount; nothing written", async () => {
    const { paymentId: fundedId } = await funded(400, "USD");
    const notDisputed = await caught(operator().payments.resolve({ paymentId: fundedId, action: "release", by: "x" }));
    expect(notDisputed.code).toBe("CONFLICT");
    expect(notDisputed.message).toContain("is funded");
    const missing = await caught(operator().payments.resolve({ paymentId: 99_999, action: "release", by: "x" }));
    expect(missing.code).toBe("NOT_FOUND");
    const { paymentId } = await disputed(900, "USD");
    for (const amount of ["0", "abc", "12.345", "-5", "927.01", "92701", "1."]) {
      const bad = await caught(operator().payments.resolve({ paymentId, action: "refund", amount, by: "x" }));
      expect(bad.code).toBe("BAD_REQUEST");
      expect((bad as AppError).issues?.[0]?.path).toBe("amount");
    }
    const onRelease = await caught(operator().payments.resolve({ paymentId, action: "release", amount: "1", by: "x" }));
    expect(onRelease.issues?.[0]?.path).toBe("amount");
    const badAction = await caught(
      operator().payments.resolve({ paymentId, action: "pay" as "release", by: "x" }) as Promise<unknown>,
    );
    expect(String((badAction as Error).message)).toContain("action must be release or refund");
    expect(await ledgerOf("refund")).toEqual([]);
    expect(await ledgerOf("release")).toEqual([]);
    expect(await noticesFor(paymentId)).toHaveLength(0);
  });

  test("only the operator: a signed-in user is refused, signed out too; the list filters by state", async () => {
    const { paymentId } = await disputed(300, "USD");
    await funded(200, "USD");
    const asUser = await shipper.post("/trpc/payments.resolve", { paymentId, action: "release", by: "me" });
    expect(asUser.status).toBe(403);
    expect((await otherShipper.post("/trpc/payments.resolve", { paymentId, action: "release", by: "me" })).status).toBe(
      403,
    );
    expect((await anon.post("/trpc/payments.resolve", { paymentId, action: "release", by: "me" })).status).toBe(403);
    expect((await shipper.get("/trpc/payments.operatorList")).status).toBe(403);
    expect((await paymentOf((await operator().payments.operatorList({}))[1]!.loadId)).state).toBe("disputed");
    const all = await operator().payments.operatorList({});
    expect(all.map((p) => p.state).sort()).toEqual(["disputed", "funded"]);
    const only = await operator().payments.operatorList({ state: "disputed" });
    expect(only).toHaveLength(1);
    expect(only[0]).toMatchObject({ id: paymentId, state: "disputed", currency: "USD", agreed: 300, fee: 9 });
    expect(only[0]!.shipperEmail).toContain("@");
  });
});

test("amounts: minor units or a decimal; the refund's fee part in proportion, all of it on a full refund", () => {
  expect(parseRefundAmount("1250", "USD", 10_000)).toBe(1250);
  expect(parseRefundAmount("12.50", "USD", 10_000)).toBe(1250);
  expect(parseRefundAmount("12.5", "ETB", 10_000)).toBe(1250);
  expect(() => parseRefundAmount("100.01", "USD", 10_000)).toThrow(AppError);
  expect(splitRefund({ agreedMinor: 90000, feeMinor: 2700 }, 92700)).toEqual({
    feePart: 2700,
    escrowPart: 90000,
    driverMinor: 0,
  });
  expect(splitRefund({ agreedMinor: 90000, feeMinor: 2700 }, 1)).toEqual({
    feePart: 0,
    escrowPart: 1,
    driverMinor: 89999,
  });
});
