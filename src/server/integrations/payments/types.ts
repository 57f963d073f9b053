// The payment providers behind the subscription: Stripe (USD, EUR: Checkout in subscription mode, webhooks, cancel at
// period end, refunds, billing portal) and Chapa (ETB: hosted checkout per period, verify, signed webhook, refund).
// Adapters speak each provider's wire format; the domain (src/server/modules/billing) decides what a payment grants.

export type TStripeSettings = {
  /** https://api.stripe.com by default; an emulator's address in tests and demo mode. */
  baseUrl: string;
  secretKey: string;
  webhookSecret: string;
  /** One recurring monthly Price per currency (price_…). */
  prices: { USD?: string; EUR?: string };
  timeoutMs: number;
};

export type TStripeSubscription = {
  id: string;
  customer: string;
  /** Stripe's status: active, trialing, past_due, canceled, unpaid, incomplete, incomplete_expired, paused. */
  status: string;
  /** Epoch ms. */
  currentPeriodEnd: number;
  cancelAtPeriodEnd: boolean;
  /** The latest invoice's payment intent, for refunds (null when unknown). */
  latestPaymentIntent: string | null;
};

/** A verified Stripe event (only the parts the domain uses; `object` is the event's data.object as sent). */
export type TStripeEvent = {
  id: string;
  type: string;
  /** Epoch ms of the event's `created`. */
  created: number;
  object: Record<string, unknown>;
  /** The connected account an event is about (Connect events carry it at the top level), else null. */
  account?: string | null;
};

/** A Connect account as Stripe has it now (`account.updated` is only a prompt to read it again). */
export type TStripeAccount = {
  id: string;
  chargesEnabled: boolean;
  payoutsEnabled: boolean;
  detailsSubmitted: boolean;
  /** requirements.currently_due: what the driver still has to give Stripe. */
  currentlyDue: string[];
  /** requirements.disabled_reason, when Stripe says why payouts are off. */
  disabledReason: string | null;
  metadata: Record<string, string>;
};

/** A transfer to a connected account (separate charges and transfers). */
export type TStripeTransfer = {
  id: string;
  amount: number;
  currency: string;
  destination: string;
  sourceTransaction: string | null;
  metadata: Record<string, string>;
  /** Whether the whole transfer was reversed. */
  reversed: boolean;
  /** How much of it was taken back so far (minor units). */
  amountReversed: number;
  /** Its reversals (Stripe's `trr_…` objects, as the transfer lists them), each once. */
  reversals: { id: string; amount: number }[];
};

export type TStripeCheckoutSession = {
  id: string;
  /** open, complete or expired. */
  status: string;
  /** paid, unpaid or no_payment_required. */
  paymentStatus: string;
  amountTotal: number | null;
  currency: string | null;
  paymentIntent: string | null;
  metadata: Record<string, string>;
  /** The hosted page while the session is open (Stripe sends null once it is complete or expired). */
  url: string | null;
};

export type TStripePaymentIntent = {
  id: string;
  status: string;
  amount: number;
  currency: string;
  latestCharge: string | null;
  metadata: Record<string, string>;
};

export type TStripeAdapter = {
  sandbox: boolean;
  /** Which currencies have a Price configured. */
  currencies: ("USD" | "EUR")[];
  /** The configured Price of each currency: what an invoice must be for to buy premium. */
  prices: { USD?: string; EUR?: string };
  createCheckoutSession: (r: {
    currency: "USD" | "EUR";
    /** Null for an account with a phone number only: Stripe's page asks for one. */
    email: string | null;
    clientReferenceId: string;
    /** An existing Stripe customer of the account, reused when known. */
    customerId: string | null;
    /**
     * Epoch ms: the first charge waits until then (the free trial's end), sent as subscription_data.trial_end. Null
     * bills at once. Stripe refuses a trial end less than 48 hours ahead (STRIPE_MIN_TRIAL_MS).
     */
    trialEnd: number | null;
    successUrl: string;
    cancelUrl: string;
    /** Idempotency-Key header. */
    idempotencyKey: string;
  }) => Promise<{ id: string; url: string }>;
  retrieveSubscription: (id: string) => Promise<TStripeSubscription>;
  /** Sets or clears cancel_at_period_end. */
  setCancelAtPeriodEnd: (id: string, cancel: boolean) => Promise<TStripeSubscription>;
  /** Cancels now (DELETE /v1/subscriptions/{id}). */
  cancelNow: (id: string) => Promise<TStripeSubscription>;
  /** Refunds a payment intent or a charge (whole, or `amountMinor` of it). */
  refund: (r: {
    paymentIntent?: string;
    charge?: string;
    amountMinor?: number;
    idempotencyKey: string;
  }) => Promise<{ id: string; status: string; amountMinor: number; currency: string }>;
  createPortalSession: (customerId: string, returnUrl: string) => Promise<{ url: string }>;
  /**
   * Checkout in payment mode for one freight payment: one inline line item (price_data) of `amountMinor`, the
   * payment intent tagged with `transferGroup` and `metadata` (so its events name the payment on their own).
   */
  createPaymentCheckout: (r: {
    amountMinor: number;
    currency: "USD" | "EUR";
    productName: string;
    /** Null for an account with a phone number only: Stripe's page asks for one. */
    email: string | null;
    successUrl: string;
    cancelUrl: string;
    transferGroup: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }) => Promise<{ id: string; url: string }>;
  /** A Checkout Session as Stripe has it now (events may come in any order: the session is the truth). */
  retrieveCheckoutSession: (id: string) => Promise<TStripeCheckoutSession>;
  /**
   * Expires an open Checkout Session so it can no longer be paid (Stripe refuses one that is not open: a session
   * paid meanwhile answers an error, and the caller reads it back).
   */
  expireCheckoutSession: (id: string) => Promise<TStripeCheckoutSession>;
  /** A payment intent: its status, amount and charge (the charge is what transfers name as source_transaction). */
  retrievePaymentIntent: (id: string) => Promise<TStripePaymentIntent>;
  /** Checks Stripe-Signature (t=…,v1=…; HMAC-SHA256 of "t.raw" with the webhook secret, 300 s tolerance). */
  verifyWebhook: (raw: string, signatureHeader: string | null, now?: number) => Promise<TStripeEvent>;
  /**
   * A Connect account for a driver, with `controller` settings (Stripe-hosted Express dashboard, Stripe collects the
   * requirements, the platform pays the fees and carries the losses), the transfers capability requested.
   */
  createConnectedAccount: (r: {
    // Optional at Stripe: an account signed up with a phone number has none.
    email: string | null;
    country: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }) => Promise<TStripeAccount>;
  retrieveAccount: (id: string) => Promise<TStripeAccount>;
  /** A single-use onboarding link (type account_onboarding), expiring within minutes. */
  createAccountLink: (r: {
    account: string;
    refreshUrl: string;
    returnUrl: string;
  }) => Promise<{ url: string; expiresAt: number }>;
  /**
   * Moves `amountMinor` to a connected account, paid from the charge `sourceTransaction` once its funds settle, or
   * (null) from the platform's available balance, which must cover it.
   */
  createTransfer: (r: {
    amountMinor: number;
    currency: string;
    destination: string;
    sourceTransaction: string | null;
    transferGroup: string;
    metadata: Record<string, string>;
    idempotencyKey: string;
  }) => Promise<TStripeTransfer>;
  retrieveTransfer: (id: string) => Promise<TStripeTransfer>;
};

