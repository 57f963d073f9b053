// What a load's trip does to its payment, inside the trip step's own transaction (trips/trip.ts calls these under the
// load's lock): completed releases the driver's share in the ledger, disputed holds it, a cancellation before pickup
// refunds the shipper in full. Provider calls never run here: a refund is an outbox job enqueued in the same
// transaction, whose idempotency key is derived from the payment, so a retried job cannot refund twice.
import { and, eq, inArray } from "drizzle-orm";
import type { TTx } from "../../../../db/client";
import { freightPayments } from "../../../../db/tables";
import { enqueue } from "../../jobs/queue";
import { enqueueFreightNotice } from "../notifications/notify";
import { recordPaymentEvent } from "./freight";
import { freightRefundJob } from "./jobs";
import { postTxn } from "./ledger";
import { enqueuePayout } from "./payout-transfer";

const paymentOf = async (tx: TTx, loadId: number) =>
  (await tx.select().from(freightPayments).where(eq(freightPayments.loadId, loadId)))[0];

/**
 * The load is completed (accepted, or 48 hours without an answer, or a dispute settled): escrow → driver. An
 * operator's split of a dispute releases only `driverMinor` (the rest went back to the shipper in the same
 * transaction); `detail` goes on the history row. True when this call released it.
 */
export const releaseForLoad = async (
  tx: TTx,
  loadId: number,
  now: number,
  o: { driverMinor?: number; detail?: Record<string, unknown> } = {},
) => {
  const p = await paymentOf(tx, loadId);
  if (!p || (p.state !== "funded" && p.state !== "disputed")) return false;
  const driverMinor = o.driverMinor ?? Number(p.agreedMinor);
  const [moved] = await tx
    .update(freightPayments)
    .set({ state: "released", updatedAt: now })
    .where(and(eq(freightPayments.id, p.id), inArray(freightPayments.state, ["funded", "disputed"])))
    .returning();
  if (!moved) return false;
  await recordPaymentEvent(tx, p.id, "released", o.detail ?? null, now);
  await postTxn(
    tx,
    { txn: `release:${p.id}`, paymentId: p.id, loadId, currency: p.currency, providerObject: null },
    [
      { account: "escrow", amountMinor: -driverMinor },
      { account: "driver", amountMinor: driverMinor },
    ],
    now,
  );
  // The transfer to the driver is an outbox job of this same transaction: it runs once the release is committed.
  await enqueuePayout(tx, p.id, now);
  await enqueueFreightNotice(
    tx,
    p.driverId,
    "freight_released",
    loadId,
    { amountMinor: driverMinor, currency: p.currency },
    `${p.id}`,
    now,
  );
  return true;
};

/** The delivery is disputed: the money stays in escrow until the shipper accepts or an operator decides. */
export const holdForLoad = async (tx: TTx, loadId: number, reason: string | null, now: number) => {
  const p = await paymentOf(tx, loadId);
  if (p?.state !== "funded") return;
  const [moved] = await tx
    .update(freightPayments)
    .set({ state: "disputed", updatedAt: now })
    .where(and(eq(freightPayments.id, p.id), eq(freightPayments.state, "funded")))
    .returning();
  if (moved) await recordPaymentEvent(tx, p.id, "disputed", reason ? { reason } : null, now);
};

/** Cancelled before pickup: the shipper gets everything back, the fee too; the provider's refund is an outbox job. */
export const refundForLoad = async (tx: TTx, loadId: number, now: number) => {
  const p = await paymentOf(tx, loadId);
  if (p?.state !== "funded") return;
  const [moved] = await tx
    .update(freightPayments)
    .set({ state: "refunded", updatedAt: now })
    .where(and(eq(freightPayments.id, p.id), eq(freightPayments.state, "funded")))
    .returning();
  if (!moved) return;
  const total = Number(p.agreedMinor) + Number(p.feeMinor);
  await recordPaymentEvent(tx, p.id, "refunded", { reason: "cancelled before pickup" }, now);
  await postTxn(
    tx,
    { txn: `refund:${p.id}`, paymentId: p.id, loadId, currency: p.currency, providerObject: null },
    [
      { account: "shipper", amountMinor: total },
      { account: "escrow", amountMinor: -Number(p.agreedMinor) },
      { account: "platform_fees", amountMinor: -Number(p.feeMinor) },
    ],
    now,
  );
  await enqueue(tx, freightRefundJob, { paymentId: p.id }, { uniqueKey: `freight_refund:${p.id}` }, now);
};
