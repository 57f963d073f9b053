import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";

/**
 * Meta's subscription check: `GET ?hub.mode=subscribe&hub.verify_token=…&hub.challenge=…`. Answer the challenge as
 * plain text with 200 when it returns one, otherwise 403.
 */
export const whatsappChallenge = (query: URLSearchParams, verifyToken: string): string | null => {
  const token = query.get("hub.verify_token") ?? "";
  if (query.get("hub.mode") !== "subscribe" || !safeEqual(token, verifyToken)) return null;
  return query.get("hub.challenge");
};

const safeEqual = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  // timingSafeEqual needs equal lengths; the length of a wrong guess is all it could learn.
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Meta signs each POST with `X-Hub-Signature-256: sha256=<hex HMAC-SHA256 of the raw body with the app secret>`.
 * Verify the exact bytes received, before parsing: re-serialised JSON would not match.
 */
export const verifyWhatsAppSignature = (rawBody: Uint8Array | string, header: string | null, appSecret: string) => {
  const m = /^sha256=([0-9a-f]{64})$/i.exec(header?.trim() ?? "");
  if (!m || !appSecret) return false;
  const expected = createHmac("sha256", appSecret).update(rawBody).digest();
  return timingSafeEqual(expected, Buffer.from(m[1], "hex"));
};

/** The signature header for a body: what Meta computes, and what the emulator sends. */
export const whatsappSignature = (rawBody: Uint8Array | string, appSecret: string) =>
  `sha256=${createHmac("sha256", appSecret).update(rawBody).digest("hex")}`;

// Meta's webhook body, read one element at a time: a contact or a message we cannot read is skipped, never the whole
// POST (Meta batches several messages, contacts and changes in one). Users with a WhatsApp username arrive with a
// business-scoped user id (BSUID, `user_id` / `from_user_id`, "CC.<up to 128 letters and digits>") and without their
// phone number: `contacts[].wa_id` and `messages[].from` are then absent, and `contacts[].profile.username` is set.
// Statuses of messages sent to a BSUID carry `recipient_user_id` and no `recipient_id`.
const ZMessage = z.looseObject({
  from: z.string().optional(),
  from_user_id: z.string().optional(),
  id: z.string(),
  timestamp: z.coerce.number(),
  type: z.string(),
  text: z.looseObject({ body: z.string() }).optional(),
  // A quick-reply button of a template, and an interactive reply button.
  button: z.looseObject({ payload: z.string().optional(), text: z.string() }).optional(),
  interactive: z
    .looseObject({ button_reply: z.looseObject({ id: z.string(), title: z.string() }).optional() })
    .optional(),
});
const ZContact = z.looseObject({
  wa_id: z.string().optional(),
  user_id: z.string().optional(),
  profile: z.looseObject({ name: z.string().optional(), username: z.string().optional() }).optional(),
});
const ZStatus = z.looseObject({
  id: z.string(),
  status: z.string(),
  timestamp: z.coerce.number(),
  recipient_id: z.string().optional(),
  recipient_user_id: z.string().optional(),
  errors: z.array(z.looseObject({ code: z.coerce.number(), title: z.string().optional() })).optional(),
});
const ZWebhook = z.looseObject({
  object: z.literal("whatsapp_business_account"),
  entry: z.array(
    z.looseObject({
      changes: z.array(
        z.looseObject({
          field: z.string(),
          value: z.looseObject({
            metadata: z.looseObject({ phone_number_id: z.string() }).optional(),
            contacts: z.array(z.unknown()).optional(),
            messages: z.array(z.unknown()).optional(),
            statuses: z.array(z.unknown()).optional(),
          }),
        }),
      ),
    }),
  ),
});

export type TWhatsAppInbound = {
  /** The sender's number, E.164 digits without the plus (wa_id); absent for a user with a username. */
  from?: string;
  /** The sender's business-scoped user id (BSUID), when Meta sends it (always, since usernames). */
  userId?: string;
  /** The sender's WhatsApp username, when they have one. */
  username?: string;
  name?: string;
  messageId: string;
  /** Epoch ms: when the 24-hour window (re)opened. */
  at: number;
  text?: string;
  /** A pressed button's payload (template quick reply or interactive reply). */
  buttonPayload?: string;
  phoneNumberId?: string;
};
export type TWhatsAppStatus = {
  messageId: string;
  status: string;
  /** The number the message went to; absent when it was sent to a BSUID. */
  recipient?: string;
  recipientUserId?: string;
  at: number;
  errorCodes: number[];
};

/**
 * Text messages, button replies and delivery statuses from a webhook body, each read on its own. Kinds we do not
 * handle (media, reactions) and malformed entries are skipped, not fatal: Meta batches several changes in one POST.
 * A message needs its id and a sender, by number or by user id.
 */
export const parseWhatsAppWebhook = (body: unknown): { messages: TWhatsAppInbound[]; statuses: TWhatsAppStatus[] } => {
  const out = { messages: [] as TWhatsAppInbound[], statuses: [] as TWhatsAppStatus[] };
  const hook = ZWebhook.safeParse(body);
  if (!hook.success) return out;
  for (const change of hook.data.entry.flatMap((e) => e.changes)) {
    if (change.field !== "messages") continue;
    const v = change.value;
    const contacts = (v.contacts ?? []).flatMap((raw) => {
      const c = ZContact.safeParse(raw);
      return c.success ? [c.data] : [];
    });
    const contactOf = (from?: string, userId?: string) =>
      contacts.find((c) => (userId && c.user_id === userId) || (from && c.wa_id === from));
    for (const raw of v.messages ?? []) {
      const m = ZMessage.safeParse(raw);
      if (!m.success) continue;
      const d = m.data;
      const contact = contactOf(d.from, d.from_user_id);
      const from = d.from ?? contact?.wa_id;
      const userId = d.from_user_id ?? contact?.user_id;
      if (!from && !userId) continue;
      const text = d.text?.body ?? d.button?.text ?? d.interactive?.button_reply?.title;
      const buttonPayload = d.button?.payload ?? d.interactive?.button_reply?.id;
      if (text === undefined && buttonPayload === undefined) continue;
      out.messages.push({
        ...(from ? { from } : {}),
        ...(userId ? { userId } : {}),
        ...(contact?.profile?.username ? { username: contact.profile.username } : {}),
        name: contact?.profile?.name,
        messageId: d.id,
        at: d.timestamp * 1000,
        text,
        buttonPayload,
        phoneNumberId: v.metadata?.phone_number_id,
      });
    }
    for (const raw of v.statuses ?? []) {
      const s = ZStatus.safeParse(raw);
      if (!s.success || (!s.data.recipient_id && !s.data.recipient_user_id)) continue;
      out.statuses.push({
        messageId: s.data.id,
        status: s.data.status,
        ...(s.data.recipient_id ? { recipient: s.data.recipient_id } : {}),
        ...(s.data.recipient_user_id ? { recipientUserId: s.data.recipient_user_id } : {}),
        at: s.data.timestamp * 1000,
        errorCodes: (s.data.errors ?? []).map((e) => e.code),
      });
    }
  }
  return out;
};
