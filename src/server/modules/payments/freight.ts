// Freight payments (escrow): the shipper funds an awarded load through the provider of its currency (Stripe Checkout
// in payment mode for USD and EUR, Chapa's hosted page for ETB); the money waits in the platform's escrow until the
// trip ends. Nothing is believed from the browser's return or from a webhook's body alone: funding is confirmed by
// asking the provider (Stripe's session and payment intent, Chapa's verify), and the state change, its history row and
// its ledger transaction are one database transaction, conditional on the state read, so a webhook sent twice, late,
// or beside the callback funds a load once.
import { randomBytes } from "node:crypto";
import { and, desc, eq, inArray, isNull, or } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import {
  type FreightPayment,
  freightPaymentEvents,
  freightPayments,
  type Load,
  loads,
  type User,
} from "../../../../db/tables";
import { fromMinor } from "../../../shared/money";
import {
  providerForCurrency,
  type TFreightPayment,
  type TFreightPaymentState,
  type TFreightProvider,
  type TFreightQuote,
  type TPayoutIssue,
  type TPayoutNotice,
} from "../../../shared/schemas/payments";
import { AppError } from "../../errors";
import type { TPaymentServices } from "../../integrations/payments/services";
import type { TStripeEvent } from "../../integrations/payments/types";
import { requireVerifiedContact } from "../accounts/verified-contact";
import { actsAsShipper, postingCompanyOf } from "../companies/work";
import { LOAD_NOT_FOUND } from "../loads/errors";
import { enqueueFreightNotice } from "../notifications/notify";
import { postTxn } from "./ledger";

/** The metadata key naming a freight payment on Stripe's session and payment intent. */
export const FREIGHT_STRIPE_KEY = "mytess_freight_payment";
/** Chapa tx_refs of freight payments start with this (subscriptions' start with `mytess-<user>-`). */
export const FREIGHT_CHAPA_PREFIX = "mytess-load-";

/** States after which the escrow holds (or held) the money: the load cannot be funded again. */
const FUNDED_STATES: TFreightPaymentState[] = ["funded", "released", "paid_out", "refunded", "disputed"];

/**
 * The agreed amount of an awarded load, as the award stored it on the load, and who is paid it. Read through this one
 * function, so that where the agreed amount is kept can change in one place.
 */
export const agreedAmount = async (
  _db: TDb | TTx,
  load: Pick<Load, "acceptedBidId" | "agreedAmountMinor" | "agreedCurrency" | "assignedDriverId">,
) => {
  // The award stores the agreed amount on the load (the accepted bid's, or an accepted counter-offer's).
  if (!load.acceptedBidId || load.agreedAmountMinor == null || !load.agreedCurrency || !load.assignedDriverId)
    return null;
  return {
    amountMinor: Number(load.agreedAmountMinor),
    currency: load.agreedCurrency,
    driverId: load.assignedDriverId,
  };
};

/** The platform's fee on an agreed amount, in minor units (rounded half up). */
export const feeOf = (agreedMinor: number, percent: number) => Math.round((agreedMinor * percent) / 100);

const notAwarded = () =>
  new AppError(
    "CONFLICT",
    /*i18n*/ { id: "error.freight.notAwarded", message: "This load has no accepted bid yet, so it cannot be funded" },
  );

const statusBlocks = (status: Load["status"]) => status === "posted" || status === "cancelled";

/** Reads the load for one of its parties; another account's (or a missing) load is 404. */
const loadFor = async (db: TDb | TTx, user: User, loadId: number, who: "shipper" | "party") => {
  const [load] = await db.select().from(loads).where(eq(loads.id, loadId));
  // The shipper's side is the poster or a member of the load's shipper company (companies/work.ts).
  const asShipper = load != null && (await actsAsShipper(db, load, user));
  const mine = load && (asShipper || (who === "party" && load.assignedDriverId === user.id));
  if (!load || !mine) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  return Object.assign(load, { asShipper });
};

