// WhatsApp Business Cloud API emulator: POST /<version>/<phone number id>/messages with Graph API error bodies, and
// signed webhook deliveries (inbound messages, delivery statuses) to a URL the test sets.
//
// Usernames, as Meta has sent them since April 2026: every user has a business-scoped user id (BSUID,
// "CC.<letters and digits>"), sent as contacts[].user_id and messages[].from_user_id. A user without a username also
// comes with their number (contacts[].wa_id, messages[].from); a user with one comes without it, and with
// contacts[].profile.username. A message goes to a number with `to` or to a BSUID with `recipient` (`to` wins when both
// are given); statuses of a message sent to a BSUID carry recipient_user_id and no recipient_id. control.usernameSays
// sends a username-only message; control.batch sends several senders' messages in one POST, as Meta batches them.
import { createHash, createHmac, randomBytes } from "node:crypto";

export type TWhatsAppTemplateDef = { name: string; language: string; body: string };
export type TWhatsAppSent = {
  id: string;
  to: string;
  type: "text" | "template";
  /** What the user reads: the text, or the template's body with its parameters filled in. */
  text: string;
  template?: { name: string; language: string; params: string[] };
};
type TRecipientMode = "ok" | "not_on_whatsapp" | "pair_rate_limit" | "throughput";

const WINDOW_MS = 24 * 3600_000;
const BSUID = /^[A-Z]{2}\.[A-Za-z0-9]{1,128}$/;

/** The BSUID Meta gives the user behind a number (stable here, as it is per business there). */
export const bsuidOf = (number: string) =>
  `ET.${createHash("sha256").update(`bsuid:${number}`).digest("base64url").replace(/[-_]/g, "").slice(0, 24)}`;

/** One sender's message in a webhook: by number (a user without a username) or by username only. */
export type TWhatsAppInboundSpec =
  | { from: string; text: string; name?: string }
  | {
      userId: string;
      username: string;
      text: string;
      name?: string;
    };

const graphError = (
  status: number,
  code: number,
  message: string,
  extra: { type?: string; subcode?: number; details?: string } = {},
) =>
  Response.json(
    {
      error: {
        message,
        type: extra.type ?? "OAuthException",
        code,
        ...(extra.subcode ? { error_subcode: extra.subcode } : {}),
        ...(extra.details ? { error_data: { messaging_product: "whatsapp", details: extra.details } } : {}),
        fbtrace_id: randomBytes(12).toString("base64url"),
      },
    },
    { status },
  );

