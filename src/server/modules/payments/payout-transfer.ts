// Paying the driver: a released payment's share goes out by an outbox job (enqueued with the release), as a Stripe
// transfer to the driver's connected account, paid from the shipper's charge (`source_transaction`), for dollars and
// euros, or a Chapa transfer to the driver's bank account or wallet for birr. Never twice: each attempt has one
// provider key derived from the release's ledger transaction and the attempt's number (Stripe's Idempotency-Key;
// Chapa's transfer reference, which Chapa refuses to take twice), so a job run twice, two workers, or a crash between
// the provider's answer and our write all reach the same transfer. Whatever confirms it first (the job's own answer,
// Stripe's transfer.created, Chapa's payout webhook or its verify call; twice, late or out of order) moves the payment
// from released to paid_out once, names the transfer on the release transaction and books the provider's fee. A
// failed transfer is `failed` with what to fix; a driver who cannot be paid yet keeps the money waiting (released)
// until a payout method is saved or the Stripe account is enabled, which pays everything waiting.
import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { z } from "zod";
import type { TDb, TTx } from "../../../../db/client";
import { type FreightPayment, freightPaymentEvents, freightPayments, ledgerEntries } from "../../../../db/tables";
import { fromMinor } from "../../../shared/money";
import { AppError } from "../../errors";
import type { TPaymentServices } from "../../integrations/payments/services";
import type { TChapaTransfer, TStripeEvent, TStripeTransfer } from "../../integrations/payments/types";
import { defineJob, enqueue, JobDeferred } from "../../jobs/queue";
import { logger, type TLogger } from "../../logger";
import type { TSecretBox } from "../../secrets";
import { enqueueFreightNotice } from "../notifications/notify";
import { canBePaid, methodOf, openNumber } from "../payouts/payouts";
import { FREIGHT_STRIPE_KEY, recordPaymentEvent } from "./freight";
import { attachProviderObject, postTxn } from "./ledger";

/** Chapa transfer references of driver payouts: `mytess-payout-<payment>-<attempt>`. */
export const PAYOUT_CHAPA_PREFIX = "mytess-payout-";
/** The metadata key on a Stripe transfer naming the attempt (the payment is named by FREIGHT_STRIPE_KEY). */
export const PAYOUT_ATTEMPT_KEY = "mytess_payout_attempt";

/** What a driver has to fix after a failed payout (the notification says it in their language). */
export type TPayoutFix = "account_name" | "account_number" | "bank";

/** The provider's words for a failed transfer, read as what the driver has to fix. */
export const payoutFixOf = (reason: string | null | undefined): TPayoutFix => {
  const r = (reason ?? "").toLowerCase();
  if (r.includes("name")) return "account_name";
  if (r.includes("account number") || r.includes("invalid account") || r.includes("account not found"))
    return "account_number";
  return "bank";
};

export const chapaPayoutRef = (paymentId: number, attempt: number) => `${PAYOUT_CHAPA_PREFIX}${paymentId}-${attempt}`;

/** The payment and attempt a Chapa payout reference names, or null when it is not one of ours. */
export const parseChapaPayoutRef = (reference: string) => {
  const m = /^mytess-payout-(\d+)-(\d+)$/.exec(reference);
  return m ? { paymentId: Number(m[1]), attempt: Number(m[2]) } : null;
};

/** Stripe's Idempotency-Key of an attempt: derived from the release's ledger transaction. */
export const stripePayoutKey = (paymentId: number, attempt: number) => `payout:release:${paymentId}:${attempt}`;

/**
 * The number of the current payout attempt: how many payouts of this payment failed before, plus how many times an
 * operator released a reversed payout again (each such release is a new attempt, with its own key and reference).
 */