const quoteOf = (
  services: TPaymentServices,
  agreed: { amountMinor: number; currency: string },
): TFreightQuote & { feeMinor: number } => {
  const percent = services.platformFeePercent;
  const feeMinor = feeOf(agreed.amountMinor, percent);
  const provider = providerForCurrency(agreed.currency);
  return {
    currency: agreed.currency,
    agreed: fromMinor(agreed.amountMinor, agreed.currency),
    fee: fromMinor(feeMinor, agreed.currency),
    feePercent: percent,
    total: fromMinor(agreed.amountMinor + feeMinor, agreed.currency),
    provider,
    available: provider === "stripe" ? !!services.stripe : provider === "chapa" ? !!services.chapa : false,
    feeMinor,
  };
};

const historyOf = async (db: TDb, ids: number[]) => {
  if (!ids.length) return new Map<number, TFreightPayment["history"]>();
  const rows = await db
    .select()
    .from(freightPaymentEvents)
    .where(inArray(freightPaymentEvents.paymentId, ids))
    .orderBy(freightPaymentEvents.id);
  const out = new Map<number, TFreightPayment["history"]>();
  for (const r of rows)
    out.set(r.paymentId, [
      ...(out.get(r.paymentId) ?? []),
      { state: r.state, at: new Date(Number(r.createdAt)).toISOString(), detail: r.detail ?? null },
    ]);
  return out;
};

/** Why the driver's share is not out yet, read from the payment's state and its latest history row. */
const payoutIssueOf = (p: FreightPayment, history: TFreightPayment["history"]): TPayoutIssue | null => {
  const last = history.at(-1);
  if (p.state === "released" && last?.state === "payout_waiting") return "waiting_method";
  if (p.state === "failed" && p.chargeRef && last?.state === "failed" && last.detail?.stage === "payout") {
    const fix = last.detail.fix;
    return fix === "account_name" || fix === "account_number" ? fix : "bank";
  }
  return null;
};

/** What both parties are told of the payout: delayed at Chapa (an operator checks it), or reversed by Stripe. */
const payoutNoticeOf = (p: FreightPayment, history: TFreightPayment["history"]): TPayoutNotice | null => {
  if (p.state === "released" && history.at(-1)?.state === "payout_delayed") return "delayed";
  if (p.state === "failed" && history.some((h) => h.state === "payout_reversed")) return "reversed";
  return null;
};

const toPublic = (
  p: FreightPayment,
  title: string,
  reader: User,
  history: TFreightPayment["history"],
  asShipper = p.shipperId === reader.id,
): TFreightPayment => ({
  id: p.id,
  loadId: p.loadId,
  loadTitle: title,
  role: asShipper ? "shipper" : "driver",
  provider: p.provider,
  state: p.state,
  currency: p.currency,
  agreed: fromMinor(Number(p.agreedMinor), p.currency),
  fee: asShipper ? fromMinor(Number(p.feeMinor), p.currency) : 0,
  total: asShipper
    ? fromMinor(Number(p.agreedMinor) + Number(p.feeMinor), p.currency)
    : fromMinor(Number(p.agreedMinor), p.currency),
  note: p.note,
  secured: !!p.chargeRef && p.state !== "refunded",
  payoutIssue: p.driverId === reader.id ? payoutIssueOf(p, history) : null,
  payoutNotice: payoutNoticeOf(p, history),
  createdAt: new Date(Number(p.createdAt)).toISOString(),
  updatedAt: new Date(Number(p.updatedAt)).toISOString(),
  history,
});

/** Writes a state change's history row (inside the caller's transaction). */
export const recordPaymentEvent = (
  tx: TTx,
  paymentId: number,
  state: string,
  detail: Record<string, unknown> | null,
  now: number,
) => tx.insert(freightPaymentEvents).values({ paymentId, state, detail, createdAt: now });

/**
 * A load's payment for one of its parties: the quote (shipper only, once awarded) and the payment, if there is one.
 */
export const loadPayment = async (db: TDb, services: TPaymentServices, user: User, loadId: number) => {
  const load = await loadFor(db, user, loadId, "party");
  const [p] = await db.select().from(freightPayments).where(eq(freightPayments.loadId, load.id));
  const agreed = load.asShipper && !statusBlocks(load.status) ? await agreedAmount(db, load) : null;
  let quote: TFreightQuote | null = null;
  if (agreed) {
    const { feeMinor: _fee, ...q } = quoteOf(services, agreed);
    quote = q;
  }
  const history = p ? ((await historyOf(db, [p.id])).get(p.id) ?? []) : [];
  return { quote, payment: p ? toPublic(p, load.title, user, history, load.asShipper) : null };
};

