import { z } from "zod";
import { guardedFetch } from "../http/guard";
import { networkReason, retryAfterSeconds } from "../http/kit";
import type { TNotification, TNotifier, TSendResult, TWhatsAppAddress } from "./types";
import { plainLines } from "./types";

// Free-form messages are allowed for 24 hours after the user last wrote; keep a margin for a job that waited in line.
const WINDOW_MS = 24 * 3600_000 - 10 * 60_000;
const MAX_TEXT = 4096;

export type TWhatsAppSettings = {
  accessToken: string;
  phoneNumberId: string;
  apiRoot: string;
  version: string;
  timeoutMs: number;
  sandbox: boolean;
};

const ZSent = z.looseObject({
  messages: z.array(z.looseObject({ id: z.string() })).min(1),
});
const ZGraphError = z.looseObject({
  error: z.looseObject({
    message: z.string(),
    type: z.string().optional(),
    code: z.coerce.number(),
    error_subcode: z.coerce.number().optional(),
    error_data: z.looseObject({ details: z.string().optional() }).optional(),
  }),
});

// Meta's error codes (support/error-codes): limits that pass with time, and recipients that cannot be reached at all.
const RETRY_CODES = new Set([1, 2, 4, 80007, 130429, 131000, 131016, 131056]);
const GONE_CODES = new Set([131026]);

/** E.164 without the plus, as Cloud API's examples and its wa_id use. */
export const whatsappNumber = (phone: string) => phone.replace(/[^\d]/g, "");

/** WhatsApp's own markdown: *bold* title, then the body and link. */
export const renderWhatsAppText = (n: TNotification) => {
  const [first, ...rest] = plainLines(n);
  const text = n.title?.trim() ? [`*${first}*`, ...rest].join("\n") : [first, ...rest].join("\n");
  return text.length <= MAX_TEXT ? text : `${text.slice(0, MAX_TEXT - 1)}…`;
};

/**
 * The request body: free text inside the customer-service window, otherwise the template, otherwise nothing. A user
 * known only by their business-scoped user id is addressed with `recipient` instead of `to` (Meta takes `to` when both
 * are given, so only one is sent).
 */
export const whatsappMessage = (
  to: TWhatsAppAddress,
  n: TNotification,
  now = Date.now(),
): Record<string, unknown> | null => {
  const base = {
    messaging_product: "whatsapp",
    recipient_type: "individual",
    ...(to.phone !== undefined ? { to: whatsappNumber(to.phone) } : { recipient: to.userId }),
  };
  if (to.lastInboundAt != null && now - to.lastInboundAt < WINDOW_MS)
    return { ...base, type: "text", text: { preview_url: false, body: renderWhatsAppText(n) } };
  const t = n.whatsappTemplate;
  if (!t) return null;
  return {
    ...base,
    type: "template",
    template: {
      name: t.name,
      language: { code: t.languageCode },
      components: t.bodyParams.length
        ? [{ type: "body", parameters: t.bodyParams.map((text) => ({ type: "text", text })) }]
        : [],
    },
  };
};

/** Cloud API's answer as a TSendResult. */
export const whatsappOutcome = (status: number, headers: Headers, body: unknown): TSendResult => {
  if (status >= 200 && status < 300) {
    const ok = ZSent.safeParse(body);
    return ok.success
      ? { status: "delivered", messageId: ok.data.messages[0].id }
      : { status: "failed", reason: "WhatsApp accepted the message but sent no message id" };
  }
  const wait = retryAfterSeconds(headers);
  const err = ZGraphError.safeParse(body);
  if (!err.success) {
    if (status === 429 || status >= 500)
      return { status: "retry", reason: `WhatsApp: HTTP ${status}`, retryAfterSeconds: wait };
    return { status: "failed", reason: `WhatsApp: HTTP ${status}` };
  }
  const e = err.data.error;
  const details = e.error_data?.details;
  const reason = `WhatsApp: ${e.message}${details && !e.message.includes(details) ? ` (${details})` : ""}`;
  if (RETRY_CODES.has(e.code) || status === 429 || status >= 500)
    return { status: "retry", reason, retryAfterSeconds: wait };
  if (GONE_CODES.has(e.code)) return { status: "gone", reason };
  if (e.code === 190 || status === 401)
    return { status: "failed", reason: `WhatsApp refused the access token: ${e.message}` };
  return { status: "failed", reason };
};

export const createWhatsAppCloudNotifier = (s: TWhatsAppSettings): TNotifier<"whatsapp"> => ({
  channel: "whatsapp",
  name: "WhatsApp",
  sandbox: s.sandbox,
  send: async (to, n) => {
    const message = whatsappMessage(to, n);
    if (!message)
      return {
        status: "failed",
        reason: "WhatsApp: the user has not written in the last 24 hours and the notification has no template",
      };
    let res: Response;
    let body: unknown = null;
    try {
      // Through the outgoing-call guard, which trusts the operator's Graph root (WHATSAPP_API_ROOT) only.
      res = await guardedFetch(
        `${s.apiRoot}/${s.version}/${encodeURIComponent(s.phoneNumberId)}/messages`,
        {
          method: "POST",
          headers: { Authorization: `Bearer ${s.accessToken}`, "Content-Type": "application/json" },
          body: JSON.stringify(message),
          signal: AbortSignal.timeout(s.timeoutMs),
        },
        { trusted: [s.apiRoot] },
      );
      const text = await res.text();
      try {
        body = text.trim() ? JSON.parse(text) : null;
      } catch {
        // A proxy's HTML error page: the status says enough.
      }
    } catch (err) {
      return { status: "retry", reason: `WhatsApp could not be reached: ${networkReason(err)}` };
    }
    return whatsappOutcome(res.status, res.headers, body);
  },
});