export const attemptOf = async (db: TDb | TTx, paymentId: number) => {
  const rows = await db
    .select({ state: freightPaymentEvents.state, detail: freightPaymentEvents.detail })
    .from(freightPaymentEvents)
    .where(
      and(eq(freightPaymentEvents.paymentId, paymentId), inArray(freightPaymentEvents.state, ["failed", "released"])),
    );
  return rows.filter(
    (r) =>
      (r.state === "failed" && r.detail?.stage === "payout") ||
      (r.state === "released" && r.detail?.stage === "reversal"),
  ).length;
};

/** The ledger transaction of an operator's release of a reversed payout, attempt `attempt`: `release/<n>:<payment>`. */
export const releaseAgainTxn = (paymentId: number, attempt: number) => `release/${attempt}:${paymentId}`;

/**
 * The current attempt's release: the first release (`release:<payment>`) or the latest operator's release of a reversed
 * payout (`release/<n>:<payment>`), with the driver's amount on it. Null before any release.
 */
export const currentRelease = async (db: Pick<TDb, "select">, paymentId: number) => {
  const rows = await db
    .select({ id: ledgerEntries.id, txn: ledgerEntries.txn, amountMinor: ledgerEntries.amountMinor })
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.paymentId, paymentId), eq(ledgerEntries.account, "driver")))
    .orderBy(asc(ledgerEntries.id));
  const releases = rows.filter(
    (r) => r.txn === `release:${paymentId}` || (r.txn.startsWith("release/") && r.txn.endsWith(`:${paymentId}`)),
  );
  const last = releases.at(-1);
  return last ? { txn: last.txn, amountMinor: Number(last.amountMinor) } : null;
};

const hasEvent = async (db: TDb | TTx, paymentId: number, state: string, attempt: number) => {
  const rows = await db
    .select({ detail: freightPaymentEvents.detail })
    .from(freightPaymentEvents)
    .where(and(eq(freightPaymentEvents.paymentId, paymentId), eq(freightPaymentEvents.state, state)));
  return rows.some((r) => r.detail?.attempt === attempt);
};

/**
 * The driver's share as the current attempt's release booked it: the agreed price, or less when an operator split a
 * dispute (the rest went back to the shipper), or what an operator released again after a reversal. Read from the
 * ledger, never recomputed, so the transfer pays what was released.
 */
const shareOf = async (db: Pick<TDb, "select">, p: FreightPayment) => {
  const release = await currentRelease(db, p.id);
  return { amountMinor: release ? release.amountMinor : Number(p.agreedMinor), currency: p.currency };
};

/**
 * The payout's confirmation: released → paid_out once, the transfer named on the release transaction, the
 * provider's fee (if it reports one) moved from the platform's fees to the provider's, the driver told. A
 * confirmation of another attempt than the current one, or of a payment no longer released, changes nothing.
 */
export const markPaidOut = (
  db: TDb,
  paymentId: number,
  c: { attempt: number; object: string; feeMinor: number },
  now = Date.now(),
) =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`freight-payment:${paymentId}`]);
    const [p] = await tx.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
    if (p?.state !== "released" || (await attemptOf(tx, p.id)) !== c.attempt) return false;
    const [moved] = await tx
      .update(freightPayments)
      .set({ state: "paid_out", note: null, updatedAt: now })
      .where(and(eq(freightPayments.id, p.id), eq(freightPayments.state, "released")))
      .returning();
    if (!moved) return false;
    await recordPaymentEvent(tx, p.id, "paid_out", { transfer: c.object, attempt: c.attempt }, now);
    await attachProviderObject(tx, (await currentRelease(tx, p.id))?.txn ?? `release:${p.id}`, c.object);
    if (c.feeMinor > 0)
      await postTxn(
        tx,
        { txn: `payout_fee:${p.id}`, paymentId: p.id, loadId: p.loadId, currency: p.currency, providerObject: null },
        [
          { account: "platform_fees", amountMinor: -c.feeMinor },
          { account: "provider_fees", amountMinor: c.feeMinor },
        ],
        now,
      );
    await enqueueFreightNotice(tx, p.driverId, "freight_paid_out", p.loadId, await shareOf(tx, p), `${p.id}`, now);
    return true;
  });

