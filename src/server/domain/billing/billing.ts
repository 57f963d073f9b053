import { randomBytes } from "node:crypto";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { billingEvents, type Payment, payments, type User, users } from "../../../../db/tables";
import { PREMIUM_PRICE_USD, PREMIUM_YEAR_PRICE_MONTHS } from "../../../shared/constants";
import { fromMinor } from "../../../shared/money";
import { AppError } from "../../errors";
import type { TPaymentServices } from "../../integrations/payments/services";
import type { TStripeEvent } from "../../integrations/payments/types";
import { fromUsd, loadRates } from "../fx";
import { enqueueBillingNotice } from "../push/notify";
import { subscriptionOf } from "./premium";

export { hasPremium, REFUND_WINDOW_MS, requirePremium, SUBSCRIPTION_REQUIRED, subscriptionOf } from "./premium";

// Premium that can be bought (SPEC §1: $29 a month, six months free, cancel any time, money back within 30 days).
// Access is granted only by what a provider confirms to the server: Stripe's signed webhooks, Chapa's signed webhook or
// return followed by a verify call. Every event is applied once (billing_events); a subscription event older than the
// newest one applied changes nothing, so events arriving out of order end in the right state.

const DAY = 24 * 60 * 60 * 1000;
export const CURRENCIES = ["USD", "EUR", "ETB"] as const;
export type TBillingCurrency = (typeof CURRENCIES)[number];
/**
 * How long one payment buys. Stripe renews every month by itself; Chapa has no recurring billing, so birr buys a month
 * or, at the yearly price, twelve.
 */
export const PERIODS = ["month", "year"] as const;
export type TBillingPeriod = (typeof PERIODS)[number];
const MONTHS_OF: Record<TBillingPeriod, number> = { month: 1, year: 12 };

const addMonths = (at: number, months: number) => {
  const d = new Date(at);
  d.setUTCMonth(d.getUTCMonth() + months);
  return d.getTime();
};

const money = (minor: number, currency: string) => `${fromMinor(minor, currency).toFixed(2)} ${currency}`;

/**
 * What premium costs in each currency offered: USD as SPEC says, EUR and ETB at the admin's rates. Birr also has a
 * yearly price (twelve months for PREMIUM_YEAR_PRICE_MONTHS), since Chapa cannot renew a month by itself.
 */
export const premiumPrices = async (db: TDb, services: TPaymentServices) => {
  const rates = await loadRates(db);
  const etbMonth = Math.round(fromUsd(rates, PREMIUM_PRICE_USD, "ETB"));
  const all = [
    {
      currency: "USD" as const,
      period: "month" as const,
      months: 1,
      amount: PREMIUM_PRICE_USD,
      provider: "stripe" as const,
    },
    {
      currency: "EUR" as const,
      period: "month" as const,
      months: 1,
      amount: Math.round(fromUsd(rates, PREMIUM_PRICE_USD, "EUR") * 100) / 100,
      provider: "stripe" as const,
    },
    { currency: "ETB" as const, period: "month" as const, months: 1, amount: etbMonth, provider: "chapa" as const },
    {
      currency: "ETB" as const,
      period: "year" as const,
      months: MONTHS_OF.year,
      amount: etbMonth * PREMIUM_YEAR_PRICE_MONTHS,
      provider: "chapa" as const,
    },
  ];
  return all.filter((p) =>
    p.provider === "stripe"
      ? (services.stripe?.currencies as readonly string[] | undefined)?.includes(p.currency)
      : services.chapa !== null,
  );
};

const notConfigured = (currency: string) =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.subscription.currencyUnavailable",
      message: "Payment in {currency} is not available",
      values: { currency },
    },
    {
      issues: [
        {
          path: "currency",
          message: /*i18n*/ {
            id: "error.subscription.currencyUnavailableShort",
            comment: "Field error on the currency of a payment: this currency cannot be used",
            message: "not available",
          },
        },
      ],
    },
  );

const yearlyOnlyInBirr = () =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ { id: "error.subscription.yearlyBirrOnly", message: "A yearly payment is offered in ETB only" },
    {
      issues: [
        {
          path: "period",
          message: /*i18n*/ {
            id: "error.subscription.yearlyBirrOnlyShort",
            comment: "Field error on a yearly payment: yearly payments are only in Ethiopian birr (ETB)",
            message: "yearly is offered in ETB only",
          },
        },
      ],
    },
  );