/**
 * Every payment the user is a party of, newest first, with its history: theirs as the load's poster or driver, and,
 * for an owner or staff member of a shipper company, those of the company's loads (as its shipper; `actsAsShipper`,
 * read now, so a member who leaves loses them at once).
 */
export const listFreightPayments = async (db: TDb, user: User) => {
  const companyId = await postingCompanyOf(db, user);
  const rows = await db
    .select({ p: freightPayments, title: loads.title, shipperCompanyId: loads.shipperCompanyId })
    .from(freightPayments)
    .innerJoin(loads, eq(loads.id, freightPayments.loadId))
    .where(
      or(
        eq(freightPayments.shipperId, user.id),
        eq(freightPayments.driverId, user.id),
        companyId === null ? undefined : eq(loads.shipperCompanyId, companyId),
      ),
    )
    .orderBy(desc(freightPayments.id))
    .limit(200);
  const history = await historyOf(
    db,
    rows.map((r) => r.p.id),
  );
  return rows.map((r) =>
    toPublic(
      r.p,
      r.title,
      user,
      history.get(r.p.id) ?? [],
      r.p.shipperId === user.id || (companyId !== null && r.shipperCompanyId === companyId),
    ),
  );
};

const providerNotConfigured = (provider: TFreightProvider) =>
  new AppError(
    "SERVICE_UNAVAILABLE",
    /*i18n*/ {
      id: "error.freight.providerNotConfigured",
      message: "{provider} payments are not set up on this server",
      values: { provider: provider === "stripe" ? "Stripe" : "Chapa" },
    },
  );

/** How long a request that is opening a checkout keeps others waiting before its claim counts as abandoned. */
const CLAIM_MS = 120_000;
/** How long a second request waits for the first one's checkout before answering 409. */
const CLAIM_WAIT_MS = 10_000;
const CLAIM_PREFIX = "pending-";

/** A claim written into `providerRef` while a checkout is being opened: `pending-<ms>-<random>`. */
const claimAge = (ref: string, now: number) => {
  if (!ref.startsWith(CLAIM_PREFIX)) return null;
  const at = Number(ref.slice(CLAIM_PREFIX.length).split("-")[0]);
  return Number.isFinite(at) ? now - at : Number.POSITIVE_INFINITY;
};

const alreadyFunded = () =>
  new AppError("CONFLICT", /*i18n*/ { id: "error.freight.alreadyFunded", message: "This load is already funded" });

const checkoutBusy = () =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.freight.checkoutOpening",
      message: "A payment page for this load is being opened; try again in a moment",
    },
  );

const checkoutStillOpen = (provider: TFreightProvider) =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.freight.checkoutStillOpen",
      message:
        "An earlier payment page for this load is still open at {provider}. Pay or cancel it there before starting again",
      values: { provider: provider === "stripe" ? "Stripe" : "Chapa" },
    },
  );

type TOpenCheckout = { kind: "open"; url: string | null } | { kind: "paid" } | { kind: "closed" };

/**
 * Asks the provider how the payment's current checkout stands: still payable (Stripe's session `open`, Chapa's
 * transaction `pending`), paid (funded here on the way, as the webhook would), or closed for good (Stripe `expired`,
 * Chapa `failed`/`cancelled`): only then may another checkout be opened, so that one load never has two payable pages.
 */
