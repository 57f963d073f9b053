// An operator settles a disputed payment (`mytess payments resolve`): release it to the driver through the ordinary
// release, refund the shipper in full, or split it (part back to the shipper, the rest released to the driver). The
// decision, its ledger transactions, the history row that is its audit line (who, when, what), the provider's refund
// as an outbox job and both parties' notices are one database transaction under the load's lock, conditional on the
// payment still being disputed, so two operators deciding at once decide once.
import { and, desc, eq, inArray } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { type FreightPayment, freightPayments, ledgerEntries, loads, users } from "../../../../db/tables";
import { fromMinor, minorDigits } from "../../../shared/money";
import type {
  TFreightPaymentState,
  TOperatorPayment,
  TResolvePaymentInput,
  TResolvePaymentResult,
} from "../../../shared/schemas/payments";
import { AppError } from "../../errors";
import { enqueue } from "../../jobs/queue";
import { enqueuePaymentResolvedNotice } from "../notifications/notify";
import { releaseForLoad } from "./escrow";
import { recordPaymentEvent } from "./freight";
import { postTxn } from "./ledger";
import { attemptOf, awaitsSettlement, freightPayoutJob, releaseAgainTxn } from "./payout-transfer";
import { freightResolveRefundJob } from "./resolve-job";

export const PAYMENT_NOT_FOUND = /*i18n*/ { id: "error.freight.paymentNotFound", message: "Payment not found" };

const badAmount = (message: { id: string; message: string; values?: Record<string, unknown> }) =>
  new AppError("BAD_REQUEST", message, { issues: [{ path: "amount", message }] });

const notDisputed = (id: number, state: string) =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.freight.notResolvable",
      comment: "Operator CLI error: {state} is the payment's state as the code names it (paid_out, funded, …)",
      message: "Only a disputed payment or one whose payout was reversed can be resolved; payment {id} is {state}",
      values: { id, state },
    },
  );

/**
 * The operator's amount in minor units: a whole number is minor units ("1250"), a decimal with its point is the
 * currency's units ("12.50", at most as many decimals as the currency has). Between 1 and the payment's total.
 */
export const parseRefundAmount = (raw: string, currency: string, totalMinor: number, held = false) => {
  const digits = minorDigits(currency);
  const m = /^(\d{1,15})(?:\.(\d+))?$/.exec(raw.trim());
  if (!m || (m[2] !== undefined && (m[2].length === 0 || m[2].length > digits)))
    throw badAmount(
      /*i18n*/ {
        id: "error.freight.amountFormat",
        message:
          "amount must be minor units as a whole number (1250) or an amount with at most {digits} decimals (12.50)",
        values: { digits },
      },
    );
  const minor = m[2] === undefined ? Number(m[1]) : Number(m[1]) * 10 ** digits + Number(m[2].padEnd(digits, "0"));
  if ((minor < 1 || minor > totalMinor) && held)
    throw badAmount(
      /*i18n*/ {
        id: "error.freight.amountRangeHeld",
        message: "amount must be more than 0 and at most what the reversal returned, {total} {currency}",
        values: { total: fromMinor(totalMinor, currency).toFixed(digits), currency },
      },
    );
  if (minor < 1 || minor > totalMinor)
    throw badAmount(
      /*i18n*/ {
        id: "error.freight.amountRange",
        message: "amount must be more than 0 and at most the payment's total, {total} {currency}",
        values: { total: fromMinor(totalMinor, currency).toFixed(digits), currency },
      },
    );
  return minor;
};

/**
 * How a refund of `refundMinor` out of the total comes out of the escrow and the platform's fee: in proportion (the
 * fee's part rounded half up), so a full refund returns the fee and a partial one returns its share of it.
 */
export const splitRefund = (p: { agreedMinor: number; feeMinor: number }, refundMinor: number) => {
  const total = p.agreedMinor + p.feeMinor;
  const feePart = refundMinor === total ? p.feeMinor : Math.round((refundMinor * p.feeMinor) / total);
  const escrowPart = refundMinor - feePart;
  return { feePart, escrowPart, driverMinor: p.agreedMinor - escrowPart };
};

/**
 * Releases or refunds a disputed payment, or a payment whose payout was reversed; another state is 409, an unknown
 * payment 404, a bad amount 400.
 */