/**
 * A bank's words with any long run of digits cut to its last 4: a reason may quote the account it refused, and it is
 * shown to both parties and kept in the payment's history.
 */
export const hideNumbers = (reason: string) => reason.replace(/\d{6,}/g, (d) => `•••• ${d.slice(-4)}`);

/**
 * A failed transfer: released → failed, with the provider's reason kept and what to fix told to the driver. The next
 * attempt (after the driver saves their details) gets a new number, so a new key and reference.
 */
export const markPayoutFailed = (
  db: TDb,
  paymentId: number,
  f: { attempt: number; reason: string; object: string | null },
  now = Date.now(),
) =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`freight-payment:${paymentId}`]);
    const [p] = await tx.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
    if (p?.state !== "released" || (await attemptOf(tx, p.id)) !== f.attempt) return false;
    const reason = hideNumbers(f.reason);
    const [moved] = await tx
      .update(freightPayments)
      .set({ state: "failed", note: reason, updatedAt: now })
      .where(and(eq(freightPayments.id, p.id), eq(freightPayments.state, "released")))
      .returning();
    if (!moved) return false;
    const fix = payoutFixOf(reason);
    await recordPaymentEvent(
      tx,
      p.id,
      "failed",
      { stage: "payout", attempt: f.attempt, reason, fix, transfer: f.object },
      now,
    );
    await enqueueFreightNotice(
      tx,
      p.driverId,
      "freight_payout_failed",
      p.loadId,
      { ...(await shareOf(tx, p)), fix },
      `${p.id}:${f.attempt}`,
      now,
    );
    return true;
  });

/** The driver cannot be paid yet: the money waits (still released), and the driver is told once per attempt. */
const waitForMethod = (db: TDb, p: FreightPayment, attempt: number, now: number) =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`freight-payment:${p.id}`]);
    if (await hasEvent(tx, p.id, "payout_waiting", attempt)) return;
    await recordPaymentEvent(tx, p.id, "payout_waiting", { attempt }, now);
    await enqueueFreightNotice(
      tx,
      p.driverId,
      "freight_payout_needed",
      p.loadId,
      await shareOf(tx, p),
      `${p.id}:${attempt}`,
      now,
    );
  });

/** A Chapa transfer as verified: success pays out, failed fails the attempt; anything else is still on its way. */
export const applyChapaTransfer = async (
  db: TDb,
  paymentId: number,
  attempt: number,
  t: TChapaTransfer,
  now = Date.now(),
): Promise<"paid_out" | "failed" | "pending"> => {
  if (t.status === "success") {
    await markPaidOut(
      db,
      paymentId,
      { attempt, object: t.chapaTransferId ?? t.reference, feeMinor: Math.round((t.charge ?? 0) * 100) },
      now,
    );
    return "paid_out";
  }
  if (t.status === "failed" || t.status === "cancelled" || t.status === "reversed") {
    await markPayoutFailed(
      db,
      paymentId,
      { attempt, reason: t.failureReason ?? `Chapa: transfer ${t.status}`, object: t.chapaTransferId },
      now,
    );
    return "failed";
  }
  return "pending";
};

/** A transfer Stripe made for this payment and attempt (its metadata says so), for this much, to this account. */
const ourStripeTransfer = (t: TStripeTransfer, p: FreightPayment, attempt: number, amountMinor: number) =>
  t.metadata[FREIGHT_STRIPE_KEY] === String(p.id) &&
  t.metadata[PAYOUT_ATTEMPT_KEY] === String(attempt) &&
  t.amount === amountMinor &&
  t.currency.toUpperCase() === p.currency;

/**
 * When a queued Chapa transfer that no webhook has settled is asked about again: after 10 minutes, then 30, 1 h, 2 h,
 * 4 h, then every 8 h (the last delay repeats), until PAYOUT_CHECK_WINDOW_MS after the first answer that it is
 * queued. Then the payout is `delayed` (still released; an operator checks it: `mytess payments payout-check`).
 * Mirrored in docs/product-rules.md.
 */
