// Chapa emulator: a stateful, loopback Chapa for one-off hosted payments (one per subscription period), as much of the
// API as the payment adapter uses, the hosted checkout page, signed webhooks and the callback.
//
//   POST /v1/transaction/initialize        JSON (or form): amount, currency, tx_ref, email, first_name, last_name,
//                                          callback_url, return_url, customization[title|description]
//        → {message: "Hosted Link", status: "success", data: {checkout_url: "<emulator>/checkout/<tx_ref>"}}
//   GET  /v1/transaction/verify/{tx_ref}   → {message: "Payment details", status: "success", data: {…, status}}
//   POST /v1/refund/{reference}            form (or JSON): reason, amount (a refund of the rest when absent)
//   GET  /v1/banks                         → {message: "Banks retrieved", data: [{id, swift, name, acct_length,
//                                          is_mobilemoney, is_rtgs, currency, …}]} (wallets are banks; no `status`)
//   POST /v1/transfers                     JSON: account_name, account_number, amount, currency, reference, bank_code
//        → {message: "Transfer Queued Successfully", status: "success", data: "<reference>"}
//   GET  /v1/transfers/verify/{reference}  → {message: "Transfer details", status: "success", data: {status, …}}
//   GET  /checkout/{tx_ref}                the hosted page: "Pay" and "Cancel" (forms POSTing to …/pay, …/cancel)
//
// Auth: `Authorization: Bearer <secret key>` (default "CHASECK_TEST-sandbox"), else 401 {"message": "Invalid API Key",
// "status": "failed", "data": null}. Validation failures answer 400 with Chapa's field messages
// ({"message": {"amount": ["The amount field is required."]}, …}); a tx_ref used before answers
// "Transaction reference has been used before".
//
// Paying (the page's "Pay", or control.pay) marks the transaction success with a Chapa reference, POSTs the webhook
// ({event: "charge.success", tx_ref, reference, status, amount, currency, …}) signed with hex HMAC-SHA256 of the raw
// body under the webhook secret (default "chapa_whsec_sandbox") in both Chapa-Signature and x-chapa-signature, calls
// the callback_url (GET ?trx_ref=…&tx_ref=…&ref_id=…&status=success), and redirects (303) to return_url. Failing
// (control.fail) marks it failed (charge.failed); the page's "Cancel" marks it cancelled (charge.cancelled, and
// verify says "cancelled"). Deliveries go through control.fetchImpl, one at a time; control.settled() waits for those
// sent after an API answer (refunds).
//
// Transfers are queued, as on Chapa: control.transfers says what happens next ("success" or "failed", each sending
// its payout.* webhook after the answer, or "manual": they wait for control.settleTransfer). A reference used before
// is refused; an account number of the wrong length for its bank is a field error; a wallet or account whose holder
// is known to the emulator (control.holders) and whose name differs fails the transfer ("Account name mismatch").
// The payout webhook is flat: {event: "payout.success", type: "Payout", reference, chapa_reference, charge, …};
// control.payoutCopies sends each one more than once, and control.transferFailure sets the bank's reason.
// control.transferAnswer loses the answer to a transfer Chapa took (a 502, a body that is not JSON, or a timeout),
// and control.verifyOutage makes transfer verify answer 503: what a payout must survive without paying twice.
//
// One webhook URL gets every event of the account, as on Chapa: besides the transactions MyTess created, others the
// account made elsewhere (control.otherTransaction: a payment link, another shop on the same account) and transfers
// (control.payout: flat {event: "payout.success", type: "Payout", reference, …} without a tx_ref). A delivery the
// receiver does not answer with 2xx is sent again (control.retries times, at once; Chapa retries for longer).
import { createHmac } from "node:crypto";
import { json } from "../boards/model";
import { page, type TFetchImpl } from "./stripe";

export const CHAPA_SANDBOX = { secretKey: "CHASECK_TEST-sandbox", webhookSecret: "chapa_whsec_sandbox" } as const;

