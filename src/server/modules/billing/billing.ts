import { randomBytes } from "node:crypto";
import { and, desc, eq, lt, sql } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { billingEvents, type Payment, payments, type User, users } from "../../../../db/tables";
import { PREMIUM_PRICE_USD, PREMIUM_YEAR_PRICE_MONTHS } from "../../../shared/constants";
import { fromMinor } from "../../../shared/money";
import { AppError } from "../../errors";
import type { TPaymentServices } from "../../integrations/payments/services";
import { STRIPE_MIN_TRIAL_MS, stripeEventRefs } from "../../integrations/payments/stripe";
import type { TStripeEvent } from "../../integrations/payments/types";
import { enqueueBillingNotice } from "../notifications/notify";
import { fromUsd, loadRates } from "../platform/fx";
import { subscriptionOf } from "./premium";

export { hasPremium, REFUND_WINDOW_MS, requirePremium, SUBSCRIPTION_REQUIRED, subscriptionOf } from "./premium";

// Premium that can be bought ($29 a month, six months free, cancel any time, money back within 30 days).
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
 * A price in birr as people quote one: to 10 birr below 1,000, to 50 below 10,000, else to 100. The day's rate has
 * four decimals; a price of 4,558.83 birr would change every day and read like a conversion, not a price.
 */
export const cleanBirr = (amount: number) => {
  const step = amount < 1000 ? 10 : amount < 10_000 ? 50 : 100;
  return Math.max(step, Math.round(amount / step) * step);
};

/**
 * What premium costs in each currency offered: USD at the list price, EUR at the day's rate, ETB as the operator set it
 * (PREMIUM_PRICE_ETB) or at the day's rate rounded to a clean figure. A payment records the price it was asked at, and
 * a Chapa payment is checked against that record, so a price that changes later never changes what a payment bought. Birr also has a
 * yearly price (twelve months for PREMIUM_YEAR_PRICE_MONTHS), since Chapa cannot renew a month by itself.
 */
