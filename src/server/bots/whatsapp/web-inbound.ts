// Messages people send to the number linked through WhatsApp Web (WHATSAPP_TRANSPORT=web): the bridge
// (workers/whatsapp-web/) posts each private text message here, signed with the secret MyTess shares with it, and the
// same text commands answer as for the Cloud API's webhook, the reply going back through the bridge.
import { z } from "zod";
import {
  INBOUND_PATH,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifySignature,
} from "../../../../workers/whatsapp-web/protocol.mjs";

export { INBOUND_PATH as WHATSAPP_WEB_INBOUND_PATH };

export const ZWhatsAppWebInbound = z.object({
  /** The sender's number, E.164 digits without the plus. */
  from: z.string().regex(/^\d{7,15}$/, "E.164 digits without the plus"),
  text: z.string().max(4096),
  messageId: z.string().min(1).max(200),
  /** When it was sent, epoch ms. */
  at: z.number().int().positive(),
});

/** Whether a POST to the inbound route was signed by our bridge, over these exact bytes, in the last few minutes. */
export const isSignedByBridge = (secret: string, raw: string, headers: Headers) =>
  verifySignature(secret, {
    method: "POST",
    path: INBOUND_PATH,
    body: raw,
    timestamp: headers.get(TIMESTAMP_HEADER),
    signature: headers.get(SIGNATURE_HEADER),
  });