type TStatus = "pending" | "success" | "failed" | "cancelled";
type TTx = {
  tx_ref: string;
  amount: number;
  currency: string;
  email: string | null;
  first_name: string | null;
  last_name: string | null;
  phone_number: string | null;
  callback_url: string | null;
  return_url: string | null;
  customization: { title: string | null; description: string | null; logo: string | null };
  status: TStatus;
  reference: string | null;
  failure_reason: string | null;
  charge: number;
  refunded: number;
  created_at: string;
  updated_at: string;
};

/** The banks (and wallets) the emulator lists: the ids Chapa's own list uses. */
export const CHAPA_EMULATOR_BANKS = [
  { id: 946, swift: "CBETETAA", name: "Commercial Bank of Ethiopia (CBE)", acct_length: 13, is_mobilemoney: 0 },
  { id: 656, swift: "AWINETAA", name: "Awash Bank", acct_length: 14, is_mobilemoney: 0 },
  { id: 855, swift: null, name: "telebirr", acct_length: 10, is_mobilemoney: 1 },
  { id: 128, swift: null, name: "CBEBirr", acct_length: 10, is_mobilemoney: 1 },
  { id: 266, swift: null, name: "M-Pesa", acct_length: 10, is_mobilemoney: 1 },
  { id: 893, swift: null, name: "Coopay-Ebirr", acct_length: 10, is_mobilemoney: 1 },
];

type TTransfer = {
  reference: string;
  chapa_transfer_id: string;
  account_name: string;
  account_number: string;
  bank_code: number;
  amount: number;
  charge: number;
  currency: string;
  status: "queued" | "success" | "failed";
  failure_reason: string | null;
  created_at: string;
  updated_at: string;
};

export type TChapaDelivery = {
  event: string;
  body: string;
  signature: string;
  url: string | null;
  status: number | null;
  error: string | null;
};
export type TChapaCallback = { url: string; status: number | null; error: string | null };
export type TChapaRequestLog = { method: string; path: string; headers: Record<string, string>; body: string };

export type TChapaEmulatorOptions = {
  secretKey?: string;
  webhookSecret?: string;
  webhookUrl?: string | null;
  fetchImpl?: TFetchImpl;
};

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const rid = (prefix: string, n: number) =>
  prefix + Array.from(crypto.getRandomValues(new Uint8Array(n)), (b) => ALPHABET[b % ALPHABET.length]).join("");
const esc = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);
const decimal = (n: number) => n.toFixed(2);
const failed = (message: unknown, status: number) => json({ message, status: "failed", data: null }, status);
const redirect = (location: string) => new Response(null, { status: 303, headers: { Location: location } });

/** Chapa's webhook signature: hex HMAC-SHA256 of the raw body with the webhook secret. */
export const chapaSignature = (body: string, secret: string) =>
  createHmac("sha256", secret).update(body, "utf8").digest("hex");

