import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { startPaymentEmulators } from "../../../emulators/payments/server";
import { signChapaPayload } from "../integrations/payments/chapa";
import { paymentsFromEnv } from "../integrations/payments/registry";
import { signStripePayload } from "../integrations/payments/stripe";
import { cleanBirr, sendRenewalReminders } from "../modules/billing/billing";
import { setOverride } from "../modules/fx/rates";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

const DAY = 24 * 60 * 60 * 1000;
let t: TTestApp;
// Webhooks and Chapa's callback go from the emulators into the test app, in process.
const emu = startPaymentEmulators({}, { fetchImpl: (req: Request) => t.app.handle(req) });
afterAll(() => emu.stop());

type TClient = ReturnType<typeof createClient>;
let user: TClient;
let userId: number;
beforeAll(() => {
  emu.controls.stripe.setWebhookUrl("http://localhost/api/webhooks/stripe");
});
beforeEach(async () => {
  emu.controls.stripe.reset();
  emu.controls.chapa.reset();
  emu.controls.stripe.setWebhookUrl("http://localhost/api/webhooks/stripe");
  emu.controls.chapa.setWebhookUrl("http://localhost/api/webhooks/chapa");
  t = await createTestApp({}, undefined, undefined, undefined, paymentsFromEnv(emu.env()));
  user = createClient(t);
  userId = (await registerUser(user, "shipper")).id;
});
afterEach(closeTestApps);

const status = async (c = user) => (await c.get("/api/subscription/status")).json;
const endTrial = () => t.rows("update users set trial_ends_at = ? where id = ?", Date.now() - DAY, userId);
const sessionIdOf = (url: string) => url.split("/").pop()!;

const buyWithStripe = async (currency = "USD") => {
  const res = await user.post("/api/subscription/checkout", { currency });
  expect(res.status).toBe(200);
  expect(res.json.url).toStartWith(emu.urls.stripe);
  await emu.controls.stripe.pay(sessionIdOf(res.json.url));
  await emu.controls.stripe.settled();
  return res.json.url as string;
};

/** A signed Stripe event sent straight to the app, as Stripe would deliver it. */
const sendStripe = async (type: string, object: Record<string, unknown>, id = `evt_${crypto.randomUUID()}`) => {
  const body = JSON.stringify({ id, object: "event", type, created: Math.floor(Date.now() / 1000), data: { object } });
  const res = await t.app.handle(
    new Request("http://localhost/api/webhooks/stripe", {
      method: "POST",
      headers: { "Stripe-Signature": await signStripePayload(body, emu.controls.stripe.webhookSecret) },
      body,
    }),
  );
  return { status: res.status, json: await res.json() };
};
const paidUntil = async (id = userId) => {
  const [row] = await t.rows<{ p: number | string | null }>("select paid_until p from users where id = ?", id);
  return row!.p === null ? null : Number(row!.p);
};

