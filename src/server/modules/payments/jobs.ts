import { eq } from "drizzle-orm";
import { z } from "zod";
import { freightPayments } from "../../../../db/tables";
import { defineJob } from "../../jobs/queue";
import { attachProviderObject } from "./ledger";
import { freightPayoutJob } from "./payout-transfer";
import { freightResolveRefundJob } from "./resolve-job";

/**
 * The provider's refund of a payment whose ledger already says refunded (written with the cancellation). The
 * idempotency key is the payment's, so a job taken over after its worker died asks Stripe for the same refund, which
 * answers with the first one; the refund's id is then put on the ledger's refund transaction.
 */
export const freightRefundJob = defineJob({
  kind: "freight_refund",
  schema: z.object({ paymentId: z.number().int().positive() }),
  maxAttempts: 8,
  needs: ["payments"],
  handler: async ({ paymentId }, { db, services }) => {
    const [p] = await db.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
    if (p?.state !== "refunded" || !p.chargeRef) return;
    let object: string;
    if (p.provider === "stripe") {
      const stripe = services.payments.stripe;
      if (!stripe) throw new Error("Stripe is not configured: the refund waits");
      const r = await stripe.refund({ charge: p.chargeRef, idempotencyKey: `freight-refund:${p.id}` });
      object = r.id;
    } else {
      const chapa = services.payments.chapa;
      if (!chapa) throw new Error("Chapa is not configured: the refund waits");
      await chapa.refund({ reference: p.chargeRef, reason: `MyTess load ${p.loadId} cancelled before pickup` });
      // Chapa's refund answer carries no id of its own: the refunded reference names it.
      object = `refund:${p.chargeRef}`;
    }
    await attachProviderObject(db, `refund:${p.id}`, object);
  },
});

export const PAYMENTS_JOBS = [freightRefundJob, freightResolveRefundJob, freightPayoutJob];