export const createWhatsAppEmulator = (opts: {
  accessToken: string;
  phoneNumberId: string;
  displayPhoneNumber: string;
  businessAccountId: string;
  appSecret: string;
  templates: TWhatsAppTemplateDef[];
}) => {
  const sent: TWhatsAppSent[] = [];
  const lastInbound = new Map<string, number>();
  const modes = new Map<string, TRecipientMode>();
  const deliveries = new Set<Promise<unknown>>();
  let webhookUrl: string | null = null;
  let allowed: Set<string> | null = null;
  /** The last message delivery, for Meta's re-delivery of a webhook it thinks failed. */
  let lastMessages: Record<string, unknown> | null = null;
  const wamid = () => `wamid.${randomBytes(24).toString("base64url")}`;
  // Computed here rather than with the adapter's helper, so the tests check one against the other.
  const signature = (body: string) => `sha256=${createHmac("sha256", opts.appSecret).update(body).digest("hex")}`;
  const metadata = { display_phone_number: opts.displayPhoneNumber, phone_number_id: opts.phoneNumberId };

  /** POSTs one webhook body, signed as Meta signs it; resolves to the receiver's status (0 when unreachable). */
  const deliver = (value: Record<string, unknown>) => {
    if (!webhookUrl) return Promise.resolve(0);
    const body = JSON.stringify({
      object: "whatsapp_business_account",
      entry: [
        {
          id: opts.businessAccountId,
          changes: [{ value: { messaging_product: "whatsapp", metadata, ...value }, field: "messages" }],
        },
      ],
    });
    const p = fetch(webhookUrl, {
      method: "POST",
      headers: { "content-type": "application/json", "X-Hub-Signature-256": signature(body) },
      body,
    })
      .then(async (r) => {
        await r.body?.cancel();
        return r.status;
      })
      .catch(() => 0)
      .finally(() => deliveries.delete(p));
    deliveries.add(p);
    return p;
  };

  const status = (id: string, to: string, s: "sent" | "failed", error?: { code: number; title: string }) =>
    deliver({
      statuses: [
        {
          id,
          status: s,
          timestamp: String(Math.floor(Date.now() / 1000)),
          // A message sent to a BSUID is reported by user id only.
          ...(BSUID.test(to) ? { recipient_user_id: to } : { recipient_id: to, recipient_user_id: bsuidOf(to) }),
          ...(error ? { errors: [{ ...error, message: error.title, error_data: { details: error.title } }] } : {}),
        },
      ],
    });

  const control = {
    setWebhookUrl: (url: string | null) => {
      webhookUrl = url;
    },
    /** Sandbox numbers may only message a short list of recipients (131030 otherwise); null lifts the list. */
    setAllowedRecipients: (numbers: string[] | null) => {
      allowed = numbers ? new Set(numbers) : null;
    },
    setMode: (number: string, mode: TRecipientMode) => modes.set(number, mode),
    /** The user writes to the business: opens the 24-hour window and delivers the webhook. */
    userSays: (from: string, text: string, name = `User ${from.slice(-4)}`) => control.batch([{ from, text, name }]),
    /** A user with a username writes: no number, only their BSUID and username. */
    usernameSays: (userId: string, username: string, text: string, name = username) =>
      control.batch([{ userId, username, text, name }]),
    /** Several senders' messages in one POST (one contact and one message each), as Meta batches them. */
    batch: (specs: TWhatsAppInboundSpec[]) => {
      const now = Date.now();
      const contacts: Record<string, unknown>[] = [];
      const messages: Record<string, unknown>[] = [];
      for (const m of specs) {
        const userId = "from" in m ? bsuidOf(m.from) : m.userId;
        lastInbound.set(userId, now);
        if ("from" in m) lastInbound.set(m.from, now);
        const name = m.name ?? ("from" in m ? `User ${m.from.slice(-4)}` : m.username);
        contacts.push(
          "from" in m
            ? { profile: { name }, wa_id: m.from, user_id: userId }
            : { profile: { name, username: m.username }, user_id: userId },
        );
        messages.push({
          ...("from" in m ? { from: m.from } : {}),
          from_user_id: userId,
          id: wamid(),
          timestamp: String(Math.floor(now / 1000)),
          type: "text",
          text: { body: m.text },
        });
      }
      lastMessages = { contacts, messages };
      return deliver(lastMessages);
    },
    /** Delivers the last message again, same id and all, as Meta does when it did not see a 200 in time. */
    redeliverLast: () => (lastMessages ? deliver(lastMessages) : Promise.resolve(0)),
    /** The subscription check Meta makes before it delivers anything; returns the body the receiver answered. */
    verifySubscription: async (verifyToken: string) => {
      if (!webhookUrl) throw new Error("no webhook URL set");
      const challenge = randomBytes(8).toString("hex");
      const u = new URL(webhookUrl);
      u.search = new URLSearchParams({
        "hub.mode": "subscribe",
        "hub.verify_token": verifyToken,
        "hub.challenge": challenge,
      }).toString();
      const r = await fetch(u);
      return { status: r.status, echoed: (await r.text()) === challenge };
    },
    sent: (to?: string) => (to ? sent.filter((m) => m.to === to) : [...sent]),
    settle: () => Promise.all([...deliveries]),
  };

  const send = (body: Record<string, unknown>): Response => {
    if (body.messaging_product !== "whatsapp")
      return graphError(400, 100, "(#100) The parameter messaging_product is required.");
    // `to` (a number) wins over `recipient` (a BSUID) when both are given.
    const byNumber = body.to !== undefined;
    const to = byNumber ? String(body.to).replace(/^\+/, "") : String(body.recipient ?? "");
    if (byNumber && !/^\d{7,15}$/.test(to))
      return graphError(400, 100, "(#100) Invalid parameter", { details: "Invalid parameter: to" });
    if (!byNumber && !BSUID.test(to))
      return graphError(400, 100, "(#100) Invalid parameter", {
        details:
          body.recipient === undefined
            ? "Invalid parameter: to or recipient is required"
            : "Invalid parameter: recipient",
      });
    if (allowed && !allowed.has(to))
      return graphError(400, 131030, "(#131030) Recipient phone number not in allowed list", {
        details:
          "Recipient phone number not in allowed list: Add recipient phone number to recipient list and try again.",
      });
    const mode = modes.get(to) ?? "ok";
    if (mode === "pair_rate_limit")
      return graphError(400, 131056, "(#131056) (Business Account, Consumer Account) pair rate limit hit", {
        details:
          "Message failed to send because there were too many messages sent from this phone number to the same phone number in a short period of time.",
      });
    if (mode === "throughput")
      return graphError(400, 130429, "(#130429) Rate limit hit", {
        details: "Cloud API message throughput has been reached.",
      });

    let message: TWhatsAppSent;
    const id = wamid();
    if (body.type === "text") {
      const text = (body.text as { body?: unknown } | undefined)?.body;
      if (typeof text !== "string" || !text)
        return graphError(400, 100, "(#100) The parameter text['body'] is required.");
      if (text.length > 4096)
        return graphError(400, 100, "(#100) Param text['body'] must be at most 4096 characters long.");
      message = { id, to, type: "text", text };
    } else if (body.type === "template") {
      const t = body.template as
        | {
            name?: string;
            language?: { code?: string };
            components?: { type: string; parameters?: { text?: string }[] }[];
          }
        | undefined;
      const def = opts.templates.find((d) => d.name === t?.name && d.language === t?.language?.code);
      if (!def)
        return graphError(404, 132001, "(#132001) Template name does not exist in the translation", {
          details: `template name (${t?.name}) does not exist in ${t?.language?.code}`,
        });
      const params = (t?.components?.find((c) => c.type === "body")?.parameters ?? []).map((p) => String(p.text ?? ""));
      const expected = new Set(def.body.match(/\{\{\d+\}\}/g) ?? []).size;
      if (params.length !== expected)
        return graphError(400, 132000, "(#132000) Number of parameters does not match the expected number of params", {
          details: `body: number of localizable_params (${params.length}) does not match the expected number of params (${expected})`,
        });
      const text = def.body.replace(/\{\{(\d+)\}\}/g, (_, n) => params[Number(n) - 1] ?? "");
      message = { id, to, type: "template", text, template: { name: def.name, language: def.language, params } };
    } else
      return graphError(400, 100, `(#100) Param type must be one of {TEXT, TEMPLATE} - got "${String(body.type)}".`);

    // As on the real service, these are accepted first and fail afterwards, in a status webhook.
    if (mode === "not_on_whatsapp") void status(id, to, "failed", { code: 131026, title: "Message undeliverable" });
    else if (message.type === "text" && !(Date.now() - (lastInbound.get(to) ?? 0) < WINDOW_MS))
      void status(id, to, "failed", { code: 131047, title: "Re-engagement message" });
    else {
      sent.push(message);
      void status(id, to, "sent");
    }
    return Response.json({
      messaging_product: "whatsapp",
      contacts: [byNumber ? { input: String(body.to), wa_id: to } : { input: to, user_id: to }],
      messages: [{ id, ...(message.type === "template" ? { message_status: "accepted" } : {}) }],
    });
  };

  const handle = async (req: Request) => {
    const url = new URL(req.url);
    const m = /^\/(v\d+\.\d+)\/([^/]+)\/messages$/.exec(url.pathname);
    const auth = /^Bearer (.+)$/.exec(req.headers.get("authorization") ?? "");
    if (!auth)
      return graphError(400, 2500, "An active access token must be used to query information about the current user.");
    if (auth[1] !== opts.accessToken)
      return graphError(401, 190, "Invalid OAuth access token - Cannot parse access token");
    if (!m || req.method !== "POST" || m[2] !== opts.phoneNumberId)
      return graphError(
        400,
        100,
        `Unsupported ${req.method.toLowerCase()} request. Object with ID '${m?.[2] ?? url.pathname}' does not exist, cannot be loaded due to missing permissions, or does not support this operation. Please read the Graph API documentation at https://developers.facebook.com/docs/graph-api`,
        { type: "GraphMethodException", subcode: 33 },
      );
    let body: Record<string, unknown>;
    try {
      body = (await req.json()) as Record<string, unknown>;
    } catch {
      return graphError(400, 100, "(#100) Invalid parameter");
    }
    return send(body ?? {});
  };

  return { handle, control };
};
