// Chapa: hosted checkout for one period at a time (no recurring billing), verification, refunds and signed webhooks, as
// Chapa's API documentation (developer.chapa.co) describes them.
//
//   POST {https://api.chapa.co}/v1/transaction/initialize   JSON {amount: "500.00", currency, tx_ref, email, …}
//        → {message: "Hosted Link", status: "success", data: {checkout_url}}
//   GET  /v1/transaction/verify/{tx_ref}                     → {message, status, data: {tx_ref, reference, status, …}}
//   POST /v1/refund/{reference}                              form: reason=…&amount=…
//   Authorization: Bearer CHASECK_…
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

  const call = async (method: "GET" | "POST", path: string, body?: { json: unknown } | { form: string }) => {
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