export const resolvePayment = (
  db: TDb,
  input: TResolvePaymentInput,
  now = Date.now(),
): Promise<TResolvePaymentResult> =>
  db.transaction(async (tx) => {
    const [first] = await tx.select().from(freightPayments).where(eq(freightPayments.id, input.paymentId));
    if (!first) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
    // The trip's steps move the payment under the load's lock: so does the operator, and reads it again under it.
    await db.q.lockKeys(tx, [`load:${first.loadId}`]);
    const [p] = await tx.select().from(freightPayments).where(eq(freightPayments.id, input.paymentId));
    if (!p) throw new AppError("NOT_FOUND", PAYMENT_NOT_FOUND);
    if (p.state === "failed" && (await awaitsSettlement(tx, p.id))) return settleReversed(db, tx, p, input, now);
    if (p.state !== "disputed") throw notDisputed(p.id, p.state);
    const agreedMinor = Number(p.agreedMinor);
    const feeMinor = Number(p.feeMinor);
    const totalMinor = agreedMinor + feeMinor;
    if (input.action === "release" && input.amount !== undefined)
      throw badAmount(
        /*i18n*/ { id: "error.freight.amountOnRelease", message: "amount is only for a refund: a release pays it all" },
      );
    const refundMinor =
      input.action === "refund"
        ? input.amount === undefined
          ? totalMinor
          : parseRefundAmount(input.amount, p.currency, totalMinor)
        : 0;
    const { feePart, escrowPart, driverMinor } = splitRefund({ agreedMinor, feeMinor }, refundMinor);
    const audit = {
      by: input.by,
      resolution: input.action === "release" ? "release" : driverMinor > 0 ? "split" : "refund",
      refunded: fromMinor(refundMinor, p.currency),
      released: fromMinor(driverMinor, p.currency),
    };
    let state: TFreightPaymentState;
    if (driverMinor > 0) {
      // Released (wholly or after a partial refund) through the ordinary release, so whatever follows a release
      // follows this one too.
      const moved = await releaseForLoad(tx, p.loadId, now, { driverMinor, detail: audit });
      if (!moved) throw notDisputed(p.id, "changed");
      state = "released";
    } else {
      const [moved] = await tx
        .update(freightPayments)
        .set({ state: "refunded", updatedAt: now })
        .where(and(eq(freightPayments.id, p.id), eq(freightPayments.state, "disputed")))
        .returning();
      if (!moved) throw notDisputed(p.id, "changed");
      await recordPaymentEvent(tx, p.id, "refunded", audit, now);
      state = "refunded";
    }
    if (refundMinor > 0) {
      await postTxn(
        tx,
        { txn: `refund:${p.id}`, paymentId: p.id, loadId: p.loadId, currency: p.currency, providerObject: null },
        [
          { account: "shipper", amountMinor: refundMinor },
          { account: "escrow", amountMinor: -escrowPart },
          { account: "platform_fees", amountMinor: -feePart },
        ],
        now,
      );
      await enqueue(
        tx,
        freightResolveRefundJob,
        { paymentId: p.id },
        { uniqueKey: `freight_resolve_refund:${p.id}` },
        now,
      );
    }
    await enqueuePaymentResolvedNotice(tx, [p.shipperId, p.driverId], p.loadId, p.id, now);
    return {
      paymentId: p.id,
      loadId: p.loadId,
      state,
      currency: p.currency,
      refunded: audit.refunded,
      released: audit.released,
      by: input.by,
      at: new Date(now).toISOString(),
    };
  });

/**
 * A payment whose payout Stripe reversed (failed, its latest failure the reversal): what the reversals returned to
 * escrow is held for the load. `release` pays it to the driver again as a NEW payout attempt (`release/<n>:<payment>`:
 * escrow → driver; the payout job enqueued here sends it under the attempt's own idempotency key, so a job run twice
 * makes one transfer); `refund` gives it back to the shipper (`refund/<n>:<payment>`: escrow → shipper; the platform's
 * fee was earned when the load was completed and is kept) through the provider's refund job; a refund of `amount`
 * releases the rest to the driver. Under the payment's lock too (the payout's own steps take it).
 */
