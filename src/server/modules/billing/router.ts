import type { TRPCRouterRecord } from "@trpc/server";
import { and, eq } from "drizzle-orm";
import { z } from "zod";
import type { TDb } from "../../../../db/client";
import { payments, users } from "../../../../db/tables";
import { normalizePhone } from "../../../shared/phone";
import {
  ZBillingCancelAnswer,
  ZBillingCheckoutAnswer,
  ZBillingConfirmAnswer,
  ZBillingPaymentsAnswer,
  ZBillingPortalAnswer,
  ZBillingPricesAnswer,
} from "../../../shared/schemas/answers/billing";
import { ZSubscription } from "../../../shared/schemas/answers/common";
import { zText } from "../../../shared/schemas/text";
import { AppError } from "../../errors";
import { authedProcedure, systemProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import {
  billingPortal,
  CURRENCIES,
  cancelSubscription,
  confirmChapa,
  grantPremium,
  listPayments,
  PERIODS,
  premiumPrices,
  startCheckout,
  subscriptionOf,
} from "./billing";

const ZCheckout = z.object({
  currency: z.enum(CURRENCIES, { error: `currency must be one of ${CURRENCIES.join(", ")}` }),
  period: z.enum(PERIODS, { error: `period must be one of ${PERIODS.join(", ")}` }).default("month"),
});

/** Where a payment page sends the buyer back: the request's public origin, else the process's (a door without HTTP). */
const originOf = (ctx: { http: { origin: string } | null; services: { publicOrigin?: string } }) =>
  ctx.http?.origin ?? ctx.services.publicOrigin ?? "http://localhost:3000";

/** The operator names an account by its email, or by its phone number (accounts made with a phone have no email). */
const byEmail = async (db: TDb, email: string) => {
  const phone = email.includes("@") ? null : normalizePhone(email);
  const [u] = await db
    .select()
    .from(users)
    .where(phone ? eq(users.phone, phone) : eq(users.email, email.trim().toLowerCase()));
  if (!u)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ { id: "error.subscription.userNotFound", message: "No account with that email" },
    );
  return u;
};

/** The subscription status and the calls that buy, cancel and list premium. */
export const billingRouter = {
  status: authedProcedure
    .meta(
      rest("GET", "/api/subscription/status", {
        summary: "The subscription's state",
        tags: ["Subscription"],
        scope: "billing:read",
      }),
    )
    .output(ZSubscription)
    .query(({ ctx }) => subscriptionOf(ctx.actor)),
  /** What premium costs in each currency a configured provider takes, and the providers' states. */
  prices: authedProcedure
    .meta(
      rest("GET", "/api/subscription/prices", {
        summary: "Premium's prices",
        tags: ["Subscription"],
        scope: "billing:read",
      }),
    )
    .output(ZBillingPricesAnswer)
    .query(async ({ ctx }) => ({
      prices: await premiumPrices(ctx.db, ctx.services.payments),
      providers: ctx.services.payments.states(),
    })),
  checkout: authedProcedure
    .meta(
      rest("POST", "/api/subscription/checkout", {
        summary: "Start a checkout",
        tags: ["Subscription"],
        scope: "billing:write",
      }),
    )
    .input(ZCheckout)
    .output(ZBillingCheckoutAnswer)
    .mutation(({ ctx, input }) =>
      startCheckout(ctx.db, ctx.services.payments, ctx.actor, input.currency, originOf(ctx), Date.now(), input.period),
    ),
  /** The return from Chapa's page: confirmed with Chapa before anything is granted. */
  confirm: authedProcedure
    .meta(
      rest("POST", "/api/subscription/confirm", {
        summary: "Confirm a payment",
        tags: ["Subscription"],
        scope: "billing:write",
      }),
    )
    .input(z.object({ txRef: zText().trim().min(1, "txRef is required").max(100) }))
    .output(ZBillingConfirmAnswer)
    .mutation(async ({ ctx, input }) => {
      // Another account's payment is not found, and nothing is asked of Chapa for it.
      const [own] = await ctx.db
        .select({ id: payments.id })
        .from(payments)
        .where(and(eq(payments.providerRef, input.txRef), eq(payments.userId, ctx.actor.id)));
      if (!own)
        throw new AppError(
          "NOT_FOUND",
          /*i18n*/ { id: "error.subscription.paymentNotFound", message: "Payment not found" },
        );
      const r = await confirmChapa(ctx.db, ctx.services.payments, input.txRef);
      const [fresh] = await ctx.db.select().from(users).where(eq(users.id, ctx.actor.id));
      return { status: r.status, subscription: subscriptionOf(fresh!) };
    }),
  cancel: authedProcedure
    .meta(
      rest("POST", "/api/subscription/cancel", {
        summary: "Cancel the subscription",
        tags: ["Subscription"],
        scope: "billing:write",
      }),
    )
    .input(
      z
        .object({ refund: z.boolean({ error: "refund must be true or false" }).default(false) })
        .default({ refund: false }),
    )
    .output(ZBillingCancelAnswer)
    .mutation(({ ctx, input }) => cancelSubscription(ctx.db, ctx.services.payments, ctx.actor, input.refund)),
  payments: authedProcedure
    .meta(
      rest("GET", "/api/subscription/payments", {
        summary: "The account's payments",
        tags: ["Subscription"],
        scope: "billing:read",
      }),
    )
    .output(ZBillingPaymentsAnswer)
    .query(({ ctx }) => listPayments(ctx.db, ctx.actor)),
  portal: authedProcedure
    .meta(
      rest("POST", "/api/subscription/portal", {
        summary: "Open the billing portal",
        tags: ["Subscription"],
        scope: "billing:write",
      }),
    )
    .output(ZBillingPortalAnswer)
    .mutation(({ ctx }) => billingPortal(ctx.services.payments, ctx.actor, originOf(ctx))),

  /** Operator (CLI): an account's subscription and payments. */
  show: systemProcedure.input(z.object({ email: zText().min(3) })).query(async ({ ctx, input }) => {
    const u = await byEmail(ctx.db, input.email);
    return { email: u.email, ...subscriptionOf(u), payments: await listPayments(ctx.db, u) };
  }),
  /** Operator (CLI): months of premium for support, recorded as a payment of 0. */
  grant: systemProcedure
    .input(
      z.object({
        email: zText().min(3),
        months: z.number().int().min(1, "months must be 1 or more").max(36),
        by: zText().max(80),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const u = await byEmail(ctx.db, input.email);
      const until = await grantPremium(ctx.db, u, input.months, input.by);
      return { email: u.email, paidUntil: new Date(until).toISOString() };
    }),
} satisfies TRPCRouterRecord;