/**
 * A hosted checkout: Stripe Checkout for a monthly subscription (USD, EUR), or Chapa's page for one month or one year
 * of premium in birr.
 */
export const startCheckout = async (
  db: TDb,
  services: TPaymentServices,
  user: User,
  currency: TBillingCurrency,
  baseUrl: string,
  now = Date.now(),
  period: TBillingPeriod = "month",
) => {
  if (period === "year" && currency !== "ETB") throw yearlyOnlyInBirr();
  const price = (await premiumPrices(db, services)).find((p) => p.currency === currency && p.period === period);
  if (!price) throw notConfigured(currency);
  if (currency === "USD" || currency === "EUR") {
    const stripe = services.stripe!;
    const session = await stripe.createCheckoutSession({
      currency,
      email: user.email,
      clientReferenceId: String(user.id),
      customerId: user.stripeCustomerId,
      successUrl: `${baseUrl}/subscribe?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${baseUrl}/subscribe?checkout=cancelled`,
      idempotencyKey: `checkout-${user.id}-${Math.floor(now / 60_000)}-${currency}`,
    });
    await db
      .insert(payments)
      .values({
        userId: user.id,
        provider: "stripe",
        providerRef: session.id,
        status: "pending",
        amountMinor: Math.round(price.amount * 100),
        currency,
        months: 1,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    return { url: session.url, provider: "stripe" as const };
  }
  const chapa = services.chapa!;
  const txRef = `mytess-${user.id}-${now.toString(36)}-${randomBytes(4).toString("hex")}`;
  const { checkoutUrl } = await chapa.initialize({
    amount: price.amount,
    currency: "ETB",
    txRef,
    email: user.email,
    firstName: user.firstName,
    lastName: user.lastName,
    callbackUrl: `${baseUrl}/api/webhooks/chapa/callback`,
    returnUrl: `${baseUrl}/subscribe?checkout=return&tx_ref=${encodeURIComponent(txRef)}`,
    title: "MyTess Premium",
    description: price.months === 1 ? "One month of MyTess Premium" : `${price.months} months of MyTess Premium`,
  });
  await db.insert(payments).values({
    userId: user.id,
    provider: "chapa",
    providerRef: txRef,
    status: "pending",
    amountMinor: Math.round(price.amount * 100),
    currency: "ETB",
    months: price.months,
    createdAt: now,
    updatedAt: now,
  });
  return { url: checkoutUrl, provider: "chapa" as const };
};

/** Records a provider event id; false when it was applied before (a replay). */
const firstTime = async (tx: Pick<TDb, "insert">, id: string, now: number) =>
  (
    await tx
      .insert(billingEvents)
      .values({ id, receivedAt: now })
      .onConflictDoNothing()
      .returning({ id: billingEvents.id })
  ).length > 0;

const str = (v: unknown) =>
  typeof v === "string" ? v : v && typeof v === "object" && "id" in v ? String((v as { id: unknown }).id) : null;
const num = (v: unknown) => (typeof v === "number" ? v : null);

const userByStripe = async (
  tx: Pick<TDb, "select">,
  o: { customer?: string | null; subscription?: string | null; ref?: string | null },
) => {
  if (o.ref && /^\d+$/.test(o.ref)) {
    const [u] = await tx
      .select()
      .from(users)
      .where(eq(users.id, Number(o.ref)));
    if (u) return u;
  }
  if (o.subscription) {
    const [u] = await tx.select().from(users).where(eq(users.stripeSubscriptionId, o.subscription));
    if (u) return u;
  }
  if (o.customer) {
    const [u] = await tx.select().from(users).where(eq(users.stripeCustomerId, o.customer));
    if (u) return u;
  }
  return null;
};

/** What buys premium through Stripe: the configured monthly Price of each currency. */
export type TStripePlan = { prices: { USD?: string; EUR?: string } };

type TInvoiceLine = {
  period?: { start?: number; end?: number };
  quantity?: number | null;
  /** Since basil: the line's Price and unit amount (minor units, as a decimal string). */
  pricing?: { price_details?: { price?: unknown } | null; unit_amount_decimal?: string | null } | null;
  /** Before basil. */
  price?: { id?: string; unit_amount?: number | null } | null;
};

const isoOf = (ms: number) => (ms > 0 ? new Date(ms).toISOString() : "none");

/**
 * The period a paid invoice buys, never taken on its word: a line for the plan's Price, in that Price's currency, one
 * of it, paid at least the Price's amount, for a period of at most a month that has begun. Anything else (another
 * product on the account, a discount, a longer period) buys nothing: `refused` says why.
 */
const boughtPeriod = (
  inv: Record<string, unknown>,
  plan: TStripePlan,
  now: number,
): { start: number; end: number } | { refused: string } => {
  const currency = String(inv.currency ?? "").toUpperCase();
  const lines = ((inv.lines as { data?: TInvoiceLine[] } | undefined)?.data ?? []) as TInvoiceLine[];
  const priceOf = (l: TInvoiceLine) => str(l.pricing?.price_details?.price) ?? l.price?.id ?? null;
  const ours = Object.entries(plan.prices).filter((e): e is [string, string] => !!e[1]);
  const line = lines.find((l) => ours.some(([, id]) => id === priceOf(l)));
  if (!line) return { refused: `no line is for the premium plan (${lines.map(priceOf).join(", ") || "no lines"})` };
  const price = priceOf(line)!;
  const planCurrency = ours.find(([, id]) => id === price)![0];
  if (planCurrency !== currency) return { refused: `paid in ${currency}, but ${price} is the ${planCurrency} price` };
  if ((line.quantity ?? 1) !== 1) return { refused: `${line.quantity} of the plan, not one` };
  const unit = Number(line.pricing?.unit_amount_decimal ?? line.price?.unit_amount ?? Number.NaN);
  const paid = num(inv.amount_paid) ?? 0;
  if (!(unit > 0)) return { refused: `the line does not say what ${price} costs` };
  if (paid < unit) return { refused: `paid ${money(paid, currency)}, the plan costs ${money(unit, currency)}` };
  const start = (line.period?.start ?? 0) * 1000;
  const end = (line.period?.end ?? 0) * 1000;
  if (!start || end <= start || end > addMonths(start, 1) + DAY || start > now + DAY)
    return { refused: `the period ${isoOf(start)} to ${isoOf(end)} is not a month of the plan that has begun` };
  return { start, end };
};

/**
 * A verified Stripe event, applied once. checkout.session.completed links the account to its customer and
 * subscription; invoice.paid extends the paid period and records the payment; invoice.payment_failed tells the user;
 * customer.subscription.updated / deleted set renewal and the end, unless a newer subscription event was applied.
 */
export const applyStripeEvent = async (
  db: TDb,
  e: TStripeEvent,
  plan: TStripePlan,
  now = Date.now(),
): Promise<{ applied: boolean; replayed: boolean; refused?: string }> =>
  db.transaction(async (tx) => {
    if (!(await firstTime(tx, `stripe:${e.id}`, now))) return { applied: false, replayed: true };
    const o = e.object;
    if (e.type === "checkout.session.completed") {
      const user = await userByStripe(tx, { ref: str(o.client_reference_id), customer: str(o.customer) });
      if (!user) return { applied: false, replayed: false };
      await tx
        .update(users)
        .set({
          stripeCustomerId: str(o.customer),
          stripeSubscriptionId: str(o.subscription),
          billingProvider: "stripe",
          updatedAt: now,
        })
        .where(eq(users.id, user.id));
      await tx
        .update(payments)
        .set({ status: "cancelled", note: "checkout completed: the invoice is the payment", updatedAt: now })
        .where(
          and(eq(payments.provider, "stripe"), eq(payments.providerRef, String(o.id)), eq(payments.status, "pending")),
        );
      return { applied: true, replayed: false };
    }
    if (e.type === "invoice.paid" || e.type === "invoice.payment_failed") {
      const subscription =
        str(o.subscription) ??
        str(
          (o.parent as { subscription_details?: { subscription?: unknown } } | undefined)?.subscription_details
            ?.subscription,
        );
      const user = await userByStripe(tx, { subscription, customer: str(o.customer) });
      if (!user) return { applied: false, replayed: false };
      const amount = num(e.type === "invoice.paid" ? o.amount_paid : o.amount_due) ?? 0;
      const currency = String(o.currency ?? "usd").toUpperCase();
      if (e.type === "invoice.payment_failed") {
        await tx
          .insert(payments)
          .values({
            userId: user.id,
            provider: "stripe",
            providerRef: String(o.id),
            status: "failed",
            amountMinor: amount,
            currency,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing();
        return { applied: true, replayed: false };
      }
      const bought = boughtPeriod(o, plan, now);
      if ("refused" in bought) {
        // Kept, so the user and support see a payment that bought nothing, and why.
        await tx
          .insert(payments)
          .values({
            userId: user.id,
            provider: "stripe",
            providerRef: String(o.id),
            status: "failed",
            amountMinor: amount,
            currency,
            note: `Not granted: ${bought.refused}`,
            createdAt: now,
            updatedAt: now,
          })
          .onConflictDoNothing();
        return { applied: false, replayed: false, refused: bought.refused };
      }
      const { start, end } = bought;
      await tx
        .insert(payments)
        .values({
          userId: user.id,
          provider: "stripe",
          providerRef: String(o.id),
          refundRef:
            str(o.payment_intent) ??
            str(
              (o.payments as { data?: { payment?: { payment_intent?: unknown } }[] } | undefined)?.data?.[0]?.payment
                ?.payment_intent,
            ),
          status: "paid",
          amountMinor: amount,
          currency,
          months: 1,
          periodStart: start,
          periodEnd: end,
          receiptUrl: typeof o.hosted_invoice_url === "string" ? o.hosted_invoice_url : null,
          createdAt: now,
          updatedAt: now,
        })
        .onConflictDoUpdate({
          target: [payments.provider, payments.providerRef],
          set: { status: "paid", periodEnd: end, updatedAt: now },
        });
      await tx
        .update(users)
        .set({
          paidUntil: sql`CASE WHEN ${users.paidUntil} IS NULL OR ${users.paidUntil} < ${end} THEN ${end} ELSE ${users.paidUntil} END`,
          subscriptionCancelledAt: null,
          billingProvider: "stripe",
          stripeSubscriptionId: subscription ?? user.stripeSubscriptionId,
          stripeCustomerId: str(o.customer) ?? user.stripeCustomerId,
          firstPaidAt: user.firstPaidAt ?? now,
          updatedAt: now,
        })
        .where(eq(users.id, user.id));
      await enqueueBillingNotice(
        tx,
        user.id,
        "payment_received",
        { amount: money(amount, currency), until: end },
        `stripe:${o.id}`,
        now,
      );
      return { applied: true, replayed: false };
    }
    if (e.type === "customer.subscription.updated" || e.type === "customer.subscription.deleted") {
      const user = await userByStripe(tx, { subscription: str(o.id), customer: str(o.customer) });
      if (!user) return { applied: false, replayed: false };
      // An older state arriving after a newer one is not applied.
      if (user.billingEventAt != null && e.created < user.billingEventAt) return { applied: false, replayed: false };
      const status = String(o.status ?? "");
      if (e.type === "customer.subscription.deleted" || status === "canceled") {
        // Deleted means over: premium ends when Stripe ended it, and no later than the event.
        const endedAt = Math.min(e.created, (num(o.ended_at) ?? num(o.canceled_at) ?? 0) * 1000 || e.created);
        await tx
          .update(users)
          .set({
            paidUntil: sql`CASE WHEN ${users.paidUntil} IS NULL OR ${users.paidUntil} > ${endedAt} THEN ${endedAt} ELSE ${users.paidUntil} END`,
            subscriptionCancelledAt: endedAt,
            cancelAtPeriodEnd: false,
            billingEventAt: e.created,
            updatedAt: now,
          })
          .where(eq(users.id, user.id));
        return { applied: true, replayed: false };
      }
      // Only a paid invoice extends premium: a subscription's own period (a trial, an unpaid renewal) buys nothing.
      await tx
        .update(users)
        .set({ cancelAtPeriodEnd: o.cancel_at_period_end === true, billingEventAt: e.created, updatedAt: now })
        .where(eq(users.id, user.id));
      return { applied: true, replayed: false };
    }
    return { applied: false, replayed: false };
  });

/**
 * A Chapa payment: verified with Chapa before anything is granted (a webhook, the callback or the return page may each
 * be first); the pending payment becomes paid once, and buys its months from the later of now and the paid period's end.
 */
export const confirmChapa = async (db: TDb, services: TPaymentServices, txRef: string, now = Date.now()) => {
  const chapa = services.chapa;
  if (!chapa) throw notConfigured("ETB");
  const [p] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.provider, "chapa"), eq(payments.providerRef, txRef)));
  if (!p)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ { id: "error.subscription.paymentNotFound", message: "Payment not found" },
    );
  if (p.status !== "pending") return { status: p.status, payment: p };
  const t = await chapa.verify(txRef);
  if (t.status !== "success") {
    if (t.status === "failed")
      await db
        .update(payments)
        .set({ status: "failed", updatedAt: now })
        .where(and(eq(payments.id, p.id), eq(payments.status, "pending")));
    return { status: t.status === "failed" ? "failed" : "pending", payment: p };
  }
  // What Chapa says was paid must be what we asked, for this reference: anything else buys nothing, and says why.
  const refused =
    t.txRef !== txRef
      ? `Chapa answered for ${t.txRef}`
      : t.currency !== p.currency || Math.round(t.amount * 100) !== p.amountMinor
        ? `Chapa reports ${money(Math.round(t.amount * 100), t.currency)}, the price asked was ${money(p.amountMinor, p.currency)}`
        : null;
  if (refused) {
    const [failed] = await db
      .update(payments)
      .set({ status: "failed", note: `Not granted: ${refused}`, updatedAt: now })
      .where(and(eq(payments.id, p.id), eq(payments.status, "pending")))
      .returning();
    return { status: "failed", payment: failed ?? p, refused };
  }
  return db.transaction(async (tx) => {
    const [u] = await tx.select().from(users).where(eq(users.id, p.userId));
    const from = Math.max(now, u?.paidUntil ?? 0);
    const end = addMonths(from, p.months);
    const [paid] = await tx
      .update(payments)
      .set({ status: "paid", refundRef: t.reference, periodStart: from, periodEnd: end, updatedAt: now })
      .where(and(eq(payments.id, p.id), eq(payments.status, "pending")))
      .returning();
    if (!paid) return { status: "paid", payment: p };
    await tx
      .update(users)
      .set({
        paidUntil: end,
        subscriptionCancelledAt: null,
        cancelAtPeriodEnd: false,
        billingProvider: "chapa",
        firstPaidAt: u?.firstPaidAt ?? now,
        reminderSentFor: null,
        updatedAt: now,
      })
      .where(eq(users.id, p.userId));
    await enqueueBillingNotice(
      tx,
      p.userId,
      "payment_received",
      { amount: money(p.amountMinor, "ETB"), until: end },
      `chapa:${txRef}`,
      now,
    );
    return { status: "paid", payment: paid };
  });
};

