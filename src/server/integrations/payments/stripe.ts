// Stripe: Checkout in subscription mode, the subscription's life (retrieve, cancel at period end, cancel now), refunds,
// the billing portal, and signed webhooks. Plain REST with fetch (no SDK): form-encoded requests, JSON answers, as
// Stripe's API reference (docs.stripe.com/api) describes them.
//
//   POST {https://api.stripe.com}/v1/checkout/sessions        mode=subscription&line_items[0][price]=…&…
//   GET  /v1/subscriptions/{id}?expand[]=latest_invoice.payments
//   POST /v1/subscriptions/{id}                                cancel_at_period_end=true|false
//   DELETE /v1/subscriptions/{id}
//   POST /v1/refunds                                           payment_intent=pi_…
//   POST /v1/billing_portal/sessions                           customer=cus_…&return_url=…
//   Authorization: Bearer sk_…   Stripe-Version: STRIPE_API_VERSION   Idempotency-Key: … (POSTs)
//
// Versions: every request names STRIPE_API_VERSION in Stripe-Version (the version stripe-node 22 pins), so an account
// whose default version is older or newer answers in the shapes read here. Since 2025-03-31.basil the subscription's
// current_period_end lives on its items (items.data[].current_period_end), and the invoice carries neither
// subscription nor payment_intent: its parent.subscription_details names the subscription (with a snapshot of the
// subscription's metadata), and its payments (an "includable" list, present only when expanded) name the payment
// intent. The mapping reads those places first and falls back to the older top-level fields, so webhook objects
// rendered with an older endpoint version (an endpoint keeps the version it was created with) map too.
//
// The account: Checkout's client_reference_id stays on the Session; the subscription_data.metadata we send lands on
// the Subscription (so customer.subscription.* events carry it) and is copied to its invoices'
// parent.subscription_details.metadata, so every event names the account on its own, in whatever order they arrive.
//
// Errors: Stripe answers {error: {type, code, message, param}}; the message is the reason an AppError carries.
// Idempotency: checkout and refunds use the caller's key; subscription updates send a fresh key per call, as Stripe's
// SDKs do (it makes a retried request safe; we do not retry ourselves).
import { z } from "zod";
import { AppError } from "../../errors";
import { exchange, jsonOrNull, parseWire, plainReason, readJson, serviceUnreadable, trimBase } from "../http/kit";
import {
  failOnStatus,
  formEncode,
  hmacSha256Hex,
  isLoopbackUrl,
  PAYMENT_PROVIDER_NAMES,
  sameText,
  type TFormValue,
  webhookRefused,
} from "./http";
import type {
  TStripeAccount,
  TStripeAdapter,
  TStripeCheckoutSession,
  TStripeEvent,
  TStripeSettings,
  TStripeSubscription,
  TStripeTransfer,
} from "./types";

/** The API version every request names: the one stripe-node v22 pins. */
export const STRIPE_API_VERSION = "2026-07-29.dahlia";
/** The subscription (and so invoice) metadata key that names the MyTess account. */
export const STRIPE_ACCOUNT_KEY = "client_reference_id";
/** Stripe refuses a Checkout trial_end less than 48 hours ahead; a margin covers the time until Stripe reads it. */
export const STRIPE_MIN_TRIAL_MS = 48 * 3600_000 + 10 * 60_000;
/** Default webhook tolerance of Stripe's libraries: a signed timestamp older (or further ahead) than this is refused. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;
/** What retrieving or updating a subscription expands: the latest invoice and its payments (for the payment intent). */
export const STRIPE_SUBSCRIPTION_EXPAND = ["latest_invoice.payments"];

const PROVIDER = PAYMENT_PROVIDER_NAMES.stripe;

/** Stripe's reason in an error body ({error: {message}}); a short plain-text answer is its own reason. */
export const stripeReason = (text: string): string | undefined => {
  const body = jsonOrNull(text);
  if (body === null) return plainReason(text);
  const error = (body as { error?: { message?: unknown; code?: unknown } } | null)?.error;
  const message = typeof error?.message === "string" ? error.message.trim() : "";
  if (message) return message;
  return typeof error?.code === "string" && error.code ? error.code : undefined;
};