export const PAYOUT_CHECK_DELAYS_MS = [10, 30, 60, 120, 240, 480].map((m) => m * 60_000);
export const PAYOUT_CHECK_WINDOW_MS = 48 * 3_600_000;

/** The delay before check number `n` (0 = the first look after the transfer was sent). */
export const payoutCheckDelay = (n: number) => PAYOUT_CHECK_DELAYS_MS[Math.min(n, PAYOUT_CHECK_DELAYS_MS.length - 1)]!;

/** A queued transfer's checks so far: since when Chapa says it is queued, and how many looks found it so. */
export type TPayoutChecks = { since?: number; checks?: number; attempt?: number };

/**
 * Chapa still says the transfer is queued after PAYOUT_CHECK_WINDOW_MS: the payment stays `released` (the money is
 * the driver's; Chapa may still send it) with a history row `payout_delayed {attempt, since, checks, reference}`, once
 * per attempt, the driver told, and the operator's log warned. Nothing is sent again: only Chapa's own `failed`
 * opens a new attempt.
 */
export const markPayoutDelayed = (
  db: TDb,
  paymentId: number,
  d: { attempt: number; since: number; checks: number; reference: string },
  now = Date.now(),
) =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`freight-payment:${paymentId}`]);
    const [p] = await tx.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
    if (p?.state !== "released" || (await attemptOf(tx, p.id)) !== d.attempt) return false;
    if (await hasEvent(tx, p.id, "payout_delayed", d.attempt)) return false;
    await recordPaymentEvent(
      tx,
      p.id,
      "payout_delayed",
      { attempt: d.attempt, since: new Date(d.since).toISOString(), checks: d.checks, reference: d.reference },
      now,
    );
    await enqueueFreightNotice(
      tx,
      p.driverId,
      "freight_payout_delayed",
      p.loadId,
      await shareOf(tx, p),
      `${p.id}:${d.attempt}`,
      now,
    );
    return true;
  });

/**
 * Pays one released payment's share to its driver. Run by the outbox job; safe to run any number of times at once.
 * Returns what happened, for the job's log.
 */
