// Chapa: hosted checkout for one period at a time (no recurring billing), verification, refunds and signed webhooks, as
// Chapa's API documentation (developer.chapa.co) describes them.
//
//   POST {https://api.chapa.co}/v1/transaction/initialize   JSON {amount: "500.00", currency, tx_ref, email, …}
//        → {message: "Hosted Link", status: "success", data: {checkout_url}}
//   GET  /v1/transaction/verify/{tx_ref}                     → {message, status, data: {tx_ref, reference, status, …}}
//   POST /v1/refund/{reference}                              form: reason=…&amount=…
//   GET  /v1/banks                                           → {message, data: [{id, name, acct_length, is_mobilemoney, …}]}
//   POST /v1/transfers                                       JSON {account_name, account_number, amount: "900.00",
//                                                            currency, reference, bank_code} → {status, data: reference}
//   GET  /v1/transfers/verify/{reference}                    → {status, data: {status, chapa_transfer_id, charge, …}}
//   Authorization: Bearer CHASECK_…
//
// Banks: mobile-money wallets (telebirr, CBE Birr, M-Pesa…) are banks in the list, with the wallet's phone number as the
// account number; their ids are read from the list each time, never written into our code. The list's answer may come
// without a `status`, so its envelope is not required to say "success" (a refusal is still an HTTP error).
// Transfers are queued: the answer names the reference only; the payout webhook (payout.success | payout.failed) or
// verify says how it ended. Our reference is unique per payment: sending it again is refused by Chapa, so a retried job
// asks verify instead of sending money twice.
//
// Refunds: Chapa's refund page documents a form-encoded body (`reason`, optional `amount` as a string; no amount means
// the whole transaction), so that is what we send. The path takes Chapa's reference for the payment (the `reference`
// verify reports), not our tx_ref.
//
// Errors: Chapa answers {message, status: "failed", data: null}; validation errors carry an object of field messages
// in `message` ({amount: ["The amount field is required."]}). The message is the reason an AppError carries.
//
// Webhooks: Chapa sends Chapa-Signature and x-chapa-signature; Chapa's Node SDK accepts the request when either equals
// hex HMAC-SHA256(webhook secret, raw body), and so do we (a header holding anything else is ignored). One URL gets
// every event of the account: transactions ({event: "charge.success" | "charge.failed" | "charge.cancelled" | …,
// tx_ref, status, …}) and transfers ({event: "payout.success" | …, type: "Payout", reference, …}, no tx_ref).
import { createHmac } from "node:crypto";
import { z } from "zod";
import {
  exchange,
  jsonOrNull,
  parseWire,
  plainReason,
  readJson,
  serviceFailed,
  serviceUnreadable,
  trimBase,
} from "../http/kit";
import { failOnStatus, formEncode, isLoopbackUrl, PAYMENT_PROVIDER_NAMES, sameText, webhookRefused } from "./http";
import type { TChapaAdapter, TChapaSettings, TChapaTransaction } from "./types";

const PROVIDER = PAYMENT_PROVIDER_NAMES.chapa;

/** Chapa's reason in an error body: `message` as a string, or its field messages joined. */
export const chapaReason = (text: string): string | undefined => {
  const body = jsonOrNull(text);
  if (body === null) return plainReason(text);
  const message = (body as { message?: unknown } | null)?.message;
  if (typeof message === "string") return message.trim() || undefined;
  if (message && typeof message === "object") {
    const parts = Object.values(message as Record<string, unknown>).flatMap((v) =>
      (Array.isArray(v) ? v : [v]).filter((x): x is string => typeof x === "string"),
    );
    return parts.join(" ") || undefined;
  }
  return undefined;
};

/** The hex HMAC-SHA256 of a raw body, as Chapa signs webhooks (both headers carry it). */
export const signChapaPayload = (raw: string, secret: string) =>
  createHmac("sha256", secret).update(raw, "utf8").digest("hex");

/** An amount as Chapa wants it: a decimal string with two places ("500.00"). */
export const chapaAmount = (amount: number) => amount.toFixed(2);