/** The Stripe-Signature header for a payload: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "t.raw")>`. */
export const signStripePayload = async (raw: string, secret: string, t = Math.floor(Date.now() / 1000)) =>
  `t=${t},v1=${await hmacSha256Hex(secret, `${t}.${raw}`)}`;

// Wire shapes ------------------------------------------------------------------------------------------------------

const ZId = z.union([z.string(), z.object({ id: z.string() })]);
const idOf = (v: z.output<typeof ZId> | null | undefined) => (v == null ? null : typeof v === "string" ? v : v.id);

const ZInvoice = z.object({
  id: z.string(),
  /** Before basil. */
  payment_intent: ZId.nullish(),
  /** Since basil, when expanded: newest first. */
  payments: z
    .object({
      data: z.array(z.object({ payment: z.object({ payment_intent: ZId.nullish() }).nullish() })),
    })
    .nullish(),
});

const ZSubscription = z.object({
  id: z.string(),
  customer: ZId,
  status: z.string(),
  cancel_at_period_end: z.boolean().nullish(),
  /** Before basil. */
  current_period_end: z.number().nullish(),
  /** Since basil. */
  items: z.object({ data: z.array(z.object({ current_period_end: z.number().nullish() })) }).nullish(),
  latest_invoice: z.union([z.string(), ZInvoice]).nullish(),
});

/**
 * A Stripe subscription object (an API answer or a webhook's data.object) in our terms; null when it is not one we
 * can read. current_period_end: the top-level field (before basil), else the first item's.
 */
export const mapStripeSubscription = (obj: unknown): TStripeSubscription | null => {
  const r = ZSubscription.safeParse(obj);
  if (!r.success) return null;
  const s = r.data;
  const periodEnd = s.current_period_end ?? s.items?.data[0]?.current_period_end;
  if (periodEnd == null) return null;
  const invoice = typeof s.latest_invoice === "object" ? s.latest_invoice : null;
  const intent = idOf(invoice?.payments?.data[0]?.payment?.payment_intent) ?? idOf(invoice?.payment_intent);
  return {
    id: s.id,
    customer: idOf(s.customer)!,
    status: s.status,
    currentPeriodEnd: periodEnd * 1000,
    cancelAtPeriodEnd: s.cancel_at_period_end ?? false,
    latestPaymentIntent: intent,
  };
};

const ZRefsObject = z.looseObject({
  id: z.string().nullish(),
  object: z.string().nullish(),
  customer: ZId.nullish(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string(), z.unknown()).nullish(),
  /** A session's or (before basil) an invoice's subscription. */
  subscription: ZId.nullish(),
  /** Since basil, on an invoice. */
  parent: z
    .looseObject({
      subscription_details: z
        .looseObject({ subscription: ZId.nullish(), metadata: z.record(z.string(), z.unknown()).nullish() })
        .nullish(),
    })
    .nullish(),
  /** Before basil, on an invoice. */
  subscription_details: z.looseObject({ metadata: z.record(z.string(), z.unknown()).nullish() }).nullish(),
  items: z.looseObject({ data: z.array(z.looseObject({ price: ZId.nullish() })) }).nullish(),
  lines: z
    .looseObject({
      data: z.array(
        z.looseObject({
          price: ZId.nullish(),
          pricing: z.looseObject({ price_details: z.looseObject({ price: ZId.nullish() }).nullish() }).nullish(),
        }),
      ),
    })
    .nullish(),
});

/** Who and what a webhook's object is about, wherever its version and type put it. */
export type TStripeRefs = {
  /** The MyTess account the object names (client_reference_id, or our metadata key), as sent. */
  account: string | null;
  subscription: string | null;
  customer: string | null;
  /** The Prices the object is for (a subscription's items, an invoice's lines). */
  prices: string[];
};