export const payOut = async (
  db: TDb,
  services: TPaymentServices,
  secrets: TSecretBox,
  paymentId: number,
  now = Date.now(),
  checks: TPayoutChecks = {},
  log?: TLogger,
): Promise<{ status: string }> => {
  const [p] = await db.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
  if (p?.state !== "released") return { status: p?.state ?? "missing" };
  if (!p.chargeRef) throw new Error(`payment ${p.id} is released without a charge`);
  const attempt = await attemptOf(db, p.id);
  const { amountMinor } = await shareOf(db, p);
  const method = await methodOf(db, p.driverId, p.provider);
  if (!canBePaid(method)) {
    await waitForMethod(db, p, attempt, now);
    return { status: "waiting" };
  }
  if (p.provider === "stripe") {
    const stripe = services.stripe;
    if (!stripe) throw new Error("Stripe is not configured: the payout waits");
    const destination = method!.stripeAccountId!;
    // Our copy may lag (account.updated comes late): Stripe's account is the truth before money moves.
    const account = await stripe.retrieveAccount(destination);
    if (!account.payoutsEnabled) {
      await waitForMethod(db, p, attempt, now);
      return { status: "waiting" };
    }
    // The first attempt is paid from the shipper's charge. An operator's release after a reversal is paid from the
    // platform's balance, where the reversal put the money back (the charge's funds count as transferred already).
    const again = (await currentRelease(db, p.id))?.txn.startsWith("release/") ?? false;
    const t = await stripe.createTransfer({
      amountMinor,
      currency: p.currency.toLowerCase(),
      destination,
      sourceTransaction: again ? null : p.chargeRef,
      transferGroup: `load-${p.loadId}`,
      metadata: { [FREIGHT_STRIPE_KEY]: String(p.id), [PAYOUT_ATTEMPT_KEY]: String(attempt), load: String(p.loadId) },
      idempotencyKey: stripePayoutKey(p.id, attempt),
    });
    if (!ourStripeTransfer(t, p, attempt, amountMinor))
      throw new Error(`Stripe answered with another transfer (${t.id})`);
    // With source_transaction a transfer succeeds at once; Stripe reports no fee on it (the platform paid the
    // charge's fee when it was funded).
    await markPaidOut(db, p.id, { attempt, object: t.id, feeMinor: 0 }, now);
    return { status: "paid_out" };
  }
  const chapa = services.chapa;
  if (!chapa) throw new Error("Chapa is not configured: the payout waits");
  const reference = chapaPayoutRef(p.id, attempt);
  // A later look at a transfer Chapa already said it queued only verifies it: nothing is asked for again. (Looks of
  // an earlier attempt start over: that transfer failed, this one may not be sent yet.)
  if (checks.attempt !== attempt) checks = {};
  if (checks.since === undefined)
    try {
      await chapa.transfer({
        accountName: method!.accountName ?? "",
        accountNumber: openNumber(secrets, method!),
        amount: fromMinor(amountMinor, "ETB"),
        currency: "ETB",
        reference,
        bankCode: method!.bankCode!,
      });
    } catch (err) {
      // Refused, timed out or unreadable: either this reference was taken already (an earlier run asked, then died
      // before writing, or Chapa took it and its answer was lost), which verify shows, or a real refusal, which verify
      // does not know. Only Chapa's own "not found" counts as not knowing it: a verify that times out or fails says
      // nothing, and is thrown for the job to retry with the same reference (which Chapa never takes twice).
      const known = await chapa.verifyTransfer(reference).catch((e: unknown) => {
        if (e instanceof AppError && e.code === "BAD_REQUEST") return null;
        throw e;
      });
      if (!known) {
        // Chapa refused the details themselves (a 4xx naming the account): the driver has to fix them; trying the same
        // details again would be refused again. Anything else (an outage, a 5xx) is retried by the job.
        if (err instanceof AppError && err.code === "BAD_REQUEST") {
          const reason = String(err.descriptor.values?.reason ?? err.message);
          await markPayoutFailed(db, p.id, { attempt, reason, object: null }, now);
          return { status: "failed" };
        }
        throw err;
      }
    }
  const t = await chapa.verifyTransfer(reference);
  const status = await applyChapaTransfer(db, p.id, attempt, t, now);
  if (status === "pending") {
    // Chapa's payout webhook usually settles it first; if it never comes, verify again later, less and less often,
    // and after PAYOUT_CHECK_WINDOW_MS hand it to an operator.
    const since = checks.since ?? now;
    const done = checks.checks ?? 0;
    if (now - since >= PAYOUT_CHECK_WINDOW_MS) {
      if (await markPayoutDelayed(db, p.id, { attempt, since, checks: done, reference }, now))
        (log ?? logger).warn(
          "payout delayed: Chapa still reports the transfer queued; check it with `mytess payments payout-check`",
          { paymentId: p.id, loadId: p.loadId, reference, since: new Date(since).toISOString(), checks: done },
        );
      return { status: "delayed" };
    }
    const runAt = Math.min(now + payoutCheckDelay(done), since + PAYOUT_CHECK_WINDOW_MS);
    throw new JobDeferred(runAt, { paymentId: p.id, since, checks: done + 1, attempt });
  }
  return { status };
};

/**
 * The operator's look at one payout now (`mytess payments payout-check <id>`): a released Chapa payment's current
 * transfer is verified and settled by what Chapa says (success pays out, failed fails the attempt, queued stays and
 * says so). A transfer Chapa has never seen is asked for again under the same reference by a new job (Chapa takes a
 * reference once, so this cannot pay twice). Only Chapa's payouts can be delayed: a Stripe transfer with
 * `source_transaction` is settled in its answer.
 */
