import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { freightPayments, ledgerEntries } from "../../../../db/tables";
import { fromMinor } from "../../../shared/money";
import { defineJob } from "../../jobs/queue";
import { attachProviderObject } from "./ledger";

/**
 * The provider's refund of a settled dispute or reversed payout, for the amount the ledger's refund transaction gave
 * back (the ledger is the truth: the job carries only the payment and the transaction's name). Its idempotency key is
 * derived from that transaction, so a job taken
 * over after its worker died asks for the same refund and gets the first one back; then the refund's id is put on the
 * transaction, and a job that finds it there has nothing to do.
 */
export const freightResolveRefundJob = defineJob({
  kind: "freight_resolve_refund",
  schema: z.object({
    paymentId: z.number().int().positive(),
    /** The refund's ledger transaction: `refund:<payment>` (a dispute), or `refund/<n>:<payment>` (a reversal's). */
    txn: z.string().max(80).optional(),
  }),
  maxAttempts: 8,
  needs: ["payments"],
  handler: async ({ paymentId, txn: named }, { db, services }) => {
    const [p] = await db.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
    if (!p?.chargeRef) return;
    const txn = named ?? `refund:${p.id}`;
    const entries = await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.txn, txn), eq(ledgerEntries.paymentId, p.id), eq(ledgerEntries.account, "shipper")));
    const entry = entries[0];
    if (!entry || entry.providerObject) return;
    const amountMinor = Number(entry.amountMinor);
    let object: string;
    if (p.provider === "stripe") {
      const stripe = services.payments.stripe;
      if (!stripe) throw new Error("Stripe is not configured: the refund waits");
      // The first refund's key is the payment's (as before); a reversal's refund is keyed by its own transaction.
      const idempotencyKey = txn === `refund:${p.id}` ? `freight-refund:${p.id}` : `freight-refund:${txn}`;
      const r = await stripe.refund({ charge: p.chargeRef, amountMinor, idempotencyKey });
      object = r.id;
    } else {
      const chapa = services.payments.chapa;
      if (!chapa) throw new Error("Chapa is not configured: the refund waits");
      await chapa.refund({
        reference: p.chargeRef,
        amount: fromMinor(amountMinor, p.currency),
        reason: `MyTess load ${p.loadId}: settled by an operator`,
      });
      // Chapa's refund answer carries no id of its own: the refunded reference names it.
      object = `refund:${p.chargeRef}`;
    }
    await attachProviderObject(db, txn, object);
  },
});