const ZEnvelope = z.object({ status: z.string(), message: z.unknown().optional() });
const ZInitialized = z.object({ data: z.object({ checkout_url: z.string() }) });
const ZVerified = z.object({
  data: z.object({
    tx_ref: z.string(),
    reference: z.string().nullish(),
    status: z.string(),
    amount: z.union([z.number(), z.string()]),
    currency: z.string(),
    email: z.string().nullish(),
  }),
});
const ZBanks = z.object({
  data: z.array(
    z.looseObject({
      id: z.union([z.number(), z.string()]),
      name: z.string(),
      swift: z.string().nullish(),
      acct_length: z.union([z.number(), z.string()]).nullish(),
      is_mobilemoney: z.union([z.number(), z.boolean()]).nullish(),
      currency: z.string().nullish(),
      is_active: z.union([z.number(), z.boolean()]).nullish(),
    }),
  ),
});
const ZTransferQueued = z.object({
  data: z.union([z.string(), z.object({ reference: z.string().nullish() }).loose()]).nullish(),
});
const ZTransferVerified = z.object({
  data: z.looseObject({
    status: z.string(),
    reference: z.string().nullish(),
    tx_ref: z.string().nullish(),
    chapa_transfer_id: z.string().nullish(),
    charge: z.union([z.number(), z.string()]).nullish(),
    amount: z.union([z.number(), z.string()]).nullish(),
    failure_reason: z.string().nullish(),
  }),
});
const numberOrNull = (v: number | string | null | undefined) => {
  if (v === null || v === undefined || v === "") return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : null;
};
const truthy = (v: number | boolean | null | undefined) => v === true || v === 1;
const ZRefunded = z.object({ data: z.object({ status: z.string().nullish() }).nullish() });
/** A transfer's webhook: flat, "type": "Payout", no tx_ref (events payout.success, payout.failed, …). */
const ZPayoutWebhook = z.looseObject({
  event: z.string().nullish(),
  type: z.string().nullish(),
  reference: z.string().nullish(),
  status: z.string().nullish(),
});
const ZWebhook = z.object({
  event: z.string().nullish(),
  tx_ref: z.string().nullish(),
  trx_ref: z.string().nullish(),
  status: z.string(),
});

/** Test keys and loopback hosts (the emulator) are the sandbox. */
export const isChapaSandbox = (s: Pick<TChapaSettings, "baseUrl" | "secretKey">) =>
  s.secretKey.startsWith("CHASECK_TEST-") || isLoopbackUrl(s.baseUrl);