export const checkPayout = async (
  db: TDb,
  services: TPaymentServices,
  paymentId: number,
  now = Date.now(),
): Promise<{ paymentId: number; state: string; transfer: string; reference: string | null }> => {
  const [p] = await db.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
  if (!p)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ {
        id: "error.payout.notFound",
        comment: "Operator CLI error: no freight payment has this number",
        message: "No payment {id}",
        values: { id: paymentId },
      },
    );
  if (p.state !== "released" || p.provider !== "chapa")
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.payout.notChecked",
        message: "Payment {id} is {state} ({provider}): only a released Chapa payment has a payout to check",
        values: { id: p.id, state: p.state, provider: p.provider },
      },
    );
  const chapa = services.chapa;
  if (!chapa)
    throw new AppError(
      "SERVICE_UNAVAILABLE",
      /*i18n*/ { id: "error.payout.noChapa", message: "Chapa is not configured here" },
    );
  const attempt = await attemptOf(db, p.id);
  const reference = chapaPayoutRef(p.id, attempt);
  let t: TChapaTransfer | null;
  try {
    t = await chapa.verifyTransfer(reference);
  } catch (err) {
    if (!(err instanceof AppError && err.code === "BAD_REQUEST")) throw err;
    t = null;
  }
  if (!t) {
    // Chapa has no transfer under this reference: it was never taken (the job died first, or waits for a method).
    await db.transaction((tx) =>
      enqueue(tx, freightPayoutJob, { paymentId: p.id }, { uniqueKey: `freight_payout:${p.id}:check:${now}` }, now),
    );
    return { paymentId: p.id, state: p.state, transfer: "unknown", reference };
  }
  const status = await applyChapaTransfer(db, p.id, attempt, t, now);
  const [after] = await db.select().from(freightPayments).where(eq(freightPayments.id, p.id));
  return { paymentId: p.id, state: after?.state ?? p.state, transfer: status, reference };
};

/** The driver's share of a released payment, paid out (the outbox job the release enqueues). */
export const freightPayoutJob = defineJob({
  kind: "freight_payout",
  schema: z.object({
    paymentId: z.number().int().positive(),
    /** A queued Chapa transfer's checks: when it was first seen queued, and how many looks found it so. */
    since: z.number().int().nonnegative().optional(),
    checks: z.number().int().nonnegative().optional(),
    attempt: z.number().int().nonnegative().optional(),
  }),
  maxAttempts: 8,
  needs: ["payments", "secrets"],
  handler: ({ paymentId, since, checks, attempt }, { db, services, log }) =>
    payOut(db, services.payments, services.secrets, paymentId, Date.now(), { since, checks, attempt }, log),
});

/** Enqueues the payout of a payment just released, in the release's transaction. */
export const enqueuePayout = (tx: TTx, paymentId: number, now: number) =>
  enqueue(tx, freightPayoutJob, { paymentId }, { uniqueKey: `freight_payout:${paymentId}:release` }, now);

/**
 * The driver can be paid now (a Chapa method saved, a Stripe account enabled): every payment of theirs waiting for
 * that provider (released, or failed at the payout) is sent again. A failed one is released again first, in the same
 * transaction as its job; the job's key names the method's version, so saving the same details twice queues once.
 */