const settleReversed = async (
  db: TDb,
  tx: TTx,
  p: FreightPayment,
  input: TResolvePaymentInput,
  now: number,
): Promise<TResolvePaymentResult> => {
  await db.q.lockKeys(tx, [`freight-payment:${p.id}`]);
  if (!(await awaitsSettlement(tx, p.id))) throw notDisputed(p.id, "changed");
  const escrow = await tx
    .select({ amountMinor: ledgerEntries.amountMinor })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.paymentId, p.id), eq(ledgerEntries.account, "escrow")));
  const heldMinor = escrow.reduce((s, e) => s + Number(e.amountMinor), 0);
  if (heldMinor <= 0) throw notDisputed(p.id, p.state);
  if (input.action === "release" && input.amount !== undefined)
    throw badAmount(
      /*i18n*/ { id: "error.freight.amountOnRelease", message: "amount is only for a refund: a release pays it all" },
    );
  const refundMinor =
    input.action === "refund"
      ? input.amount === undefined
        ? heldMinor
        : parseRefundAmount(input.amount, p.currency, heldMinor, true)
      : 0;
  const driverMinor = heldMinor - refundMinor;
  const attempt = await attemptOf(tx, p.id);
  const audit = {
    by: input.by,
    stage: "reversal",
    resolution: input.action === "release" ? "release" : driverMinor > 0 ? "split" : "refund",
    refunded: fromMinor(refundMinor, p.currency),
    released: fromMinor(driverMinor, p.currency),
  };
  const [moved] = await tx
    .update(freightPayments)
    .set({ state: driverMinor > 0 ? "released" : "refunded", note: null, updatedAt: now })
    .where(and(eq(freightPayments.id, p.id), eq(freightPayments.state, "failed")))
    .returning();
  if (!moved) throw notDisputed(p.id, "changed");
  if (refundMinor > 0) {
    const txn = `refund/${attempt}:${p.id}`;
    await postTxn(
      tx,
      { txn, paymentId: p.id, loadId: p.loadId, currency: p.currency, providerObject: null },
      [
        { account: "shipper", amountMinor: refundMinor },
        { account: "escrow", amountMinor: -refundMinor },
      ],
      now,
    );
    await enqueue(
      tx,
      freightResolveRefundJob,
      { paymentId: p.id, txn },
      { uniqueKey: `freight_resolve_refund:${txn}` },
      now,
    );
  }
  if (driverMinor > 0) {
    // This history row opens the next attempt (attemptOf counts it): a new Stripe key and Chapa reference.
    await recordPaymentEvent(tx, p.id, "released", { ...audit, attempt: attempt + 1 }, now);
    await postTxn(
      tx,
      {
        txn: releaseAgainTxn(p.id, attempt + 1),
        paymentId: p.id,
        loadId: p.loadId,
        currency: p.currency,
        providerObject: null,
      },
      [
        { account: "escrow", amountMinor: -driverMinor },
        { account: "driver", amountMinor: driverMinor },
      ],
      now,
    );
    await enqueue(
      tx,
      freightPayoutJob,
      { paymentId: p.id },
      { uniqueKey: `freight_payout:${p.id}:settle:${attempt + 1}` },
      now,
    );
  } else await recordPaymentEvent(tx, p.id, "refunded", audit, now);
  await enqueuePaymentResolvedNotice(tx, [p.shipperId, p.driverId], p.loadId, p.id, now, `reversal:${attempt}`);
  return {
    paymentId: p.id,
    loadId: p.loadId,
    state: driverMinor > 0 ? "released" : "refunded",
    currency: p.currency,
    refunded: audit.refunded,
    released: audit.released,
    by: input.by,
    at: new Date(now).toISOString(),
  };
};

/** What the shipper gets back and the driver is paid after a payment's settlement, from its ledger (minor units). */
export const settledAmounts = async (db: TDb | TTx, paymentId: number) => {
  const rows = await db
    .select({ txn: ledgerEntries.txn, account: ledgerEntries.account, amountMinor: ledgerEntries.amountMinor })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.paymentId, paymentId));
  const of = (txn: string, account: string) =>
    rows
      .filter((r) => r.txn === `${txn}:${paymentId}` && r.account === account)
      .reduce((s, r) => s + Number(r.amountMinor), 0);
  return { refundedMinor: of("refund", "shipper"), releasedMinor: of("release", "driver") };
};

/** Every payment (or those in one state), newest change first, for the operator. */
export const operatorPayments = async (
  db: TDb,
  input: { state?: TFreightPaymentState } | undefined,
): Promise<TOperatorPayment[]> => {
  const rows = await db
    .select({ p: freightPayments, title: loads.title })
    .from(freightPayments)
    .innerJoin(loads, eq(loads.id, freightPayments.loadId))
    .where(input?.state ? eq(freightPayments.state, input.state) : undefined)
    .orderBy(desc(freightPayments.updatedAt), desc(freightPayments.id))
    .limit(500);
  const ids = [...new Set(rows.flatMap((r) => [r.p.shipperId, r.p.driverId]))];
  const people = ids.length
    ? await db.select({ id: users.id, email: users.email }).from(users).where(inArray(users.id, ids))
    : [];
  const email = new Map(people.map((u) => [u.id, u.email]));
  return rows.map(({ p, title }) => ({
    id: p.id,
    loadId: p.loadId,
    loadTitle: title,
    shipperEmail: email.get(p.shipperId) ?? "",
    driverEmail: email.get(p.driverId) ?? "",
    provider: p.provider,
    state: p.state,
    currency: p.currency,
    agreed: fromMinor(Number(p.agreedMinor), p.currency),
    fee: fromMinor(Number(p.feeMinor), p.currency),
    updatedAt: new Date(Number(p.updatedAt)).toISOString(),
  }));
};
