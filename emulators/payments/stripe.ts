// Stripe emulator: a stateful, loopback Stripe for a subscription sold through Checkout, as much of the API as the
// payment adapter uses, the hosted pages a browser visits, and signed webhook deliveries.
//
//   POST   /v1/checkout/sessions               form: mode=subscription, line_items[0][price|quantity], success_url, …
//   GET    /v1/checkout/sessions/{id}           a session past its expires_at (24 h) is expired
//   POST   /v1/checkout/sessions/{id}/expire    an open session only (checkout.session.expired); else 400
//   GET    /v1/subscriptions/{id}               expand[]=latest_invoice | latest_invoice.payments | customer
//   POST   /v1/subscriptions/{id}               cancel_at_period_end=true|false, metadata[…]
//   DELETE /v1/subscriptions/{id}
//   POST   /v1/refunds                         payment_intent=pi_… | charge=ch_…, amount, reason
//   POST   /v1/billing_portal/sessions         customer=cus_…, return_url
//   POST   /v1/accounts                        Connect: controller[…], capabilities[transfers][requested], country,
//                                              email, metadata (type=express is accepted but legacy)
//   GET    /v1/accounts/{id}
//   POST   /v1/account_links                   account, type=account_onboarding, refresh_url, return_url
//   POST   /v1/transfers                       amount, currency, destination, source_transaction, transfer_group,
//                                              metadata
//   GET    /v1/transfers/{id}                  with amount_reversed, reversed and its reversals list
//   POST   /v1/transfers/{id}/reversals        amount (default: what is left), metadata, description,
//                                              refund_application_fee → a transfer_reversal (trr_…); transfer.reversed
//   GET    /v1/transfers/{id}/reversals
//   GET    /checkout/{id}                      the hosted page: "Pay" and "Cancel" (forms POSTing to …/pay, …/cancel)
//   GET    /connect/onboarding/{link}          the hosted onboarding: "Submit details" (payouts enabled), "Leave";
//                                              a link works once and for 5 minutes (then the refresh_url)
//   GET    /portal/{id}                        the billing portal: cancel at period end, return
//
// Auth: `Authorization: Bearer <secret key>` (default "sk_test_sandbox"), else Stripe's 401. Prices:
// price_usd_monthly (29.00 USD) and price_eur_monthly (27.00 EUR), monthly. Unknown parameters, missing required ones,
// unknown ids and expansions answer 400/404 in Stripe's error shape {error: {type, code, message, param}}. A POST
// with an Idempotency-Key is answered once: the same key again gets the first answer (Idempotent-Replayed: true), the
// same key with other parameters Stripe's idempotency_error.
//
// Versions: a request's Stripe-Version must be a real API version (STRIPE_API_VERSIONS; anything else is Stripe's 400
// "Invalid Stripe API version"), and the answer echoes it in its own Stripe-Version header; without the header the
// account default (STRIPE_EMULATOR_VERSION) applies. Shapes follow the version: from 2025-03-31 (basil) the
// subscription's period is on its items (items.data[].current_period_end) and the invoice has no
// payment_intent/charge/paid/subscription (its parent.subscription_details names the subscription and carries a copy
// of the subscription's metadata; the includable `payments` list, present only when expanded, names the payment
// intent). Older versions get the older top-level fields. Webhook objects use control.webhookApiVersion and are never
// expanded.
//
// Paying (the page's "Pay", or control.pay) creates the customer (unless the session named one) and the subscription,
// whose metadata is the session's subscription_data.metadata. Without a trial: period now → +1 month, a paid invoice
// with its payment intent and charge. With subscription_data.trial_end (at least 48 hours ahead, as Stripe demands) or
// trial_period_days: status trialing, period now → trial end, and an invoice for 0.00 that charges nothing;
// control.endTrial (Stripe's trial_end=now) or control.advance bills the first month from then. Then come
// checkout.session.completed, customer.subscription.created and invoice.paid, signed (`Stripe-Signature: t=…,v1=…`)
// with the webhook secret (default "whsec_sandbox"), before the redirect (303) to success_url with
// {CHECKOUT_SESSION_ID} replaced.
//
// Connect: a new account has nothing enabled and requirements.currently_due listing what onboarding asks; submitting
// the onboarding page (or control.completeOnboarding) enables charges and payouts and sends account.updated, an event
// that names the connected account at its top level (`account`), as Connect events do. control.requireMore puts an
// account back to needing information (payouts off, account.updated). A transfer needs a destination whose transfers
// capability is active (else Stripe's insufficient_capabilities_for_transfer), the source charge's currency and at most
// what is left of it (balance_insufficient); it answers at once and sends transfer.created. control.failTransfers makes
// the next transfers fail as Stripe does when the platform's balance cannot cover them. A reversal (the API, or
// control.reverseTransfer as the dashboard does it) takes back all or part of what is left of a transfer: the
// transfer's amount_reversed grows, `reversed` turns true when nothing is left, the reversal is listed on it, and
// transfer.reversed (the transfer as it now is) goes out like every other event: shuffled, possibly twice.
//
// Deliveries, as Stripe makes them: no order is promised and an event may come twice. The events one action causes
// go out as a batch, shuffled, some of them sent a second time (control.delivery: shuffle, duplicateRate, and a seed
// for the PRNG, so a test sees the same order on every run); an event the receiver does not answer with 2xx is sent
// again after the batch (control.delivery.retries times; Stripe retries for days). Batches go out one at a time, in
// the order of the actions; events caused by API calls are sent after the answer, control.settled() waits for them.
// control.fetchImpl carries them (an in-process app's handler in tests).
import { createHmac } from "node:crypto";
import { json } from "../boards/model";

export const STRIPE_SANDBOX = {
  secretKey: "sk_test_sandbox",
  webhookSecret: "whsec_sandbox",
  prices: { USD: "price_usd_monthly", EUR: "price_eur_monthly" },
} as const;
/** The account's default API version (and the webhook endpoint's). */
export const STRIPE_EMULATOR_VERSION = "2026-07-29.dahlia";
/** API versions a request may name (Stripe's published ones this emulator knows; older ones get the older shapes). */
export const STRIPE_API_VERSIONS = [
  "2022-11-15",
  "2023-08-16",
  "2023-10-16",
  "2024-04-10",
  "2024-06-20",
  "2024-09-30.acacia",
  "2024-10-28.acacia",
  "2024-11-20.acacia",
  "2024-12-18.acacia",
  "2025-01-27.acacia",
  "2025-02-24.acacia",
  "2025-03-31.basil",
  "2025-04-30.basil",
  "2025-05-28.basil",
  "2025-06-30.basil",
  "2025-07-30.basil",
  "2025-08-27.basil",
  "2025-09-30.clover",
  "2025-10-29.clover",
  "2025-11-17.clover",
  "2025-12-15.clover",
  "2026-01-28.clover",
  "2026-02-25.clover",
  "2026-03-25.dahlia",
  "2026-04-22.dahlia",
  "2026-05-27.dahlia",
  "2026-06-24.dahlia",
  "2026-07-29.dahlia",
];
/** How webhook deliveries behave (see the header). */
export type TStripeDeliveryMode = {
  /** Each batch in a seeded random order. */
  shuffle: boolean;
  /** The share of events sent a second time, at a random later place in their batch (0 to 1). */
  duplicateRate: number;
  seed: number;
  /** How many more times an event the receiver refused (not 2xx) is sent, after its batch. */
  retries: number;
};
export const STRIPE_DELIVERY_DEFAULT: TStripeDeliveryMode = { shuffle: true, duplicateRate: 0.35, seed: 1, retries: 3 };
/** Stripe's minimum for a Checkout Session's subscription_data.trial_end. */
const MIN_TRIAL_SECONDS = 48 * 3600;
/** The first version with item-level periods and invoice payments. */
const BASIL = "2025-03-31";

export type TFetchImpl = (req: Request) => Response | Promise<Response>;
type TObj = Record<string, unknown>;
type TShape = "basil" | "acacia";

type TPrice = { id: string; currency: string; unit_amount: number; product: string; nickname: string };
type TSession = {
  id: string;
  url: string;
  mode: "subscription" | "payment";
  /** Payment mode: the payment intent created when paid, its transfer_group and metadata (payment_intent_data). */
  payment_intent: string | null;
  transfer_group: string | null;
  intent_metadata: Record<string, string>;
  status: "open" | "complete" | "expired";
  payment_status: "unpaid" | "paid" | "no_payment_required";
  price: TPrice;
  quantity: number;
  success_url: string;
  cancel_url: string | null;
  customer: string | null;
  customer_email: string | null;
  client_reference_id: string | null;
  subscription: string | null;
  invoice: string | null;
  metadata: Record<string, string>;
  subscription_metadata: Record<string, string>;
  /** subscription_data.trial_end (unix seconds), or null for no trial. */
  trial_end: number | null;
  created: number;
  expires_at: number;
};
type TCustomer = { id: string; email: string | null; created: number };
type TSub = {
  id: string;
  customer: string;
  status: "active" | "past_due" | "canceled" | "trialing";
  trial_start: number | null;
  trial_end: number | null;
  price: TPrice;
  quantity: number;
  item: string;
  period_start: number;
  period_end: number;
  cancel_at_period_end: boolean;
  cancel_at: number | null;
  canceled_at: number | null;
  ended_at: number | null;
  latest_invoice: string;
  metadata: Record<string, string>;
  created: number;
};
type TInvoice = {
  id: string;
  customer: string;
  subscription: string;
  status: "paid" | "open";
  amount_due: number;
  amount_paid: number;
  currency: string;
  billing_reason: "subscription_create" | "subscription_cycle" | "subscription_update";
  period_start: number;
  period_end: number;
  attempt_count: number;
  /** Null for an invoice of 0.00 (a trial's first): nothing is charged. */
  payment_intent: string | null;
  created: number;
};
type TIntent = {
  id: string;
  amount: number;
  currency: string;
  customer: string;
  transfer_group?: string | null;
  metadata?: Record<string, string>;
  status: "succeeded" | "requires_payment_method";
  latest_charge: string;
  created: number;
};
type TCharge = {
  id: string;
  amount: number;
  amount_refunded: number;
  currency: string;
  customer: string;
  payment_intent: string;
  status: "succeeded" | "failed";
  created: number;
};
type TRefund = {
  id: string;
  amount: number;
  currency: string;
  charge: string;
  payment_intent: string;
  reason: string | null;
  created: number;
};
type TPortal = { id: string; customer: string; return_url: string | null; url: string; created: number };