const currentCheckout = async (
  db: TDb,
  services: TPaymentServices,
  p: FreightPayment,
  now: number,
): Promise<TOpenCheckout> => {
  if (p.provider === "stripe") {
    const stripe = services.stripe;
    if (!stripe) throw providerNotConfigured("stripe");
    const session = await stripe.retrieveCheckoutSession(p.providerRef);
    if (session.status === "open") return { kind: "open", url: session.url };
    if (session.status === "expired") return { kind: "closed" };
    if (session.paymentStatus === "paid" && session.paymentIntent) {
      const intent = await stripe.retrievePaymentIntent(session.paymentIntent);
      if (intent.status === "succeeded" && intent.latestCharge && intent.metadata[FREIGHT_STRIPE_KEY] === String(p.id))
        await fundPayment(
          db,
          p.id,
          {
            amountMinor: intent.amount,
            currency: intent.currency,
            chargeRef: intent.latestCharge,
            providerRef: session.id,
          },
          now,
        );
    }
    // Complete: paid (funded above, or by its webhook), or being processed by Stripe; either way not to be paid again.
    return { kind: "paid" };
  }
  const chapa = services.chapa;
  if (!chapa) throw providerNotConfigured("chapa");
  const t = await chapa.verify(p.providerRef);
  if (t.status === "pending") return { kind: "open", url: p.checkoutUrl };
  if (t.status === "success") {
    await confirmFreightChapa(db, services, p.providerRef, now);
    return { kind: "paid" };
  }
  await confirmFreightChapa(db, services, p.providerRef, now);
  return { kind: "closed" };
};

/**
 * The shipper funds an awarded load: a hosted checkout for the agreed amount plus the platform's fee, with the
 * provider of the agreed currency. Another account's load is 404; a load without an accepted bid, or already funded,
 * 409; a provider that does not take the currency, 400 naming `provider`.
 *
 * One payable page per load: while the payment's checkout is open at the provider, asking again answers that same
 * page (a double click, a second tab, two requests at once); a Stripe session for another amount is expired at Stripe
 * first; an open Chapa page, which Chapa cannot close, is 409 until it is paid, failed or cancelled there. A new page
 * is opened only once the provider says the earlier one can no longer be paid. Two requests at once: the first claims
 * the payment (a conditional update of its reference) and opens the page; the other waits for it and answers it.
 */
