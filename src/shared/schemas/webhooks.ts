import { z } from "zod";
import { zText } from "./text";

/**
 * The events a webhook endpoint may ask for. Each reaches only the users who may see it: a bid to the load's shipper;
 * the award, the trip's steps and its positions to the shipper and the assigned driver; a cancellation to the shipper,
 * the assigned driver and the drivers whose bids it rejected.
 */
export const WEBHOOK_EVENTS = [
  "load.bid_received",
  "load.awarded",
  "load.picked_up",
  "load.delivered",
  "load.completed",
  "load.disputed",
  "load.cancelled",
  "load.position",
] as const;
export type TWebhookEvent = (typeof WEBHOOK_EVENTS)[number];

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "delivered", "failed"] as const;

export const ZCreateWebhookEndpointInput = z.object({
  url: zText({ error: "url is required" })
    .trim()
    .min(1, "url is required")
    .max(500, "url must be at most 500 characters")
    .refine((v) => URL.canParse(v) && /^https?:$/.test(new URL(v).protocol), "url must be an https address"),
  events: z
    .array(z.enum(WEBHOOK_EVENTS, { error: `events must be among ${WEBHOOK_EVENTS.join(", ")}` }), {
      error: "events must be a list of events",
    })
    .min(1, "events must name at least one event")
    .max(WEBHOOK_EVENTS.length, "events lists an event twice")
    .refine((list) => new Set(list).size === list.length, "events lists an event twice"),
});
export type TCreateWebhookEndpointInput = z.infer<typeof ZCreateWebhookEndpointInput>;