type TAccount = {
  id: string;
  email: string | null;
  country: string;
  controller: TObj;
  metadata: Record<string, string>;
  onboarded: boolean;
  /** What Stripe still asks when onboarding is not done. */
  currently_due: string[];
  created: number;
};
type TAccountLink = {
  id: string;
  account: string;
  refresh_url: string;
  return_url: string;
  expires_at: number;
  used: boolean;
};
type TTransfer = {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  source_transaction: string | null;
  transfer_group: string | null;
  metadata: Record<string, string>;
  created: number;
  reversals: TTransferReversal[];
};
type TTransferReversal = {
  id: string;
  amount: number;
  currency: string;
  transfer: string;
  metadata: Record<string, string>;
  created: number;
};
const ONBOARDING_DUE = [
  "business_profile.url",
  "external_account",
  "individual.dob.day",
  "individual.first_name",
  "individual.last_name",
  "tos_acceptance.date",
];

export type TStripeEmuEvent = {
  id: string;
  object: "event";
  /** The connected account a Connect event is about. */
  account?: string;
  api_version: string;
  created: number;
  data: { object: TObj; previous_attributes?: TObj };
  livemode: false;
  pending_webhooks: number;
  request: { id: string | null; idempotency_key: string | null };
  type: string;
};

export type TStripeDelivery = {
  event: TStripeEmuEvent;
  /** Where it went (null: no webhook URL was set, nothing was sent). */
  url: string | null;
  /** The receiver's HTTP status; null when nothing was sent or the receiver could not be reached. */
  status: number | null;
  error: string | null;
  /** The raw body and the Stripe-Signature header sent. */
  body: string;
  signature: string;
};

export type TStripeRequestLog = {
  method: string;
  path: string;
  headers: Record<string, string>;
  /** Query and form parameters, decoded, in order. */
  params: [string, string][];
};

export type TStripeEmulatorOptions = {
  secretKey?: string;
  webhookSecret?: string;
  webhookUrl?: string | null;
  fetchImpl?: TFetchImpl;
};

const PRICES: TPrice[] = [
  { id: STRIPE_SANDBOX.prices.USD, currency: "usd", unit_amount: 2900, product: "prod_mytess", nickname: "Monthly" },
  { id: STRIPE_SANDBOX.prices.EUR, currency: "eur", unit_amount: 2700, product: "prod_mytess", nickname: "Monthly" },
];

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const rid = (prefix: string, n = 24) => {
  const bytes = crypto.getRandomValues(new Uint8Array(n));
  return prefix + Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
};
const nowSec = () => Math.floor(Date.now() / 1000);

/** A small seeded PRNG (mulberry32): the same seed gives the same delivery order on every run. */
const seeded = (seed: number) => {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
};

/** The same day next month, clamped to the month's last day (Jan 31 → Feb 28), as Stripe bills. */
export const addMonth = (sec: number) => {
  const d = new Date(sec * 1000);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() + 1);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return Math.floor(d.getTime() / 1000);
};

const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
const money = (minor: number, currency: string) => `${(minor / 100).toFixed(2)} ${currency.toUpperCase()}`;
/** A small hosted page (the Chapa emulator uses it too). */
export const page = (title: string, body: string, status = 200) =>
  new Response(
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">` +
      `<title>${esc(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;` +
      `padding:0 1rem;color:#1a1f36}h1{font-size:1.2rem}.amount{font-size:2rem;font-weight:600}form{display:inline}` +
      `button{font-size:1rem;padding:.6rem 1.4rem;margin:.3rem .3rem 0 0;border-radius:6px;border:1px solid #635bff;` +
      `background:#635bff;color:#fff;cursor:pointer}button.secondary{background:#fff;color:#635bff}</style></head>` +
      `<body><h1>${esc(title)}</h1>${body}</body></html>`,
    { status, headers: { "Content-Type": "text/html; charset=utf-8" } },
  );
const redirect = (location: string) => new Response(null, { status: 303, headers: { Location: location } });

/** `t=…,v1=<hex HMAC-SHA256(secret, "t.body")>`, and a v0 as test-mode deliveries carry (receivers ignore it). */
export const stripeSignatureHeader = (body: string, secret: string, t = nowSec()) => {
  const v1 = createHmac("sha256", secret).update(`${t}.${body}`, "utf8").digest("hex");
  const v0 = createHmac("sha256", `v0:${secret}`).update(`${t}.${body}`, "utf8").digest("hex");
  return `t=${t},v1=${v1},v0=${v0}`;
};

class StripeError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: { type?: string; code?: string; param?: string } = {},
  ) {
    super(message);
  }
}
const invalid = (message: string, param?: string, code?: string) =>
  new StripeError(400, message, { code: code ?? "parameter_invalid", param });
const missing = (what: string, id: string, param?: string) =>
  new StripeError(404, `No such ${what}: '${id}'`, { code: "resource_missing", param: param ?? "id" });
const errorResponse = (e: StripeError) =>
  json(
    {
      error: {
        type: e.extra.type ?? "invalid_request_error",
        ...(e.extra.code ? { code: e.extra.code, doc_url: `https://stripe.com/docs/error-codes/${e.extra.code}` } : {}),
        message: e.message,
        ...(e.extra.param ? { param: e.extra.param } : {}),
      },
    },
    e.status,
  );

/** Request parameters: a Map from key to its values, plus the expansions asked for. */
class Params {
  constructor(readonly entries: [string, string][]) {}
  get(key: string) {
    return this.entries.find(([k]) => k === key)?.[1];
  }
  has(key: string) {
    return this.entries.some(([k]) => k === key);
  }
  /** The values of `key[]` or `key[0]`, `key[1]`…. */
  list(key: string) {
    const re = new RegExp(`^${key}\\[\\d*\\]$`);
    return this.entries.filter(([k]) => re.test(k)).map(([, v]) => v);
  }
  /** `metadata[a]=b` → {a: b}. */
  map(key: string) {
    const re = new RegExp(`^${key.replace(/[[\]]/g, "\\$&")}\\[([^\\]]+)\\]$`);
    const out: Record<string, string> = {};
    for (const [k, v] of this.entries) {
      const m = re.exec(k);
      if (m) out[m[1]] = v;
    }
    return out;
  }
  /** Refuses parameters whose root name is not in `allowed` (Stripe's "Received unknown parameter"). */
  only(allowed: string[]) {
    for (const [k] of this.entries) {
      const root = k.split("[")[0];
      if (!allowed.includes(root)) throw invalid(`Received unknown parameter: ${root}`, root);
    }
  }
  bool(key: string) {
    const v = this.get(key);
    if (v === undefined) return undefined;
    if (v === "true") return true;
    if (v === "false") return false;
    throw invalid(`Invalid boolean: ${v}`, key);
  }
  required(key: string) {
    const v = this.get(key);
    if (v === undefined || v === "") throw invalid(`Missing required param: ${key}.`, key, "parameter_missing");
    return v;
  }
}

const validUrl = (v: string, param: string) => {
  try {
    const u = new URL(v.replace("{CHECKOUT_SESSION_ID}", "x"));
    if (u.protocol === "http:" || u.protocol === "https:") return v;
  } catch {
    // refused below
  }
  throw invalid("Not a valid URL", param, "url_invalid");
};

const versionShape = (version: string | null): TShape => ((version ?? "") < BASIL ? "acacia" : "basil");

export type TStripeControl = ReturnType<typeof createStripeEmulator>["control"];