/** Chapa's signed webhook: checked, then confirmed with Chapa's verify call. */
export const applyChapaWebhook = async (db: TDb, services: TPaymentServices, raw: string, headers: Headers) => {
  const chapa = services.chapa;
  if (!chapa) throw notConfigured("ETB");
  const { txRef } = chapa.verifyWebhook(raw, headers);
  return confirmChapa(db, services, txRef);
};

const latestPaid = async (db: TDb, userId: number) =>
  (
    await db
      .select()
      .from(payments)
      .where(and(eq(payments.userId, userId), eq(payments.status, "paid")))
      .orderBy(desc(payments.id))
      .limit(1)
  )[0] ?? null;

/**
 * Cancel: premium runs to the end of the paid period and does not renew. With `refund` within 30 days of the first
 * payment, the last payment is refunded through its provider and premium ends now.
 */
export const cancelSubscription = async (
  db: TDb,
  services: TPaymentServices,
  user: User,
  refund: boolean,
  now = Date.now(),
) => {
  const status = subscriptionOf(user, now);
  if (!user.paidUntil || user.paidUntil <= now)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ { id: "error.subscription.nothingToCancel", message: "There is no paid period to cancel" },
    );
  if (refund && !status.refundable)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.subscription.refundWindow",
        message: "Refunds are given within 30 days of the first payment; this period runs to its end instead",
      },
    );
  if (refund) {
    const last = await latestPaid(db, user.id);
    // Stripe's invoice events do not carry the payment intent: the subscription's latest invoice gives it.
    if (last?.provider === "stripe" && !last.refundRef && user.stripeSubscriptionId && services.stripe) {
      const sub = await services.stripe.retrieveSubscription(user.stripeSubscriptionId);
      if (sub.latestPaymentIntent) {
        last.refundRef = sub.latestPaymentIntent;
        await db.update(payments).set({ refundRef: sub.latestPaymentIntent }).where(eq(payments.id, last.id));
      }
    }
    if (last?.provider === "stripe" && last.refundRef) {
      await services.stripe?.refund({ paymentIntent: last.refundRef, idempotencyKey: `refund-${last.id}` });
    } else if (last?.provider === "chapa" && last.refundRef) {
      await services.chapa?.refund({ reference: last.refundRef, reason: "30-day money-back guarantee" });
    }
    if (user.stripeSubscriptionId && services.stripe) await services.stripe.cancelNow(user.stripeSubscriptionId);
    await db.transaction(async (tx) => {
      if (last) await tx.update(payments).set({ status: "refunded", updatedAt: now }).where(eq(payments.id, last.id));
      await tx
        .update(users)
        .set({
          paidUntil: now,
          subscriptionCancelledAt: now,
          cancelAtPeriodEnd: false,
          billingEventAt: Math.floor(now / 1000) * 1000,
          updatedAt: now,
        })
        .where(eq(users.id, user.id));
    });
  } else {
    if (user.billingProvider === "stripe" && user.stripeSubscriptionId && services.stripe)
      await services.stripe.setCancelAtPeriodEnd(user.stripeSubscriptionId, true);
    await db
      .update(users)
      .set({ cancelAtPeriodEnd: true, subscriptionCancelledAt: user.paidUntil, updatedAt: now })
      .where(eq(users.id, user.id));
  }
  const [fresh] = await db.select().from(users).where(eq(users.id, user.id));
  return { ...subscriptionOf(fresh!, now), refunded: refund };
};

