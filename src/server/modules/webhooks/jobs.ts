import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { deliverWebhook } from "./deliver";

/** Attempts of one delivery: waits of 1, 2, 4 … minutes, at most 8 hours, so the last comes about 24 hours after the first. */
export const WEBHOOK_ATTEMPTS = 12;
export const webhookBackoffMs = (attempt: number) => Math.min(8 * 3_600_000, 60_000 * 2 ** Math.max(0, attempt - 1));

export const ZWebhookDeliveryPayload = z.object({
  deliveryId: z.number().int().positive(),
  /** Sent again by the user: one attempt, whatever the delivery's state, without retries. */
  resend: z.boolean().optional(),
});

/** One delivery of an event to one endpoint, signed, retried with exponential backoff for about a day. */
export const webhookDeliveryJob = defineJob({
  kind: "webhook_delivery",
  schema: ZWebhookDeliveryPayload,
  maxAttempts: WEBHOOK_ATTEMPTS,
  backoff: webhookBackoffMs,
  needs: ["secrets", "boards", "webhooks"],
  handler: (payload, ctx) => deliverWebhook(payload, ctx),
});

export const WEBHOOKS_JOBS = [webhookDeliveryJob];
