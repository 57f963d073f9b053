import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import {
  ZPayoutBank,
  ZPayoutSetup,
  ZSaveChapaMethodInput,
  ZStartStripePayoutsInput,
  ZStartStripePayoutsResult,
} from "../../../shared/schemas/payouts";
import { driverProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { payWaitingFor } from "../payments/payout-transfer";
import { payoutBanks, payoutSetup, saveChapaMethod, startStripeOnboarding } from "./payouts";

/** Where a Stripe onboarding page sends the driver back: the request's public origin, else the process's. */
const originOf = (ctx: { http: { origin: string } | null; services: { publicOrigin?: string } }) =>
  ctx.http?.origin ?? ctx.services.publicOrigin ?? "http://localhost:3000";

/** A driver's payout setup: Stripe Connect onboarding, Chapa's banks, the saved Chapa method. */
export const payoutsRouter = {
  setup: driverProcedure
    .meta(
      rest("GET", "/api/payouts/account", {
        summary: "The driver's payout setup (Stripe Connect account, Chapa bank or wallet)",
        tags: ["Payouts"],
        scope: "billing:read",
      }),
    )
    .output(ZPayoutSetup)
    .query(({ ctx }) => payoutSetup(ctx.db, ctx.services.payments, ctx.actor)),
  startStripe: driverProcedure
    .meta(
      rest("POST", "/api/payouts/account", {
        summary: "Start or continue Stripe Connect onboarding (a single-use link)",
        tags: ["Payouts"],
        scope: "billing:write",
      }),
    )
    .input(ZStartStripePayoutsInput)
    .output(ZStartStripePayoutsResult)
    .mutation(({ ctx, input }) =>
      startStripeOnboarding(ctx.db, ctx.services.payments, ctx.actor, input, originOf(ctx)),
    ),
  banks: driverProcedure
    .meta(
      rest("GET", "/api/payouts/banks", {
        summary: "The banks and mobile-money wallets Chapa can pay birr to",
        tags: ["Payouts"],
        scope: "billing:read",
      }),
    )
    .output(z.array(ZPayoutBank))
    .query(({ ctx }) => payoutBanks(ctx.services.payments)),
  saveChapa: driverProcedure
    .meta(
      rest("PUT", "/api/payouts/method", {
        summary: "Save the bank account or wallet Chapa pays birr to",
        tags: ["Payouts"],
        scope: "billing:write",
      }),
    )
    .input(ZSaveChapaMethodInput)
    .output(ZPayoutSetup)
    .mutation(async ({ ctx, input }) => {
      const setup = await saveChapaMethod(ctx.db, ctx.services.payments, ctx.services.secrets, ctx.actor, input);
      // Birr that waited for a method (or failed at the old one) is sent to the new one.
      await payWaitingFor(ctx.db, ctx.actor.id, "chapa");
      return setup;
    }),
} satisfies TRPCRouterRecord;