export const startFunding = async (
  db: TDb,
  services: TPaymentServices,
  user: User,
  input: { loadId: number; provider: TFreightProvider },
  baseUrl: string,
  now = Date.now(),
) => {
  const load = await loadFor(db, user, input.loadId, "shipper");
  // Paying waits for a proven email or phone (after the 404: another account's load tells nothing).
  requireVerifiedContact(user, "fund");
  if (statusBlocks(load.status) || !load.assignedDriverId) throw notAwarded();
  const agreed = await agreedAmount(db, load);
  if (!agreed) throw notAwarded();
  const quote = quoteOf(services, agreed);
  if (quote.provider !== input.provider) {
    const message = /*i18n*/ {
      id: "error.freight.wrongProvider",
      message: "provider must be {expected} for a payment in {currency}",
      values: { expected: quote.provider ?? "-", currency: agreed.currency },
    };
    throw new AppError("BAD_REQUEST", message, { issues: [{ path: "provider", message }] });
  }
  if (input.provider === "stripe" && !services.stripe) throw providerNotConfigured("stripe");
  if (input.provider === "chapa" && !services.chapa) throw providerNotConfigured("chapa");
  const { feeMinor: _fee, ...publicQuote } = quote;
  const totalMinor = agreed.amountMinor + quote.feeMinor;
  const sameAsked = (p: FreightPayment) =>
    p.provider === input.provider &&
    p.currency === agreed.currency &&
    Number(p.agreedMinor) === agreed.amountMinor &&
    Number(p.feeMinor) === quote.feeMinor;
  const waitUntil = Date.now() + CLAIM_WAIT_MS;
  for (;;) {
    const [existing] = await db.select().from(freightPayments).where(eq(freightPayments.loadId, load.id));
    // A payment whose payout failed is `failed` too, but its charge was taken: never funded twice.
    if (existing && (FUNDED_STATES.includes(existing.state) || existing.chargeRef)) throw alreadyFunded();
    const claim = `${CLAIM_PREFIX}${Date.now()}-${randomBytes(4).toString("hex")}`;
    let attempt: number;
    let payment: FreightPayment;
    if (!existing) {
      const [inserted] = await db
        .insert(freightPayments)
        .values({
          loadId: load.id,
          // The load's poster pays (a company member funding it does so for the poster's load).
          shipperId: load.shipperId ?? user.id,
          driverId: load.assignedDriverId,
          provider: input.provider,
          providerRef: claim,
          state: "awaiting_payment",
          currency: agreed.currency,
          agreedMinor: agreed.amountMinor,
          feeMinor: quote.feeMinor,
          checkoutAttempt: 1,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoNothing()
        .returning();
      // Another request inserted it first: read what it did.
      if (!inserted) continue;
      payment = inserted;
      attempt = 1;
    } else {
      const age = claimAge(existing.providerRef, Date.now());
      if (age !== null && age < CLAIM_MS) {
        // Another request is opening the page right now: wait for it, then answer its page.
        if (Date.now() > waitUntil) throw checkoutBusy();
        await Bun.sleep(100);
        continue;
      }
      if (age === null && existing.state === "awaiting_payment") {
        const current = await currentCheckout(db, services, existing, now);
        if (current.kind === "paid") throw alreadyFunded();
        if (current.kind === "open") {
          if (sameAsked(existing) && current.url)
            return { url: current.url, paymentId: existing.id, quote: publicQuote };
          if (existing.provider !== "stripe") throw checkoutStillOpen(existing.provider);
          // Stripe can close its page: expired there, it can no longer be paid, and a new one may be opened.
          const closed = await services
            .stripe!.expireCheckoutSession(existing.providerRef)
            .catch(async () => services.stripe!.retrieveCheckoutSession(existing.providerRef));
          if (closed.status !== "expired") {
            if (closed.status === "complete") throw alreadyFunded();
            throw checkoutStillOpen("stripe");
          }
        }
        // Closed for good: recorded as such before another page is opened.
        await closeCheckout(db, existing, now);
        continue;
      }
      // Failed (declined, cancelled, expired) or a claim whose request died: open the next page. A dead claim keeps
      // its number, so its Stripe idempotency key and Chapa tx_ref come back: whatever it may have opened is reused
      // (Stripe) or refused as used (Chapa), never doubled.
      attempt = age === null ? existing.checkoutAttempt + 1 : Math.max(existing.checkoutAttempt, 1);
      const [claimed] = await db
        .update(freightPayments)
        .set({
          providerRef: claim,
          provider: input.provider,
          currency: agreed.currency,
          agreedMinor: agreed.amountMinor,
          feeMinor: quote.feeMinor,
          checkoutAttempt: attempt,
          checkoutUrl: null,
          updatedAt: now,
        })
        .where(
          and(
            eq(freightPayments.id, existing.id),
            eq(freightPayments.providerRef, existing.providerRef),
            eq(freightPayments.state, existing.state),
            isNull(freightPayments.chargeRef),
          ),
        )
        .returning();
      if (!claimed) continue;
      payment = claimed;
    }
    try {
      const opened = await openCheckout(services, user, load, payment, attempt, totalMinor, baseUrl);
      await db.transaction(async (tx) => {
        await tx
          .update(freightPayments)
          .set({
            providerRef: opened.ref,
            checkoutUrl: opened.url,
            state: "awaiting_payment",
            note: null,
            updatedAt: now,
          })
          .where(and(eq(freightPayments.id, payment.id), eq(freightPayments.providerRef, claim)));
        await recordPaymentEvent(
          tx,
          payment.id,
          "awaiting_payment",
          { provider: input.provider, checkout: opened.ref },
          now,
        );
      });
      return { url: opened.url, paymentId: payment.id, quote: publicQuote };
    } catch (e) {
      // Chapa refuses a tx_ref it has seen: a dead claim's page may exist there. Its state decides (the next round asks
      // Chapa about it as the payment's checkout); its hosted link is not known any more, so a pending one is 409.
      const ref = chapaRefOf(payment, attempt);
      const known = payment.provider === "chapa" ? await services.chapa!.verify(ref).catch(() => null) : null;
      if (known?.txRef === ref) {
        const [kept] = await db
          .update(freightPayments)
          .set({ providerRef: ref, state: "awaiting_payment", checkoutUrl: null, updatedAt: now })
          .where(and(eq(freightPayments.id, payment.id), eq(freightPayments.providerRef, claim)))
          .returning();
        if (kept) continue;
      }
      // Released at once (its number kept, see above), so the shipper can try again without waiting for the claim.
      await db
        .update(freightPayments)
        .set({ providerRef: `${CLAIM_PREFIX}0-${randomBytes(4).toString("hex")}`, updatedAt: now })
        .where(and(eq(freightPayments.id, payment.id), eq(freightPayments.providerRef, claim)));
      throw e;
    }
  }
};

/** Records that the payment's checkout can no longer be paid (expired at Stripe; Chapa's own answer is recorded by
 * the confirmation), so the next request opens a new one. */
const closeCheckout = async (db: TDb, p: FreightPayment, now: number) =>
  db.transaction(async (tx) => {
    const [changed] = await tx
      .update(freightPayments)
      .set({ state: "failed", note: `${p.provider}: checkout closed`, checkoutUrl: null, updatedAt: now })
      .where(
        and(
          eq(freightPayments.id, p.id),
          eq(freightPayments.providerRef, p.providerRef),
          eq(freightPayments.state, "awaiting_payment"),
          isNull(freightPayments.chargeRef),
        ),
      )
      .returning();
    if (changed) await recordPaymentEvent(tx, p.id, "failed", { reason: "expired", checkout: p.providerRef }, now);
  });

/** Unique across databases that share a Chapa account (the row's creation time), repeatable within an attempt. */
const chapaRefOf = (payment: FreightPayment, attempt: number) =>
  `${FREIGHT_CHAPA_PREFIX}${payment.id}-${Number(payment.createdAt).toString(36)}-${attempt}`;

/** Opens the provider's hosted page for a claimed payment; the attempt number makes the request repeatable. */
const openCheckout = async (
  services: TPaymentServices,
  user: User,
  load: Load,
  payment: FreightPayment,
  attempt: number,
  totalMinor: number,
  baseUrl: string,
): Promise<{ url: string; ref: string }> => {
  const title = `MyTess load #${load.id}: ${load.title}`.slice(0, 120);
  if (payment.provider === "stripe") {
    const session = await services.stripe!.createPaymentCheckout({
      amountMinor: totalMinor,
      currency: payment.currency as "USD" | "EUR",
      productName: title,
      email: user.email,
      successUrl: `${baseUrl}/loads/${load.id}?payment=success`,
      cancelUrl: `${baseUrl}/loads/${load.id}?payment=cancelled`,
      transferGroup: `load-${load.id}`,
      metadata: { [FREIGHT_STRIPE_KEY]: String(payment.id), load: String(load.id) },
      // The same attempt asks again with the same key: Stripe answers the session it already made.
      idempotencyKey: `freight-checkout:${payment.id}:${attempt}:${totalMinor}`,
    });
    return { url: session.url, ref: session.id };
  }
  const ref = chapaRefOf(payment, attempt);
  const r = await services.chapa!.initialize({
    amount: fromMinor(totalMinor, "ETB"),
    currency: "ETB",
    txRef: ref,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    callbackUrl: `${baseUrl}/api/webhooks/chapa/callback`,
    returnUrl: `${baseUrl}/loads/${load.id}?payment=return`,
    title: "MyTess freight",
    description: title,
  });
  return { url: r.checkoutUrl, ref };
};

/**
 * Funds a payment once the provider confirmed what was paid: awaiting_payment (or failed, when the shipper paid on
 * a second try) becomes funded, with its history row and the ledger's `fund` transaction (the shipper paid the total;
 * escrow holds the agreed amount; the platform's fee is earned), in one transaction. A payment already funded, or one
 * whose paid amount or currency differs from what was asked, changes nothing (the latter is kept failed with why).
 */
export const fundPayment = async (
  db: TDb,
  paymentId: number,
  paid: { amountMinor: number; currency: string; chargeRef: string; providerRef: string },
  now = Date.now(),
): Promise<{ status: TFreightPaymentState; funded: boolean; refused?: string }> =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`freight-payment:${paymentId}`]);
    const [p] = await tx.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
    if (!p) return { status: "failed" as const, funded: false, refused: `no payment ${paymentId}` };
    if ((p.state !== "awaiting_payment" && p.state !== "failed") || p.chargeRef)
      return { status: p.state, funded: false };
    const total = Number(p.agreedMinor) + Number(p.feeMinor);
    if (paid.currency !== p.currency || paid.amountMinor !== total) {
      const refused = `paid ${paid.amountMinor} ${paid.currency}, asked ${total} ${p.currency}`;
      await tx
        .update(freightPayments)
        .set({ state: "failed", note: refused, updatedAt: now })
        .where(eq(freightPayments.id, p.id));
      await recordPaymentEvent(tx, p.id, "failed", { reason: refused, charge: paid.chargeRef }, now);
      return { status: "failed" as const, funded: false, refused };
    }
    await tx
      .update(freightPayments)
      .set({ state: "funded", chargeRef: paid.chargeRef, note: null, updatedAt: now })
      .where(eq(freightPayments.id, p.id));
    await recordPaymentEvent(tx, p.id, "funded", { charge: paid.chargeRef, checkout: paid.providerRef }, now);
    await postTxn(
      tx,
      { txn: `fund:${p.id}`, paymentId: p.id, loadId: p.loadId, currency: p.currency, providerObject: paid.chargeRef },
      [
        { account: "shipper", amountMinor: -total },
        { account: "escrow", amountMinor: Number(p.agreedMinor) },
        { account: "platform_fees", amountMinor: Number(p.feeMinor) },
      ],
      now,
    );
    await enqueueFreightNotice(
      tx,
      p.driverId,
      "freight_funded",
      p.loadId,
      { amountMinor: Number(p.agreedMinor), currency: p.currency },
      `${p.id}`,
      now,
    );
    return { status: "funded" as const, funded: true };
  });

