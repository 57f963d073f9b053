import { afterAll, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { chapaSignature } from "../../../../emulators/payments/chapa";
import { CHAPA_SANDBOX, STRIPE_SANDBOX, startPaymentEmulators } from "../../../../emulators/payments/server";
import { stripeSignatureHeader } from "../../../../emulators/payments/stripe";
import { AppError } from "../../errors";
import { chapaAmount, createChapaAdapter, signChapaPayload } from "./chapa";
import { formEncode, formEntries } from "./http";
import { paymentsFromEnv } from "./registry";
import {
  createStripeAdapter,
  mapStripeSubscription,
  STRIPE_API_VERSION,
  signStripePayload,
  stripeEventRefs,
  stripeReason,
  verifyStripeWebhook,
} from "./stripe";
import type { TChapaSettings, TChapaWebhook, TStripeEvent, TStripeSettings } from "./types";

// Per file: Bun 1.4 ignores bunfig's test timeout.
setDefaultTimeout(60_000);

const emu = startPaymentEmulators();
afterAll(() => emu.stop());
const stripeEmu = emu.controls.stripe;
const chapaEmu = emu.controls.chapa;

const stripeSettings = (over: Partial<TStripeSettings> = {}): TStripeSettings => ({
  baseUrl: emu.urls.stripe,
  secretKey: STRIPE_SANDBOX.secretKey,
  webhookSecret: STRIPE_SANDBOX.webhookSecret,
  prices: { ...STRIPE_SANDBOX.prices },
  timeoutMs: 3000,
  ...over,
});
const chapaSettings = (over: Partial<TChapaSettings> = {}): TChapaSettings => ({
  baseUrl: emu.urls.chapa,
  secretKey: CHAPA_SANDBOX.secretKey,
  webhookSecret: CHAPA_SANDBOX.webhookSecret,
  timeoutMs: 3000,
  ...over,
});
const stripe = createStripeAdapter(stripeSettings());
const chapa = createChapaAdapter(chapaSettings());

// A stand-in for MyTess's webhook routes, in process: the emulators' deliveries are routed here (fetchImpl).
const APP = "http://mytess.test";
const inbox = {
  stripe: [] as TStripeEvent[],
  chapa: [] as TChapaWebhook[],
  refused: [] as string[],
  callbacks: [] as URL[],
};
const app = async (req: Request): Promise<Response> => {
  const url = new URL(req.url);
  const raw = await req.text();
  try {
    if (url.pathname === "/api/webhooks/stripe") {
      inbox.stripe.push(await stripe.verifyWebhook(raw, req.headers.get("stripe-signature")));
      return new Response("ok");
    }
    if (url.pathname === "/api/webhooks/chapa") {
      inbox.chapa.push(chapa.verifyWebhook(raw, req.headers));
      return new Response("ok");
    }
    if (url.pathname === "/api/billing/chapa/callback") {
      inbox.callbacks.push(url);
      return new Response("ok");
    }
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    inbox.refused.push(err.message);
    return new Response(err.message, { status: 400 });
  }
  return new Response("not found", { status: 404 });
};

beforeEach(() => {
  stripeEmu.reset();
  chapaEmu.reset();
  stripeEmu.fetchImpl = app;
  chapaEmu.fetchImpl = app;
  stripeEmu.setWebhookUrl(`${APP}/api/webhooks/stripe`);
  chapaEmu.setWebhookUrl(`${APP}/api/webhooks/chapa`);
  inbox.stripe = [];
  inbox.chapa = [];
  inbox.refused = [];
  inbox.callbacks = [];
});

const caught = async (p: Promise<unknown> | (() => unknown)) => {
  try {
    await (typeof p === "function" ? p() : p);
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error("expected a failure");
};

const checkout = (over: Partial<Parameters<typeof stripe.createCheckoutSession>[0]> = {}) =>
  stripe.createCheckoutSession({
    currency: "USD",
    email: "abebe@example.et",
    clientReferenceId: "acct_42",
    customerId: null,
    trialEnd: null,
    successUrl: `${APP}/billing/done?session_id={CHECKOUT_SESSION_ID}`,
    cancelUrl: `${APP}/billing`,
    idempotencyKey: crypto.randomUUID(),
    ...over,
  });

/** A paid subscription: checkout, then "Pay" on the hosted page. */
const subscribed = async () => {
  const session = await checkout();
  const paid = await stripeEmu.pay(session.id);
  return { session, ...paid };
};

const lastStripeRequest = () => stripeEmu.requests[stripeEmu.requests.length - 1];

/** Each event received, once (Stripe may deliver one twice), in the order of its first arrival. */
const received = () => [...new Map(inbox.stripe.map((e) => [e.id, e])).values()];
/** Their types, sorted: Stripe promises no order. */
const receivedTypes = () =>
  received()
    .map((e) => e.type)
    .sort();
const receivedOf = (type: string) => received().find((e) => e.type === type)!;

describe("form encoding", () => {
  test("nested objects and arrays become Stripe's bracketed keys; null and undefined are left out", () => {
    expect(
      formEntries({
        mode: "subscription",
        line_items: [{ price: "price_1", quantity: 1 }],
        expand: ["a", "b.c"],
        flag: false,
        none: null,
        skipped: undefined,
        metadata: { k: "v w" },
      }),
    ).toEqual([
      ["mode", "subscription"],
      ["line_items[0][price]", "price_1"],
      ["line_items[0][quantity]", "1"],
      ["expand[0]", "a"],
      ["expand[1]", "b.c"],
      ["flag", "false"],
      ["metadata[k]", "v w"],
    ]);
    expect(formEncode({ success_url: "https://x.test/?s={CHECKOUT_SESSION_ID}" })).toBe(
      "success_url=https%3A%2F%2Fx.test%2F%3Fs%3D%7BCHECKOUT_SESSION_ID%7D",
    );
  });
});

describe("Stripe: Checkout", () => {
  test("a session is created with exactly the form fields Stripe wants", async () => {
    const key = crypto.randomUUID();
    const s = await checkout({ idempotencyKey: key });
    expect(s.id).toStartWith("cs_test_");
    expect(s.url).toBe(`${emu.urls.stripe}/checkout/${s.id}`);
    const r = lastStripeRequest();
    expect(r.method).toBe("POST");
    expect(r.path).toBe("/v1/checkout/sessions");
    expect(r.headers.authorization).toBe(`Bearer ${STRIPE_SANDBOX.secretKey}`);
    expect(r.headers["stripe-version"]).toBe(STRIPE_API_VERSION);
    expect(r.headers["idempotency-key"]).toBe(key);
    expect(r.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect(r.params).toEqual([
      ["mode", "subscription"],
      ["line_items[0][price]", "price_usd_monthly"],
      ["line_items[0][quantity]", "1"],
      ["success_url", `${APP}/billing/done?session_id={CHECKOUT_SESSION_ID}`],
      ["cancel_url", `${APP}/billing`],
      ["client_reference_id", "acct_42"],
      ["customer_email", "abebe@example.et"],
      ["subscription_data[metadata][client_reference_id]", "acct_42"],
    ]);
    expect(stripeEmu.session(s.id)?.price.id).toBe("price_usd_monthly");
  });

  test("every call names the pinned API version, and Stripe answers in it; a version Stripe does not know is refused", async () => {
    expect(STRIPE_API_VERSION).toBe("2026-07-29.dahlia");
    const { subscriptionId } = await subscribed();
    await stripe.retrieveSubscription(subscriptionId);
    await stripe.setCancelAtPeriodEnd(subscriptionId, true);
    await stripe.createPortalSession(stripeEmu.subscription(subscriptionId)!.customer, `${APP}/billing`);
    await stripe.cancelNow(subscriptionId);
    expect(stripeEmu.requests.length).toBeGreaterThanOrEqual(5);
    for (const r of stripeEmu.requests) expect(r.headers["stripe-version"]).toBe(STRIPE_API_VERSION);
    const echoed = await fetch(`${emu.urls.stripe}/v1/subscriptions/${subscriptionId}`, {
      headers: { Authorization: `Bearer ${STRIPE_SANDBOX.secretKey}`, "Stripe-Version": STRIPE_API_VERSION },
    });
    expect(echoed.headers.get("stripe-version")).toBe(STRIPE_API_VERSION);
    const unknown = await fetch(`${emu.urls.stripe}/v1/subscriptions/${subscriptionId}`, {
      headers: { Authorization: `Bearer ${STRIPE_SANDBOX.secretKey}`, "Stripe-Version": "2026-13-01.nonsense" },
    });
    expect(unknown.status).toBe(400);
    expect(((await unknown.json()) as { error: { message: string } }).error.message).toBe(
      "Invalid Stripe API version: 2026-13-01.nonsense",
    );
  });

  test("a trial end is sent as subscription_data[trial_end]: the subscription trials, its first invoice charges nothing, the trial's end bills the first month", async () => {
    const trialEnd = Date.now() + 10 * 86_400_000;
    const s = await checkout({ trialEnd });
    expect(new Map(lastStripeRequest().params).get("subscription_data[trial_end]")).toBe(
      String(Math.floor(trialEnd / 1000)),
    );
    const { subscriptionId } = await stripeEmu.pay(s.id);
    await stripeEmu.settled();
    expect(stripeEmu.session(s.id)?.payment_status).toBe("no_payment_required");
    const created = receivedOf("customer.subscription.created").object;
    expect(created).toMatchObject({ status: "trialing", trial_end: Math.floor(trialEnd / 1000) });
    expect(mapStripeSubscription(created)?.currentPeriodEnd).toBe(Math.floor(trialEnd / 1000) * 1000);
    expect(receivedOf("invoice.paid").object).toMatchObject({ amount_paid: 0, amount_due: 0 });
    expect((await stripe.retrieveSubscription(subscriptionId)).latestPaymentIntent).toBeNull();
    inbox.stripe = [];
    await stripeEmu.endTrial(subscriptionId);
    const first = receivedOf("invoice.paid").object as {
      amount_paid: number;
      lines: { data: { period: { start: number } }[] };
    };
    expect(first.amount_paid).toBe(2900);
    expect(Math.abs(first.lines.data[0]!.period.start * 1000 - Date.now())).toBeLessThan(60_000);
    expect(mapStripeSubscription(receivedOf("customer.subscription.updated").object)?.status).toBe("active");
  });

  test("Stripe refuses a trial end less than 48 hours ahead", async () => {
    const err = await caught(checkout({ trialEnd: Date.now() + 47 * 3_600_000 }));
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe(
      "Stripe rejected the request: The `trial_end` date has to be at least 2 days in the future.",
    );
  });

  test("each event names its account: the session's client_reference_id, the subscription's metadata, the invoice's copy of it", async () => {
    const s = await checkout({ clientReferenceId: "42" });
    await stripeEmu.pay(s.id);
    for (const type of ["checkout.session.completed", "customer.subscription.created", "invoice.paid"]) {
      const e = receivedOf(type);
      expect(stripeEventRefs(e)).toMatchObject({
        account: "42",
        subscription: expect.stringMatching(/^sub_/),
        customer: expect.stringMatching(/^cus_/),
      });
    }
    expect(stripeEventRefs(receivedOf("invoice.paid")).prices).toEqual(["price_usd_monthly"]);
    // An endpoint on an older version: the invoice names its subscription and metadata at the top level.
    const old = {
      object: {
        subscription: "sub_1",
        customer: "cus_1",
        subscription_details: { metadata: { client_reference_id: "7" } },
      },
    };
    expect(stripeEventRefs({ type: "invoice.paid", ...old })).toMatchObject({ account: "7", subscription: "sub_1" });
    // A subscription without our metadata names no account: the handler looks it up by subscription or customer.
    expect(
      stripeEventRefs({ type: "customer.subscription.updated", object: { id: "sub_2", customer: "cus_2" } }),
    ).toEqual({ account: null, subscription: "sub_2", customer: "cus_2", prices: [] });
  });

  test("EUR uses the EUR price; a known customer is sent instead of the email", async () => {
    const first = await subscribed();
    const s = await checkout({ currency: "EUR", customerId: first.customerId });
    const params = new Map(lastStripeRequest().params);
    expect(params.get("line_items[0][price]")).toBe("price_eur_monthly");
    expect(params.get("customer")).toBe(first.customerId);
    expect(params.has("customer_email")).toBe(false);
    expect(stripeEmu.session(s.id)?.customer).toBe(first.customerId);
  });

  test("a currency without a price is refused before calling Stripe", async () => {
    const usdOnly = createStripeAdapter(stripeSettings({ prices: { USD: "price_usd_monthly" } }));
    expect(usdOnly.currencies).toEqual(["USD"]);
    const calls = stripeEmu.calls;
    const err = await caught(
      usdOnly.createCheckoutSession({
        currency: "EUR",
        email: "a@b.et",
        clientReferenceId: "acct_1",
        customerId: null,
        trialEnd: null,
        successUrl: `${APP}/ok`,
        cancelUrl: `${APP}/no`,
        idempotencyKey: "k",
      }),
    );
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe("Stripe has no price configured for EUR");
    expect(stripeEmu.calls).toBe(calls);
  });

  test("an unknown price is refused in Stripe's words", async () => {
    const wrong = createStripeAdapter(stripeSettings({ prices: { USD: "price_nope" } }));
    const err = await caught(
      wrong.createCheckoutSession({
        currency: "USD",
        email: "a@b.et",
        clientReferenceId: "acct_1",
        customerId: null,
        trialEnd: null,
        successUrl: `${APP}/ok`,
        cancelUrl: `${APP}/no`,
        idempotencyKey: "k2",
      }),
    );
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe("Stripe rejected the request: No such price: 'price_nope'");
  });

  test("the same Idempotency-Key gives the same session; other parameters under it are refused", async () => {
    const key = crypto.randomUUID();
    const a = await checkout({ idempotencyKey: key });
    const b = await checkout({ idempotencyKey: key });
    expect(b).toEqual(a);
    const err = await caught(checkout({ idempotencyKey: key, clientReferenceId: "acct_other" }));
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toContain("Stripe rejected the request: Keys for idempotent requests");
    const c = await checkout();
    expect(c.id).not.toBe(a.id);
  });

  test("the hosted page shows the amount and email; Pay delivers signed events, in any order and each twice, then redirects", async () => {
    stripeEmu.delivery = { shuffle: true, duplicateRate: 1, seed: 8, retries: 3 };
    const s = await checkout();
    const html = await (await fetch(s.url)).text();
    expect(html).toContain("MyTess Sandbox · Stripe Checkout");
    expect(html).toContain("29.00 USD");
    expect(html).toContain("abebe@example.et");
    expect(html).toContain(`action="/checkout/${s.id}/pay"`);
    expect(html).toContain(`action="/checkout/${s.id}/cancel"`);

    const res = await fetch(`${s.url}/pay`, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${APP}/billing/done?session_id=${s.id}`);

    // Verified by the adapter in the stand-in app, before the redirect.
    expect(inbox.refused).toEqual([]);
    expect(receivedTypes()).toEqual(["checkout.session.completed", "customer.subscription.created", "invoice.paid"]);
    // Seed 8 puts the invoice first; every event came twice, the same body both times.
    const sent = stripeEmu.deliveries;
    expect(sent).toHaveLength(6);
    expect(sent[0].event.type).toBe("invoice.paid");
    expect(sent.every((d) => d.status === 200)).toBe(true);
    for (const d of sent) expect(sent.filter((x) => x.body === d.body)).toHaveLength(2);
    const completed = receivedOf("checkout.session.completed");
    const created = receivedOf("customer.subscription.created");
    const paid = receivedOf("invoice.paid");
    expect(completed.object).toMatchObject({
      id: s.id,
      object: "checkout.session",
      client_reference_id: "acct_42",
      payment_status: "paid",
      status: "complete",
    });
    const subId = completed.object.subscription as string;
    expect(subId).toStartWith("sub_");
    expect(created.object.metadata).toEqual({ client_reference_id: "acct_42" });
    const sub = mapStripeSubscription(created.object);
    expect(sub).toMatchObject({ id: subId, status: "active", cancelAtPeriodEnd: false });
    const days = (sub!.currentPeriodEnd - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(27);
    expect(days).toBeLessThan(32);
    expect(paid.object).toMatchObject({ object: "invoice", status: "paid", amount_paid: 2900, currency: "usd" });
    // Basil: the invoice names its subscription under parent.subscription_details.
    expect(paid.object.parent).toMatchObject({ subscription_details: { subscription: subId } });
    expect(paid.created).toBeGreaterThan(Date.now() - 60_000);

    // A paid session's page says so; paying again is refused.
    expect(await (await fetch(s.url)).text()).toContain("complete");
    await expect(stripeEmu.pay(s.id)).rejects.toThrow("complete");
  });

  test("Cancel on the hosted page redirects to cancel_url and sends nothing", async () => {
    const s = await checkout();
    const res = await fetch(`${s.url}/cancel`, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${APP}/billing`);
    expect(stripeEmu.session(s.id)?.status).toBe("open");
    expect(stripeEmu.events).toEqual([]);
    expect(stripeEmu.cancel(s.id)).toBe(`${APP}/billing`);
  });

  test("deliveries over real HTTP carry a Stripe-Signature the adapter accepts", async () => {
    const got: { raw: string; signature: string | null }[] = [];
    const receiver = Bun.serve({
      port: 0,
      hostname: "127.0.0.1",
      fetch: async (req) => {
        got.push({ raw: await req.text(), signature: req.headers.get("stripe-signature") });
        return new Response("ok");
      },
    });
    try {
      stripeEmu.fetchImpl = (req) => fetch(req);
      stripeEmu.setWebhookUrl(`http://127.0.0.1:${receiver.port}/hook`);
      stripeEmu.delivery = { ...stripeEmu.delivery, duplicateRate: 1 };
      await subscribed();
      const ids = new Set<string>();
      for (const g of got) {
        expect(g.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64},v0=[0-9a-f]{64}$/);
        const e = await stripe.verifyWebhook(g.raw, g.signature);
        expect(e.id).toStartWith("evt_");
        ids.add(e.id);
      }
      // Three events, each sent twice.
      expect(ids.size).toBe(3);
      expect(got.length).toBe(6);
    } finally {
      receiver.stop(true);
    }
  });
});

describe("Stripe: webhook signatures", () => {
  const raw = JSON.stringify({
    id: "evt_1",
    object: "event",
    type: "invoice.paid",
    created: 1_760_000_000,
    data: { object: { id: "in_1", object: "invoice" } },
  });
  const now = 1_760_000_100_000;
  const t = now / 1000;

  test("the signature the adapter makes is the emulator's; a signed event is read", async () => {
    const header = await signStripePayload(raw, "whsec_x", t);
    expect(stripeSignatureHeader(raw, "whsec_x", t).startsWith(`${header},v0=`)).toBe(true);
    const e = await verifyStripeWebhook(raw, header, "whsec_x", now);
    expect(e).toEqual({
      account: null,
      id: "evt_1",
      type: "invoice.paid",
      created: 1_760_000_000_000,
      object: { id: "in_1", object: "invoice" },
    });
  });

  test("any of several v1 signatures may match (secret rolling); v0 is ignored", async () => {
    const good = (await signStripePayload(raw, "whsec_new", t)).split(",")[1];
    const old = (await signStripePayload(raw, "whsec_old", t)).split(",")[1];
    const e = await verifyStripeWebhook(raw, `t=${t},${old},${good},v0=abc`, "whsec_new", now);
    expect(e.id).toBe("evt_1");
  });

  test("a wrong secret, a tampered body, a missing header, a stale or future timestamp are refused", async () => {
    const header = await signStripePayload(raw, "whsec_x", t);
    const refused = async (p: Promise<unknown>, reason: string) => {
      const err = await caught(p);
      expect(err.code).toBe("BAD_REQUEST");
      expect(err.message).toBe(`Stripe: the webhook could not be verified: ${reason}`);
    };
    const bad = "the signature does not match the body";
    await refused(verifyStripeWebhook(raw, header, "whsec_y", now), bad);
    await refused(verifyStripeWebhook(raw.replace("in_1", "in_2"), header, "whsec_x", now), bad);
    await refused(verifyStripeWebhook(raw, header.replace(/v1=./, "v1=0"), "whsec_x", now), bad);
    const missing = "the Stripe-Signature header is missing or malformed";
    await refused(verifyStripeWebhook(raw, null, "whsec_x", now), missing);
    await refused(verifyStripeWebhook(raw, "v1=abc", "whsec_x", now), missing);
    await refused(verifyStripeWebhook(raw, `t=${t}`, "whsec_x", now), missing);
    const stale = "the signed timestamp is more than 300 s away from now";
    await refused(verifyStripeWebhook(raw, await signStripePayload(raw, "whsec_x", t - 301), "whsec_x", now), stale);
    await refused(verifyStripeWebhook(raw, await signStripePayload(raw, "whsec_x", t + 301), "whsec_x", now), stale);
    // Within the tolerance.
    const e = await verifyStripeWebhook(raw, await signStripePayload(raw, "whsec_x", t - 299), "whsec_x", now);
    expect(e.id).toBe("evt_1");
    await refused(verifyStripeWebhook(raw, header, "", now), "no webhook secret is configured");
  });

  test("a delivered event checked ten minutes later is stale; with a tampered body it is refused", async () => {
    await subscribed();
    const d = stripeEmu.deliveries.find((x) => x.event.type === "checkout.session.completed")!;
    expect((await stripe.verifyWebhook(d.body, d.signature)).type).toBe("checkout.session.completed");
    const late = await caught(stripe.verifyWebhook(d.body, d.signature, Date.now() + 600_000));
    expect(late.message).toContain("more than 300 s");
    const tampered = await caught(stripe.verifyWebhook(d.body.replace("acct_42", "acct_43"), d.signature));
    expect(tampered.message).toContain("does not match");
  });

  test("a signed body that is not an event is refused", async () => {
    const body = JSON.stringify({ hello: "world" });
    const err = await caught(verifyStripeWebhook(body, await signStripePayload(body, "s", t), "s", now));
    expect(err.code).toBe("BAD_REQUEST");
    expect(err.message).toBe("Stripe sent a webhook that is not an event we can read");
  });

  test("the emulator delivers arbitrary events, signed with its current secret", async () => {
    const d = await stripeEmu.deliver("customer.subscription.updated", { id: "sub_x", object: "subscription" });
    expect(d.status).toBe(200);
    expect(inbox.stripe.at(-1)).toMatchObject({ type: "customer.subscription.updated", object: { id: "sub_x" } });
    stripeEmu.webhookSecret = "whsec_rotated";
    const refused = await stripeEmu.deliver("invoice.paid", { id: "in_x" });
    expect(refused.status).toBe(400);
    expect(inbox.refused.at(-1)).toContain("does not match");
  });
});

describe("Stripe: subscriptions, refunds, portal", () => {
  test("retrieve maps the basil subscription: the item's period end and the invoice payment's intent", async () => {
    const { subscriptionId, customerId } = await subscribed();
    const sub = await stripe.retrieveSubscription(subscriptionId);
    const emuSub = stripeEmu.subscription(subscriptionId)!;
    const r = lastStripeRequest();
    expect(r.method).toBe("GET");
    expect(r.path).toBe(`/v1/subscriptions/${subscriptionId}`);
    expect(r.params).toEqual([["expand[0]", "latest_invoice.payments"]]);
    expect(sub.id).toBe(subscriptionId);
    expect(sub.customer).toBe(customerId);
    expect(sub.status).toBe("active");
    expect(sub.cancelAtPeriodEnd).toBe(false);
    expect(sub.currentPeriodEnd).toBe(emuSub.period_end * 1000);
    expect(sub.latestPaymentIntent).toMatch(/^pi_/);
    expect(stripeEmu.intent(sub.latestPaymentIntent!)?.status).toBe("succeeded");
  });

  test("older API versions' shapes map too (top-level period end, invoice.payment_intent)", async () => {
    const { subscriptionId } = await subscribed();
    const res = await fetch(`${emu.urls.stripe}/v1/subscriptions/${subscriptionId}?expand[]=latest_invoice`, {
      headers: { Authorization: `Bearer ${STRIPE_SANDBOX.secretKey}`, "Stripe-Version": "2024-06-20" },
    });
    const body = (await res.json()) as Record<string, unknown>;
    expect(typeof body.current_period_end).toBe("number");
    const sub = mapStripeSubscription(body);
    expect(sub?.currentPeriodEnd).toBe((body.current_period_end as number) * 1000);
    expect(sub?.latestPaymentIntent).toBe((await stripe.retrieveSubscription(subscriptionId)).latestPaymentIntent);
    expect(mapStripeSubscription({ id: "sub_1" })).toBeNull();
  });

  test("cancel at period end and back, each announced by customer.subscription.updated", async () => {
    const { subscriptionId } = await subscribed();
    inbox.stripe = [];
    const cancelled = await stripe.setCancelAtPeriodEnd(subscriptionId, true);
    expect(cancelled).toMatchObject({ id: subscriptionId, status: "active", cancelAtPeriodEnd: true });
    const r = lastStripeRequest();
    expect(r.method).toBe("POST");
    expect(r.params).toEqual([
      ["cancel_at_period_end", "true"],
      ["expand[0]", "latest_invoice.payments"],
    ]);
    expect(r.headers["idempotency-key"]).toBeTruthy();
    await stripeEmu.settled();
    expect(receivedTypes()).toEqual(["customer.subscription.updated"]);
    expect(mapStripeSubscription(received()[0].object)?.cancelAtPeriodEnd).toBe(true);

    const kept = await stripe.setCancelAtPeriodEnd(subscriptionId, false);
    expect(kept.cancelAtPeriodEnd).toBe(false);
    await stripeEmu.settled();
    expect(received()).toHaveLength(2);

    // At the period's end a subscription set to cancel ends.
    await stripe.setCancelAtPeriodEnd(subscriptionId, true);
    await stripeEmu.settled();
    const ended = await stripeEmu.advance(subscriptionId);
    expect(ended.map((d) => d.event.type)).toEqual(["customer.subscription.deleted"]);
    expect((await stripe.retrieveSubscription(subscriptionId)).status).toBe("canceled");
  });

  test("a renewal is paid (invoice.paid, a new period); a failed one makes the subscription past_due", async () => {
    const { subscriptionId } = await subscribed();
    const before = await stripe.retrieveSubscription(subscriptionId);
    inbox.stripe = [];
    await stripeEmu.advance(subscriptionId);
    expect(receivedTypes()).toEqual(["customer.subscription.updated", "invoice.paid"]);
    const renewed = await stripe.retrieveSubscription(subscriptionId);
    expect(renewed.currentPeriodEnd).toBeGreaterThan(before.currentPeriodEnd + 27 * 86_400_000);
    expect(renewed.latestPaymentIntent).not.toBe(before.latestPaymentIntent);
    expect(receivedOf("invoice.paid").object.billing_reason).toBe("subscription_cycle");

    inbox.stripe = [];
    await stripeEmu.failPayment(subscriptionId);
    expect(receivedTypes()).toEqual(["customer.subscription.updated", "invoice.payment_failed"]);
    expect(mapStripeSubscription(receivedOf("customer.subscription.updated").object)?.status).toBe("past_due");
    expect((await stripe.retrieveSubscription(subscriptionId)).status).toBe("past_due");
  });

  test("cancel now ends the subscription (customer.subscription.deleted); twice is refused", async () => {
    const { subscriptionId } = await subscribed();
    inbox.stripe = [];
    const sub = await stripe.cancelNow(subscriptionId);
    expect(sub.status).toBe("canceled");
    expect(lastStripeRequest().method).toBe("DELETE");
    await stripeEmu.settled();
    expect(receivedTypes()).toEqual(["customer.subscription.deleted"]);
    const again = await caught(stripe.cancelNow(subscriptionId));
    expect(again.code).toBe("BAD_REQUEST");
    expect(again.message).toStartWith("Stripe rejected the request:");
    const unknown = await caught(stripe.retrieveSubscription("sub_nope"));
    expect(unknown.message).toBe("Stripe rejected the request: No such subscription: 'sub_nope'");
  });

  test("a refund of the latest payment: once per key, refused when nothing is left", async () => {
    const { subscriptionId } = await subscribed();
    const { latestPaymentIntent } = await stripe.retrieveSubscription(subscriptionId);
    inbox.stripe = [];
    const key = crypto.randomUUID();
    const r = await stripe.refund({ paymentIntent: latestPaymentIntent!, idempotencyKey: key });
    expect(r).toMatchObject({ status: "succeeded", amountMinor: 2900, currency: "USD" });
    expect(r.id).toStartWith("re_");
    expect(lastStripeRequest().params).toEqual([["payment_intent", latestPaymentIntent!]]);
    expect(lastStripeRequest().headers["idempotency-key"]).toBe(key);
    expect(await stripe.refund({ paymentIntent: latestPaymentIntent!, idempotencyKey: key })).toEqual(r);
    expect(stripeEmu.refundsOf(latestPaymentIntent!)).toHaveLength(1);
    await stripeEmu.settled();
    expect(receivedTypes()).toEqual(["charge.refunded"]);
    expect(received()[0].object).toMatchObject({ amount_refunded: 2900, refunded: true });

    const twice = await caught(stripe.refund({ paymentIntent: latestPaymentIntent!, idempotencyKey: "other" }));
    expect(twice.code).toBe("BAD_REQUEST");
    expect(twice.message).toMatch(/^Stripe rejected the request: Charge ch_\w+ has already been refunded\.$/);
    const unknown = await caught(stripe.refund({ paymentIntent: "pi_nope", idempotencyKey: "x" }));
    expect(unknown.message).toBe("Stripe rejected the request: No such payment_intent: 'pi_nope'");
  });

  test("the billing portal opens for the customer and cancels at period end from its page", async () => {
    const { subscriptionId, customerId } = await subscribed();
    const { url } = await stripe.createPortalSession(customerId, `${APP}/billing`);
    expect(url).toStartWith(`${emu.urls.stripe}/portal/bps_`);
    expect(lastStripeRequest().params).toEqual([
      ["customer", customerId],
      ["return_url", `${APP}/billing`],
    ]);
    const html = await (await fetch(url)).text();
    expect(html).toContain("abebe@example.et");
    expect(html).toContain(`href="${APP}/billing"`);
    const res = await fetch(`${url}/subscriptions/${subscriptionId}/cancel`, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect((await stripe.retrieveSubscription(subscriptionId)).cancelAtPeriodEnd).toBe(true);
    expect(inbox.stripe.at(-1)?.type).toBe("customer.subscription.updated");
    const unknown = await caught(stripe.createPortalSession("cus_nope", `${APP}/billing`));
    expect(unknown.message).toBe("Stripe rejected the request: No such customer: 'cus_nope'");
  });
});

describe("Stripe: failures name Stripe", () => {
  test("a wrong key", async () => {
    const wrong = createStripeAdapter(stripeSettings({ secretKey: "sk_test_wrongwrongwrong1234" }));
    const err = await caught(wrong.retrieveSubscription("sub_1"));
    expect(err.code).toBe("BAD_GATEWAY");
    // Stripe masks the key it names.
    expect(err.message).toMatch(/^Stripe refused the API key: Invalid API Key provided: sk_test_\*+1234$/);
    expect(err.messageId).toBe("error.payment.keyRefused");
  });

  test("an outage, a timeout, an unreachable host", async () => {
    stripeEmu.outage = true;
    const down = await caught(checkout());
    expect(down.code).toBe("BAD_GATEWAY");
    expect(down.message).toBe("Stripe failed: An unknown error occurred. (emulated outage) (HTTP 500)");
    stripeEmu.outage = false;

    stripeEmu.delayMs = 500;
    const slow = createStripeAdapter(stripeSettings({ timeoutMs: 100 }));
    const late = await caught(slow.retrieveSubscription("sub_1"));
    expect(late.code).toBe("GATEWAY_TIMEOUT");
    expect(late.message).toBe("Stripe did not answer within 0.1 s");
    stripeEmu.delayMs = 0;

    const closed = Bun.serve({ port: 0, hostname: "127.0.0.1", fetch: () => new Response() });
    const port = closed.port;
    closed.stop(true);
    const gone = createStripeAdapter(stripeSettings({ baseUrl: `http://127.0.0.1:${port}` }));
    const unreachable = await caught(gone.retrieveSubscription("sub_1"));
    expect(unreachable.code).toBe("BAD_GATEWAY");
    expect(unreachable.message).toStartWith("Stripe could not be reached:");
  });

  test("Stripe's reason is read from its error body", () => {
    expect(stripeReason('{"error":{"type":"card_error","message":"Your card was declined."}}')).toBe(
      "Your card was declined.",
    );
    expect(stripeReason('{"error":{"code":"rate_limit"}}')).toBe("rate_limit");
    expect(stripeReason("<html><title>502 Bad Gateway</title></html>")).toBe("502 Bad Gateway");
  });
});

describe("Chapa", () => {
  const init = (over: Partial<Parameters<typeof chapa.initialize>[0]> = {}) =>
    chapa.initialize({
      amount: 500,
      currency: "ETB",
      txRef: `mytess-${crypto.randomUUID()}`,
      email: "abebe@example.et",
      firstName: "Abebe",
      lastName: "Kebede",
      callbackUrl: `${APP}/api/billing/chapa/callback`,
      returnUrl: `${APP}/billing/done`,
      title: "MyTess",
      description: "One month of MyTess",
      ...over,
    });

  test("initialize sends Chapa's JSON (amount as a string) and gets the hosted link", async () => {
    const txRef = "mytess-acct42-2026-01";
    const { checkoutUrl } = await init({ txRef, amount: 499.5 });
    expect(checkoutUrl).toBe(`${emu.urls.chapa}/checkout/${txRef}`);
    const r = chapaEmu.requests.at(-1)!;
    expect(r.method).toBe("POST");
    expect(r.path).toBe("/v1/transaction/initialize");
    expect(r.headers.authorization).toBe(`Bearer ${CHAPA_SANDBOX.secretKey}`);
    expect(r.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(r.body)).toEqual({
      amount: "499.50",
      currency: "ETB",
      tx_ref: txRef,
      email: "abebe@example.et",
      first_name: "Abebe",
      last_name: "Kebede",
      callback_url: `${APP}/api/billing/chapa/callback`,
      return_url: `${APP}/billing/done`,
      customization: { title: "MyTess", description: "One month of MyTess" },
    });
    expect(chapaAmount(500)).toBe("500.00");
  });

  test("initialize → pay on the hosted page → signed webhook, callback, redirect → verify success", async () => {
    const txRef = `mytess-${crypto.randomUUID()}`;
    const { checkoutUrl } = await init({ txRef });
    expect((await chapa.verify(txRef)).status).toBe("pending");
    const html = await (await fetch(checkoutUrl)).text();
    expect(html).toContain("MyTess Sandbox · Chapa Checkout");
    expect(html).toContain("500.00 ETB");
    expect(html).toContain("abebe@example.et");
    const res = await fetch(`${checkoutUrl}/pay`, { method: "POST", redirect: "manual" });
    expect(res.status).toBe(303);
    expect(res.headers.get("location")).toBe(`${APP}/billing/done`);

    expect(inbox.refused).toEqual([]);
    expect(inbox.chapa).toEqual([{ kind: "transaction", txRef, status: "success", event: "charge.success" }]);
    const d = chapaEmu.deliveries[0];
    expect(d.status).toBe(200);
    expect(JSON.parse(d.body)).toMatchObject({
      event: "charge.success",
      tx_ref: txRef,
      amount: "500.00",
      currency: "ETB",
    });
    expect(inbox.callbacks).toHaveLength(1);
    const cb = inbox.callbacks[0].searchParams;
    expect(cb.get("trx_ref")).toBe(txRef);
    expect(cb.get("tx_ref")).toBe(txRef);
    expect(cb.get("status")).toBe("success");

    const v = await chapa.verify(txRef);
    expect(v).toEqual({
      txRef,
      reference: cb.get("ref_id"),
      status: "success",
      amount: 500,
      currency: "ETB",
      email: "abebe@example.et",
    });
    expect(v.reference).toMatch(/^AP\w{10}$/);
    expect(chapaEmu.requests.at(-1)?.path).toBe(`/v1/transaction/verify/${txRef}`);
  });

  test("a declined payment verifies as failed, an abandoned one as cancelled", async () => {
    const a = `mytess-${crypto.randomUUID()}`;
    await init({ txRef: a });
    await chapaEmu.fail(a);
    expect((await chapa.verify(a)).status).toBe("failed");
    expect(inbox.chapa.at(-1)).toEqual({ kind: "transaction", txRef: a, status: "failed", event: "charge.failed" });

    const b = `mytess-${crypto.randomUUID()}`;
    const { checkoutUrl } = await init({ txRef: b });
    const res = await fetch(`${checkoutUrl}/cancel`, { method: "POST", redirect: "manual" });
    expect(res.headers.get("location")).toBe(`${APP}/billing/done`);
    expect((await chapa.verify(b)).status).toBe("cancelled");
    expect(inbox.chapa.at(-1)).toEqual({
      kind: "transaction",
      txRef: b,
      status: "cancelled",
      event: "charge.cancelled",
    });
  });

  test("a payout's webhook (no tx_ref) and a signed body naming no transaction are told apart, not refused", async () => {
    await chapaEmu.payout();
    expect(inbox.chapa.at(-1)).toMatchObject({ kind: "payout", status: "success", event: "payout.success" });
    expect((inbox.chapa.at(-1) as { reference: string }).reference).toMatch(/^TR-/);
    expect(chapaEmu.deliveries.at(-1)?.status).toBe(200);
    const other = await chapaEmu.otherTransaction("PL-other-1");
    expect(other.status).toBe(200);
    expect(inbox.chapa.at(-1)).toEqual({
      kind: "transaction",
      txRef: "PL-other-1",
      status: "success",
      event: "charge.success",
    });
  });

  test("webhook signatures: either header may carry it; a wrong one, a tampered body or none is refused", () => {
    const raw = JSON.stringify({ event: "charge.success", tx_ref: "tx-1", status: "success" });
    const sig = signChapaPayload(raw, CHAPA_SANDBOX.webhookSecret);
    expect(sig).toBe(chapaSignature(raw, CHAPA_SANDBOX.webhookSecret));
    const both = new Headers({ "Chapa-Signature": sig, "x-chapa-signature": sig });
    const tx1: TChapaWebhook = { kind: "transaction", txRef: "tx-1", status: "success", event: "charge.success" };
    expect(chapa.verifyWebhook(raw, both)).toEqual(tx1);
    expect(chapa.verifyWebhook(raw, new Headers({ "x-chapa-signature": sig }))).toEqual(tx1);
    expect(chapa.verifyWebhook(raw, new Headers({ "Chapa-Signature": sig.toUpperCase() }))).toEqual(tx1);
    // One header may hold something else (Chapa's docs describe Chapa-Signature differently): the other decides.
    expect(chapa.verifyWebhook(raw, new Headers({ "Chapa-Signature": "00", "x-chapa-signature": sig }))).toEqual(tx1);

    const refused = (r: string, h: Headers, reason: string) => {
      let err: unknown;
      try {
        chapa.verifyWebhook(r, h);
      } catch (e) {
        err = e;
      }
      expect(err).toBeInstanceOf(AppError);
      expect((err as AppError).code).toBe("BAD_REQUEST");
      expect((err as AppError).message).toBe(`Chapa: the webhook could not be verified: ${reason}`);
    };
    const bad = "the signature does not match the body";
    refused(raw.replace("tx-1", "tx-2"), both, bad);
    refused(raw, new Headers({ "x-chapa-signature": signChapaPayload(raw, "other") }), bad);
    refused(raw, new Headers(), "the Chapa-Signature header is missing or malformed");
    const noSecret = createChapaAdapter(chapaSettings({ webhookSecret: "" }));
    expect(() => noSecret.verifyWebhook(raw, both)).toThrow("no webhook secret is configured");
    // Signed by Chapa but naming no transaction: answered (and left alone by the route), not refused.
    const notEvent = JSON.stringify({ hello: 1 });
    expect(
      chapa.verifyWebhook(
        notEvent,
        new Headers({ "x-chapa-signature": signChapaPayload(notEvent, CHAPA_SANDBOX.webhookSecret) }),
      ),
    ).toEqual({ kind: "unreadable" });
  });

  test("the emulator's deliveries under a rotated secret are refused by the app", async () => {
    chapaEmu.webhookSecret = "rotated";
    const txRef = `mytess-${crypto.randomUUID()}`;
    await init({ txRef });
    await chapaEmu.pay(txRef);
    expect(chapaEmu.deliveries[0].status).toBe(400);
    expect(inbox.refused[0]).toContain("Chapa: the webhook could not be verified");
  });

  test("a tx_ref used before is refused; so is an invalid amount, in Chapa's words", async () => {
    const txRef = `mytess-${crypto.randomUUID()}`;
    await init({ txRef });
    const dup = await caught(init({ txRef }));
    expect(dup.code).toBe("BAD_REQUEST");
    expect(dup.message).toBe("Chapa rejected the request: Transaction reference has been used before");
    const zero = await caught(init({ amount: 0 }));
    expect(zero.message).toBe("Chapa rejected the request: The amount must be greater than 0.");
    const unknown = await caught(chapa.verify("mytess-unknown"));
    expect(unknown.message).toBe("Chapa rejected the request: Invalid transaction or Transaction not found");
  });

  test("a refund goes to Chapa's reference, form-encoded; nothing left to refund is refused", async () => {
    const txRef = `mytess-${crypto.randomUUID()}`;
    await init({ txRef });
    const { reference } = await chapaEmu.pay(txRef);
    const r = await chapa.refund({ reference: reference!, amount: 200, reason: "Cancelled within 14 days" });
    expect(r).toEqual({ status: "success" });
    const req = chapaEmu.requests.at(-1)!;
    expect(req.path).toBe(`/v1/refund/${reference}`);
    expect(req.headers["content-type"]).toBe("application/x-www-form-urlencoded");
    expect([...new URLSearchParams(req.body)]).toEqual([
      ["reason", "Cancelled within 14 days"],
      ["amount", "200.00"],
    ]);
    // The rest, then nothing.
    await chapa.refund({ reference: reference!, reason: "the rest" });
    expect([...new URLSearchParams(chapaEmu.requests.at(-1)!.body)]).toEqual([["reason", "the rest"]]);
    const again = await caught(chapa.refund({ reference: reference!, reason: "again" }));
    expect(again.message).toBe("Chapa rejected the request: Transaction has already been refunded");
    await chapaEmu.settled();
    expect(inbox.chapa.filter((e) => e.kind === "transaction" && e.event === "charge.refunded")).toHaveLength(2);
  });

  test("a wrong key, an outage and a timeout name Chapa", async () => {
    const wrong = createChapaAdapter(chapaSettings({ secretKey: "CHASECK_TEST-wrong" }));
    const refused = await caught(wrong.verify("x"));
    expect(refused.code).toBe("BAD_GATEWAY");
    expect(refused.message).toBe("Chapa refused the API key: Invalid API Key");

    chapaEmu.outage = true;
    const down = await caught(init());
    expect(down.code).toBe("BAD_GATEWAY");
    expect(down.message).toBe("Chapa failed: Service temporarily unavailable (emulated outage) (HTTP 503)");
    chapaEmu.outage = false;

    chapaEmu.delayMs = 500;
    const late = await caught(createChapaAdapter(chapaSettings({ timeoutMs: 100 })).verify("x"));
    expect(late.code).toBe("GATEWAY_TIMEOUT");
    expect(late.message).toBe("Chapa did not answer within 0.1 s");
  });
});

describe("registry", () => {
  test("nothing configured", () => {
    const r = paymentsFromEnv({});
    expect(r.stripe).toBeNull();
    expect(r.chapa).toBeNull();
    expect(r.states()).toEqual([
      { id: "stripe", name: "Stripe", state: "not_configured" },
      { id: "chapa", name: "Chapa", state: "not_configured" },
    ]);
  });

  test("the emulators' environment is the sandbox, and works end to end", async () => {
    const r = paymentsFromEnv(emu.env());
    expect(r.states().map((s) => s.state)).toEqual(["sandbox", "sandbox"]);
    expect(r.stripe?.currencies).toEqual(["USD", "EUR"]);
    const s = await r.stripe!.createCheckoutSession({
      currency: "EUR",
      email: "a@b.et",
      clientReferenceId: "acct_1",
      customerId: null,
      trialEnd: null,
      successUrl: `${APP}/ok`,
      cancelUrl: `${APP}/no`,
      idempotencyKey: crypto.randomUUID(),
    });
    const paid = await stripeEmu.pay(s.id);
    expect(paid.deliveries.every((d) => d.status === 200)).toBe(true);
    expect((await r.chapa!.verify(await freshChapaTx())).status).toBe("pending");
  });

  test("Stripe needs a key and a price; test keys are sandbox, live keys on the real hosts active", () => {
    expect(paymentsFromEnv({ STRIPE_SECRET_KEY: "sk_live_x" }).stripe).toBeNull();
    expect(paymentsFromEnv({ STRIPE_PRICE_USD: "price_1" }).stripe).toBeNull();
    const live = paymentsFromEnv({
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_PRICE_EUR: "price_eur",
      CHAPA_SECRET_KEY: "CHASECK-live",
    });
    expect(live.stripe?.currencies).toEqual(["EUR"]);
    expect(live.states().map((s) => s.state)).toEqual(["active", "active"]);
    const test = paymentsFromEnv({
      STRIPE_SECRET_KEY: "sk_test_x",
      STRIPE_PRICE_USD: "price_usd",
      CHAPA_SECRET_KEY: "CHASECK_TEST-x",
    });
    expect(test.states().map((s) => s.state)).toEqual(["sandbox", "sandbox"]);
    const loopback = paymentsFromEnv({
      STRIPE_SECRET_KEY: "sk_live_x",
      STRIPE_PRICE_USD: "price_usd",
      STRIPE_API_BASE: "http://localhost:4131",
    });
    expect(loopback.states()[0].state).toBe("sandbox");
  });

  test("PAYMENT_TIMEOUT_MS bounds each exchange", async () => {
    stripeEmu.delayMs = 400;
    const r = paymentsFromEnv({ ...emu.env(), PAYMENT_TIMEOUT_MS: "100" });
    const err = await caught(r.stripe!.retrieveSubscription("sub_1"));
    expect(err.message).toBe("Stripe did not answer within 0.1 s");
  });
});

/** The tx_ref of a fresh, pending Chapa transaction. */
const freshChapaTx = async () => {
  const txRef = `mytess-${crypto.randomUUID()}`;
  await chapa.initialize({
    amount: 500,
    currency: "ETB",
    txRef,
    email: "a@b.et",
    firstName: "A",
    lastName: "B",
    callbackUrl: `${APP}/cb`,
    returnUrl: `${APP}/done`,
    title: "MyTess",
    description: "One month",
  });
  return txRef;
};
