// The one way the domain hands an event to webhooks: called inside the transaction that records it (a trip step, a
// bid, a cancellation, a position), it writes one delivery per endpoint of the users who may see the event and that
// asked for it, and enqueues its job in that same transaction, so an event is sent if and only if it happened.
import { and, desc, eq, inArray, sql } from "drizzle-orm";
import { type TDb, type TTx, txStatement } from "../../../../db/client";
import { webhookDeliveries, webhookEndpoints } from "../../../../db/tables";
import type { TWebhookEvent } from "../../../shared/schemas/webhooks";
import { enqueue } from "../../jobs/queue";
import { eventsOf } from "./endpoints";
import { webhookDeliveryJob } from "./jobs";

/**
 * A moving truck reports its position every few seconds. Per endpoint and load, `load.position` is sent at most once a
 * minute: a position while one is waiting to be sent replaces that one's body (the receiver gets the newest), and a
 * position after one was sent waits until a minute after it.
 */
export const POSITION_EVERY_MS = 60_000;

const eventId = () => `evt_${Buffer.from(crypto.getRandomValues(new Uint8Array(12))).toString("hex")}`;

export type TWebhookOccurrence = {
  event: TWebhookEvent;
  loadId: number;
  /** Everyone who may see it (repeats and nulls are dropped): only their endpoints receive it. */
  to: readonly (number | null | undefined)[];
  /** The event's own fields, beside `loadId`. */
  data?: Record<string, unknown>;
  now: number;
};

/**
 * The endpoints of n users, built once per handle and n (txStatement): asked on every position batch, where almost
 * always nobody has one.
 */
const endpointsOfUsers = txStatement((on, n: number) =>
  on
    .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
    .from(webhookEndpoints)
    .where(
      inArray(
        webhookEndpoints.userId,
        Array.from({ length: n }, (_, i) => sql.placeholder(`u${i}`)),
      ),
    ),
);

/** `db`, when given, is the transaction's handle: the endpoint look-up then runs as a statement prepared once. */
export const emitWebhookEvent = async (tx: TTx, o: TWebhookOccurrence, db?: TDb) => {
  const users = [...new Set(o.to.filter((u): u is number => typeof u === "number"))];
  if (!users.length) return;
  const rows = db
    ? await endpointsOfUsers(db, tx, Object.fromEntries(users.map((u, i) => [`u${i}`, u])), users.length)
    : await tx
        .select({ id: webhookEndpoints.id, events: webhookEndpoints.events })
        .from(webhookEndpoints)
        .where(inArray(webhookEndpoints.userId, users));
  const endpoints = rows.filter((e) => eventsOf(e.events).includes(o.event));
  if (!endpoints.length) return;
  const id = eventId();
  const body = JSON.stringify({
    id,
    type: o.event,
    createdAt: new Date(o.now).toISOString(),
    data: { loadId: o.loadId, ...o.data },
  });
  for (const endpoint of endpoints) {
    let runAt = o.now;
    let coalesceKey: string | null = null;
    if (o.event === "load.position") {
      coalesceKey = `${endpoint.id}:${o.loadId}`;
      // Taken by a worker (attempts > 0) means sent or being sent: only a delivery not yet attempted is replaced.
      const replaced = await tx
        .update(webhookDeliveries)
        .set({ body, eventId: id, updatedAt: o.now })
        .where(
          and(
            eq(webhookDeliveries.coalesceKey, coalesceKey),
            eq(webhookDeliveries.status, "pending"),
            eq(webhookDeliveries.attempts, 0),
          ),
        )
        .returning({ id: webhookDeliveries.id });
      if (replaced.length) continue;
      const [last] = await tx
        .select({ createdAt: webhookDeliveries.createdAt })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.coalesceKey, coalesceKey))
        .orderBy(desc(webhookDeliveries.id))
        .limit(1);
      if (last) runAt = Math.max(o.now, last.createdAt + POSITION_EVERY_MS);
    }
    const [delivery] = await tx
      .insert(webhookDeliveries)
      .values({
        endpointId: endpoint.id,
        event: o.event,
        eventId: id,
        body,
        coalesceKey,
        createdAt: runAt,
        updatedAt: o.now,
      })
      .returning({ id: webhookDeliveries.id });
    if (delivery) await enqueue(tx, webhookDeliveryJob, { deliveryId: delivery.id }, { runAt }, o.now);
  }
};
