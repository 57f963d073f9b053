import { z } from "zod";
import { WEBHOOK_DELIVERY_STATUSES, WEBHOOK_EVENTS } from "../webhooks";

export const ZWebhookEndpoint = z.object({
  id: z.number(),
  url: z.string(),
  events: z.array(z.enum(WEBHOOK_EVENTS)),
  createdAt: z.string(),
});
export const ZWebhookEndpointsListAnswer = z.array(ZWebhookEndpoint);
/** The endpoint with its signing secret: in the creation's answer only. */
export const ZWebhookEndpointCreateAnswer = ZWebhookEndpoint.extend({ secret: z.string() });

export const ZWebhookAttempt = z.object({
  at: z.string(),
  /** The receiver's HTTP status; null when no answer came (refused address, timeout, connection failure). */
  statusCode: z.number().nullable(),
  durationMs: z.number(),
  error: z.string().nullable(),
  /** Sent by hand (resend), not by the retries. */
  resend: z.boolean(),
});
export const ZWebhookDelivery = z.object({
  id: z.number(),
  event: z.enum(WEBHOOK_EVENTS),
  eventId: z.string(),
  status: z.enum(WEBHOOK_DELIVERY_STATUSES),
  createdAt: z.string(),
  updatedAt: z.string(),
  lastStatusCode: z.number().nullable(),
  /** The body exactly as it was signed and sent. */
  body: z.string(),
  /** Newest first, at most 20. */
  attempts: z.array(ZWebhookAttempt),
});
export const ZWebhookDeliveriesAnswer = z.array(ZWebhookDelivery);
export const ZWebhookResendAnswer = z.object({ ok: z.literal(true), deliveryId: z.number() });

/** Whether this server runs demo mode's Sandbox webhook receiver: its origin, or null (not demo mode). */
export const ZWebhookSandboxAnswer = z.object({ receiverOrigin: z.string().nullable() });
/** Demo mode: a fresh Sandbox receiver address for the signed-in user. */
export const ZWebhookSandboxReceiverAnswer = z.object({ url: z.string() });
/** Demo mode: what the Sandbox receiver got at the signed-in user's receivers, newest first. */
export const ZWebhookSandboxReceivedAnswer = z.object({
  received: z.array(
    z.object({
      id: z.string(),
      /** The receiver's address (the endpoint's url). */
      url: z.string(),
      event: z.string(),
      /** The MyTess-Delivery header. */
      delivery: z.string(),
      /** Whether MyTess-Signature verified under the secret of an endpoint registered at the receiver. */
      signatureValid: z.boolean(),
      /** The raw body as received. */
      body: z.string(),
      receivedAt: z.string(),
    }),
  ),
});