/** The account, subscription, customer and Prices a Stripe event's object names; nulls for what it does not. */
export const stripeEventRefs = (e: Pick<TStripeEvent, "type" | "object">): TStripeRefs => {
  const r = ZRefsObject.safeParse(e.object);
  if (!r.success) return { account: null, subscription: null, customer: null, prices: [] };
  const o = r.data;
  const meta = (m: Record<string, unknown> | null | undefined) => {
    const v = m?.[STRIPE_ACCOUNT_KEY];
    return typeof v === "string" && v ? v : null;
  };
  const kind = e.type.split(".").slice(0, -1).join(".");
  const prices = [
    ...(o.items?.data ?? []).map((i) => idOf(i.price)),
    ...(o.lines?.data ?? []).map((l) => idOf(l.pricing?.price_details?.price) ?? idOf(l.price)),
  ].filter((p): p is string => !!p);
  if (kind === "checkout.session")
    return {
      account: o.client_reference_id || meta(o.metadata),
      subscription: idOf(o.subscription),
      customer: idOf(o.customer),
      prices,
    };
  if (kind === "customer.subscription")
    return { account: meta(o.metadata), subscription: o.id ?? null, customer: idOf(o.customer), prices };
  if (kind === "invoice") {
    const details = o.parent?.subscription_details;
    return {
      account: meta(details?.metadata) ?? meta(o.subscription_details?.metadata),
      subscription: idOf(details?.subscription) ?? idOf(o.subscription),
      customer: idOf(o.customer),
      prices,
    };
  }
  return { account: null, subscription: null, customer: idOf(o.customer), prices };
};

const ZSession = z.object({ id: z.string(), url: z.string() });
const ZRefund = z.object({ id: z.string(), status: z.string().nullish(), amount: z.number(), currency: z.string() });
const ZPortal = z.object({ url: z.string() });
const ZMetadata = z.record(z.string(), z.string()).nullish();
const ZCheckoutSession = z.object({
  id: z.string(),
  url: z.string().nullish(),
  status: z.string().nullish(),
  payment_status: z.string(),
  amount_total: z.number().nullish(),
  currency: z.string().nullish(),
  payment_intent: ZId.nullish(),
  metadata: ZMetadata,
});
const ZAccount = z.object({
  id: z.string(),
  charges_enabled: z.boolean().nullish(),
  payouts_enabled: z.boolean().nullish(),
  details_submitted: z.boolean().nullish(),
  requirements: z
    .object({ currently_due: z.array(z.string()).nullish(), disabled_reason: z.string().nullish() })
    .nullish(),
  metadata: ZMetadata,
});
const ZAccountLink = z.object({ url: z.string(), expires_at: z.number() });
const ZTransfer = z.object({
  id: z.string(),
  amount: z.number(),
  currency: z.string(),
  destination: ZId,
  source_transaction: ZId.nullish(),
  metadata: ZMetadata,
  reversed: z.boolean().nullish(),
  amount_reversed: z.number().nullish(),
  reversals: z.object({ data: z.array(z.object({ id: z.string(), amount: z.number() })).nullish() }).nullish(),
});

/** A Connect account (an API answer or an event's object) in our terms; null when it is not one. */
export const mapStripeAccount = (obj: unknown): TStripeAccount | null => {
  const r = ZAccount.safeParse(obj);
  if (!r.success) return null;
  const a = r.data;
  return {
    id: a.id,
    chargesEnabled: a.charges_enabled ?? false,
    payoutsEnabled: a.payouts_enabled ?? false,
    detailsSubmitted: a.details_submitted ?? false,
    currentlyDue: a.requirements?.currently_due ?? [],
    disabledReason: a.requirements?.disabled_reason ?? null,
    metadata: a.metadata ?? {},
  };
};

/** A transfer (an API answer or an event's object) in our terms; null when it is not one. */
export const mapStripeTransfer = (obj: unknown): TStripeTransfer | null => {
  const r = ZTransfer.safeParse(obj);
  if (!r.success) return null;
  const t = r.data;
  return {
    id: t.id,
    amount: t.amount,
    currency: t.currency.toUpperCase(),
    destination: idOf(t.destination)!,
    sourceTransaction: idOf(t.source_transaction),
    metadata: t.metadata ?? {},
    reversed: t.reversed ?? false,
    amountReversed: t.amount_reversed ?? 0,
    reversals: (t.reversals?.data ?? []).map((r) => ({ id: r.id, amount: r.amount })),
  };
};
const ZPaymentIntent = z.object({
  id: z.string(),
  status: z.string(),
  amount: z.number(),
  currency: z.string(),
  latest_charge: ZId.nullish(),
  metadata: ZMetadata,
});