export const toPublicPayment = (p: Payment) => ({
  id: p.id,
  provider: p.provider,
  status: p.status,
  amount: fromMinor(p.amountMinor, p.currency),
  currency: p.currency,
  months: p.months,
  date: new Date(p.createdAt).toISOString(),
  periodEnd: p.periodEnd == null ? null : new Date(p.periodEnd).toISOString(),
  receiptUrl: p.receiptUrl,
  note: p.note,
});

export const listPayments = async (db: TDb, user: User) =>
  (await db.select().from(payments).where(eq(payments.userId, user.id)).orderBy(desc(payments.id)).limit(100))
    .filter((p) => p.status !== "cancelled")
    .map(toPublicPayment);

/** Stripe's billing portal (cards, invoices) for an account with a Stripe customer. */
export const billingPortal = async (services: TPaymentServices, user: User, baseUrl: string) => {
  if (!services.stripe || !user.stripeCustomerId)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ { id: "error.subscription.noPortal", message: "Card payments are not set up for this account" },
    );
  return services.stripe.createPortalSession(user.stripeCustomerId, `${baseUrl}/subscribe`);
};

/** Support: months of premium granted by hand, recorded as a payment of 0. */
export const grantPremium = async (db: TDb, user: User, months: number, by: string, now = Date.now()) =>
  db.transaction(async (tx) => {
    const from = Math.max(now, user.paidUntil ?? 0);
    const end = addMonths(from, months);
    await tx.insert(payments).values({
      userId: user.id,
      provider: "grant",
      providerRef: `grant-${now}-${randomBytes(3).toString("hex")}`,
      status: "paid",
      amountMinor: 0,
      currency: "USD",
      months,
      periodStart: from,
      periodEnd: end,
      note: `granted by ${by}`,
      createdAt: now,
      updatedAt: now,
    });
    await tx
      .update(users)
      .set({
        paidUntil: end,
        subscriptionCancelledAt: null,
        billingProvider: user.billingProvider ?? "grant",
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    return end;
  });

/**
 * Daily: users whose premium bought in birr (no renewal) ends within three days are reminded once per period, on their
 * channels (a Stripe subscription renews by itself).
 */
export const sendRenewalReminders = async (db: TDb, now = Date.now()) => {
  const due = await db
    .select()
    .from(users)
    .where(and(eq(users.billingProvider, "chapa"), lt(users.paidUntil, now + 3 * DAY)));
  let sent = 0;
  for (const u of due) {
    if (!u.paidUntil || u.paidUntil <= now || u.reminderSentFor === u.paidUntil) continue;
    await db.transaction(async (tx) => {
      await enqueueBillingNotice(
        tx,
        u.id,
        "premium_ending",
        { amount: "", until: u.paidUntil! },
        `${u.id}:${u.paidUntil}`,
        now,
      );
      await tx.update(users).set({ reminderSentFor: u.paidUntil }).where(eq(users.id, u.id));
    });
    sent++;
  }
  return { sent };
};