describe("Stripe", () => {
  test("checkout in USD, paid in the emulator: the signed events make premium active for a month, with a receipt", async () => {
    await endTrial();
    expect((await status()).subscriptionStatus).toBe("expired");
    const prices = (await user.get("/api/subscription/prices")).json;
    expect(prices.prices.map((p: { currency: string; period: string }) => `${p.currency} ${p.period}`)).toEqual([
      "USD month",
      "EUR month",
      "ETB month",
      "ETB year",
    ]);
    expect(prices.prices[0]).toMatchObject({ currency: "USD", amount: 29, provider: "stripe" });
    await buyWithStripe();
    const s = await status();
    expect(s).toMatchObject({
      subscriptionStatus: "active",
      provider: "stripe",
      cancelAtPeriodEnd: false,
      refundable: true,
    });
    const days = (Date.parse(s.currentPeriodEnd) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    const paid = (await user.get("/api/subscription/payments")).json;
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({ provider: "stripe", status: "paid", amount: 29, currency: "USD" });
    expect(paid[0].receiptUrl).toBeString();
    // The bell says so, in the user's language.
    const [n] = await t.rows<{ n: number }>(
      "select CAST(count(*) AS INTEGER) n from jobs where kind = 'notify' and unique_key like 'notify:payment_received:%'",
    );
    expect(n!.n).toBe(1);
  });

  test("a bad signature is a 400 and changes nothing; a replayed event changes nothing the second time", async () => {
    await endTrial();
    const body = JSON.stringify({
      id: "evt_forged",
      type: "invoice.paid",
      created: Math.floor(Date.now() / 1000),
      data: { object: { id: "in_forged", customer: "cus_x", amount_paid: 2900, currency: "usd" } },
    });
    const forged = await t.app.handle(
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "Stripe-Signature": await signStripePayload(body, "whsec_wrong") },
        body,
      }),
    );
    expect(forged.status).toBe(400);
    expect((await status()).subscriptionStatus).toBe("expired");

    await buyWithStripe();
    const delivered = emu.controls.stripe.deliveries.filter((d) => d.status === 200);
    expect(delivered.length).toBeGreaterThanOrEqual(2);
    const before = await t.rows("select paid_until from users where id = ?", userId);
    // Stripe retries a delivery: the same event again.
    const last = delivered.at(-1)!;
    const again = await t.app.handle(
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "Stripe-Signature": await signStripePayload(last.body, emu.controls.stripe.webhookSecret) },
        body: last.body,
      }),
    );
    expect(await again.json()).toMatchObject({ received: true, replayed: true });
    expect(await t.rows("select paid_until from users where id = ?", userId)).toEqual(before);
    expect((await user.get("/api/subscription/payments")).json).toHaveLength(1);
  });

  test("an invoice buys only what the plan sells: another price, a discount, a second seat, a year, an unbegun period or a trial grant nothing, and are kept with the reason", async () => {
    await endTrial();
    await buyWithStripe();
    const [sub] = emu.controls.stripe.subscriptions();
    const granted = async () =>
      (await t.rows<{ p: number }>("select CAST(paid_until AS BIGINT) p from users where id = ?", userId))[0]!.p;
    const before = Number(await granted());
    const deliver = async (type: string, object: Record<string, unknown>) => {
      const body = JSON.stringify({
        id: `evt_${crypto.randomUUID()}`,
        type,
        created: Math.floor(Date.now() / 1000),
        data: { object },
      });
      const res = await t.app.handle(
        new Request("http://localhost/api/webhooks/stripe", {
          method: "POST",
          headers: { "Stripe-Signature": await signStripePayload(body, emu.controls.stripe.webhookSecret) },
          body,
        }),
      );
      expect(res.status).toBe(200);
      return res.json();
    };
    const sec = (ms: number) => Math.floor(ms / 1000);
    const start = sec(before);
    const month = sec(before + 30 * DAY);
    const invoice = (
      n: number,
      over: {
        price?: string;
        unit?: string;
        paid?: number;
        quantity?: number;
        end?: number;
        start?: number;
        currency?: string;
      } = {},
    ) => ({
      id: `in_check_${n}`,
      object: "invoice",
      customer: sub!.customer,
      subscription: sub!.id,
      amount_paid: over.paid ?? 2900,
      currency: over.currency ?? "usd",
      lines: {
        data: [
          {
            period: { start: over.start ?? start, end: over.end ?? month },
            quantity: over.quantity ?? 1,
            pricing: {
              type: "price_details",
              price_details: { price: over.price ?? "price_usd_monthly" },
              unit_amount_decimal: over.unit ?? "2900",
            },
          },
        ],
      },
    });
    const refused = [
      await deliver("invoice.paid", invoice(1, { price: "price_other_product" })),
      await deliver("invoice.paid", invoice(2, { paid: 100 })),
      await deliver("invoice.paid", invoice(3, { quantity: 2, paid: 5800 })),
      await deliver("invoice.paid", invoice(4, { end: sec(before + 365 * DAY), paid: 29000 })),
      await deliver("invoice.paid", invoice(5, { start: sec(Date.now() + 40 * DAY), end: sec(Date.now() + 70 * DAY) })),
      await deliver("invoice.paid", invoice(6, { price: "price_eur_monthly", unit: "2700" })),
    ];
    expect(refused.map((r) => r.refused)).toEqual([
      "no line is for the premium plan (price_other_product)",
      "paid 1.00 USD, the plan costs 29.00 USD",
      "2 of the plan, not one",
      expect.stringContaining("is not a month of the plan that has begun"),
      expect.stringContaining("is not a month of the plan that has begun"),
      "paid in USD, but price_eur_monthly is the EUR price",
    ]);
    for (const r of refused) expect(r).toMatchObject({ received: true, applied: false });
    // A subscription's own period (a trial) is not a payment.
    expect(
      await deliver("customer.subscription.updated", {
        ...sub,
        status: "trialing",
        current_period_end: sec(before + 365 * DAY),
      }),
    ).toMatchObject({ applied: true });
    expect(Number(await granted())).toBe(before);
    const listed = (await user.get("/api/subscription/payments")).json as { status: string; note: string | null }[];
    expect(listed.filter((p) => p.status === "failed").map((p) => p.note)).toHaveLength(6);
    expect(listed.find((p) => p.note?.includes("1.00 USD"))).toMatchObject({ status: "failed", amount: 1 });
    // A month of the plan that has begun, paid in full (a renewal): granted.
    await t.rows("update users set paid_until = ? where id = ?", Date.now() + DAY, userId);
    const renewed = sec(Date.now()) - 60;
    const until = renewed + 30 * 86_400 + 43_200;
    expect(await deliver("invoice.paid", invoice(7, { start: renewed, end: until }))).toMatchObject({ applied: true });
    expect(Number(await granted())).toBe(until * 1000);
  });

  test("cancel at period end: premium runs to the end, then the deletion makes it cancelled; an older event arriving late is ignored", async () => {
    await endTrial();
    await buyWithStripe();
    const res = await user.post("/api/subscription/cancel", {});
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ subscriptionStatus: "active", cancelAtPeriodEnd: true, refunded: false });
    const [sub] = emu.controls.stripe.subscriptions();
    expect(sub!.cancel_at_period_end).toBe(true);
    await emu.controls.stripe.settled();
    // An update older than the cancellation, delivered late, does not turn renewal back on.
    const stale = JSON.stringify({
      id: "evt_stale_update",
      type: "customer.subscription.updated",
      created: Math.floor(Date.now() / 1000) - 3600,
      data: { object: { ...sub!, cancel_at_period_end: false } },
    });
    const late = await t.app.handle(
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "Stripe-Signature": await signStripePayload(stale, emu.controls.stripe.webhookSecret) },
        body: stale,
      }),
    );
    expect(await late.json()).toMatchObject({ received: true, applied: false });
    expect((await status()).cancelAtPeriodEnd).toBe(true);
    // The period ends: Stripe deletes the subscription.
    await emu.controls.stripe.advance(sub!.id as string);
    await emu.controls.stripe.settled();
    const s = await status();
    expect(s.subscriptionStatus).toBe("cancelled");
    expect(s.cancelAtPeriodEnd).toBe(false);
  });

  test("within 30 days the money comes back and premium ends now; after 30 days a refund is refused", async () => {
    await endTrial();
    await buyWithStripe("EUR");
    const refunded = await user.post("/api/subscription/cancel", { refund: true });
    expect(refunded.status).toBe(200);
    expect(refunded.json).toMatchObject({ subscriptionStatus: "cancelled", refunded: true });
    const pi = (await t.rows<{ refund_ref: string }>("select refund_ref from payments where status = 'refunded'"))[0]!
      .refund_ref;
    expect(emu.controls.stripe.refundsOf(pi)).toHaveLength(1);
    expect((await user.get("/api/subscription/payments")).json[0]).toMatchObject({
      status: "refunded",
      currency: "EUR",
    });

    const late = createClient(t, "10.0.0.7");
    const lateId = (await registerUser(late, "driver")).id;
    await t.rows("update users set trial_ends_at = ? where id = ?", Date.now() - DAY, lateId);
    const res = await late.post("/api/subscription/checkout", { currency: "USD" });
    await emu.controls.stripe.pay(sessionIdOf(res.json.url));
    await emu.controls.stripe.settled();
    await t.rows("update users set first_paid_at = ? where id = ?", Date.now() - 31 * DAY, lateId);
    const refused = await late.post("/api/subscription/cancel", { refund: true });
    expect(refused.status).toBe(409);
    expect(refused.json.message).toBe(
      "Refunds are given within 30 days of the first payment; this period runs to its end instead",
    );
  });
});