export const createStripeEmulator = (o: TStripeEmulatorOptions = {}) => {
  const prices = new Map(PRICES.map((p) => [p.id, p]));
  const sessions = new Map<string, TSession>();
  const customers = new Map<string, TCustomer>();
  const subs = new Map<string, TSub>();
  const invoices = new Map<string, TInvoice>();
  const intents = new Map<string, TIntent>();
  const charges = new Map<string, TCharge>();
  const refunds = new Map<string, TRefund>();
  const portals = new Map<string, TPortal>();
  const accounts = new Map<string, TAccount>();
  const accountLinks = new Map<string, TAccountLink>();
  const transfers = new Map<string, TTransfer>();
  const idempotency = new Map<string, { fingerprint: string; status: number; body: string }>();
  let queue: Promise<unknown> = Promise.resolve();
  let random = seeded(STRIPE_DELIVERY_DEFAULT.seed);
  let randomSeed = STRIPE_DELIVERY_DEFAULT.seed;

  const control = {
    /** The key requests must carry. */
    secretKey: o.secretKey ?? STRIPE_SANDBOX.secretKey,
    /** The webhook endpoint's signing secret. */
    webhookSecret: o.webhookSecret ?? STRIPE_SANDBOX.webhookSecret,
    webhookUrl: o.webhookUrl ?? null,
    /** Carries webhook deliveries (default: fetch with a 10 s timeout). */
    fetchImpl: o.fetchImpl ?? ((req: Request) => fetch(req, { signal: AbortSignal.timeout(10_000) })),
    /** The API version of webhook bodies (an endpoint keeps the version it was created with). */
    webhookApiVersion: STRIPE_EMULATOR_VERSION,
    /** How deliveries are ordered, repeated and retried (set a new object to change it; reset() restores the default). */
    delivery: { ...STRIPE_DELIVERY_DEFAULT } as TStripeDeliveryMode,
    /** The emulator's own address, for hosted-page URLs (learnt from the first request when not set). */
    baseUrl: null as string | null,
    /** Every API endpoint answers 500 (api_error); hosted pages answer 503. */
    outage: false,
    /** Every answer waits this long first. */
    delayMs: 0,
    /** API requests received (/v1/…), counted on arrival, and what they carried. */
    calls: 0,
    requests: [] as TStripeRequestLog[],
    /** Every event created, in order, and every delivery attempt. */
    events: [] as TStripeEmuEvent[],
    deliveries: [] as TStripeDelivery[],
    setWebhookUrl: (url: string | null) => {
      control.webhookUrl = url;
    },
    /** Waits until every queued webhook delivery has been attempted. */
    settled: async () => {
      let seen: Promise<unknown>;
      do {
        seen = queue;
        await seen;
      } while (seen !== queue);
    },
    /** Sends an arbitrary signed event (queued behind earlier ones, once, no retry); resolves to its delivery. */
    deliver: (type: string, object: TObj, previousAttributes?: TObj) =>
      enqueue(event(type, object, previousAttributes)),
    /** Pays an open Checkout Session as the page's "Pay" does; resolves once its events were delivered. */
    pay: (sessionId: string) => pay(sessionId),
    /** Pays an open Checkout Session in payment mode as the page's "Pay" does; resolves once its events were delivered. */
    payPayment: (sessionId: string) => payPayment(sessionId),
    /** Abandons a session as the page's "Cancel" does: nothing changes; the cancel_url (or null). */
    cancel: (sessionId: string) => {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`No such checkout.session: ${sessionId}`);
      return s.cancel_url;
    },
    /** A session's 24 hours run out (as if that time had passed): it expires, with checkout.session.expired. */
    expireAfterTime: (sessionId: string) => {
      const s = sessions.get(sessionId);
      if (!s) throw new Error(`No such checkout.session: ${sessionId}`);
      s.expires_at = Math.min(s.expires_at, nowSec() - 1);
      lapse(s);
    },
    /**
     * The subscription's period ends: a subscription set to cancel at period end ends (customer.subscription.deleted);
     * otherwise it renews for a month with a paid invoice (invoice.paid, customer.subscription.updated).
     */
    advance: (subscriptionId: string) => advance(subscriptionId, true),
    /** The period ends and the renewal payment fails: past_due, an open invoice (invoice.payment_failed…). */
    failPayment: (subscriptionId: string) => advance(subscriptionId, false),
    /**
     * A trialing subscription's trial ends now (Stripe's trial_end=now, or the clock reaching it): active, the first
     * month billed from now (invoice.paid, customer.subscription.updated).
     */
    endTrial: (subscriptionId: string) => advance(subscriptionId, true, true),
    /** State for assertions (copies). */
    session: (id: string) => structuredClone(sessions.get(id)),
    subscription: (id: string) => structuredClone(subs.get(id)),
    subscriptions: () => [...subs.values()].map((s) => structuredClone(s)),
    charge: (id: string) => structuredClone(charges.get(id)),
    intent: (id: string) => structuredClone(intents.get(id)),
    account: (id: string) => structuredClone(accounts.get(id)),
    accounts: () => [...accounts.values()].map((a) => structuredClone(a)),
    transfers: () => [...transfers.values()].map((t) => structuredClone(t)),
    /** Onboarding submitted (as the hosted page's "Submit details"): payouts on, account.updated sent. */
    completeOnboarding: (accountId: string) => setOnboarded(accountId, true),
    /** Stripe asks for more information: payouts off, account.updated sent. */
    requireMore: (accountId: string) => setOnboarded(accountId, false),
    /** How many of the next transfers fail with balance_insufficient (the platform's balance cannot cover them). */
    failTransfers: 0,
    /** A reversal made in the dashboard: all (no amount) or part of a transfer back; resolves to the reversal. */
    reverseTransfer: (transferId: string, amount?: number) => {
      const t = transfers.get(transferId);
      if (!t) throw new Error(`No such transfer: ${transferId}`);
      return reverseTransfer(t, amount ?? null, {});
    },
    refundsOf: (paymentIntent: string) =>
      [...refunds.values()].filter((r) => r.payment_intent === paymentIntent).map((r) => ({ ...r })),
    /** Forgets everything: objects, keys, logs; modes off, default secrets, no webhook URL. */
    reset: () => {
      for (const m of [sessions, customers, subs, invoices, intents, charges, refunds, portals, idempotency]) m.clear();
      control.secretKey = o.secretKey ?? STRIPE_SANDBOX.secretKey;
      control.webhookSecret = o.webhookSecret ?? STRIPE_SANDBOX.webhookSecret;
      control.webhookUrl = o.webhookUrl ?? null;
      control.webhookApiVersion = STRIPE_EMULATOR_VERSION;
      control.delivery = { ...STRIPE_DELIVERY_DEFAULT };
      random = seeded(control.delivery.seed);
      randomSeed = control.delivery.seed;
      control.outage = false;
      control.delayMs = 0;
      control.failTransfers = 0;
      accounts.clear();
      accountLinks.clear();
      transfers.clear();
      control.calls = 0;
      control.requests = [];
      control.events = [];
      control.deliveries = [];
    },
  };

  const origin = () => control.baseUrl ?? "http://127.0.0.1";

  // Rendering --------------------------------------------------------------------------------------------------------

  const renderPrice = (p: TPrice) => ({
    id: p.id,
    object: "price",
    active: true,
    currency: p.currency,
    nickname: p.nickname,
    product: p.product,
    recurring: { interval: "month", interval_count: 1, usage_type: "licensed" },
    type: "recurring",
    unit_amount: p.unit_amount,
    livemode: false,
  });

  const renderSession = (s: TSession) => ({
    id: s.id,
    object: "checkout.session",
    mode: s.mode,
    payment_intent: s.payment_intent,
    status: s.status,
    payment_status: s.payment_status,
    url: s.status === "open" ? s.url : null,
    success_url: s.success_url,
    cancel_url: s.cancel_url,
    customer: s.customer,
    customer_email: s.customer_email,
    customer_details: s.status === "complete" ? { email: customers.get(s.customer ?? "")?.email ?? null } : null,
    client_reference_id: s.client_reference_id,
    currency: s.price.currency,
    amount_subtotal: s.price.unit_amount * s.quantity,
    amount_total: s.price.unit_amount * s.quantity,
    subscription: s.subscription,
    invoice: s.invoice,
    metadata: s.metadata,
    created: s.created,
    expires_at: s.expires_at,
    livemode: false,
  });

  const renderInvoice = (inv: TInvoice, shape: TShape, withPayments: boolean): TObj => {
    const sub = subs.get(inv.subscription);
    const intent = inv.payment_intent ? intents.get(inv.payment_intent) : undefined;
    return {
      id: inv.id,
      object: "invoice",
      customer: inv.customer,
      status: inv.status,
      amount_due: inv.amount_due,
      amount_paid: inv.amount_paid,
      amount_remaining: inv.amount_due - inv.amount_paid,
      currency: inv.currency,
      billing_reason: inv.billing_reason,
      attempt_count: inv.attempt_count,
      attempted: true,
      collection_method: "charge_automatically",
      created: inv.created,
      period_start: inv.period_start,
      period_end: inv.period_end,
      hosted_invoice_url: `${control.baseUrl ?? ""}/invoices/${inv.id}`,
      livemode: false,
      lines: {
        object: "list",
        data: [
          {
            id: `il_${inv.id.slice(3)}`,
            object: "line_item",
            amount: inv.amount_due,
            currency: inv.currency,
            period: { start: inv.period_start, end: inv.period_end },
            quantity: sub?.quantity ?? 1,
            // Since basil the line's Price is under `pricing` (an id, the unit amount as a decimal string); before, the
            // Price object itself.
            ...(sub &&
              (shape === "basil"
                ? {
                    pricing: {
                      type: "price_details",
                      price_details: { price: sub.price.id, product: sub.price.product },
                      unit_amount_decimal: String(sub.price.unit_amount),
                    },
                  }
                : { price: renderPrice(sub.price) })),
          },
        ],
        has_more: false,
      },
      ...(shape === "basil"
        ? {
            parent: {
              type: "subscription_details",
              subscription_details: { subscription: inv.subscription, metadata: sub?.metadata ?? {} },
            },
            ...(withPayments && inv.payment_intent
              ? {
                  payments: {
                    object: "list",
                    data: [
                      {
                        id: `inpay_${inv.id.slice(3)}`,
                        object: "invoice_payment",
                        amount_paid: inv.amount_paid,
                        amount_requested: inv.amount_due,
                        currency: inv.currency,
                        invoice: inv.id,
                        is_default: true,
                        payment: { type: "payment_intent", payment_intent: inv.payment_intent },
                        status: inv.status === "paid" ? "paid" : "open",
                      },
                    ],
                    has_more: false,
                    url: "/v1/invoice_payments",
                  },
                }
              : {}),
          }
        : {
            subscription: inv.subscription,
            subscription_details: { metadata: sub?.metadata ?? {} },
            payment_intent: inv.payment_intent,
            charge: intent?.latest_charge ?? null,
            paid: inv.status === "paid",
          }),
    };
  };

  const renderCustomer = (c: TCustomer) => ({
    id: c.id,
    object: "customer",
    email: c.email,
    created: c.created,
    livemode: false,
  });

  const renderSub = (s: TSub, shape: TShape, expand: string[] = []): TObj => {
    const invoice = invoices.get(s.latest_invoice)!;
    const latestInvoice = expand.includes("latest_invoice.payments")
      ? renderInvoice(invoice, shape, true)
      : expand.includes("latest_invoice")
        ? renderInvoice(invoice, shape, false)
        : s.latest_invoice;
    const period = { current_period_start: s.period_start, current_period_end: s.period_end };
    return {
      id: s.id,
      object: "subscription",
      customer: expand.includes("customer") ? renderCustomer(customers.get(s.customer)!) : s.customer,
      status: s.status,
      cancel_at_period_end: s.cancel_at_period_end,
      trial_start: s.trial_start,
      trial_end: s.trial_end,
      cancel_at: s.cancel_at,
      canceled_at: s.canceled_at,
      ended_at: s.ended_at,
      collection_method: "charge_automatically",
      created: s.created,
      start_date: s.created,
      currency: s.price.currency,
      livemode: false,
      metadata: s.metadata,
      ...(shape === "acacia" ? period : {}),
      items: {
        object: "list",
        data: [
          {
            id: s.item,
            object: "subscription_item",
            price: renderPrice(s.price),
            quantity: s.quantity,
            subscription: s.id,
            created: s.created,
            ...(shape === "basil" ? period : {}),
          },
        ],
        has_more: false,
        url: `/v1/subscription_items?subscription=${s.id}`,
      },
      latest_invoice: latestInvoice,
    };
  };

  const renderCharge = (c: TCharge) => ({
    id: c.id,
    object: "charge",
    amount: c.amount,
    amount_captured: c.status === "succeeded" ? c.amount : 0,
    amount_refunded: c.amount_refunded,
    currency: c.currency,
    customer: c.customer,
    payment_intent: c.payment_intent,
    paid: c.status === "succeeded",
    captured: c.status === "succeeded",
    refunded: c.amount_refunded >= c.amount && c.amount > 0,
    status: c.status,
    created: c.created,
    livemode: false,
  });

  const renderIntent = (i: TIntent) => ({
    id: i.id,
    object: "payment_intent",
    amount: i.amount,
    amount_received: i.status === "succeeded" ? i.amount : 0,
    currency: i.currency,
    customer: i.customer,
    latest_charge: i.latest_charge,
    status: i.status,
    transfer_group: i.transfer_group ?? null,
    metadata: i.metadata ?? {},
    created: i.created,
    livemode: false,
  });

  const renderRefund = (r: TRefund) => ({
    id: r.id,
    object: "refund",
    amount: r.amount,
    currency: r.currency,
    charge: r.charge,
    payment_intent: r.payment_intent,
    reason: r.reason,
    status: "succeeded",
    created: r.created,
  });

  const renderAccount = (a: TAccount) => ({
    id: a.id,
    object: "account",
    business_type: null,
    capabilities: { transfers: a.onboarded ? "active" : "inactive" },
    charges_enabled: a.onboarded,
    controller: a.controller,
    country: a.country,
    created: a.created,
    default_currency: a.country === "US" ? "usd" : "eur",
    details_submitted: a.onboarded,
    email: a.email,
    metadata: a.metadata,
    payouts_enabled: a.onboarded,
    requirements: {
      currently_due: a.onboarded ? [] : a.currently_due,
      eventually_due: a.onboarded ? [] : a.currently_due,
      past_due: [],
      disabled_reason: a.onboarded ? null : "requirements.past_due",
    },
    type: "express",
  });

  const renderReversal = (r: TTransferReversal) => ({
    id: r.id,
    object: "transfer_reversal",
    amount: r.amount,
    balance_transaction: null,
    created: r.created,
    currency: r.currency,
    destination_payment_refund: null,
    metadata: r.metadata,
    source_refund: null,
    transfer: r.transfer,
  });

  const reversalList = (t: TTransfer) => ({
    object: "list",
    data: t.reversals.map(renderReversal).reverse(),
    has_more: false,
    total_count: t.reversals.length,
    url: `/v1/transfers/${t.id}/reversals`,
  });

  const amountReversed = (t: TTransfer) => t.reversals.reduce((sum, r) => sum + r.amount, 0);

  const renderTransfer = (t: TTransfer) => ({
    id: t.id,
    object: "transfer",
    amount: t.amount,
    amount_reversed: amountReversed(t),
    currency: t.currency,
    destination: t.destination,
    source_transaction: t.source_transaction,
    transfer_group: t.transfer_group,
    metadata: t.metadata,
    reversals: reversalList(t),
    reversed: amountReversed(t) >= t.amount,
    created: t.created,
    livemode: false,
  });

  /** Takes back all (no amount) or part of what is left of a transfer; transfer.reversed goes out. */
  const reverseTransfer = (t: TTransfer, amount: number | null, metadata: Record<string, string>) => {
    const left = t.amount - amountReversed(t);
    if (left <= 0) throw invalid(`Transfer ${t.id} has already been fully reversed.`, undefined, "transfer_reversed");
    const take = amount ?? left;
    if (take > left)
      throw invalid(
        `You have already reversed ${amountReversed(t)} of this transfer. You can only reverse up to ${left} more.`,
        "amount",
      );
    const r: TTransferReversal = {
      id: rid("trr_"),
      amount: take,
      currency: t.currency,
      transfer: t.id,
      metadata,
      created: nowSec(),
    };
    t.reversals.push(r);
    void enqueueBatch([event("transfer.reversed", renderTransfer(t))]);
    return renderReversal(r);
  };

  const accountEvent = (a: TAccount) => {
    const e = event("account.updated", renderAccount(a));
    e.account = a.id;
    return e;
  };

  const setOnboarded = (accountId: string, onboarded: boolean) => {
    const a = accounts.get(accountId);
    if (!a) throw new Error(`No such account: ${accountId}`);
    a.onboarded = onboarded;
    if (!onboarded) a.currently_due = ["individual.verification.document"];
    return enqueueBatch([accountEvent(a)]);
  };

  const createAccount = (p: Params) => {
    p.only(["type", "controller", "capabilities", "country", "email", "metadata", "business_type", "expand"]);
    const type = p.get("type");
    const controller = {
      stripe_dashboard: { type: p.get("controller[stripe_dashboard][type]") ?? null },
      requirement_collection: p.get("controller[requirement_collection]") ?? null,
      fees: { payer: p.get("controller[fees][payer]") ?? null },
      losses: { payments: p.get("controller[losses][payments]") ?? null },
    };
    if (type && p.has("controller[stripe_dashboard][type]"))
      throw invalid("You cannot specify both `type` and `controller`.", "type");
    if (!type && !p.has("controller[stripe_dashboard][type]"))
      throw invalid("You must specify either `type` or `controller` when creating an account.", "controller");
    if (controller.requirement_collection === "application" && controller.stripe_dashboard.type !== "none")
      throw invalid(
        "requirement_collection=application requires stripe_dashboard[type]=none.",
        "controller[requirement_collection]",
      );
    const country = (p.get("country") ?? "US").toUpperCase();
    if (!/^[A-Z]{2}$/.test(country)) throw invalid(`Invalid country: ${country}`, "country");
    const a: TAccount = {
      id: rid("acct_", 16),
      email: p.get("email") ?? null,
      country,
      controller,
      metadata: p.map("metadata"),
      onboarded: false,
      currently_due: [...ONBOARDING_DUE],
      created: nowSec(),
    };
    accounts.set(a.id, a);
    return renderAccount(a);
  };

  const createAccountLink = (p: Params, base: string) => {
    p.only(["account", "type", "refresh_url", "return_url", "collect", "collection_options"]);
    const account = p.required("account");
    if (!accounts.has(account)) throw missing("account", account, "account");
    const type = p.required("type");
    if (type === "account_update")
      throw invalid("You cannot create `account_update` type Account Links for this account.", "type");
    if (type !== "account_onboarding") throw invalid(`Invalid type: ${type}`, "type");
    const link: TAccountLink = {
      id: rid("aclink_", 16),
      account,
      refresh_url: validUrl(p.required("refresh_url"), "refresh_url"),
      return_url: validUrl(p.required("return_url"), "return_url"),
      expires_at: nowSec() + 300,
      used: false,
    };
    accountLinks.set(link.id, link);
    return {
      object: "account_link",
      created: nowSec(),
      expires_at: link.expires_at,
      url: `${base}/connect/onboarding/${link.id}`,
    };
  };

  const createTransfer = (p: Params) => {
    p.only([
      "amount",
      "currency",
      "destination",
      "source_transaction",
      "transfer_group",
      "metadata",
      "description",
      "expand",
    ]);
    const amountText = p.required("amount");
    const amount = Number(amountText);
    if (!Number.isInteger(amount) || amount < 1) throw invalid(`Invalid positive integer: ${amountText}`, "amount");
    const currency = p.required("currency").toLowerCase();
    const destination = p.required("destination");
    const a = accounts.get(destination);
    if (!a) throw missing("account", destination, "destination");
    if (!a.onboarded)
      throw new StripeError(
        400,
        "Your destination account needs to have at least one of the following capabilities enabled: transfers, crypto_transfers, legacy_payments",
        { code: "insufficient_capabilities_for_transfer", param: "destination" },
      );
    const source = p.get("source_transaction") ?? null;
    if (source) {
      const ch = charges.get(source);
      if (!ch) throw missing("charge", source, "source_transaction");
      if (ch.currency !== currency)
        throw invalid(
          `The currency of source_transaction's balance transaction (${ch.currency}) must be the same as the transfer currency (${currency})`,
          "currency",
        );
      const used = [...transfers.values()]
        .filter((t) => t.source_transaction === source)
        .reduce((sum, t) => sum + t.amount, 0);
      if (amount > ch.amount - ch.amount_refunded - used)
        throw new StripeError(400, `Transfer amount exceeds the available amount of source_transaction ${source}.`, {
          code: "balance_insufficient",
          param: "amount",
        });
    }
    if (control.failTransfers > 0) {
      control.failTransfers--;
      throw new StripeError(
        400,
        "You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card.",
        { code: "balance_insufficient" },
      );
    }
    const t: TTransfer = {
      id: rid("tr_"),
      amount,
      currency,
      destination,
      source_transaction: source,
      transfer_group: p.get("transfer_group") ?? null,
      metadata: p.map("metadata"),
      created: nowSec(),
      reversals: [],
    };
    transfers.set(t.id, t);
    void enqueueBatch([event("transfer.created", renderTransfer(t))]);
    return renderTransfer(t);
  };

  const onboardingPage = (link: TAccountLink) => {
    const a = accounts.get(link.account)!;
    const path = `/connect/onboarding/${esc(link.id)}`;
    return page(
      "MyTess Sandbox · Stripe Connect onboarding",
      `<p>Payouts for ${esc(a.email ?? a.id)} (${esc(a.country)})</p>` +
        `<p>Test mode: no identity is checked.</p>` +
        `<form method="post" action="${path}/submit"><button type="submit">Submit details</button></form>` +
        `<form method="post" action="${path}/leave"><button class="secondary" type="submit">Leave</button></form>`,
    );
  };

  const renderPortal = (p: TPortal) => ({
    id: p.id,
    object: "billing_portal.session",
    customer: p.customer,
    return_url: p.return_url,
    url: p.url,
    created: p.created,
    livemode: false,
  });

  const webhookShape = () => versionShape(control.webhookApiVersion);

  // Events -------------------------------------------------------------------------------------------------------------

  const event = (type: string, object: TObj, previousAttributes?: TObj): TStripeEmuEvent => {
    const e: TStripeEmuEvent = {
      id: rid("evt_test_"),
      object: "event",
      api_version: control.webhookApiVersion,
      created: nowSec(),
      data: { object, ...(previousAttributes ? { previous_attributes: previousAttributes } : {}) },
      livemode: false,
      pending_webhooks: control.webhookUrl ? 1 : 0,
      request: { id: null, idempotency_key: null },
      type,
    };
    control.events.push(e);
    return e;
  };

  const send = async (e: TStripeEmuEvent): Promise<TStripeDelivery> => {
    const body = JSON.stringify(e);
    const signature = stripeSignatureHeader(body, control.webhookSecret);
    const url = control.webhookUrl;
    const d: TStripeDelivery = { event: e, url, status: null, error: null, body, signature };
    if (url) {
      try {
        const res = await control.fetchImpl(
          new Request(url, {
            method: "POST",
            headers: {
              "Content-Type": "application/json; charset=utf-8",
              "User-Agent": "Stripe/1.0 (+https://stripe.com/docs/webhooks)",
              "Stripe-Signature": signature,
            },
            body,
          }),
        );
        d.status = res.status;
        await res.arrayBuffer().catch(() => undefined);
      } catch (err) {
        d.error = (err as Error).message;
      }
    }
    control.deliveries.push(d);
    return d;
  };

  const enqueue = (e: TStripeEmuEvent): Promise<TStripeDelivery> => {
    const p = queue.then(() => send(e));
    queue = p.catch(() => undefined);
    return p;
  };

  /**
   * The events of one action, delivered as Stripe does: in a (seeded) random order, some twice, and those the
   * receiver refused sent again after the batch. Resolves to each event's last delivery, in the events' order.
   */
  const enqueueBatch = (events: TStripeEmuEvent[]): Promise<TStripeDelivery[]> => {
    const p = queue.then(async () => {
      const mode = control.delivery;
      if (mode.seed !== randomSeed) {
        random = seeded(mode.seed);
        randomSeed = mode.seed;
      }
      const order = [...events];
      if (mode.shuffle)
        for (let i = order.length - 1; i > 0; i--) {
          const j = Math.floor(random() * (i + 1));
          [order[i], order[j]] = [order[j]!, order[i]!];
        }
      for (const e of events)
        if (random() < mode.duplicateRate) {
          const after = order.indexOf(e) + 1;
          order.splice(after + Math.floor(random() * (order.length - after + 1)), 0, e);
        }
      const last = new Map<TStripeEmuEvent, TStripeDelivery>();
      for (const e of order) last.set(e, await send(e));
      const ok = (d: TStripeDelivery | undefined) => d?.status != null && d.status >= 200 && d.status < 300;
      for (let round = 0; round < mode.retries; round++) {
        const again = events.filter((e) => !ok(last.get(e)));
        if (!again.length) break;
        for (const e of again) last.set(e, await send(e));
      }
      return events.map((e) => last.get(e)!);
    });
    queue = p.catch(() => undefined);
    return p;
  };

  // Payments -----------------------------------------------------------------------------------------------------------

  /** A payment intent and its charge for an invoice's amount (succeeded or failed). */
  const charge = (customer: string, amount: number, currency: string, ok: boolean) => {
    const created = nowSec();
    const intent: TIntent = {
      id: rid("pi_"),
      amount,
      currency,
      customer,
      status: ok ? "succeeded" : "requires_payment_method",
      latest_charge: rid("ch_"),
      created,
    };
    intents.set(intent.id, intent);
    charges.set(intent.latest_charge, {
      id: intent.latest_charge,
      amount,
      amount_refunded: 0,
      currency,
      customer,
      payment_intent: intent.id,
      status: ok ? "succeeded" : "failed",
      created,
    });
    return intent;
  };

  /** The invoice of the subscription's current period; a trial's is for 0.00 and charges nothing. */
  const invoiceFor = (sub: TSub, reason: TInvoice["billing_reason"], ok: boolean) => {
    const amount = sub.status === "trialing" ? 0 : sub.price.unit_amount * sub.quantity;
    const intent = amount > 0 ? charge(sub.customer, amount, sub.price.currency, ok) : null;
    const inv: TInvoice = {
      id: rid("in_"),
      customer: sub.customer,
      subscription: sub.id,
      status: ok ? "paid" : "open",
      amount_due: amount,
      amount_paid: ok ? amount : 0,
      currency: sub.price.currency,
      billing_reason: reason,
      period_start: sub.period_start,
      period_end: sub.period_end,
      attempt_count: 1,
      payment_intent: intent?.id ?? null,
      created: nowSec(),
    };
    invoices.set(inv.id, inv);
    sub.latest_invoice = inv.id;
    return inv;
  };

  /**
   * A session past its expires_at (24 hours by default) expires, as Stripe's do: it can no longer be paid, its url
   * is gone, and checkout.session.expired goes out. Looked at whenever the session is read or paid.
   */
  const lapse = (s: TSession | undefined) => {
    if (s?.status === "open" && s.expires_at <= nowSec()) expireSession(s);
    return s;
  };
  const expireSession = (s: TSession) => {
    s.status = "expired";
    void enqueueBatch([event("checkout.session.expired", renderSession(s))]);
  };

  const pay = async (sessionId: string) => {
    const s = lapse(sessions.get(sessionId));
    if (!s) throw new Error(`No such checkout.session: ${sessionId}`);
    if (s.status !== "open") throw new Error(`The checkout session ${sessionId} is ${s.status}`);
    const now = nowSec();
    let customer = s.customer ? customers.get(s.customer) : undefined;
    if (!customer) {
      customer = { id: rid("cus_", 14), email: s.customer_email, created: now };
      customers.set(customer.id, customer);
    }
    if (s.mode === "payment") throw new Error(`The checkout session ${sessionId} is in payment mode: payPayment`);
    const trial = s.trial_end !== null && s.trial_end > now;
    const sub: TSub = {
      id: rid("sub_"),
      customer: customer.id,
      status: trial ? "trialing" : "active",
      trial_start: trial ? now : null,
      trial_end: trial ? s.trial_end : null,
      price: s.price,
      quantity: s.quantity,
      item: rid("si_", 14),
      period_start: now,
      period_end: trial ? s.trial_end! : addMonth(now),
      cancel_at_period_end: false,
      cancel_at: null,
      canceled_at: null,
      ended_at: null,
      latest_invoice: "",
      metadata: { ...s.subscription_metadata },
      created: now,
    };
    subs.set(sub.id, sub);
    const inv = invoiceFor(sub, "subscription_create", true);
    Object.assign(s, {
      status: "complete",
      payment_status: trial ? "no_payment_required" : "paid",
      customer: customer.id,
      subscription: sub.id,
      invoice: inv.id,
    });
    const shape = webhookShape();
    const deliveries = await enqueueBatch([
      event("checkout.session.completed", renderSession(s)),
      event("customer.subscription.created", renderSub(sub, shape)),
      event("invoice.paid", renderInvoice(inv, shape, false)),
    ]);
    return {
      successUrl: s.success_url.replaceAll("{CHECKOUT_SESSION_ID}", s.id),
      subscriptionId: sub.id,
      customerId: customer.id,
      deliveries,
    };
  };

  /** Pays an open Checkout Session in payment mode (a one-off payment): a payment intent and its charge. */
  const payPayment = async (sessionId: string) => {
    const s = lapse(sessions.get(sessionId));
    if (!s) throw new Error(`No such checkout.session: ${sessionId}`);
    if (s.status !== "open") throw new Error(`The checkout session ${sessionId} is ${s.status}`);
    if (s.mode !== "payment") throw new Error(`The checkout session ${sessionId} is in subscription mode: pay`);
    let customer = s.customer ? customers.get(s.customer) : undefined;
    if (!customer) {
      customer = { id: rid("cus_", 14), email: s.customer_email, created: nowSec() };
      customers.set(customer.id, customer);
    }
    // checkout.session.completed, payment_intent.succeeded and charge.succeeded, in no promised order.
    const intent = charge(customer.id, s.price.unit_amount * s.quantity, s.price.currency, true);
    intent.transfer_group = s.transfer_group;
    intent.metadata = { ...s.intent_metadata };
    Object.assign(s, { status: "complete", payment_status: "paid", customer: customer.id, payment_intent: intent.id });
    const deliveries = await enqueueBatch([
      event("checkout.session.completed", renderSession(s)),
      event("payment_intent.succeeded", renderIntent(intent)),
      event("charge.succeeded", renderCharge(charges.get(intent.latest_charge)!)),
    ]);
    return {
      successUrl: s.success_url.replaceAll("{CHECKOUT_SESSION_ID}", s.id),
      paymentIntentId: intent.id,
      chargeId: intent.latest_charge,
      deliveries,
    };
  };

  /**
   * The period ends (or, with `trialEndsNow`, a trial ends at once): a subscription set to cancel at period end ends;
   * otherwise the next month is billed from the period's end (from now for a trial ended early).
   */
  const advance = async (subscriptionId: string, ok: boolean, trialEndsNow = false) => {
    const sub = subs.get(subscriptionId);
    if (!sub) throw new Error(`No such subscription: ${subscriptionId}`);
    if (sub.status === "canceled") throw new Error(`The subscription ${subscriptionId} is canceled`);
    if (trialEndsNow && sub.status !== "trialing")
      throw new Error(`The subscription ${subscriptionId} is not trialing`);
    const shape = webhookShape();
    const before = renderSub(sub, shape);
    if (sub.cancel_at_period_end) {
      Object.assign(sub, { status: "canceled", ended_at: sub.period_end, canceled_at: sub.canceled_at ?? nowSec() });
      return enqueueBatch([event("customer.subscription.deleted", renderSub(sub, shape))]);
    }
    const status = sub.status;
    sub.period_start = trialEndsNow ? nowSec() : sub.period_end;
    if (status === "trialing") sub.trial_end = sub.period_start;
    sub.period_end = addMonth(sub.period_start);
    sub.status = ok ? "active" : "past_due";
    const inv = invoiceFor(sub, status === "trialing" ? "subscription_update" : "subscription_cycle", ok);
    const previous: TObj = {
      latest_invoice: before.latest_invoice,
      ...(status !== sub.status ? { status } : {}),
      ...(status === "trialing" ? { trial_end: before.trial_end } : {}),
      ...(shape === "acacia"
        ? { current_period_start: before.current_period_start, current_period_end: before.current_period_end }
        : { items: before.items }),
    };
    return enqueueBatch([
      event(ok ? "invoice.paid" : "invoice.payment_failed", renderInvoice(inv, shape, false)),
      event("customer.subscription.updated", renderSub(sub, shape), previous),
    ]);
  };

  const setCancelAtPeriodEnd = (sub: TSub, cancel: boolean) => {
    if (sub.cancel_at_period_end === cancel) return;
    const previous = { cancel_at_period_end: sub.cancel_at_period_end, cancel_at: sub.cancel_at };
    sub.cancel_at_period_end = cancel;
    sub.cancel_at = cancel ? sub.period_end : null;
    sub.canceled_at = cancel ? nowSec() : null;
    void enqueueBatch([event("customer.subscription.updated", renderSub(sub, webhookShape()), previous)]);
  };

  // API ----------------------------------------------------------------------------------------------------------------

  const expansions = (p: Params, allowed: string[], shape: TShape) => {
    const list = p.list("expand");
    for (const e of list) {
      const ok = allowed.includes(e) && !(e === "latest_invoice.payments" && shape === "acacia");
      if (!ok) throw invalid(`This property cannot be expanded (${e}).`, "expand");
    }
    return list;
  };
  const SUB_EXPAND = ["latest_invoice", "latest_invoice.payments", "customer"];

  const subOf = (id: string) => {
    const sub = subs.get(id);
    if (!sub) throw missing("subscription", id);
    return sub;
  };

  const createSession = (p: Params, base: string) => {
    p.only([
      "mode",
      "line_items",
      "success_url",
      "cancel_url",
      "customer",
      "customer_email",
      "client_reference_id",
      "subscription_data",
      "payment_intent_data",
      "metadata",
      "expand",
      "allow_promotion_codes",
      "locale",
      "billing_address_collection",
      "payment_method_types",
      "automatic_tax",
      "ui_mode",
    ]);
    const mode = p.required("mode");
    if (!["payment", "setup", "subscription"].includes(mode)) throw invalid(`Invalid mode: ${mode}`, "mode");
    if (mode === "setup")
      throw invalid("This emulator supports mode=subscription and mode=payment, not setup.", "mode");
    const paymentMode = mode === "payment";
    if (paymentMode && p.entries.some(([k]) => k.startsWith("subscription_data")))
      throw invalid("You can not pass `subscription_data` in `payment` mode.", "subscription_data");
    if (!paymentMode && p.entries.some(([k]) => k.startsWith("payment_intent_data")))
      throw invalid("You can not pass `payment_intent_data` in `subscription` mode.", "payment_intent_data");
    for (const [k] of p.entries) {
      const m = /^line_items\[(\d+)\]\[(\w+)\]/.exec(k);
      if (k.startsWith("line_items") && !m) throw invalid(`Invalid array: ${k}`, "line_items");
      if (m && m[1] !== "0") throw invalid("This emulator accepts exactly one line item.", "line_items");
      if (m && !["price", "quantity", "price_data"].includes(m[2]))
        throw invalid(`Received unknown parameter: line_items[0][${m[2]}]`, `line_items[0][${m[2]}]`);
    }
    if (!p.has("line_items[0][price]") && !p.has("line_items[0][price_data][currency]"))
      throw invalid("Missing required param: line_items.", "line_items", "parameter_missing");
    let price: TPrice;
    if (p.has("line_items[0][price_data][currency]")) {
      // An inline price (price_data): one-off, for payment mode here (a recurring one would need price_data[recurring]).
      if (!paymentMode)
        throw invalid("price_data without recurring is only allowed in payment mode.", "line_items[0][price_data]");
      const currency = p.required("line_items[0][price_data][currency]").toLowerCase();
      if (!["usd", "eur", "etb", "gbp"].includes(currency))
        throw invalid(`Invalid currency: ${currency}.`, "line_items[0][price_data][currency]");
      const unitText = p.required("line_items[0][price_data][unit_amount]");
      const unit = Number(unitText);
      if (!Number.isInteger(unit) || unit < 1)
        throw invalid(`Invalid positive integer: ${unitText}`, "line_items[0][price_data][unit_amount]");
      // Stripe's minimum charge in USD and EUR is 0.50.
      if (unit < 50)
        throw invalid(
          "The Checkout Session's total amount due must add up to at least $0.50 usd",
          "line_items[0][price_data][unit_amount]",
          "amount_too_small",
        );
      const name = p.required("line_items[0][price_data][product_data][name]");
      price = { id: rid("price_"), currency, unit_amount: unit, product: rid("prod_", 14), nickname: name };
    } else {
      const priceId = p.required("line_items[0][price]");
      const known = prices.get(priceId);
      if (!known)
        throw new StripeError(400, `No such price: '${priceId}'`, {
          code: "resource_missing",
          param: "line_items[0][price]",
        });
      if (paymentMode)
        throw invalid("You must provide a one-time price (price_data) in payment mode.", "line_items[0][price]");
      price = known;
    }
    const quantityText = p.get("line_items[0][quantity]");
    if (quantityText === undefined)
      throw invalid(
        "Quantity is required. Add `quantity` to `line_items[0]`",
        "line_items[0][quantity]",
        "parameter_missing",
      );
    const quantity = Number(quantityText);
    if (!Number.isInteger(quantity) || quantity < 1)
      throw invalid(`Invalid positive integer: ${quantityText}`, "line_items[0][quantity]");
    const successUrl = validUrl(p.required("success_url"), "success_url");
    const cancelText = p.get("cancel_url");
    const cancelUrl = cancelText ? validUrl(cancelText, "cancel_url") : null;
    const customer = p.get("customer") || null;
    const email = p.get("customer_email") || null;
    if (customer && email)
      throw invalid("You may only specify one of these parameters: customer, customer_email.", "customer_email");
    if (customer && !customers.has(customer))
      throw new StripeError(400, `No such customer: '${customer}'`, { code: "resource_missing", param: "customer" });
    if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email))
      throw invalid(`Invalid email address: ${email}`, "customer_email", "email_invalid");
    const ref = p.get("client_reference_id") || null;
    if (ref && ref.length > 200)
      throw invalid("client_reference_id must be at most 200 characters.", "client_reference_id");
    for (const [k] of p.entries) {
      const m = /^subscription_data\[(\w+)\]/.exec(k);
      if (k.startsWith("subscription_data") && !m) throw invalid(`Invalid hash: ${k}`, "subscription_data");
      if (m && !["metadata", "trial_end", "trial_period_days", "description", "trial_settings"].includes(m[1]!))
        throw invalid(`Received unknown parameter: subscription_data[${m[1]}]`, `subscription_data[${m[1]}]`);
    }
    const now = nowSec();
    const trialEndText = p.get("subscription_data[trial_end]");
    const trialDaysText = p.get("subscription_data[trial_period_days]");
    if (trialEndText !== undefined && trialDaysText !== undefined)
      throw invalid(
        "You may only specify one of these parameters: subscription_data[trial_end], subscription_data[trial_period_days].",
        "subscription_data[trial_end]",
      );
    let trialEnd: number | null = null;
    if (trialEndText !== undefined) {
      trialEnd = Number(trialEndText);
      if (!Number.isInteger(trialEnd))
        throw invalid(`Invalid integer: ${trialEndText}`, "subscription_data[trial_end]");
      if (trialEnd < now + MIN_TRIAL_SECONDS)
        throw invalid("The `trial_end` date has to be at least 2 days in the future.", "subscription_data[trial_end]");
    }
    if (trialDaysText !== undefined) {
      const days = Number(trialDaysText);
      if (!Number.isInteger(days) || days < 1)
        throw invalid(
          "subscription_data[trial_period_days] must be at least 1.",
          "subscription_data[trial_period_days]",
        );
      trialEnd = now + days * 86_400;
    }
    const id = rid("cs_test_", 58);
    const s: TSession = {
      id,
      url: `${base}/checkout/${id}`,
      mode: paymentMode ? "payment" : "subscription",
      payment_intent: null,
      transfer_group: p.get("payment_intent_data[transfer_group]") ?? null,
      intent_metadata: p.map("payment_intent_data[metadata]"),
      status: "open",
      payment_status: "unpaid",
      price,
      quantity,
      success_url: successUrl,
      cancel_url: cancelUrl,
      customer,
      customer_email: email,
      client_reference_id: ref,
      subscription: null,
      invoice: null,
      metadata: p.map("metadata"),
      subscription_metadata: p.map("subscription_data[metadata]"),
      trial_end: trialEnd,
      created: now,
      expires_at: now + 24 * 3600,
    };
    sessions.set(id, s);
    return renderSession(s);
  };

  const refund = (p: Params) => {
    p.only(["payment_intent", "charge", "amount", "reason", "metadata", "expand"]);
    const piId = p.get("payment_intent");
    const chId = p.get("charge");
    if (!piId && !chId)
      throw invalid(
        "One of the following params should be provided for this request: payment_intent or charge.",
        undefined,
        "parameter_missing",
      );
    let ch: TCharge | undefined;
    if (piId) {
      const pi = intents.get(piId);
      if (!pi) throw missing("payment_intent", piId, "payment_intent");
      if (pi.status !== "succeeded")
        throw invalid("This PaymentIntent does not have a successful charge to refund.", "payment_intent");
      ch = charges.get(pi.latest_charge);
    } else if (chId) {
      ch = charges.get(chId);
      if (!ch) throw missing("charge", chId, "charge");
    }
    if (ch?.status !== "succeeded") throw invalid("This charge cannot be refunded.", "charge");
    const left = ch.amount - ch.amount_refunded;
    if (left <= 0)
      throw new StripeError(400, `Charge ${ch.id} has already been refunded.`, { code: "charge_already_refunded" });
    const amountText = p.get("amount");
    const amount = amountText === undefined ? left : Number(amountText);
    if (!Number.isInteger(amount) || amount < 1) throw invalid(`Invalid positive integer: ${amountText}`, "amount");
    if (amount > left)
      throw invalid(
        `Refund amount (${money(amount, ch.currency)}) is greater than unrefunded amount on charge (${money(left, ch.currency)})`,
        "amount",
        "amount_too_large",
      );
    const reason = p.get("reason") ?? null;
    if (reason && !["duplicate", "fraudulent", "requested_by_customer"].includes(reason))
      throw invalid(`Invalid reason: ${reason}`, "reason");
    const r: TRefund = {
      id: rid("re_"),
      amount,
      currency: ch.currency,
      charge: ch.id,
      payment_intent: ch.payment_intent,
      reason,
      created: nowSec(),
    };
    refunds.set(r.id, r);
    ch.amount_refunded += amount;
    void enqueueBatch([event("charge.refunded", renderCharge(ch))]);
    return renderRefund(r);
  };

  const portal = (p: Params, base: string) => {
    p.only(["customer", "return_url", "configuration", "locale", "expand"]);
    const customer = p.required("customer");
    if (!customers.has(customer)) throw missing("customer", customer, "customer");
    const returnText = p.get("return_url");
    const id = rid("bps_");
    const s: TPortal = {
      id,
      customer,
      return_url: returnText ? validUrl(returnText, "return_url") : null,
      url: `${base}/portal/${id}`,
      created: nowSec(),
    };
    portals.set(id, s);
    return renderPortal(s);
  };

  const api = (method: string, path: string, p: Params, shape: TShape, base: string): TObj => {
    if (method === "POST" && path === "/v1/checkout/sessions") return createSession(p, base);
    const session = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
    if (method === "GET" && session) {
      const s = lapse(sessions.get(session[1]));
      if (!s) throw missing("checkout.session", session[1]);
      return renderSession(s);
    }
    const expire = /^\/v1\/checkout\/sessions\/([^/]+)\/expire$/.exec(path);
    if (method === "POST" && expire) {
      p.only(["expand"]);
      const s = lapse(sessions.get(decodeURIComponent(expire[1])));
      if (!s) throw missing("checkout.session", expire[1]);
      if (s.status !== "open")
        throw invalid(`Only Checkout Sessions with a status in ["open"] can be expired; this one is ${s.status}.`);
      expireSession(s);
      return renderSession(s);
    }
    const intentPath = /^\/v1\/payment_intents\/([^/]+)$/.exec(path);
    if (method === "GET" && intentPath) {
      const i = intents.get(decodeURIComponent(intentPath[1]));
      if (!i) throw missing("payment_intent", intentPath[1]);
      return renderIntent(i);
    }
    const subscription = /^\/v1\/subscriptions\/([^/]+)$/.exec(path);
    if (subscription) {
      const id = decodeURIComponent(subscription[1]);
      if (method === "GET") {
        p.only(["expand"]);
        const expand = expansions(p, SUB_EXPAND, shape);
        return renderSub(subOf(id), shape, expand);
      }
      if (method === "POST") {
        p.only(["cancel_at_period_end", "metadata", "expand", "proration_behavior", "cancellation_details"]);
        const expand = expansions(p, SUB_EXPAND, shape);
        const sub = subOf(id);
        const cancel = p.bool("cancel_at_period_end");
        if (sub.status === "canceled" && cancel !== undefined)
          throw invalid("A canceled subscription can only update its cancellation_details and metadata.");
        if (cancel !== undefined) setCancelAtPeriodEnd(sub, cancel);
        Object.assign(sub.metadata, p.map("metadata"));
        return renderSub(sub, shape, expand);
      }
      if (method === "DELETE") {
        p.only(["expand", "invoice_now", "prorate", "cancellation_details"]);
        const expand = expansions(p, SUB_EXPAND, shape);
        const sub = subOf(id);
        if (sub.status === "canceled") throw invalid(`The subscription ${sub.id} is already canceled.`);
        const now = nowSec();
        Object.assign(sub, { status: "canceled", canceled_at: now, ended_at: now });
        void enqueueBatch([event("customer.subscription.deleted", renderSub(sub, webhookShape()))]);
        return renderSub(sub, shape, expand);
      }
    }
    if (method === "POST" && path === "/v1/accounts") return createAccount(p);
    const accountPath = /^\/v1\/accounts\/([^/]+)$/.exec(path);
    if (method === "GET" && accountPath) {
      const a = accounts.get(decodeURIComponent(accountPath[1]));
      if (!a) throw missing("account", accountPath[1]);
      return renderAccount(a);
    }
    if (method === "POST" && path === "/v1/account_links") return createAccountLink(p, base);
    if (method === "POST" && path === "/v1/transfers") return createTransfer(p);
    const transferPath = /^\/v1\/transfers\/([^/]+)$/.exec(path);
    if (method === "GET" && transferPath) {
      const t = transfers.get(decodeURIComponent(transferPath[1]));
      if (!t) throw missing("transfer", transferPath[1]);
      return renderTransfer(t);
    }
    const reversalsPath = /^\/v1\/transfers\/([^/]+)\/reversals$/.exec(path);
    if (reversalsPath) {
      const t = transfers.get(decodeURIComponent(reversalsPath[1]));
      if (!t) throw missing("transfer", reversalsPath[1]);
      if (method === "GET") {
        p.only(["limit", "starting_after", "ending_before"]);
        return reversalList(t);
      }
      if (method === "POST") {
        p.only(["amount", "metadata", "description", "refund_application_fee", "expand"]);
        const text = p.get("amount");
        const amount = text === undefined || text === null ? null : Number(text);
        if (amount !== null && (!Number.isInteger(amount) || amount < 1))
          throw invalid(`Invalid positive integer: ${text}`, "amount");
        return reverseTransfer(t, amount, p.map("metadata"));
      }
    }
    if (method === "POST" && path === "/v1/refunds") return refund(p);
    if (method === "POST" && path === "/v1/billing_portal/sessions") return portal(p, base);
    throw new StripeError(
      404,
      `Unrecognized request URL (${method}: ${path}). Please see https://stripe.com/docs or we can help at https://support.stripe.com/.`,
    );
  };

  const mask = (key: string) =>
    key.length > 12 ? `${key.slice(0, 8)}${"*".repeat(key.length - 12)}${key.slice(-4)}` : "*".repeat(key.length);

  const handleApi = async (req: Request, url: URL): Promise<Response> => {
    const body = req.method === "GET" ? "" : await req.text();
    const entries: [string, string][] = [...url.searchParams, ...new URLSearchParams(body)];
    control.calls++;
    control.requests.push({
      method: req.method,
      path: url.pathname,
      headers: Object.fromEntries(req.headers),
      params: entries,
    });
    if (control.outage)
      return json({ error: { type: "api_error", message: "An unknown error occurred. (emulated outage)" } }, 500);
    const auth = req.headers.get("authorization") ?? "";
    // Bearer, or Basic with the key as the user name (curl -u sk_test_…:), as Stripe accepts.
    const basic = /^Basic\s+(.+)$/i.exec(auth)?.[1];
    const decode = (b64: string) => {
      try {
        return atob(b64.trim()).split(":")[0];
      } catch {
        return "";
      }
    };
    const key = basic ? decode(basic) : /^Bearer\s+(.+)$/i.exec(auth)?.[1]?.trim();
    if (!key)
      return json(
        {
          error: {
            type: "invalid_request_error",
            message:
              "You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
          },
        },
        401,
      );
    if (key !== control.secretKey)
      return json({ error: { type: "invalid_request_error", message: `Invalid API Key provided: ${mask(key)}` } }, 401);
    const named = req.headers.get("stripe-version");
    if (named !== null && !STRIPE_API_VERSIONS.includes(named.trim()))
      return json(
        {
          error: {
            type: "invalid_request_error",
            message: `Invalid Stripe API version: ${named}`,
            param: "Stripe-Version",
          },
        },
        400,
      );
    const idemKey = req.method === "POST" ? req.headers.get("idempotency-key") : null;
    const fingerprint = `${req.method} ${url.pathname}?${url.search} ${body}`;
    if (idemKey) {
      const seen = idempotency.get(idemKey);
      if (seen && seen.fingerprint !== fingerprint)
        return json(
          {
            error: {
              type: "idempotency_error",
              message: `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${idemKey}' if you meant to execute a different request.`,
            },
          },
          400,
        );
      if (seen)
        return new Response(seen.body, {
          status: seen.status,
          headers: { "Content-Type": "application/json", "Idempotent-Replayed": "true", "Idempotency-Key": idemKey },
        });
    }
    const version = named?.trim() ?? STRIPE_EMULATOR_VERSION;
    let res: { status: number; body: string };
    try {
      const out = api(req.method, url.pathname, new Params(entries), versionShape(version), origin());
      res = { status: 200, body: JSON.stringify(out) };
    } catch (err) {
      if (!(err instanceof StripeError)) throw err;
      const r = errorResponse(err);
      res = { status: r.status, body: await r.text() };
    }
    // Stripe keeps the result of a request that ran, not of one refused before running (validation, unknown ids).
    if (idemKey && res.status === 200) idempotency.set(idemKey, { fingerprint, ...res });
    return new Response(res.body, {
      status: res.status,
      headers: {
        "Content-Type": "application/json",
        "Stripe-Version": version,
        "Request-Id": rid("req_", 14),
        ...(idemKey ? { "Idempotency-Key": idemKey } : {}),
      },
    });
  };

  // Hosted pages ---------------------------------------------------------------------------------------------------

  const checkoutPage = (s: TSession) => {
    const title = "MyTess Sandbox · Stripe Checkout";
    if (s.status !== "open")
      return page(title, `<p>This checkout session is ${esc(s.status)}.</p>`, s.status === "complete" ? 200 : 410);
    const email = s.customer ? customers.get(s.customer)?.email : s.customer_email;
    return page(
      title,
      (s.mode === "payment"
        ? `<p data-testid="product">${esc(s.price.nickname)}</p>`
        : `<p>MyTess subscription, billed monthly</p>`) +
        `<p class="amount" data-testid="amount">${esc(money(s.price.unit_amount * s.quantity, s.price.currency))}</p>` +
        (s.trial_end
          ? `<p data-testid="trial">Free until ${esc(new Date(s.trial_end * 1000).toISOString().slice(0, 10))}; nothing is charged today.</p>`
          : "") +
        `<p>Email: <span data-testid="email">${esc(email ?? "")}</span></p>` +
        `<p>Test mode: no real card is charged.</p>` +
        `<form method="post" action="/checkout/${esc(s.id)}/pay"><button type="submit">Pay</button></form>` +
        `<form method="post" action="/checkout/${esc(s.id)}/cancel"><button class="secondary" type="submit">Cancel</button></form>`,
    );
  };

  const portalPage = (p: TPortal) => {
    const customer = customers.get(p.customer);
    const rows = [...subs.values()]
      .filter((s) => s.customer === p.customer)
      .map((s) => {
        const ends = new Date(s.period_end * 1000).toISOString().slice(0, 10);
        const state =
          s.status === "canceled"
            ? "Canceled"
            : s.cancel_at_period_end
              ? `Cancels on ${ends}`
              : s.status === "trialing"
                ? `Trial, first charge on ${ends}`
                : `${s.status === "active" ? "Active" : "Past due"}, renews on ${ends}`;
        const action =
          s.status === "canceled"
            ? ""
            : `<form method="post" action="/portal/${esc(p.id)}/subscriptions/${esc(s.id)}/${s.cancel_at_period_end ? "renew" : "cancel"}">` +
              `<button class="secondary" type="submit">${s.cancel_at_period_end ? "Renew subscription" : "Cancel subscription"}</button></form>`;
        return `<li data-subscription="${esc(s.id)}">${esc(money(s.price.unit_amount * s.quantity, s.price.currency))} a month · ${esc(state)} ${action}</li>`;
      })
      .join("");
    return page(
      "MyTess Sandbox · Stripe billing portal",
      `<p>${esc(customer?.email ?? p.customer)}</p><ul>${rows || "<li>No subscriptions</li>"}</ul>` +
        (p.return_url ? `<p><a href="${esc(p.return_url)}">Return to MyTess</a></p>` : ""),
    );
  };

  const handlePage = async (req: Request, url: URL): Promise<Response> => {
    if (control.outage) return page("Service unavailable", "<p>Stripe is unavailable (emulated outage).</p>", 503);
    const receipt = /^\/invoices\/([^/]+)$/.exec(url.pathname);
    if (receipt && req.method === "GET") {
      const inv = invoices.get(receipt[1]!);
      if (!inv) return page("Not found", "<p>No such invoice.</p>", 404);
      return page(
        "Receipt",
        `<h1>MyTess Sandbox · Receipt</h1><p>Invoice ${esc(inv.id)}: ${(inv.amount_paid / 100).toFixed(2)} ${esc(inv.currency.toUpperCase())}, ${esc(inv.status)}.</p>`,
      );
    }
    let m = /^\/checkout\/([^/]+)(?:\/(pay|cancel))?$/.exec(url.pathname);
    if (m) {
      const s = lapse(sessions.get(m[1]));
      if (!s) return page("Not found", "<p>No such checkout session.</p>", 404);
      if (!m[2] && req.method === "GET") return checkoutPage(s);
      if (m[2] === "cancel" && req.method === "POST")
        return s.cancel_url ? redirect(s.cancel_url) : page("Cancelled", "<p>Payment cancelled.</p>");
      if (m[2] === "pay" && req.method === "POST") {
        if (s.status !== "open") return checkoutPage(s);
        return redirect((s.mode === "payment" ? await payPayment(s.id) : await pay(s.id)).successUrl);
      }
    }
    m = /^\/connect\/onboarding\/([^/]+)(?:\/(submit|leave))?$/.exec(url.pathname);
    if (m) {
      const link = accountLinks.get(m[1]);
      if (!link) return page("Not found", "<p>No such account link.</p>", 404);
      // Single use and short-lived, as Stripe's: an expired or used link goes to the platform's refresh_url.
      if (!m[2] && req.method === "GET") {
        if (link.used || link.expires_at < nowSec()) return redirect(link.refresh_url);
        link.used = true;
        return onboardingPage(link);
      }
      if (m[2] === "leave" && req.method === "POST") return redirect(link.return_url);
      if (m[2] === "submit" && req.method === "POST") {
        await setOnboarded(link.account, true);
        return redirect(link.return_url);
      }
    }
    m = /^\/portal\/([^/]+)(?:\/subscriptions\/([^/]+)\/(cancel|renew))?$/.exec(url.pathname);
    if (m) {
      const p = portals.get(m[1]);
      if (!p) return page("Not found", "<p>No such portal session.</p>", 404);
      if (!m[2] && req.method === "GET") return portalPage(p);
      const sub = m[2] ? subs.get(m[2]) : undefined;
      if (sub && sub.customer === p.customer && sub.status !== "canceled" && req.method === "POST") {
        setCancelAtPeriodEnd(sub, m[3] === "cancel");
        await control.settled();
        return redirect(`/portal/${p.id}`);
      }
    }
    return page("Not found", "<p>Not found.</p>", 404);
  };

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    control.baseUrl ??= url.origin;
    if (control.delayMs > 0) await Bun.sleep(control.delayMs);
    if (url.pathname.startsWith("/v1/")) return handleApi(req, url);
    return handlePage(req, url);
  };

  return { handle, control };
};