/** A Checkout Session (an API answer or an event's object) in our terms; null when it is not one. */
export const mapStripeCheckoutSession = (obj: unknown): TStripeCheckoutSession | null => {
  const r = ZCheckoutSession.safeParse(obj);
  if (!r.success) return null;
  const c = r.data;
  return {
    id: c.id,
    status: c.status ?? "open",
    paymentStatus: c.payment_status,
    amountTotal: c.amount_total ?? null,
    currency: c.currency ? c.currency.toUpperCase() : null,
    paymentIntent: idOf(c.payment_intent),
    metadata: c.metadata ?? {},
    url: c.url ?? null,
  };
};
const ZEvent = z.object({
  id: z.string(),
  type: z.string(),
  created: z.number(),
  account: z.string().nullish(),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

// Webhooks ---------------------------------------------------------------------------------------------------------

/** The t and the v1 signatures of a Stripe-Signature header (other schemes, such as v0, are ignored). */
const parseSignatureHeader = (header: string) => {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === "t" && t === null && /^\d+$/.test(v)) t = Number(v);
    if (k === "v1" && v) v1.push(v.toLowerCase());
  }
  return { t, v1 };
};

/**
 * Verifies a webhook's raw body against its Stripe-Signature header with the endpoint's secret, as Stripe's libraries
 * do: any v1 signature may match (Stripe sends several while a secret is being rolled), and the signed timestamp must
 * lie within `STRIPE_WEBHOOK_TOLERANCE_SECONDS` of `now` (epoch ms). Throws BAD_REQUEST AppErrors.
 */
export const verifyStripeWebhook = async (
  raw: string,
  header: string | null,
  secret: string,
  now = Date.now(),
): Promise<TStripeEvent> => {
  if (!secret)
    throw webhookRefused(
      PROVIDER,
      /*i18n*/ { id: "error.payment.webhookNoSecret", message: "no webhook secret is configured" },
    );
  const { t, v1 } = parseSignatureHeader(header ?? "");
  if (t === null || !v1.length)
    throw webhookRefused(
      PROVIDER,
      /*i18n*/ {
        id: "error.payment.webhookUnsigned",
        message: "the {header} header is missing or malformed",
        values: { header: "Stripe-Signature" },
      },
    );
  const expected = await hmacSha256Hex(secret, `${t}.${raw}`);
  // Every candidate is compared (no early exit), each in constant time.
  const matches = v1.reduce((ok, sig) => sameText(sig, expected) || ok, false);
  if (!matches)
    throw webhookRefused(
      PROVIDER,
      /*i18n*/ { id: "error.payment.webhookBadSignature", message: "the signature does not match the body" },
    );
  if (Math.abs(now / 1000 - t) > STRIPE_WEBHOOK_TOLERANCE_SECONDS)
    throw webhookRefused(
      PROVIDER,
      /*i18n*/ {
        id: "error.payment.webhookStale",
        message: "the signed timestamp is more than {seconds} s away from now",
        values: { seconds: STRIPE_WEBHOOK_TOLERANCE_SECONDS },
      },
    );
  const event = ZEvent.safeParse(jsonOrNull(raw));
  if (!event.success)
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.payment.webhookUnreadable",
        message: "{provider} sent a webhook that is not an event we can read",
        values: { provider: PROVIDER },
      },
    );
  const e = event.data;
  return { id: e.id, type: e.type, created: e.created * 1000, object: e.data.object, account: e.account ?? null };
};

// The adapter ------------------------------------------------------------------------------------------------------

/** Test keys and loopback hosts (the emulator) are the sandbox. */
export const isStripeSandbox = (s: Pick<TStripeSettings, "baseUrl" | "secretKey">) =>
  s.secretKey.startsWith("sk_test_") || s.secretKey.startsWith("rk_test_") || isLoopbackUrl(s.baseUrl);