export const payWaitingFor = async (db: TDb, driverId: number, provider: "stripe" | "chapa", now = Date.now()) => {
  const method = await methodOf(db, driverId, provider);
  if (!canBePaid(method)) return 0;
  const waiting = await db
    .select()
    .from(freightPayments)
    .where(
      and(
        eq(freightPayments.driverId, driverId),
        eq(freightPayments.provider, provider),
        inArray(freightPayments.state, ["released", "failed"]),
      ),
    )
    .orderBy(asc(freightPayments.id));
  let queued = 0;
  for (const w of waiting) {
    const ok = await db.transaction(async (tx) => {
      await db.q.lockKeys(tx, [`freight-payment:${w.id}`]);
      const [p] = await tx.select().from(freightPayments).where(eq(freightPayments.id, w.id));
      if (!p) return false;
      const attempt = await attemptOf(tx, p.id);
      if (p.state === "failed") {
        // Only a failed payout goes again: a failed funding has no release.
        const [released] = await tx
          .select({ id: ledgerEntries.id })
          .from(ledgerEntries)
          .where(eq(ledgerEntries.txn, `release:${p.id}`))
          .limit(1);
        if (!released || attempt === 0 || (await awaitsSettlement(tx, p.id))) return false;
        await tx
          .update(freightPayments)
          .set({ state: "released", note: null, updatedAt: now })
          .where(and(eq(freightPayments.id, p.id), eq(freightPayments.state, "failed")));
        await recordPaymentEvent(tx, p.id, "released", { retry: true, attempt }, now);
      } else if (p.state !== "released") return false;
      const id = await enqueue(
        tx,
        freightPayoutJob,
        { paymentId: p.id },
        { uniqueKey: `freight_payout:${p.id}:${attempt}:${method!.id}:${Number(method!.updatedAt)}` },
        now,
      );
      return id !== null;
    });
    if (ok) queued++;
  }
  return queued;
};

/** Whether a verified Stripe event is about a driver payout's transfer. */
export const isPayoutTransferEvent = (e: TStripeEvent) =>
  e.type.startsWith("transfer.") &&
  typeof (e.object.metadata as Record<string, unknown>)?.[PAYOUT_ATTEMPT_KEY] === "string";

/**
 * Stripe's transfer events (transfer.created, transfer.reversed, any number of times, in any order): the transfer is
 * read back from Stripe and, when it is the current attempt's, confirms the payout, or books its reversals.
 */
export const applyStripeTransferEvent = async (
  db: TDb,
  services: TPaymentServices,
  e: TStripeEvent,
  now = Date.now(),
): Promise<{ applied: boolean; ignored?: string }> => {
  const stripe = services.stripe;
  if (!stripe) return { applied: false, ignored: "Stripe is not configured" };
  const t = await stripe.retrieveTransfer(String(e.object.id));
  const paymentId = Number(t.metadata[FREIGHT_STRIPE_KEY]);
  const attempt = Number(t.metadata[PAYOUT_ATTEMPT_KEY]);
  const [p] = Number.isSafeInteger(paymentId)
    ? await db.select().from(freightPayments).where(eq(freightPayments.id, paymentId))
    : [];
  if (!p || !ourStripeTransfer(t, p, attempt, (await shareOf(db, p)).amountMinor))
    return { applied: false, ignored: `transfer ${t.id} is no payout here` };
  // Whatever the event's type or body says, Stripe's transfer as read now decides: one with reversals is booked as
  // reversed (a transfer.created that comes after its reversal included).
  if (t.reversals.length || t.amountReversed > 0) {
    const booked = await applyStripeReversals(db, p.id, attempt, t, now);
    return booked ? { applied: true } : { applied: false, ignored: `transfer ${t.id}'s reversals are booked` };
  }
  const applied = await markPaidOut(db, p.id, { attempt, object: t.id, feeMinor: 0 }, now);
  return applied ? { applied } : { applied, ignored: `payment ${p.id} is ${p.state}` };
};

/**
 * Chapa's payout webhook (payout.success or payout.failed): only a prompt. The reference names the payment and the
 * attempt; the transfer is verified with Chapa before anything changes.
 */
export const applyChapaPayoutWebhook = async (
  db: TDb,
  services: TPaymentServices,
  reference: string | null,
  now = Date.now(),
): Promise<{ status: string }> => {
  const chapa = services.chapa;
  const ref = reference ? parseChapaPayoutRef(reference) : null;
  if (!chapa || !ref || !reference) return { status: "ignored" };
  let t: TChapaTransfer;
  try {
    t = await chapa.verifyTransfer(reference);
  } catch (err) {
    // Chapa does not know the transfer (a forged or foreign reference): answered, nothing changes. An outage is not
    // answered 200, so Chapa sends the webhook again.
    if (err instanceof AppError && err.code === "BAD_REQUEST") return { status: "ignored" };
    throw err;
  }
  if (t.reference !== reference) return { status: "ignored" };
  return { status: await applyChapaTransfer(db, ref.paymentId, ref.attempt, t, now) };
};