/** Whether a verified Stripe event is about freight payments (the rest belongs to the subscription). */
export const isFreightStripeEvent = (e: TStripeEvent) => {
  const meta = e.object.metadata as Record<string, unknown> | undefined;
  return typeof meta?.[FREIGHT_STRIPE_KEY] === "string";
};

/**
 * A Stripe event of a freight payment. Whatever the event says, the session and payment intent are read back from
 * Stripe, so the order and number of deliveries do not matter: the first that finds the payment intent succeeded
 * funds the payment; the others find it funded.
 */
export const applyFreightStripeEvent = async (
  db: TDb,
  services: TPaymentServices,
  e: TStripeEvent,
  now = Date.now(),
): Promise<{ applied: boolean; ignored?: string; refused?: string }> => {
  const stripe = services.stripe;
  if (!stripe) return { applied: false, ignored: "Stripe is not configured" };
  const paymentId = Number((e.object.metadata as Record<string, string>)[FREIGHT_STRIPE_KEY]);
  const [p] = await db.select().from(freightPayments).where(eq(freightPayments.id, paymentId));
  if (!p) return { applied: false, ignored: `no freight payment ${paymentId}` };
  if (p.state !== "awaiting_payment" && p.state !== "failed") return { applied: false, ignored: `already ${p.state}` };
  let intentId: string | null = null;
  let sessionId: string = p.providerRef;
  if (e.type.startsWith("checkout.session.")) {
    const session = await stripe.retrieveCheckoutSession(String(e.object.id));
    if (session.paymentStatus !== "paid") return { applied: false, ignored: `session ${session.paymentStatus}` };
    intentId = session.paymentIntent;
    sessionId = session.id;
  } else if (e.type.startsWith("payment_intent.")) intentId = String(e.object.id);
  else if (e.type.startsWith("charge.") && typeof e.object.payment_intent === "string")
    intentId = e.object.payment_intent;
  if (!intentId) return { applied: false, ignored: `${e.type} names no payment intent` };
  const intent = await stripe.retrievePaymentIntent(intentId);
  if (intent.metadata[FREIGHT_STRIPE_KEY] !== String(p.id))
    return { applied: false, ignored: `payment intent ${intent.id} is not payment ${p.id}'s` };
  if (intent.status !== "succeeded" || !intent.latestCharge)
    return { applied: false, ignored: `payment intent ${intent.status}` };
  const r = await fundPayment(
    db,
    p.id,
    { amountMinor: intent.amount, currency: intent.currency, chargeRef: intent.latestCharge, providerRef: sessionId },
    now,
  );
  return { applied: r.funded, ...(r.refused ? { refused: r.refused } : {}) };
};

