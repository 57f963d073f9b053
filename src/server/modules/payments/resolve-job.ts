import { and, eq } from "drizzle-orm";
import { z } from "zod";
import { freightPayments, ledgerEntries } from "../../../../db/tables";
import { fromMinor } from "../../../shared/money";
import { defineJob } from "../../jobs/queue";
import { attachProviderObject } from "./ledger";

/**
 * The provider's refund of a settled dispute, for the amount the ledger's refund transaction gave back (the ledger is
 * the truth: the job carries only the payment). Its idempotency key is derived from that transaction, so a job taken
 * over after its worker died asks for the same refund and gets the first one back; then the refund's id is put on the
 * transaction, and a job that finds it there has nothing to do.
 */
export const freightResolveRefundJob = defineJob({
  kind: "freight_resolve_refund",
  schema: z.object({ paymentId: z.number().int().positive() }),
  maxAttempts: 8,
  needs: ["payments"],
  handler: async ({ paymentId }, { db, services }) => {
    const [p] = await db.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
    if (!p?.chargeRef) return;
    const entries = await db
      .select()
      .from(ledgerEntries)
      .where(and(eq(ledgerEntries.txn, `refund:${p.id}`), eq(ledgerEntries.account, "shipper")));
    const entry = entries[0];
    if (!entry || entry.providerObject) return;
    const amountMinor = Number(entry.amountMinor);
    let object: string;
    if (p.provider === "stripe") {
      const stripe = services.payments.stripe;
      if (!stripe) throw new Error("Stripe is not configured: the refund waits");
      const r = await stripe.refund({ charge: p.chargeRef, amountMinor, idempotencyKey: `freight-refund:${p.id}` });
      object = r.id;
    } else {
      const chapa = services.payments.chapa;
      if (!chapa) throw new Error("Chapa is not configured: the refund waits");
      await chapa.refund({
        reference: p.chargeRef,
        amount: fromMinor(amountMinor, p.currency),
        reason: `MyTess load ${p.loadId}: dispute settled by an operator`,
      });
      // Chapa's refund answer carries no id of its own: the refunded reference names it.
      object = `refund:${p.chargeRef}`;
    }
    await attachProviderObject(db, `refund:${p.id}`, object);
  },
});