/** The ledger transaction of one Stripe reversal: `payout_reversal/<trr_…>:<payment>` (its kind is `payout_reversal`). */
export const reversalTxn = (paymentId: number, reversalId: string) => `payout_reversal/${reversalId}:${paymentId}`;

/**
 * Stripe took back all or part of a payout's transfer (a reversal made in the dashboard or by the API). Each of the
 * transfer's reversals is booked once, by its id (`payout_reversal/<trr>:<payment>`: driver −amount, escrow +amount,
 * the reversal's id as the provider object): the money is held again for the load, not the driver's, until an
 * operator settles it. The payment (paid out, or still released when the reversal beat our own write) becomes
 * `failed` with history rows `payout_reversed {transfer, reversal, amount}` and `failed {stage: "reversal", …}`, and
 * the driver is told what happened and what to do. It is never paid again by itself: `payWaitingFor` skips it. A
 * later partial reversal of the same transfer is booked the same way (one more history row and notice). Returns
 * whether anything was booked.
 */
export const applyStripeReversals = (
  db: TDb,
  paymentId: number,
  attempt: number,
  t: TStripeTransfer,
  now = Date.now(),
) =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`freight-payment:${paymentId}`]);
    const [p] = await tx.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
    if (!p || !["released", "paid_out", "failed"].includes(p.state)) return false;
    if (attempt !== (await attemptOf(tx, p.id))) return false;
    let booked = 0;
    // Oldest first (Stripe lists the newest first).
    for (const r of [...t.reversals].reverse()) {
      const fresh = await postTxn(
        tx,
        { txn: reversalTxn(p.id, r.id), paymentId: p.id, loadId: p.loadId, currency: p.currency, providerObject: r.id },
        [
          { account: "driver", amountMinor: -r.amount },
          { account: "escrow", amountMinor: r.amount },
        ],
        now,
      );
      if (!fresh) continue;
      booked++;
      await recordPaymentEvent(
        tx,
        p.id,
        "payout_reversed",
        { transfer: t.id, reversal: r.id, amount: fromMinor(r.amount, p.currency), attempt },
        now,
      );
      await enqueueFreightNotice(
        tx,
        p.driverId,
        "freight_payout_reversed",
        p.loadId,
        { amountMinor: r.amount, currency: p.currency },
        `${p.id}:${r.id}`,
        now,
      );
    }
    if (!booked) return false;
    // The release names the transfer that paid it (a reversal that beat markPaidOut finds it unnamed).
    await attachProviderObject(tx, (await currentRelease(tx, p.id))?.txn ?? `release:${p.id}`, t.id);
    if (p.state !== "failed") {
      const reason = t.reversed ? "Payout reversed by Stripe" : "Payout partly reversed by Stripe";
      await tx
        .update(freightPayments)
        .set({ state: "failed", note: reason, updatedAt: now })
        .where(eq(freightPayments.id, p.id));
      await recordPaymentEvent(
        tx,
        p.id,
        "failed",
        { stage: "reversal", attempt, transfer: t.id, reversed: fromMinor(t.amountReversed, p.currency), reason },
        now,
      );
    }
    return true;
  });

/**
 * Whether a failed payment waits for an operator's settlement of a reversal: its latest failure is a reversal (a
 * reversed payout is never paid again by itself; once an operator released it again, a later failure of the new
 * attempt at the bank is retried like any other).
 */
export const awaitsSettlement = async (db: TDb | TTx, paymentId: number) => {
  const [last] = await db
    .select({ detail: freightPaymentEvents.detail })
    .from(freightPaymentEvents)
    .where(and(eq(freightPaymentEvents.paymentId, paymentId), eq(freightPaymentEvents.state, "failed")))
    .orderBy(desc(freightPaymentEvents.id))
    .limit(1);
  return last?.detail?.stage === "reversal";
};