/** Whether a Chapa tx_ref is a freight payment's. */
export const isFreightTxRef = (txRef: string) => txRef.startsWith(FREIGHT_CHAPA_PREFIX);

/**
 * Confirms a Chapa freight payment with Chapa's verify call (from the signed webhook, the callback or the return):
 * success funds it once, with the amount Chapa reports; failed or cancelled is recorded (the shipper may try again).
 */
export const confirmFreightChapa = async (db: TDb, services: TPaymentServices, txRef: string, now = Date.now()) => {
  const chapa = services.chapa;
  if (!chapa) throw providerNotConfigured("chapa");
  const [p] = await db
    .select()
    .from(freightPayments)
    .where(and(eq(freightPayments.provider, "chapa"), eq(freightPayments.providerRef, txRef)));
  const id = p?.id ?? Number(/^mytess-load-(\d+)-/.exec(txRef)?.[1]);
  if (!p && !id) return { status: "ignored" as const, ignored: `no freight payment has tx_ref ${txRef}` };
  const [row] = p ? [p] : await db.select().from(freightPayments).where(eq(freightPayments.id, id));
  if (!row) return { status: "ignored" as const, ignored: `no freight payment has tx_ref ${txRef}` };
  if (row.state !== "awaiting_payment" && row.state !== "failed") return { status: row.state };
  const t = await chapa.verify(txRef);
  if (t.txRef !== txRef) return { status: row.state, refused: `Chapa answered for ${t.txRef}` };
  if (t.status === "success") {
    const r = await fundPayment(
      db,
      row.id,
      {
        amountMinor: Math.round(t.amount * 100),
        currency: t.currency,
        chargeRef: t.reference ?? txRef,
        providerRef: txRef,
      },
      now,
    );
    return { status: r.status, ...(r.refused ? { refused: r.refused } : {}) };
  }
  if (
    (t.status === "failed" || t.status === "cancelled") &&
    row.providerRef === txRef &&
    row.state === "awaiting_payment"
  )
    await db.transaction(async (tx) => {
      const [changed] = await tx
        .update(freightPayments)
        .set({ state: "failed", note: `Chapa: ${t.status}`, updatedAt: now })
        .where(and(eq(freightPayments.id, row.id), eq(freightPayments.state, "awaiting_payment")))
        .returning();
      if (changed) await recordPaymentEvent(tx, row.id, "failed", { reason: t.status, txRef }, now);
    });
  return { status: t.status === "success" ? "funded" : "failed" };
};