/** Reads a JSON or form body into flat strings (`customization[title]` and `customization.title` alike). */
const readBody = (text: string, type: string): Record<string, unknown> => {
  if (type.includes("application/json")) {
    try {
      const j = JSON.parse(text) as unknown;
      return j && typeof j === "object" && !Array.isArray(j) ? (j as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const m = /^(\w+)\[(\w+)\]$/.exec(k);
    if (m) out[m[1]] = { ...((out[m[1]] as Record<string, unknown>) ?? {}), [m[2]]: v };
    else out[k] = v;
  }
  return out;
};
const str = (v: unknown) => (typeof v === "string" ? v.trim() : typeof v === "number" ? String(v) : "");

export type TChapaControl = ReturnType<typeof createChapaEmulator>["control"];

export const createChapaEmulator = (o: TChapaEmulatorOptions = {}) => {
  const txs = new Map<string, TTx>();
  const transfers = new Map<string, TTransfer>();
  let queue: Promise<unknown> = Promise.resolve();

  const control = {
    secretKey: o.secretKey ?? CHAPA_SANDBOX.secretKey,
    webhookSecret: o.webhookSecret ?? CHAPA_SANDBOX.webhookSecret,
    webhookUrl: o.webhookUrl ?? null,
    /** Carries webhook deliveries and callbacks (default: fetch with a 10 s timeout). */
    fetchImpl: o.fetchImpl ?? ((req: Request) => fetch(req, { signal: AbortSignal.timeout(10_000) })),
    baseUrl: null as string | null,
    /** Every API endpoint answers 503; the hosted page too. */
    outage: false,
    delayMs: 0,
    calls: 0,
    requests: [] as TChapaRequestLog[],
    deliveries: [] as TChapaDelivery[],
    callbacks: [] as TChapaCallback[],
    setWebhookUrl: (url: string | null) => {
      control.webhookUrl = url;
    },
    settled: async () => {
      let seen: Promise<unknown>;
      do {
        seen = queue;
        await seen;
      } while (seen !== queue);
    },
    /** Pays a pending transaction as the page's "Pay" does; resolves after the webhook and the callback. */
    pay: (txRef: string) => settle(txRef, "success"),
    /** The payment fails (charge.failed). */
    fail: (txRef: string, reason = "Payment declined") => settle(txRef, "failed", reason, "charge.failed"),
    /** The customer leaves the hosted page with "Cancel" (charge.cancelled). */
    cancel: (txRef: string) => settle(txRef, "cancelled", "Cancelled by the customer", "charge.cancelled"),
    /** How many more times a delivery the receiver refused (not 2xx) is sent. */
    retries: 2,
    /**
     * A payment the account took outside MyTess (a payment link, another app on the same account): paid, its
     * charge.success webhook sent to the same URL. Resolves to the delivery.
     */
    otherTransaction: (txRef = rid("PL-", 12), amount = 250) => {
      const now = new Date().toISOString();
      const t: TTx = {
        tx_ref: txRef,
        amount,
        currency: "ETB",
        email: "someone@example.et",
        first_name: "Other",
        last_name: "Customer",
        phone_number: null,
        callback_url: null,
        return_url: null,
        customization: { title: "Payment link", description: null, logo: null },
        status: "success",
        reference: rid("AP", 10),
        failure_reason: null,
        charge: Math.round(amount * 3.5) / 100,
        refunded: 0,
        created_at: now,
        updated_at: now,
      };
      txs.set(txRef, t);
      return enqueue("charge.success", JSON.stringify({ ...webhookBody(t, "charge.success"), type: "Payment Link" }));
    },
    /** A transfer from the account's balance finished: Chapa's payout webhook (no tx_ref). */
    payout: (event: "payout.success" | "payout.failed" = "payout.success", amount = 1200) =>
      enqueue(
        event,
        JSON.stringify({
          event,
          type: "Payout",
          account_name: "Abebe Kebede",
          account_number: "0911000000",
          bank_id: 855,
          bank_name: "telebirr",
          amount: decimal(amount),
          charge: decimal(Math.round(amount * 1) / 100),
          currency: "ETB",
          status: event === "payout.success" ? "success" : "failed",
          reference: rid("TR-", 12),
          chapa_reference: rid("CHTR", 10),
          created_at: new Date().toISOString(),
        }),
      ),
    /** Sends an arbitrary signed webhook body. */
    deliver: (body: Record<string, unknown>) => enqueue(String(body.event ?? ""), JSON.stringify(body)),
    transaction: (txRef: string) => structuredClone(txs.get(txRef)),
    /**
     * How Chapa's answer to the next transfers goes after it has taken them: "ok", or lost on the way back ("5xx": a
     * 502 from a gateway; "garbage": a 200 that is not JSON; "timeout": no answer for timeoutAfterMs).
     */
    transferAnswer: "ok" as "ok" | "5xx" | "garbage" | "timeout",
    timeoutAfterMs: 2_000,
    /** Transfer verify answers 503 (the rest of the API works). */
    verifyOutage: false,
    /** What a queued transfer does next: succeed, fail (each with its webhook), or wait for settleTransfer. */
    transfers: "success" as "success" | "failed" | "manual",
    /** The bank's words when control.transfers fails a transfer. */
    transferFailure: "Transfer failed at the bank",
    /** How many times each payout webhook is sent (Chapa may deliver one more than once; the receiver dedupes). */
    payoutCopies: 1,
    /** Known account holders, `<bank_code>:<account_number>` → name: a transfer naming someone else fails. */
    holders: new Map<string, string>(),
    transfer: (reference: string) => structuredClone(transfers.get(reference)),
    allTransfers: () => [...transfers.values()].map((t) => structuredClone(t)),
    /** Finishes a queued transfer and sends its webhook; resolves to the delivery. */
    settleTransfer: (reference: string, status: "success" | "failed", reason = "Transfer failed at the bank") =>
      finishTransfer(reference, status, reason),
    reset: () => {
      txs.clear();
      transfers.clear();
      control.transfers = "success";
      control.transferAnswer = "ok";
      control.timeoutAfterMs = 2_000;
      control.verifyOutage = false;
      control.transferFailure = "Transfer failed at the bank";
      control.payoutCopies = 1;
      control.holders = new Map();
      control.secretKey = o.secretKey ?? CHAPA_SANDBOX.secretKey;
      control.webhookSecret = o.webhookSecret ?? CHAPA_SANDBOX.webhookSecret;
      control.webhookUrl = o.webhookUrl ?? null;
      control.outage = false;
      control.delayMs = 0;
      control.retries = 2;
      control.calls = 0;
      control.requests = [];
      control.deliveries = [];
      control.callbacks = [];
    },
  };

  const origin = () => control.baseUrl ?? "http://127.0.0.1";

  const send = async (event: string, body: string): Promise<TChapaDelivery> => {
    const signature = chapaSignature(body, control.webhookSecret);
    const url = control.webhookUrl;
    const d: TChapaDelivery = { event, body, signature, url, status: null, error: null };
    if (url) {
      try {
        const res = await control.fetchImpl(
          new Request(url, {
            method: "POST",
            headers: {
              "Content-Type": "application/json",
              "Chapa-Signature": signature,
              "x-chapa-signature": signature,
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
  const enqueue = (event: string, body: string) => {
    const p = queue.then(async () => {
      let d = await send(event, body);
      for (let i = 0; i < control.retries && !(d.status != null && d.status >= 200 && d.status < 300); i++)
        d = await send(event, body);
      return d;
    });
    queue = p.catch(() => undefined);
    return p;
  };

  const webhookBody = (t: TTx, event: string) => ({
    event,
    first_name: t.first_name,
    last_name: t.last_name,
    email: t.email,
    mobile: t.phone_number,
    currency: t.currency,
    amount: decimal(t.amount),
    charge: decimal(t.charge),
    status: event === "charge.refunded" ? "refunded" : t.status,
    failure_reason: t.failure_reason,
    mode: "test",
    reference: t.reference,
    created_at: t.created_at,
    updated_at: t.updated_at,
    type: "API",
    tx_ref: t.tx_ref,
    payment_method: "test",
    customization: t.customization,
    meta: null,
  });

  const settle = async (txRef: string, status: TStatus, reason: string | null = null, failEvent = "charge.failed") => {
    const t = txs.get(txRef);
    if (!t) throw new Error(`No such transaction: ${txRef}`);
    if (t.status !== "pending") throw new Error(`The transaction ${txRef} is already ${t.status}`);
    t.status = status;
    t.failure_reason = reason;
    t.updated_at = new Date().toISOString();
    if (status === "success") {
      t.reference = rid("AP", 10);
      t.charge = Math.round(t.amount * 3.5) / 100;
    }
    const event = status === "success" ? "charge.success" : failEvent;
    const delivery = await enqueue(event, JSON.stringify(webhookBody(t, event)));
    let callback: TChapaCallback | null = null;
    if (t.callback_url) {
      const u = new URL(t.callback_url);
      u.searchParams.set("trx_ref", t.tx_ref);
      u.searchParams.set("tx_ref", t.tx_ref);
      if (t.reference) u.searchParams.set("ref_id", t.reference);
      u.searchParams.set("status", t.status);
      callback = { url: u.toString(), status: null, error: null };
      try {
        const res = await control.fetchImpl(new Request(u.toString(), { method: "GET" }));
        callback.status = res.status;
        await res.arrayBuffer().catch(() => undefined);
      } catch (err) {
        callback.error = (err as Error).message;
      }
      control.callbacks.push(callback);
    }
    return { returnUrl: t.return_url, reference: t.reference, delivery, callback };
  };

  const verifyData = (t: TTx) => ({
    first_name: t.first_name,
    last_name: t.last_name,
    email: t.email,
    currency: t.currency,
    amount: t.amount,
    charge: t.charge,
    mode: "test",
    method: t.status === "pending" ? null : "test",
    type: "API",
    status: t.status,
    reference: t.reference,
    tx_ref: t.tx_ref,
    customization: t.customization,
    meta: null,
    created_at: t.created_at,
    updated_at: t.updated_at,
  });

  const initialize = (b: Record<string, unknown>) => {
    const errors: Record<string, string[]> = {};
    const amountText = str(b.amount);
    const amount = Number(amountText);
    if (!amountText) errors.amount = ["The amount field is required."];
    else if (!Number.isFinite(amount)) errors.amount = ["The amount must be a number."];
    else if (amount <= 0) errors.amount = ["The amount must be greater than 0."];
    const currency = str(b.currency).toUpperCase();
    if (!currency) errors.currency = ["The currency field is required."];
    else if (currency !== "ETB" && currency !== "USD") errors.currency = ["The selected currency is invalid."];
    const txRef = str(b.tx_ref);
    if (!txRef) errors.tx_ref = ["The tx ref field is required."];
    const email = str(b.email);
    if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) errors.email = ["The email must be a valid email address."];
    for (const k of ["callback_url", "return_url"]) {
      const v = str(b[k]);
      if (v && !/^https?:\/\//.test(v)) errors[k] = [`The ${k.replace("_", " ")} format is invalid.`];
    }
    if (Object.keys(errors).length) return failed(errors, 400);
    if (txs.has(txRef)) return failed("Transaction reference has been used before", 400);
    const c = (b.customization ?? {}) as Record<string, unknown>;
    const now = new Date().toISOString();
    const t: TTx = {
      tx_ref: txRef,
      amount: Math.round(amount * 100) / 100,
      currency,
      email: email || null,
      first_name: str(b.first_name) || null,
      last_name: str(b.last_name) || null,
      phone_number: str(b.phone_number) || null,
      callback_url: str(b.callback_url) || null,
      return_url: str(b.return_url) || null,
      customization: {
        title: str(c.title ?? b["customization[title]"]) || null,
        description: str(c.description ?? b["customization[description]"]) || null,
        logo: str(c.logo ?? b["customization[logo]"]) || null,
      },
      status: "pending",
      reference: null,
      failure_reason: null,
      charge: 0,
      refunded: 0,
      created_at: now,
      updated_at: now,
    };
    txs.set(txRef, t);
    return json({
      message: "Hosted Link",
      status: "success",
      data: { checkout_url: `${origin()}/checkout/${encodeURIComponent(txRef)}` },
    });
  };

  const refund = (ref: string, b: Record<string, unknown>) => {
    const t = [...txs.values()].find((x) => x.reference === ref) ?? txs.get(ref);
    if (!t) return failed("Transaction not found", 404);
    if (t.status !== "success") return failed("Only successful transactions can be refunded", 400);
    const left = Math.round((t.amount - t.refunded) * 100) / 100;
    if (left <= 0) return failed("Transaction has already been refunded", 400);
    const amountText = str(b.amount);
    const amount = amountText ? Number(amountText) : left;
    if (!Number.isFinite(amount) || amount <= 0) return failed({ amount: ["The amount must be a number."] }, 400);
    if (amount > left + 1e-9) return failed("The refund amount exceeds the refundable amount", 400);
    t.refunded = Math.round((t.refunded + amount) * 100) / 100;
    t.updated_at = new Date().toISOString();
    const refId = rid("RF", 10);
    void enqueue("charge.refunded", JSON.stringify({ ...webhookBody(t, "charge.refunded"), amount: decimal(amount) }));
    return json({
      message: "Refund processed successfully",
      status: "success",
      data: {
        ref_id: refId,
        tx_ref: t.tx_ref,
        reference: t.reference,
        amount,
        currency: t.currency,
        reason: str(b.reason) || null,
        status: "success",
      },
    });
  };

  const transferBody = (t: TTransfer, event: string) => ({
    event,
    type: "Payout",
    account_name: t.account_name,
    account_number: t.account_number,
    bank_id: t.bank_code,
    bank_name: CHAPA_EMULATOR_BANKS.find((b) => b.id === t.bank_code)?.name ?? null,
    amount: decimal(t.amount),
    charge: decimal(t.charge),
    currency: t.currency,
    status: t.status,
    failure_reason: t.failure_reason,
    reference: t.reference,
    chapa_reference: t.chapa_transfer_id,
    created_at: t.created_at,
    updated_at: t.updated_at,
  });

  const finishTransfer = (reference: string, status: "success" | "failed", reason: string | null) => {
    const t = transfers.get(reference);
    if (!t) throw new Error(`No such transfer: ${reference}`);
    if (t.status !== "queued") throw new Error(`The transfer ${reference} is already ${t.status}`);
    t.status = status;
    t.failure_reason = status === "failed" ? reason : null;
    t.updated_at = new Date().toISOString();
    const event = status === "success" ? "payout.success" : "payout.failed";
    const body = JSON.stringify(transferBody(t, event));
    for (let i = 1; i < control.payoutCopies; i++) void enqueue(event, body);
    return enqueue(event, body);
  };

  const createTransfer = (b: Record<string, unknown>) => {
    const errors: Record<string, string[]> = {};
    for (const k of ["account_name", "account_number", "amount", "currency", "reference", "bank_code"])
      if (!str(b[k])) errors[k] = [`The ${k.replace("_", " ")} field is required.`];
    const amount = Number(str(b.amount));
    if (!errors.amount && (!Number.isFinite(amount) || amount <= 0))
      errors.amount = ["The amount must be greater than 0."];
    const bankCode = Number(str(b.bank_code));
    const bank = CHAPA_EMULATOR_BANKS.find((x) => x.id === bankCode);
    if (!errors.bank_code && !bank) errors.bank_code = ["The selected bank code is invalid."];
    const number = str(b.account_number);
    if (!errors.account_number && bank && (!/^\d+$/.test(number) || number.length !== bank.acct_length))
      errors.account_number = [`The account number must be ${bank.acct_length} digits.`];
    if (!errors.currency && str(b.currency).toUpperCase() !== "ETB")
      errors.currency = ["The selected currency is invalid."];
    if (Object.keys(errors).length) return failed(errors, 400);
    const reference = str(b.reference);
    if (transfers.has(reference)) return failed("The reference has already been taken.", 400);
    const now = new Date().toISOString();
    const name = str(b.account_name);
    const holder = control.holders.get(`${bankCode}:${number}`);
    const t: TTransfer = {
      reference,
      chapa_transfer_id: rid("CHTR", 10),
      account_name: name,
      account_number: number,
      bank_code: bankCode,
      amount: Math.round(amount * 100) / 100,
      // Chapa's transfer fee, reported on the transfer.
      charge: Math.max(5, Math.round(amount * 0.5) / 100),
      currency: "ETB",
      status: "queued",
      failure_reason: null,
      created_at: now,
      updated_at: now,
    };
    transfers.set(reference, t);
    if (holder && holder.toLowerCase() !== name.toLowerCase())
      void finishTransfer(reference, "failed", "Account name mismatch");
    else if (control.transfers !== "manual") void finishTransfer(reference, control.transfers, control.transferFailure);
    return json({ message: "Transfer Queued Successfully", status: "success", data: reference });
  };

  const handleApi = async (req: Request, url: URL) => {
    const text = req.method === "GET" ? "" : await req.text();
    control.calls++;
    control.requests.push({
      method: req.method,
      path: url.pathname,
      headers: Object.fromEntries(req.headers),
      body: text,
    });
    if (control.outage) return failed("Service temporarily unavailable (emulated outage)", 503);
    const key = /^Bearer\s+(.+)$/i.exec(req.headers.get("authorization") ?? "")?.[1]?.trim();
    if (key !== control.secretKey) return failed("Invalid API Key", 401);
    const body = readBody(text, req.headers.get("content-type") ?? "");
    if (req.method === "POST" && url.pathname === "/v1/transaction/initialize") return initialize(body);
    const verify = /^\/v1\/transaction\/verify\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && verify) {
      const t = txs.get(decodeURIComponent(verify[1]));
      if (!t) return failed("Invalid transaction or Transaction not found", 404);
      return json({ message: "Payment details", status: "success", data: verifyData(t) });
    }
    if (req.method === "GET" && url.pathname === "/v1/banks")
      return json({
        message: "Banks retrieved",
        data: CHAPA_EMULATOR_BANKS.map((x) => ({
          ...x,
          slug: x.name.toLowerCase().replace(/[^a-z0-9]+/g, "_"),
          country_id: 1,
          is_rtgs: x.is_mobilemoney ? null : 1,
          is_active: 1,
          is_24hrs: x.is_mobilemoney ? 1 : null,
          active: 1,
          currency: "ETB",
        })),
      });
    if (req.method === "POST" && url.pathname === "/v1/transfers") {
      const res = createTransfer(body);
      // Taken (or refused) by Chapa; the answer may still be lost on its way back.
      if (control.transferAnswer === "5xx") return failed("Bad gateway", 502);
      if (control.transferAnswer === "garbage")
        return new Response("<html>upstream</html>", { status: 200, headers: { "Content-Type": "text/html" } });
      if (control.transferAnswer === "timeout") await Bun.sleep(control.timeoutAfterMs);
      return res;
    }
    const verifyTransfer = /^\/v1\/transfers\/verify\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && verifyTransfer && control.verifyOutage)
      return failed("Service temporarily unavailable (emulated outage)", 503);
    if (req.method === "GET" && verifyTransfer) {
      const t = transfers.get(decodeURIComponent(verifyTransfer[1]));
      if (!t) return failed("Transfer not found", 404);
      const { reference, ...rest } = transferBody(t, "");
      return json({
        message: "Transfer details",
        status: "success",
        data: {
          ...rest,
          event: undefined,
          type: undefined,
          tx_ref: reference,
          reference,
          chapa_transfer_id: t.chapa_transfer_id,
        },
      });
    }
    const refundPath = /^\/v1\/refund\/([^/]+)$/.exec(url.pathname);
    if (req.method === "POST" && refundPath) return refund(decodeURIComponent(refundPath[1]), body);
    return failed("Not found", 404);
  };

  const checkoutPage = (t: TTx) => {
    const title = "MyTess Sandbox · Chapa Checkout";
    if (t.status !== "pending") return page(title, `<p>This payment is ${esc(t.status)}.</p>`);
    const path = `/checkout/${esc(encodeURIComponent(t.tx_ref))}`;
    return page(
      title,
      `<p>${esc(t.customization.title ?? "MyTess")}</p>` +
        (t.customization.description ? `<p>${esc(t.customization.description)}</p>` : "") +
        `<p class="amount" data-testid="amount">${esc(`${decimal(t.amount)} ${t.currency}`)}</p>` +
        `<p>Email: <span data-testid="email">${esc(t.email ?? "")}</span></p>` +
        `<p>Test mode: no money moves.</p>` +
        `<form method="post" action="${path}/pay"><button type="submit">Pay</button></form>` +
        `<form method="post" action="${path}/cancel"><button class="secondary" type="submit">Cancel</button></form>`,
    );
  };

  const handlePage = async (req: Request, url: URL) => {
    if (control.outage) return page("Service unavailable", "<p>Chapa is unavailable (emulated outage).</p>", 503);
    const m = /^\/checkout\/([^/]+)(?:\/(pay|cancel))?$/.exec(url.pathname);
    const t = m ? txs.get(decodeURIComponent(m[1])) : undefined;
    if (!m || !t) return page("Not found", "<p>No such payment.</p>", 404);
    if (!m[2] && req.method === "GET") return checkoutPage(t);
    if (req.method === "POST" && m[2] && t.status === "pending") {
      const r =
        m[2] === "pay"
          ? await settle(t.tx_ref, "success")
          : await settle(t.tx_ref, "cancelled", "Cancelled by the customer", "charge.cancelled");
      return r.returnUrl ? redirect(r.returnUrl) : checkoutPage(t);
    }
    return checkoutPage(t);
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
