import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { notifyHandler } from "./notify";

export const NOTIFY_EVENTS = [
  "bid_received",
  "bid_accepted",
  "bid_rejected",
  // Counter-offers on a bid, to the other side: an offer made, one's own offer accepted (the load awarded at it) or
  // declined.
  "counter_offered",
  "counter_accepted",
  "counter_declined",
  "load_picked_up",
  "load_delivered",
  "load_completed",
  "load_cancelled",
  // The shipper edited a posted load the recipient has a pending bid on (the fields changed travel with it).
  "load_updated",
  "message_received",
  "load_nearby",
  // A new load matched one of the recipient's saved searches.
  "saved_search_match",
  // A shipper who found the recipient's truck near their pickup invites them to bid on a load.
  "truck_invitation",
  // The trip's tracking, to the shipper: the driver within 500 m of the pickup or the delivery point; the ETA past the
  // delivery date.
  "driver_arrived_pickup",
  "driver_arrived_delivery",
  "load_delayed",
  // The other party accepted the trip's rate confirmation in the app.
  "rate_confirmation_accepted",
  // Operators' broadcasts (`mytess notify broadcast`): their own text, no load.
  "system_alert",
  "announcement",
  // Billing: a payment confirmed by the provider; premium bought in birr ending in three days.
  "payment_received",
  "premium_ending",
  // Freight payments: an operator settled a disputed payment (to both parties, each told their own part).
  "payment_resolved",
  // Verification: the owner's submission approved or rejected (with the reason); their insurance ending in 14 days.
  "verification_approved",
  "verification_rejected",
  "insurance_expiring",
  // Freight payments, to the driver: the shipper funded the load, the money was released, sent to their bank or
  // Stripe account, the transfer failed (with what to fix), or it waits for a payout method.
  "freight_funded",
  "freight_released",
  "freight_paid_out",
  "freight_payout_failed",
  "freight_payout_needed",
  // Freight payments, to the driver: Chapa still reports the transfer queued after two days (an operator checks it);
  // Stripe took a transfer back (a reversal: the money is held until an operator settles it).
  "freight_payout_delayed",
  "freight_payout_reversed",
] as const;
export type TNotifyEvent = (typeof NOTIFY_EVENTS)[number];

export const SEND_CHANNELS = ["web_push", "telegram", "whatsapp"] as const;
export type TSendChannel = (typeof SEND_CHANNELS)[number];

const id = z.number().int().positive();

/** One event to one recipient: what a `notify` job carries, and what its attempts have done so far. */
export const ZNotifyPayload = z.object({
  userId: id,
  event: z.enum(NOTIFY_EVENTS),
  /** The load it is about; null for broadcasts and billing notices. */
  loadId: id.nullable(),
  /** Broadcasts: the operator's own title and text, sent as written. */
  text: z.object({ title: z.string(), body: z.string() }).optional(),
  /** Who caused it, for names in the text. */
  actorId: id.nullish(),
  /** bid_received and counter_offered: the bid the Accept / Reject (Decline) buttons act on. */
  bidId: id.nullish(),
  /** Counter-offers: the amount offered, in minor units, and its currency. */
  offer: z.object({ amountMinor: z.number().int().nonnegative(), currency: z.string() }).optional(),
  /** message_received: the message quoted. */
  messageId: id.nullish(),
  /** The one channel this job sends on; absent in jobs that fan out when they run (bulk alerts, broadcasts). */
  channel: z.enum(SEND_CHANNELS).optional(),
  /** load_nearby: miles from the driver's position to the pickup. */
  distance: z.number().nonnegative().optional(),
  /** saved_search_match: the name of the (first) saved search the load matched. */
  searchName: z.string().max(200).optional(),
  /** load_updated: the fields the shipper changed, as the API names them (weight, pickupDate, …). */
  fields: z.array(z.string().max(40)).max(40).optional(),
  /** load_delayed: whole hours between the delivery date and the ETA. */
  hoursLate: z.number().int().nonnegative().optional(),
  /** Web push: subscriptions that already have it, so a retried job does not send twice. */
  sent: z.array(id).optional(),
  /** The notifications row written when quiet hours held it. */
  heldId: id.optional(),
  /** Billing events: the amount paid (formatted with its currency) and the end of the paid period (ISO). */
  billing: z.object({ amount: z.string(), until: z.string() }).optional(),
  /** Freight events: the driver's share (minor units, currency); a failed payout's reason (a FREIGHT_PAYOUT_FIXES key). */
  freight: z
    .object({ amountMinor: z.number().int().nonnegative(), currency: z.string(), fix: z.string().optional() })
    .optional(),
  /** Verification events: the operator's reason for a rejection; the insurance's last day (YYYY-MM-DD). */
  verification: z.object({ reason: z.string().optional(), until: z.string().optional() }).optional(),
});
export type TNotifyPayload = z.infer<typeof ZNotifyPayload>;

/**
 * One notification to one recipient: on one channel (web push, Telegram, WhatsApp), or, without a channel, its fan-out
 * to the bell and each channel the recipient has set up. Rendered in the recipient's language when it runs.
 */
export const notifyJob = defineJob({
  kind: "notify",
  schema: ZNotifyPayload,
  maxAttempts: 8,
  needs: ["notifiers"],
  handler: (payload, ctx) => notifyHandler(payload, ctx),
});

export const NOTIFICATIONS_JOBS = [notifyJob];