export const createChapaAdapter = (s: TChapaSettings): TChapaAdapter => {
  const base = trimBase(s.baseUrl);

  const call = async (
    method: "GET" | "POST",
    path: string,
    body?: { json: unknown } | { form: string },
    o: { statusOptional?: boolean } = {},
  ) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${s.secretKey}`, Accept: "application/json" };
    let payload: string | undefined;
    if (body && "json" in body) {
      headers["Content-Type"] = "application/json";
      payload = JSON.stringify(body.json);
    } else if (body) {
      headers["Content-Type"] = "application/x-www-form-urlencoded";
      payload = body.form;
    }
    const res = await exchange(PROVIDER, `${base}${path}`, { method, headers, body: payload }, s.timeoutMs, {
      trusted: [s.baseUrl],
    });
    const reason = chapaReason(res.text);
    failOnStatus(PROVIDER, res, reason);
    const json = readJson(PROVIDER, res);
    // Chapa reports some failures in a 2xx answer with status "failed".
    if (o.statusOptional && (json as { status?: unknown } | null)?.status === undefined) return json;
    const envelope = parseWire(PROVIDER, ZEnvelope, json);
    if (envelope.status.toLowerCase() !== "success") throw serviceFailed(PROVIDER, reason ?? envelope.status);
    return json;
  };

  return {
    sandbox: isChapaSandbox(s),

    async initialize(r) {
      const body = await call("POST", "/v1/transaction/initialize", {
        json: {
          amount: chapaAmount(r.amount),
          currency: r.currency,
          tx_ref: r.txRef,
          ...(r.email ? { email: r.email } : {}),
          first_name: r.firstName,
          last_name: r.lastName,
          callback_url: r.callbackUrl,
          return_url: r.returnUrl,
          customization: { title: r.title, description: r.description },
        },
      });
      return { checkoutUrl: parseWire(PROVIDER, ZInitialized, body).data.checkout_url };
    },

    async verify(txRef): Promise<TChapaTransaction> {
      const body = await call("GET", `/v1/transaction/verify/${encodeURIComponent(txRef)}`);
      const d = parseWire(PROVIDER, ZVerified, body).data;
      const amount = typeof d.amount === "number" ? d.amount : Number(d.amount);
      if (!Number.isFinite(amount)) throw serviceUnreadable(PROVIDER, "data.amount");
      return {
        txRef: d.tx_ref,
        reference: d.reference || null,
        status: d.status.toLowerCase(),
        amount,
        currency: d.currency.toUpperCase(),
        email: d.email || null,
      };
    },

    async refund(r) {
      const body = await call("POST", `/v1/refund/${encodeURIComponent(r.reference)}`, {
        form: formEncode({ reason: r.reason, amount: r.amount === undefined ? undefined : chapaAmount(r.amount) }),
      });
      const d = parseWire(PROVIDER, ZRefunded, body).data;
      return { status: d?.status?.toLowerCase() || "success" };
    },

    async listBanks() {
      const body = await call("GET", "/v1/banks", undefined, { statusOptional: true });
      return parseWire(PROVIDER, ZBanks, body)
        .data.filter((b) => b.is_active === undefined || b.is_active === null || truthy(b.is_active))
        .map((b) => ({
          id: Number(b.id),
          name: b.name,
          swift: b.swift || null,
          acctLength: numberOrNull(b.acct_length),
          mobileMoney: truthy(b.is_mobilemoney),
          currency: (b.currency ?? "ETB").toUpperCase(),
        }))
        .filter((b) => Number.isSafeInteger(b.id) && b.id > 0);
    },

    async transfer(r) {
      const body = await call("POST", "/v1/transfers", {
        json: {
          account_name: r.accountName,
          account_number: r.accountNumber,
          amount: chapaAmount(r.amount),
          currency: r.currency,
          reference: r.reference,
          bank_code: r.bankCode,
        },
      });
      const d = parseWire(PROVIDER, ZTransferQueued, body).data;
      const reference = typeof d === "string" ? d : (d?.reference ?? r.reference);
      return { reference: reference || r.reference };
    },

    async verifyTransfer(reference) {
      const body = await call("GET", `/v1/transfers/verify/${encodeURIComponent(reference)}`);
      const d = parseWire(PROVIDER, ZTransferVerified, body).data;
      return {
        reference: d.reference ?? d.tx_ref ?? reference,
        status: d.status.toLowerCase(),
        chapaTransferId: d.chapa_transfer_id ?? null,
        charge: numberOrNull(d.charge),
        amount: numberOrNull(d.amount),
        failureReason: d.failure_reason?.trim() || null,
      };
    },

    verifyWebhook(raw, headers) {
      if (!s.webhookSecret)
        throw webhookRefused(
          PROVIDER,
          /*i18n*/ { id: "error.payment.webhookNoSecret", message: "no webhook secret is configured" },
        );
      const given = [headers.get("chapa-signature"), headers.get("x-chapa-signature")]
        .map((h) => h?.trim().toLowerCase())
        .filter((h): h is string => !!h);
      if (!given.length)
        throw webhookRefused(
          PROVIDER,
          /*i18n*/ {
            id: "error.payment.webhookUnsigned",
            message: "the {header} header is missing or malformed",
            values: { header: "Chapa-Signature" },
          },
        );
      const expected = signChapaPayload(raw, s.webhookSecret);
      if (!given.reduce((ok, sig) => sameText(sig, expected) || ok, false))
        throw webhookRefused(
          PROVIDER,
          /*i18n*/ { id: "error.payment.webhookBadSignature", message: "the signature does not match the body" },
        );
      // Signed by Chapa: whatever it is, it is answered (a refusal would only be sent again).
      const body = jsonOrNull(raw);
      const payout = ZPayoutWebhook.safeParse(body);
      if (payout.success && (payout.data.type === "Payout" || payout.data.event?.startsWith("payout.")))
        return {
          kind: "payout",
          reference: payout.data.reference ?? null,
          status: payout.data.status?.toLowerCase() ?? null,
          event: payout.data.event ?? null,
        };
      const r = ZWebhook.safeParse(body);
      const txRef = r.success ? (r.data.tx_ref ?? r.data.trx_ref) : null;
      if (!r.success || !txRef) return { kind: "unreadable" };
      return {
        kind: "transaction",
        txRef,
        status: r.data.status.toLowerCase(),
        event: r.data.event?.toLowerCase() ?? null,
      };
    },
  };
};