export const createStripeAdapter = (s: TStripeSettings): TStripeAdapter => {
  const base = trimBase(s.baseUrl);

  const call = async (
    method: "GET" | "POST" | "DELETE",
    path: string,
    params: Record<string, TFormValue>,
    idempotencyKey?: string,
  ): Promise<unknown> => {
    const form = formEncode(params);
    const inBody = method === "POST";
    const headers: Record<string, string> = {
      Authorization: `Bearer ${s.secretKey}`,
      "Stripe-Version": STRIPE_API_VERSION,
      Accept: "application/json",
    };
    if (inBody) headers["Content-Type"] = "application/x-www-form-urlencoded";
    if (idempotencyKey) headers["Idempotency-Key"] = idempotencyKey;
    const url = `${base}${path}${!inBody && form ? `?${form}` : ""}`;
    const res = await exchange(PROVIDER, url, { method, headers, body: inBody ? form : undefined }, s.timeoutMs, {
      trusted: [s.baseUrl],
    });
    failOnStatus(PROVIDER, res, stripeReason(res.text));
    return readJson(PROVIDER, res);
  };

  const subscription = (body: unknown) => {
    const sub = mapStripeSubscription(body);
    if (!sub) {
      // Name the field that failed, for the log.
      const r = ZSubscription.safeParse(body);
      throw serviceUnreadable(
        PROVIDER,
        r.success ? "items.data.0.current_period_end" : r.error.issues[0]?.path.join(".") || "(top)",
      );
    }
    return sub;
  };
  const account = (body: unknown) => {
    const a = mapStripeAccount(body);
    if (!a) throw serviceUnreadable(PROVIDER, "account");
    return a;
  };
  const transfer = (body: unknown) => {
    const t = mapStripeTransfer(body);
    if (!t) throw serviceUnreadable(PROVIDER, "transfer");
    return t;
  };
  const subPath = (id: string) => `/v1/subscriptions/${encodeURIComponent(id)}`;

  return {
    sandbox: isStripeSandbox(s),
    currencies: (["USD", "EUR"] as const).filter((c) => !!s.prices[c]),
    prices: { ...s.prices },

    async createCheckoutSession(r) {
      const price = s.prices[r.currency];
      if (!price)
        throw new AppError(
          "BAD_REQUEST",
          /*i18n*/ {
            id: "error.payment.noPrice",
            message: "{provider} has no price configured for {currency}",
            values: { provider: PROVIDER, currency: r.currency },
          },
        );
      const body = await call(
        "POST",
        "/v1/checkout/sessions",
        {
          mode: "subscription",
          line_items: [{ price, quantity: 1 }],
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
          client_reference_id: r.clientReferenceId,
          // Stripe takes one or the other: a known customer keeps their payment methods and portal.
          ...(r.customerId ? { customer: r.customerId } : r.email ? { customer_email: r.email } : {}),
          // The subscription carries the account too, so that customer.subscription.* events and its invoices name it
          // on their own. A trial end bills from then (Stripe takes it only 48 hours or more ahead).
          subscription_data: {
            metadata: { [STRIPE_ACCOUNT_KEY]: r.clientReferenceId },
            trial_end: r.trialEnd == null ? undefined : Math.floor(r.trialEnd / 1000),
          },
        },
        r.idempotencyKey,
      );
      const session = parseWire(PROVIDER, ZSession, body);
      return { id: session.id, url: session.url };
    },

    async retrieveSubscription(id) {
      return subscription(await call("GET", subPath(id), { expand: STRIPE_SUBSCRIPTION_EXPAND }));
    },

    async setCancelAtPeriodEnd(id, cancel) {
      return subscription(
        await call(
          "POST",
          subPath(id),
          { cancel_at_period_end: cancel, expand: STRIPE_SUBSCRIPTION_EXPAND },
          crypto.randomUUID(),
        ),
      );
    },

    async cancelNow(id) {
      return subscription(await call("DELETE", subPath(id), { expand: STRIPE_SUBSCRIPTION_EXPAND }));
    },

    async refund(r) {
      const body = await call(
        "POST",
        "/v1/refunds",
        { payment_intent: r.paymentIntent, charge: r.charge, amount: r.amountMinor },
        r.idempotencyKey,
      );
      const refund = parseWire(PROVIDER, ZRefund, body);
      return {
        id: refund.id,
        status: refund.status ?? "pending",
        amountMinor: refund.amount,
        currency: refund.currency.toUpperCase(),
      };
    },

    async createPortalSession(customerId, returnUrl) {
      const body = await call(
        "POST",
        "/v1/billing_portal/sessions",
        { customer: customerId, return_url: returnUrl },
        crypto.randomUUID(),
      );
      return { url: parseWire(PROVIDER, ZPortal, body).url };
    },

    async createPaymentCheckout(r) {
      const body = await call(
        "POST",
        "/v1/checkout/sessions",
        {
          mode: "payment",
          line_items: [
            {
              price_data: {
                currency: r.currency.toLowerCase(),
                unit_amount: r.amountMinor,
                product_data: { name: r.productName },
              },
              quantity: 1,
            },
          ],
          success_url: r.successUrl,
          cancel_url: r.cancelUrl,
          ...(r.email ? { customer_email: r.email } : {}),
          metadata: r.metadata,
          // Separate charges and transfers: the transfer to the driver later names this group and the charge.
          payment_intent_data: { transfer_group: r.transferGroup, metadata: r.metadata },
        },
        r.idempotencyKey,
      );
      const session = parseWire(PROVIDER, ZSession, body);
      return { id: session.id, url: session.url };
    },

    async retrieveCheckoutSession(id) {
      const body = await call("GET", `/v1/checkout/sessions/${encodeURIComponent(id)}`, {});
      const session = mapStripeCheckoutSession(body);
      if (!session) throw serviceUnreadable(PROVIDER, "checkout.session");
      return session;
    },

    async expireCheckoutSession(id) {
      const body = await call(
        "POST",
        `/v1/checkout/sessions/${encodeURIComponent(id)}/expire`,
        {},
        `expire-checkout:${id}`,
      );
      const session = mapStripeCheckoutSession(body);
      if (!session) throw serviceUnreadable(PROVIDER, "checkout.session");
      return session;
    },

    async retrievePaymentIntent(id) {
      const pi = parseWire(
        PROVIDER,
        ZPaymentIntent,
        await call("GET", `/v1/payment_intents/${encodeURIComponent(id)}`, {}),
      );
      return {
        id: pi.id,
        status: pi.status,
        amount: pi.amount,
        currency: pi.currency.toUpperCase(),
        latestCharge: idOf(pi.latest_charge),
        metadata: pi.metadata ?? {},
      };
    },

    verifyWebhook: (raw, signatureHeader, now) => verifyStripeWebhook(raw, signatureHeader, s.webhookSecret, now),

    async createConnectedAccount(r) {
      const body = await call(
        "POST",
        "/v1/accounts",
        {
          // `type: express` is legacy: the controller properties say the same thing explicitly.
          controller: {
            stripe_dashboard: { type: "express" },
            requirement_collection: "stripe",
            fees: { payer: "application" },
            losses: { payments: "application" },
          },
          capabilities: { transfers: { requested: true } },
          country: r.country,
          ...(r.email ? { email: r.email } : {}),
          metadata: r.metadata,
        },
        r.idempotencyKey,
      );
      return account(body);
    },

    async retrieveAccount(id) {
      return account(await call("GET", `/v1/accounts/${encodeURIComponent(id)}`, {}));
    },

    async createAccountLink(r) {
      // No idempotency key: each link is single-use, and a new one is what a second click needs.
      const link = parseWire(
        PROVIDER,
        ZAccountLink,
        await call("POST", "/v1/account_links", {
          account: r.account,
          type: "account_onboarding",
          refresh_url: r.refreshUrl,
          return_url: r.returnUrl,
        }),
      );
      return { url: link.url, expiresAt: link.expires_at * 1000 };
    },

    async createTransfer(r) {
      const body = await call(
        "POST",
        "/v1/transfers",
        {
          amount: r.amountMinor,
          currency: r.currency.toLowerCase(),
          destination: r.destination,
          ...(r.sourceTransaction ? { source_transaction: r.sourceTransaction } : {}),
          transfer_group: r.transferGroup,
          metadata: r.metadata,
        },
        r.idempotencyKey,
      );
      return transfer(body);
    },

    async retrieveTransfer(id) {
      return transfer(await call("GET", `/v1/transfers/${encodeURIComponent(id)}`, {}));
    },
  };
};