describe("Stripe: events in any order, some twice", () => {
  test("whatever the order and repeats of Checkout's events, the first paid month is recorded once", async () => {
    const orders: string[][] = [];
    let twice = 0;
    for (const seed of [1, 2, 3, 4, 5, 6, 7, 8]) {
      emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 0.5, seed, retries: 3 };
      const c = createClient(t, `10.1.0.${seed}`);
      const id = (await registerUser(c, "driver")).id;
      await t.rows("update users set trial_ends_at = ? where id = ?", Date.now() - DAY, id);
      const res = await c.post("/api/subscription/checkout", { currency: "USD" });
      expect(res.status).toBe(200);
      const before = emu.controls.stripe.deliveries.length;
      await emu.controls.stripe.pay(sessionIdOf(res.json.url));
      await emu.controls.stripe.settled();
      const sent = emu.controls.stripe.deliveries.slice(before);
      orders.push(sent.map((d) => d.event.type));
      twice += sent.length - new Set(sent.map((d) => d.event.id)).size;
      // Every delivery was accepted: each event could be placed on its own.
      expect(sent.map((d) => d.status)).toEqual(sent.map(() => 200));
      const s = (await c.get("/api/subscription/status")).json;
      expect(s).toMatchObject({ subscriptionStatus: "active", provider: "stripe" });
      const days = (Date.parse(s.currentPeriodEnd) - Date.now()) / DAY;
      expect(days).toBeGreaterThan(27);
      expect(days).toBeLessThan(32);
      const listed = (await c.get("/api/subscription/payments")).json;
      expect(listed).toHaveLength(1);
      expect(listed[0]).toMatchObject({ provider: "stripe", status: "paid", amount: 29 });
      const [row] = await t.rows<{ sub: string | null; cus: string | null }>(
        "select stripe_subscription_id sub, stripe_customer_id cus from users where id = ?",
        id,
      );
      expect(row!.sub).toStartWith("sub_");
      expect(row!.cus).toStartWith("cus_");
    }
    // The seeds did send the paid invoice before Checkout's completion, and some events twice.
    expect(orders.some((o) => o.indexOf("invoice.paid") < o.indexOf("checkout.session.completed"))).toBe(true);
    expect(
      orders.some((o) => o.indexOf("customer.subscription.created") < o.indexOf("checkout.session.completed")),
    ).toBe(true);
    expect(twice).toBeGreaterThan(0);
  });

  test("an event for the plan that names no account yet is answered 503 until Checkout's completion links it; others are answered and left alone", async () => {
    await endTrial();
    const price = { type: "price_details", price_details: { price: "price_usd_monthly" }, unit_amount_decimal: "2900" };
    const start = Math.floor(Date.now() / 1000) - 60;
    // A subscription made before the account was put in its metadata: nothing links it yet.
    const invoice = {
      id: "in_legacy_1",
      object: "invoice",
      customer: "cus_legacy",
      currency: "usd",
      amount_paid: 2900,
      parent: { type: "subscription_details", subscription_details: { subscription: "sub_legacy", metadata: {} } },
      lines: { data: [{ period: { start, end: start + 30 * 86_400 }, quantity: 1, pricing: price }] },
    };
    const first = await sendStripe("invoice.paid", invoice, "evt_legacy_invoice");
    expect(first.status).toBe(503);
    expect(first.json).toMatchObject({ received: false, retry: expect.stringContaining("names no account yet") });
    expect(await paidUntil()).toBeNull();
    const completed = await sendStripe("checkout.session.completed", {
      id: "cs_legacy",
      object: "checkout.session",
      client_reference_id: String(userId),
      customer: "cus_legacy",
      subscription: "sub_legacy",
    });
    expect(completed).toMatchObject({ status: 200, json: { applied: true } });
    // Stripe sends the same event again: now it is placed, once.
    const again = await sendStripe("invoice.paid", invoice, "evt_legacy_invoice");
    expect(again).toMatchObject({ status: 200, json: { applied: true } });
    expect(await paidUntil()).toBe((start + 30 * 86_400) * 1000);
    expect((await sendStripe("invoice.paid", invoice, "evt_legacy_invoice")).json).toMatchObject({ replayed: true });

    // Not ours: another product's invoice for a customer nobody here has, an event type we do not use, an account
    // that is not here. Each is answered 200 and changes nothing.
    const other = {
      ...invoice,
      id: "in_other",
      customer: "cus_stranger",
      parent: { subscription_details: { subscription: "sub_stranger", metadata: {} } },
      lines: { data: [{ ...invoice.lines.data[0], pricing: { price_details: { price: "price_other" } } }] },
    };
    expect(await sendStripe("invoice.paid", other)).toMatchObject({ status: 200, json: { applied: false } });
    expect(await sendStripe("charge.refunded", { id: "ch_1", object: "charge" })).toMatchObject({
      status: 200,
      json: { ignored: "charge.refunded is not used" },
    });
    const gone = {
      ...invoice,
      id: "in_gone",
      parent: { subscription_details: { subscription: "sub_x", metadata: { client_reference_id: "999999" } } },
    };
    expect(await sendStripe("invoice.paid", gone)).toMatchObject({
      status: 200,
      json: { ignored: "no account 999999 here" },
    });
    expect(await paidUntil()).toBe((start + 30 * 86_400) * 1000);
  });

  test("the emulator sends a refused event again: a Checkout of an older kind is placed on the retry", async () => {
    await endTrial();
    // A Session made without the subscription's metadata (as before it named the account): its invoice can only be
    // placed once checkout.session.completed has linked the customer.
    // Seed 8 sends invoice.paid, then customer.subscription.created, then checkout.session.completed.
    emu.controls.stripe.delivery = { shuffle: true, duplicateRate: 0, seed: 8, retries: 3 };
    const made = await fetch(`${emu.urls.stripe}/v1/checkout/sessions`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${emu.controls.stripe.secretKey}`,
        "Content-Type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({
        mode: "subscription",
        "line_items[0][price]": "price_usd_monthly",
        "line_items[0][quantity]": "1",
        success_url: "http://localhost/subscribe",
        client_reference_id: String(userId),
      }),
    });
    const session = (await made.json()) as { id: string };
    const { deliveries } = await emu.controls.stripe.pay(session.id);
    await emu.controls.stripe.settled();
    // Refused with 503 until the session linked the customer, then accepted when sent again.
    expect(emu.controls.stripe.deliveries.map((d) => [d.event.type, d.status])).toEqual([
      ["invoice.paid", 503],
      ["customer.subscription.created", 503],
      ["checkout.session.completed", 200],
      ["customer.subscription.created", 200],
      ["invoice.paid", 200],
    ]);
    expect(deliveries.every((d) => d.status === 200)).toBe(true);
    expect((await status()).subscriptionStatus).toBe("active");
    expect((await user.get("/api/subscription/payments")).json).toHaveLength(1);
  });
});

describe("Stripe: an invoice grants once", () => {
  test("an invoice.paid arriving after its payment was refunded (a retry of a delivery that failed) grants nothing again", async () => {
    await endTrial();
    await buyWithStripe();
    const invoice = emu.controls.stripe.deliveries.find((d) => d.event.type === "invoice.paid")!.event.data.object;
    expect((await user.post("/api/subscription/cancel", { refund: true })).status).toBe(200);
    await emu.controls.stripe.settled();
    const after = await paidUntil();
    expect((await status()).subscriptionStatus).toBe("cancelled");
    const late = await sendStripe("invoice.paid", invoice);
    expect(late).toMatchObject({ status: 200, json: { applied: false } });
    expect(await paidUntil()).toBe(after);
    expect((await status()).subscriptionStatus).toBe("cancelled");
    expect((await user.get("/api/subscription/payments")).json.map((p: { status: string }) => p.status)).toEqual([
      "refunded",
    ]);
  });
});

describe("premium bought during the free trial", () => {
  test("by card: Stripe bills from the trial's end, premium runs on the trial until then, with nothing charged", async () => {
    const [u] = await t.rows<{ trial: number }>(
      "select CAST(trial_ends_at AS BIGINT) trial from users where id = ?",
      userId,
    );
    const trialEnd = Number(u!.trial);
    const res = await user.post("/api/subscription/checkout", { currency: "USD" });
    expect(res.status).toBe(200);
    const sent = new Map(emu.controls.stripe.requests.at(-1)!.params);
    expect(sent.get("subscription_data[trial_end]")).toBe(String(Math.floor(trialEnd / 1000)));
    expect(sent.get("subscription_data[metadata][client_reference_id]")).toBe(String(userId));
    const page = await (await fetch(res.json.url)).text();
    expect(page).toContain("nothing is charged today");
    await emu.controls.stripe.pay(sessionIdOf(res.json.url));
    await emu.controls.stripe.settled();
    const [sub] = emu.controls.stripe.subscriptions();
    expect(sub).toMatchObject({ status: "trialing", trial_end: Math.floor(trialEnd / 1000) });
    expect(await status()).toMatchObject({
      subscriptionStatus: "active",
      trialStatus: { isTrialActive: true, trialEndsAt: new Date(trialEnd).toISOString() },
      currentPeriodEnd: null,
      billingStartsAt: new Date(trialEnd).toISOString(),
      provider: "stripe",
    });
    // The trial's invoice of 0.00 is no payment.
    expect((await user.get("/api/subscription/payments")).json).toEqual([]);
    // A second card subscription would charge twice.
    expect((await user.post("/api/subscription/checkout", { currency: "EUR" })).status).toBe(409);

    // The trial ends (the clock, and Stripe's trial_end): the first month is billed from then.
    await t.rows("update users set trial_ends_at = ? where id = ?", Date.now(), userId);
    await emu.controls.stripe.endTrial(sub!.id);
    await emu.controls.stripe.settled();
    const s = await status();
    expect(s).toMatchObject({ subscriptionStatus: "active", billingStartsAt: null });
    const days = (Date.parse(s.currentPeriodEnd) - Date.now()) / DAY;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    expect((await user.get("/api/subscription/payments")).json.map((p: { status: string }) => p.status)).toEqual([
      "paid",
    ]);
  });

  test("by card with less than 48 hours of trial left: billing starts at once; a refund gives back what the trial had left", async () => {
    const trialEnd = Date.now() + 30 * 3_600_000;
    await t.rows("update users set trial_ends_at = ? where id = ?", trialEnd, userId);
    await buyWithStripe();
    expect(
      new Map(emu.controls.stripe.requests.find((r) => r.path === "/v1/checkout/sessions")!.params).has(
        "subscription_data[trial_end]",
      ),
    ).toBe(false);
    const paid = await status();
    expect(Date.parse(paid.currentPeriodEnd) - Date.now()).toBeGreaterThan(27 * DAY);
    const refunded = await user.post("/api/subscription/cancel", { refund: true });
    expect(refunded.status).toBe(200);
    await emu.controls.stripe.settled();
    // Premium bought is gone; the trial's last hours are not.
    expect(await status()).toMatchObject({
      subscriptionStatus: "active",
      trialStatus: { isTrialActive: true, trialEndsAt: new Date(trialEnd).toISOString() },
      refundable: false,
    });
    expect((await user.get("/api/subscription/payments")).json[0]).toMatchObject({ status: "refunded" });
  });

  test("a card subscription waiting for the trial's end is cancelled at Stripe, nothing charged, and the trial runs on", async () => {
    const res = await user.post("/api/subscription/checkout", { currency: "USD" });
    await emu.controls.stripe.pay(sessionIdOf(res.json.url));
    await emu.controls.stripe.settled();
    const [sub] = emu.controls.stripe.subscriptions();
    const cancelled = await user.post("/api/subscription/cancel", {});
    expect(cancelled.status).toBe(200);
    await emu.controls.stripe.settled();
    expect(emu.controls.stripe.subscription(sub!.id)?.status).toBe("canceled");
    expect(emu.controls.stripe.deliveries.at(-1)?.event.type).toBe("customer.subscription.deleted");
    expect(await status()).toMatchObject({
      subscriptionStatus: "active",
      trialStatus: { isTrialActive: true },
      billingStartsAt: null,
    });
    // A card subscription can be taken again.
    expect((await user.post("/api/subscription/checkout", { currency: "USD" })).status).toBe(200);
  });

  test("in birr, 142 days before the trial ends: the month starts when the trial ends; a refund gives the trial back", async () => {
    const trialEnd = Date.now() + 142 * DAY;
    await t.rows("update users set trial_ends_at = ? where id = ?", trialEnd, userId);
    await user.post("/api/subscription/checkout", { currency: "ETB" });
    const [p] = await t.rows<{ provider_ref: string }>("select provider_ref from payments");
    await emu.controls.chapa.pay(p!.provider_ref);
    await emu.controls.chapa.settled();
    const end = new Date(trialEnd);
    end.setUTCMonth(end.getUTCMonth() + 1);
    expect(await status()).toMatchObject({ subscriptionStatus: "active", currentPeriodEnd: end.toISOString() });
    const refunded = await user.post("/api/subscription/cancel", { refund: true });
    expect(refunded.status).toBe(200);
    expect(refunded.json).toMatchObject({
      subscriptionStatus: "active",
      refunded: true,
      trialStatus: { isTrialActive: true, trialEndsAt: new Date(trialEnd).toISOString() },
    });
    expect((await user.get("/api/subscription/payments")).json[0]).toMatchObject({ status: "refunded" });
  });
});

describe("Chapa", () => {
  test("birr at the admin's rate: hosted checkout, paid, the signed webhook and the verify call make premium active once", async () => {
    await endTrial();
    const res = await user.post("/api/subscription/checkout", { currency: "ETB" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ provider: "chapa" });
    const [p] = await t.rows<{ provider_ref: string; amount_minor: number; status: string }>(
      "select provider_ref, CAST(amount_minor AS INTEGER) amount_minor, status from payments",
    );
    const [rate] = await t.rows<{ r: number }>("select rate_per_usd r from fx_rates where currency = 'ETB'");
    expect(p!.amount_minor).toBe(cleanBirr(29 * rate!.r) * 100);
    expect(p!.status).toBe("pending");
    await emu.controls.chapa.pay(p!.provider_ref);
    await emu.controls.chapa.settled();
    const s = await status();
    expect(s).toMatchObject({ subscriptionStatus: "active", provider: "chapa" });
    // The return page asks again: nothing more is granted.
    const until = s.currentPeriodEnd;
    const confirm = await user.post("/api/subscription/confirm", { txRef: p!.provider_ref });
    expect(confirm.json.status).toBe("paid");
    expect((await status()).currentPeriodEnd).toBe(until);
    expect((await user.get("/api/subscription/payments")).json.map((x: { status: string }) => x.status)).toEqual([
      "paid",
    ]); // Another account cannot confirm it.
    const stranger = createClient(t, "10.0.0.8");
    await registerUser(stranger, "driver");
    expect((await stranger.post("/api/subscription/confirm", { txRef: p!.provider_ref })).status).toBe(404);
  });

  test("the birr price follows the day's rate, rounded; a change never alters a payment already started or a running subscription", async () => {
    await endTrial();
    const etbMonth = async () =>
      (await user.get("/api/subscription/prices")).json.prices.find(
        (p: { currency: string; period: string }) => p.currency === "ETB" && p.period === "month",
      ).amount as number;
    await setOverride(t.db, { currency: "ETB", ratePerUsd: 157.227 });
    // 29 × 157.227 = 4,559.58 birr: quoted as 4,550.
    expect(await etbMonth()).toBe(4550);
    const res = await user.post("/api/subscription/checkout", { currency: "ETB" });
    const [p] = await t.rows<{ provider_ref: string; amount_minor: number }>(
      "select provider_ref, CAST(amount_minor AS INTEGER) amount_minor from payments",
    );
    expect(res.status).toBe(200);
    expect(p!.amount_minor).toBe(455_000);
    // The rate moves before the buyer pays: new checkouts get the new price, this one keeps its own.
    await setOverride(t.db, { currency: "ETB", ratePerUsd: 170 });
    expect(await etbMonth()).toBe(4950);
    await emu.controls.chapa.pay(p!.provider_ref);
    await emu.controls.chapa.settled();
    const s = await status();
    expect(s).toMatchObject({ subscriptionStatus: "active", provider: "chapa" });
    const until = await paidUntil();
    expect((await user.get("/api/subscription/payments")).json[0]).toMatchObject({ amount: 4550, status: "paid" });
    // Another change of rate leaves the month already bought exactly as it was.
    await setOverride(t.db, { currency: "ETB", ratePerUsd: 120 });
    expect(await etbMonth()).toBe(3500);
    expect(await paidUntil()).toBe(until);
    expect((await user.get("/api/subscription/payments")).json[0]).toMatchObject({ amount: 4550, status: "paid" });
  });

  test("an operator's PREMIUM_PRICE_ETB is the birr price whatever the rate (a year is ten months' price)", async () => {
    const fixed = await createTestApp({}, undefined, undefined, undefined, {
      ...paymentsFromEnv(emu.env()),
      premiumPriceEtb: 3000,
    });
    const c = createClient(fixed);
    await registerUser(c, "driver");
    await setOverride(fixed.db, { currency: "ETB", ratePerUsd: 157.227 });
    const prices = (await c.get("/api/subscription/prices")).json.prices as {
      currency: string;
      period: string;
      amount: number;
    }[];
    expect(prices.filter((p) => p.currency === "ETB").map((p) => [p.period, p.amount])).toEqual([
      ["month", 3000],
      ["year", 30000],
    ]);
  });

  test("a year in birr: twelve months for the price of ten, offered in ETB only", async () => {
    await endTrial();
    const prices = (await user.get("/api/subscription/prices")).json.prices as {
      currency: string;
      period: string;
      months: number;
      amount: number;
    }[];
    const month = prices.find((p) => p.currency === "ETB" && p.period === "month")!;
    const year = prices.find((p) => p.currency === "ETB" && p.period === "year")!;
    expect(year).toMatchObject({ months: 12, amount: month.amount * 10 });
    expect(prices.filter((p) => p.period === "year").map((p) => p.currency)).toEqual(["ETB"]);

    const usd = await user.post("/api/subscription/checkout", { currency: "USD", period: "year" });
    expect(usd.status).toBe(400);
    expect(usd.json.issues).toEqual([{ path: "period", message: "yearly is offered in ETB only" }]);
    const bad = await user.post("/api/subscription/checkout", { currency: "ETB", period: "week" });
    expect(bad.status).toBe(400);
    expect(bad.json.issues[0].path).toBe("period");
    expect(await t.rows("select id from payments")).toEqual([]);

    const before = Date.now();
    const res = await user.post("/api/subscription/checkout", { currency: "ETB", period: "year" });
    expect(res.status).toBe(200);
    const [p] = await t.rows<{ provider_ref: string; amount_minor: number; months: number }>(
      "select provider_ref, CAST(amount_minor AS INTEGER) amount_minor, CAST(months AS INTEGER) months from payments",
    );
    expect(p).toMatchObject({ amount_minor: year.amount * 100, months: 12 });
    await emu.controls.chapa.pay(p!.provider_ref);
    await emu.controls.chapa.settled();
    const s = await status();
    expect(s).toMatchObject({ subscriptionStatus: "active", provider: "chapa" });
    const end = new Date(before);
    end.setUTCMonth(end.getUTCMonth() + 12);
    expect(Math.abs(Date.parse(s.currentPeriodEnd) - end.getTime())).toBeLessThan(60_000);
    const [listed] = (await user.get("/api/subscription/payments")).json;
    expect(listed).toMatchObject({ months: 12, currency: "ETB", amount: year.amount, status: "paid" });
  });

  test("a Chapa payment for another amount than asked grants nothing and is kept as failed with the reason", async () => {
    await endTrial();
    await user.post("/api/subscription/checkout", { currency: "ETB" });
    const [p] = await t.rows<{ provider_ref: string; amount_minor: number }>(
      "select provider_ref, CAST(amount_minor AS INTEGER) amount_minor from payments",
    );
    // As if the hosted page had been paid for less than this payment asks (say the page of a cheaper order).
    await t.rows("update payments set amount_minor = ? where provider_ref = ?", p!.amount_minor + 100, p!.provider_ref);
    await emu.controls.chapa.pay(p!.provider_ref);
    await emu.controls.chapa.settled();
    expect((await status()).subscriptionStatus).toBe("expired");
    const [listed] = (await user.get("/api/subscription/payments")).json;
    expect(listed.status).toBe("failed");
    expect(listed.note).toStartWith("Not granted: Chapa reports");
    // Asked again from the return page: still nothing.
    expect((await user.post("/api/subscription/confirm", { txRef: p!.provider_ref })).json.status).toBe("failed");
    expect((await status()).subscriptionStatus).toBe("expired");
  });

  test("a Chapa webhook with a bad signature is refused; one for an unpaid transaction grants nothing", async () => {
    await endTrial();
    const res = await user.post("/api/subscription/checkout", { currency: "ETB" });
    const [p] = await t.rows<{ provider_ref: string }>("select provider_ref from payments");
    const body = JSON.stringify({ event: "charge.success", tx_ref: p!.provider_ref, status: "success" });
    const bad = await t.app.handle(
      new Request("http://localhost/api/webhooks/chapa", {
        method: "POST",
        headers: { "Chapa-Signature": signChapaPayload(body, "wrong") },
        body,
      }),
    );
    expect(bad.status).toBe(400);
    // Correctly signed, but Chapa says the transaction is not paid: verify decides.
    const good = await t.app.handle(
      new Request("http://localhost/api/webhooks/chapa", {
        method: "POST",
        headers: { "Chapa-Signature": signChapaPayload(body, emu.controls.chapa.webhookSecret) },
        body,
      }),
    );
    expect(good.status).toBe(200);
    expect((await status()).subscriptionStatus).toBe("expired");
    expect(res.json.url).toContain(p!.provider_ref);
  });

  test("a checkout abandoned on Chapa's page is cancelled, not failed: in the payments list and on the return page", async () => {
    await endTrial();
    const res = await user.post("/api/subscription/checkout", { currency: "ETB" });
    const [p] = await t.rows<{ provider_ref: string }>("select provider_ref from payments");
    const page = await fetch(`${res.json.url}/cancel`, { method: "POST", redirect: "manual" });
    expect(page.status).toBe(303);
    await emu.controls.chapa.settled();
    expect(emu.controls.chapa.deliveries.map((d) => d.event)).toEqual(["charge.cancelled"]);
    expect((await user.get("/api/subscription/payments")).json).toEqual([
      expect.objectContaining({ provider: "chapa", status: "cancelled" }),
    ]);
    // The browser comes back to the return page, which asks again.
    const back = await user.post("/api/subscription/confirm", { txRef: p!.provider_ref });
    expect(back.json.status).toBe("cancelled");
    expect((await status()).subscriptionStatus).toBe("expired");
  });

  test("Chapa's webhooks for what MyTess did not create (another transaction on the account, a payout) are answered 200 and left alone", async () => {
    await endTrial();
    const other = await emu.controls.chapa.otherTransaction();
    expect(other.status).toBe(200);
    const payout = await emu.controls.chapa.payout();
    expect(payout.status).toBe(200);
    const failed = await emu.controls.chapa.payout("payout.failed");
    expect(failed.status).toBe(200);
    // Each was delivered once: nothing for Chapa to send again.
    expect(emu.controls.chapa.deliveries.map((d) => [d.event, d.status])).toEqual([
      ["charge.success", 200],
      ["payout.success", 200],
      ["payout.failed", 200],
    ]);
    expect(await t.rows("select id from payments")).toEqual([]);
    expect((await status()).subscriptionStatus).toBe("expired");
    // Still refused: a body that is not Chapa's.
    const body = JSON.stringify({ event: "payout.success", type: "Payout", reference: "TR-1" });
    const forged = await t.app.handle(
      new Request("http://localhost/api/webhooks/chapa", {
        method: "POST",
        headers: { "Chapa-Signature": signChapaPayload(body, "not-the-secret") },
        body,
      }),
    );
    expect(forged.status).toBe(400);
  });

  test("three days before premium bought in birr ends, one reminder", async () => {
    await t.rows(
      "update users set billing_provider = 'chapa', paid_until = ? where id = ?",
      Date.now() + 2 * DAY,
      userId,
    );
    expect(await sendRenewalReminders(t.db)).toEqual({ sent: 1 });
    expect(await sendRenewalReminders(t.db)).toEqual({ sent: 0 });
    const [n] = await t.rows<{ n: number }>(
      "select CAST(count(*) AS INTEGER) n from jobs where unique_key like 'notify:premium_ending:%'",
    );
    expect(n!.n).toBe(1);
  });
});

describe("what premium unlocks, enforced on the server", () => {
  test("without a trial or a paid period: posting, bidding, connecting boards and stores and chat alerts answer 402; reading still works", async () => {
    const driver = createClient(t, "10.0.0.5");
    const driverId = (await registerUser(driver, "driver")).id;
    const load = (await user.post("/api/loads", loadInput())).json;
    await endTrial();
    await t.rows("update users set trial_ends_at = ? where id = ?", Date.now() - DAY, driverId);
    const refused = [
      await user.post("/api/loads", loadInput()),
      await driver.post(`/api/loads/${load.id}/bids`, { amount: 900 }),
      await driver.post("/api/marketplaces", { provider: "other", name: "Feed", apiBaseUrl: "https://feed.example" }),
      await user.post("/api/ecommerce/integrations", {
        platform: "shopify",
        name: "Shop",
        credentials: {},
        settings: {},
      }),
      await driver.put("/api/messaging/preferences", {
        whatsappEnabled: false,
        whatsappNumber: null,
        telegramEnabled: true,
        telegramChatId: "12345",
        language: "en",
        notificationTypes: { loadAssigned: true, loadUpdates: true, paymentReceived: true, systemAlerts: true },
      }),
      await driver.post("/api/messaging/telegram/send", { chatId: "12345" }),
      await user.post("/trpc/loads.create", loadInput()),
    ];
    for (const r of refused) {
      expect(r.status).toBe(402);
    }
    expect(refused[0]!.json).toMatchObject({
      code: "SUBSCRIPTION_REQUIRED",
      message: "This needs MyTess Premium: your free period has ended. Upgrade on the subscription page to continue.",
    });
    const am = await user.post("/api/loads", loadInput(), { "Accept-Language": "am" });
    expect(am.status).toBe(402);
    expect((await user.get("/api/loads")).status).toBe(200);
    expect((await user.get(`/api/loads/${load.id}`)).status).toBe(200);
    // Bought: allowed again.
    await buyWithStripe();
    expect((await user.post("/api/loads", loadInput())).status).toBe(201);
  });
});