/**
 * The operator's look at a Chapa checkout page still open (`mytess payments checkout-check <id>`): Chapa's verify of
 * the payment's tx_ref, and when it is settled (success or failed/cancelled), the same confirmation as the webhook.
 * Pending stays pending. Only a Chapa payment awaiting payment with a page opened (404 unknown id, 409 otherwise).
 */
export const checkCheckout = async (db: TDb, services: TPaymentServices, paymentId: number, now = Date.now()) => {
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
  if (
    p.provider !== "chapa" ||
    p.state !== "awaiting_payment" ||
    !p.providerRef ||
    p.providerRef.startsWith("pending-")
  )
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.checkout.notChecked",
        message: "Payment {id} is {state} ({provider}): only a Chapa payment whose page is open can be checked",
        values: { id: p.id, state: p.state, provider: p.provider },
      },
    );
  const chapa = services.chapa;
  if (!chapa) throw providerNotConfigured("chapa");
  const t = await chapa.verify(p.providerRef);
  if (t.status === "success" || t.status === "failed" || t.status === "cancelled")
    await confirmFreightChapa(db, services, p.providerRef, now);
  const [after] = await db.select().from(freightPayments).where(eq(freightPayments.id, p.id));
  return { paymentId: p.id, state: after?.state ?? p.state, chapa: t.status, txRef: p.providerRef };
};