export type TChapaSettings = {
  /** https://api.chapa.co by default. */
  baseUrl: string;
  secretKey: string;
  webhookSecret: string;
  timeoutMs: number;
};

export type TChapaTransaction = {
  txRef: string;
  /** Chapa's reference for the payment (for refunds), when paid. */
  reference: string | null;
  /** success, failed, cancelled or pending (Chapa's words, lower case). */
  status: string;
  /** Decimal amount as Chapa reports it, and its currency. */
  amount: number;
  currency: string;
  email: string | null;
};

/** A signed Chapa webhook, by kind. Statuses and events are Chapa's words, lower case. */
export type TChapaWebhook =
  | { kind: "transaction"; txRef: string; status: string; event: string | null }
  | { kind: "payout"; reference: string | null; status: string | null; event: string | null }
  | { kind: "unreadable" };

/** A bank in Chapa's list (mobile-money wallets are banks too); `id` is the bank_code transfers name. */
export type TChapaBank = {
  id: number;
  name: string;
  swift: string | null;
  /** How many digits its account numbers have (a wallet's is the 10-digit phone number), when Chapa says. */
  acctLength: number | null;
  mobileMoney: boolean;
  currency: string;
};

/** A transfer as Chapa's verify reports it. */
export type TChapaTransfer = {
  reference: string;
  /** Chapa's words, lower case: success, failed, pending, … */
  status: string;
  chapaTransferId: string | null;
  /** Chapa's fee for the transfer, in birr, when it reports one. */
  charge: number | null;
  amount: number | null;
  /** Why a failed transfer failed, in Chapa's words, when it says. */
  failureReason: string | null;
};

export type TChapaAdapter = {
  sandbox: boolean;
  /** GET /v1/banks: the banks and wallets transfers may go to. */
  listBanks: () => Promise<TChapaBank[]>;
  /** POST /v1/transfers: queued; the result comes by the payout webhook or verifyTransfer. */
  transfer: (r: {
    accountName: string;
    accountNumber: string;
    amount: number;
    currency: "ETB";
    reference: string;
    bankCode: number;
  }) => Promise<{ reference: string }>;
  verifyTransfer: (reference: string) => Promise<TChapaTransfer>;
  initialize: (r: {
    /** Birr, as a decimal (the adapter sends it as a string, as Chapa wants). */
    amount: number;
    currency: "ETB";
    txRef: string;
    /** Optional at Chapa: null for an account with a phone number only. */
    email: string | null;
    firstName: string;
    lastName: string;
    callbackUrl: string;
    returnUrl: string;
    title: string;
    description: string;
  }) => Promise<{ checkoutUrl: string }>;
  verify: (txRef: string) => Promise<TChapaTransaction>;
  refund: (r: { reference: string; amount?: number; reason: string }) => Promise<{ status: string }>;
  /**
   * Checks Chapa-Signature / x-chapa-signature (hex HMAC-SHA256 of the raw body with the webhook secret), then says
   * what the signed body is: a transaction's webhook, a payout's ("type": "Payout", events payout.*), or neither.
   */
  verifyWebhook: (raw: string, headers: Headers) => TChapaWebhook;
};