export const premiumPrices = async (db: TDb, services: TPaymentServices) => {
  const rates = await loadRates(db);
  const etbMonth = services.premiumPriceEtb ?? cleanBirr(fromUsd(rates, PREMIUM_PRICE_USD, "ETB"));
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
  // Premium bought during the free trial starts when the trial ends: what the trial had left is kept.
  const current = subscriptionOf(user, now);
  const trialLeft = current.trialStatus.isTrialActive;
  if (currency === "USD" || currency === "EUR") {
    // A second card subscription would charge twice for the same months.
    if (user.stripeSubscriptionId && (current.billingStartsAt || (user.paidUntil ?? 0) > now))
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.subscription.cardSubscribed",
          message: "Your card subscription is already set up; manage or cancel it on the subscription page",
        },
      );
    const stripe = services.stripe!;
    // Stripe takes a trial end 48 hours or more ahead; with less of the trial left, billing starts at once.
    const trialEnd = trialLeft && user.trialEndsAt - now >= STRIPE_MIN_TRIAL_MS ? user.trialEndsAt : null;
    const session = await stripe.createCheckoutSession({
      currency,
      email: user.email,
      clientReferenceId: String(user.id),
      customerId: user.stripeCustomerId,
      trialEnd,
      successUrl: `${baseUrl}/subscribe?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
      cancelUrl: `${baseUrl}/subscribe?checkout=cancelled`,
      // A second click in the same minute gets the same session; another customer or trial end is another request.
      idempotencyKey: `checkout-${user.id}-${Math.floor(now / 60_000)}-${currency}-${user.stripeCustomerId ?? "new"}-${trialEnd ?? 0}`,
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

/** Whether the free trial still runs at `at` (a cancellation or a refund leaves it running). */
const trialRunsAt = (u: Pick<User, "trialEndsAt">, at: number) => u.trialEndsAt - at > 60_000;

/**
 * What a cancellation records: its time, unless the account's free trial still runs then. A cancelled account has no
 * trial (premium.ts), so a cancellation or a refund during the trial would otherwise take the trial's days with it.
 */
const cancelledAt = (u: Pick<User, "trialEndsAt">, at: number) => (trialRunsAt(u, at) ? null : at);

/** An event that names our plan or account but no account can be found for yet: Stripe is asked to send it again. */
class NotPlacedYet extends Error {}

/**
 * The account an event is about: the one its own metadata names (Checkout's client_reference_id, the subscription's
 * metadata, the invoice's copy of it), else the account that holds its subscription or customer. `ignore` when the
 * event is not ours (no account named, none of our Prices) or names an account that no longer exists; `NotPlacedYet`
 * when it is for our plan but nothing links it to an account yet (an object from before the metadata was set, whose
 * checkout.session.completed is still on its way).
 */
const placeStripeEvent = async (
  tx: Pick<TDb, "select">,
  e: TStripeEvent,
  plan: TStripePlan,
): Promise<{ user: User } | { ignore: string }> => {
  const refs = stripeEventRefs(e);
  if (refs.account !== null) {
    const [u] = /^\d{1,15}$/.test(refs.account)
      ? await tx
          .select()
          .from(users)
          .where(eq(users.id, Number(refs.account)))
      : [];
    return u ? { user: u } : { ignore: `no account ${refs.account} here` };
  }
  if (refs.subscription) {
    const [u] = await tx.select().from(users).where(eq(users.stripeSubscriptionId, refs.subscription));
    if (u) return { user: u };
  }
  if (refs.customer) {
    const [u] = await tx.select().from(users).where(eq(users.stripeCustomerId, refs.customer));
    if (u) return { user: u };
  }
  const ours = Object.values(plan.prices).filter(Boolean) as string[];
  if (refs.prices.some((p) => ours.includes(p)))
    throw new NotPlacedYet(
      `${e.type} for ${refs.subscription ?? refs.customer ?? "an unknown subscription"} names no account yet`,
    );
  return { ignore: "not for the premium plan and no account is named" };
};

/** The Stripe events that change an account; others are answered and left alone. */
export const STRIPE_EVENTS = [
  "checkout.session.completed",
  "customer.subscription.created",
  "customer.subscription.updated",
  "customer.subscription.deleted",
  "invoice.paid",
  "invoice.payment_failed",
] as const;

export type TStripeOutcome = {
  applied: boolean;
  replayed: boolean;
  /** A paid invoice that bought nothing, and why. */
  refused?: string;
  /** An event left alone, and why (not ours, nothing paid, older than what is known). */
  ignored?: string;
  /** Not placed yet: answer 5xx so that Stripe sends it again later; nothing was recorded. */
  retry?: string;
};

/**
 * A verified Stripe event, applied once, in whatever order events arrive. checkout.session.completed and
 * customer.subscription.* link the account to its customer and subscription (an older subscription event than the
 * newest applied changes nothing); invoice.paid grants the period it bought, once per invoice, after checking it
 * against the plan; invoice.payment_failed is recorded; customer.subscription.deleted ends premium (not the free
 * trial's days). An event for our plan that names no account yet is not recorded, and says `retry`.
 */
export const applyStripeEvent = async (
  db: TDb,
  e: TStripeEvent,
  plan: TStripePlan,
  now = Date.now(),
): Promise<TStripeOutcome> => {
  if (!(STRIPE_EVENTS as readonly string[]).includes(e.type))
    return { applied: false, replayed: false, ignored: `${e.type} is not used` };
  try {
    return await db.transaction((tx) => applyPlacedStripeEvent(tx, e, plan, now));
  } catch (err) {
    if (err instanceof NotPlacedYet) return { applied: false, replayed: false, retry: err.message };
    throw err;
  }
};

const applyPlacedStripeEvent = async (
  tx: TTx,
  e: TStripeEvent,
  plan: TStripePlan,
  now: number,
): Promise<TStripeOutcome> => {
  if (!(await firstTime(tx, `stripe:${e.id}`, now))) return { applied: false, replayed: true };
  const placed = await placeStripeEvent(tx, e, plan);
  if ("ignore" in placed) return { applied: false, replayed: false, ignored: placed.ignore };
  const user = placed.user;
  const o = e.object;
  const refs = stripeEventRefs(e);

  if (e.type === "checkout.session.completed") {
    // A subscription event newer than this one may already have linked (or ended) the account's subscription.
    const newer = user.billingEventAt != null && e.created < user.billingEventAt;
    await tx
      .update(users)
      .set({
        stripeCustomerId: refs.customer ?? user.stripeCustomerId,
        stripeSubscriptionId: newer ? user.stripeSubscriptionId : (refs.subscription ?? user.stripeSubscriptionId),
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
    const amount = num(e.type === "invoice.paid" ? o.amount_paid : o.amount_due) ?? 0;
    const currency = String(o.currency ?? "usd").toUpperCase();
    const links = {
      billingProvider: "stripe" as const,
      stripeSubscriptionId: user.stripeSubscriptionId ?? refs.subscription,
      stripeCustomerId: user.stripeCustomerId ?? refs.customer,
    };
    const [known] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.provider, "stripe"), eq(payments.providerRef, String(o.id))));
    if (e.type === "invoice.payment_failed") {
      if (!known)
        await tx.insert(payments).values({
          userId: user.id,
          provider: "stripe",
          providerRef: String(o.id),
          status: "failed",
          amountMinor: amount,
          currency,
          createdAt: now,
          updatedAt: now,
        });
      return { applied: !known, replayed: false };
    }
    // Paid, then refunded (a late delivery after the refund), or already granted: nothing more.
    if (known && (known.status === "paid" || known.status === "refunded"))
      return { applied: false, replayed: false, ignored: `invoice ${String(o.id)} is already ${known.status}` };
    // A trial's first invoice is for nothing; the first charge comes with the invoice at the trial's end.
    if (amount === 0) {
      await tx
        .update(users)
        .set({ ...links, updatedAt: now })
        .where(eq(users.id, user.id));
      return { applied: false, replayed: false, ignored: "nothing was paid (a trial's first invoice)" };
    }
    const bought = boughtPeriod(o, plan, now);
    if ("refused" in bought) {
      // Kept, so the user and support see a payment that bought nothing, and why.
      if (!known)
        await tx.insert(payments).values({
          userId: user.id,
          provider: "stripe",
          providerRef: String(o.id),
          status: "failed",
          amountMinor: amount,
          currency,
          note: `Not granted: ${bought.refused}`,
          createdAt: now,
          updatedAt: now,
        });
      return { applied: false, replayed: false, refused: bought.refused };
    }
    const { start, end } = bought;
    const paid = {
      refundRef:
        str(o.payment_intent) ??
        str(
          (o.payments as { data?: { payment?: { payment_intent?: unknown } }[] } | undefined)?.data?.[0]?.payment
            ?.payment_intent,
        ),
      status: "paid" as const,
      amountMinor: amount,
      currency,
      months: 1,
      periodStart: start,
      periodEnd: end,
      receiptUrl: typeof o.hosted_invoice_url === "string" ? o.hosted_invoice_url : null,
      note: null,
      updatedAt: now,
    };
    if (known) await tx.update(payments).set(paid).where(eq(payments.id, known.id));
    else
      await tx
        .insert(payments)
        .values({ userId: user.id, provider: "stripe", providerRef: String(o.id), createdAt: now, ...paid });
    await tx
      .update(users)
      .set({
        paidUntil: sql`CASE WHEN ${users.paidUntil} IS NULL OR ${users.paidUntil} < ${end} THEN ${end} ELSE ${users.paidUntil} END`,
        subscriptionCancelledAt: null,
        ...links,
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

  // customer.subscription.created / updated / deleted
  const subscriptionId = refs.subscription;
  // An older state arriving after a newer one is not applied; at the same second, a subscription the account no longer
  // holds (ended, or replaced) is not brought back.
  if (
    user.billingEventAt != null &&
    (e.created < user.billingEventAt ||
      (e.created === user.billingEventAt && user.stripeSubscriptionId !== subscriptionId))
  )
    return { applied: false, replayed: false, ignored: "older than the subscription's last known state" };
  const status = String(o.status ?? "");
  if (e.type === "customer.subscription.deleted" || status === "canceled" || status === "incomplete_expired") {
    // Deleted means over: premium ends when Stripe ended it, and no later than the event; the trial's days stay.
    const endedAt = Math.min(e.created, (num(o.ended_at) ?? num(o.canceled_at) ?? 0) * 1000 || e.created);
    await tx
      .update(users)
      .set({
        paidUntil: sql`CASE WHEN ${users.paidUntil} > ${endedAt} THEN ${endedAt} ELSE ${users.paidUntil} END`,
        subscriptionCancelledAt: cancelledAt(user, endedAt),
        cancelAtPeriodEnd: false,
        stripeSubscriptionId: user.stripeSubscriptionId === subscriptionId ? null : user.stripeSubscriptionId,
        stripeCustomerId: user.stripeCustomerId ?? refs.customer,
        billingEventAt: e.created,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    return { applied: true, replayed: false };
  }
  // Only a paid invoice extends premium: a subscription's own period (a trial, an unpaid renewal) buys nothing.
  await tx
    .update(users)
    .set({
      cancelAtPeriodEnd: o.cancel_at_period_end === true,
      stripeSubscriptionId: subscriptionId ?? user.stripeSubscriptionId,
      stripeCustomerId: refs.customer ?? user.stripeCustomerId,
      billingProvider: "stripe",
      billingEventAt: e.created,
      updatedAt: now,
    })
    .where(eq(users.id, user.id));
  return { applied: true, replayed: false };
};

/**
 * A Chapa payment: verified with Chapa before anything is granted (a webhook, the callback or the return page may each
 * be first); the pending payment becomes paid once, and buys its months from the latest of now, the paid period's end
 * and the free trial's end (premium bought during the trial starts when the trial ends). A payment the customer
 * abandoned on Chapa's page is "cancelled", one Chapa declined "failed": Chapa's verify says which, or, where it says
 * only failed, the signed webhook's event (`charge.cancelled`) does.
 */
export const confirmChapa = async (
  db: TDb,
  services: TPaymentServices,
  txRef: string,
  now = Date.now(),
  webhookEvent: string | null = null,
) => {
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
    const ended =
      t.status === "cancelled" || (t.status === "failed" && webhookEvent === "charge.cancelled")
        ? ("cancelled" as const)
        : t.status === "failed"
          ? ("failed" as const)
          : null;
    if (!ended) return { status: "pending", payment: p };
    const [changed] = await db
      .update(payments)
      .set({ status: ended, updatedAt: now })
      .where(and(eq(payments.id, p.id), eq(payments.status, "pending")))
      .returning();
    return { status: ended, payment: changed ?? p };
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
    const trialEnd = u && subscriptionOf(u, now).trialStatus.isTrialActive ? u.trialEndsAt : 0;
    const from = Math.max(now, u?.paidUntil ?? 0, trialEnd);
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

/**
 * Chapa's signed webhook: checked, then confirmed with Chapa's verify call. What is not a payment of ours (a payout,
 * a transaction this installation did not create, a body we cannot use) is answered and left alone: Chapa sends again
 * whatever it does not see a 200 for, so refusing it would only bring it back. A bad signature is still refused.
 */
export const applyChapaWebhook = async (
  db: TDb,
  services: TPaymentServices,
  raw: string,
  headers: Headers,
): Promise<Awaited<ReturnType<typeof confirmChapa>> | { status: "ignored"; ignored: string }> => {
  const chapa = services.chapa;
  if (!chapa) throw notConfigured("ETB");
  const hook = chapa.verifyWebhook(raw, headers);
  if (hook.kind === "payout")
    return { status: "ignored", ignored: `a payout webhook (${hook.event ?? "no event"}): MyTess makes no payouts` };
  if (hook.kind === "unreadable") return { status: "ignored", ignored: "a signed body that names no transaction" };
  const [p] = await db
    .select({ id: payments.id })
    .from(payments)
    .where(and(eq(payments.provider, "chapa"), eq(payments.providerRef, hook.txRef)));
  if (!p) return { status: "ignored", ignored: `no payment here has tx_ref ${hook.txRef}` };
  return confirmChapa(db, services, hook.txRef, Date.now(), hook.event);
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
 * payment, the last payment is refunded through its provider and the paid period ends now (what the free trial had left stays).
 */
export const cancelSubscription = async (
  db: TDb,
  services: TPaymentServices,
  user: User,
  refund: boolean,
  now = Date.now(),
) => {
  const status = subscriptionOf(user, now);
  // A card subscription that starts when the free trial ends has charged nothing yet: it is cancelled at Stripe now,
  // nothing is refunded, and the trial runs on.
  if (status.billingStartsAt && user.stripeSubscriptionId && services.stripe) {
    await services.stripe.cancelNow(user.stripeSubscriptionId);
    await db
      .update(users)
      .set({
        stripeSubscriptionId: null,
        cancelAtPeriodEnd: false,
        billingEventAt: Math.floor(now / 1000) * 1000,
        updatedAt: now,
      })
      .where(eq(users.id, user.id));
    const [fresh] = await db.select().from(users).where(eq(users.id, user.id));
    return { ...subscriptionOf(fresh!, now), refunded: false };
  }
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
      // The paid period ends now; what the free trial had left runs on (a refund does not take it).
      await tx
        .update(users)
        .set({
          paidUntil: now,
          subscriptionCancelledAt: cancelledAt(user, now),
          cancelAtPeriodEnd: false,
          stripeSubscriptionId: null,
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

/**
 * The account's payments, newest first. A Stripe Checkout whose invoice arrived is kept as "cancelled" (the invoice is
 * the payment) and not listed; a Chapa checkout the customer abandoned is listed as cancelled.
 */
export const listPayments = async (db: TDb, user: User) =>
  (await db.select().from(payments).where(eq(payments.userId, user.id)).orderBy(desc(payments.id)).limit(100))
    .filter((p) => !(p.provider === "stripe" && p.status === "cancelled"))
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
