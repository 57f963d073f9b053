import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import {
  FREIGHT_PAYMENT_STATES,
  ZFreightPayment,
  ZFundLoadInput,
  ZFundLoadResult,
  ZLoadPayment,
  ZOperatorPayment,
  ZResolvePaymentInput,
  ZResolvePaymentResult,
} from "../../../shared/schemas/payments";
import { zText } from "../../../shared/schemas/text";
import { AppError } from "../../errors";
import { authedProcedure, shipperProcedure, systemProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { checkCheckout, listFreightPayments, loadPayment, startFunding } from "./freight";
import { checkLedger } from "./ledger";
import { checkPayout } from "./payout-transfer";
import { paymentReceiptPdf } from "./receipt";
import { operatorPayments, resolvePayment } from "./resolve";

const ZPaymentIdInput = z.object({
  paymentId: z.number({ error: "paymentId must be a number" }).int().positive(),
});

const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

/** Where a payment page sends the payer back: the request's public origin, else the process's. */
const originOf = (ctx: { http: { origin: string } | null; services: { publicOrigin?: string } }) =>
  ctx.http?.origin ?? ctx.services.publicOrigin ?? "http://localhost:3000";

/** Freight payments: funding an awarded load, a load's payment, and every payment of the reader. */
export const paymentsRouter = {
  fund: shipperProcedure
    .meta(
      rest("POST", "/api/loads/:id/payment", {
        summary: "Fund an awarded load (the provider's hosted page)",
        tags: ["Payments"],
        scope: "billing:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZFundLoadInput)
    .output(ZFundLoadResult)
    .mutation(({ ctx, input }) => startFunding(ctx.db, ctx.services.payments, ctx.actor, input, originOf(ctx))),
  forLoad: authedProcedure
    .meta(
      rest("GET", "/api/loads/:id/payment", {
        summary: "A load's payment and, for its shipper, what funding it costs",
        tags: ["Payments"],
        scope: "billing:read",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZLoadPayment)
    .query(({ ctx, input }) => loadPayment(ctx.db, ctx.services.payments, ctx.actor, input.loadId)),
  list: authedProcedure
    .meta(
      rest("GET", "/api/payments", {
        summary: "The reader's freight payments",
        tags: ["Payments"],
        scope: "billing:read",
      }),
    )
    .output(z.array(ZFreightPayment))
    .query(({ ctx }) => listFreightPayments(ctx.db, ctx.actor)),
  /** A payment's receipt as a PDF: served by its explicit route in http/app.ts, not over tRPC's JSON. */
  receipt: authedProcedure
    .input(
      z.object({
        paymentId: z.number({ error: "paymentId must be a number" }).int().positive(),
        timeZone: zText().max(64).nullish(),
      }),
    )
    .query(({ ctx, input }) => {
      if (ctx.channel !== "rest")
        throw new AppError(
          "NOT_FOUND",
          /*i18n*/ {
            id: "error.freight.receiptRestOnly",
            message: "The receipt is served at /api/payments/{paymentId}/receipt.pdf",
            values: { paymentId: input.paymentId },
          },
        );
      return paymentReceiptPdf(ctx.db, ctx.actor, input.paymentId, { language: ctx.locale, timeZone: input.timeZone });
    }),
  /** The operator's proof that the ledger balances (`mytess ledger check`). */
  ledgerCheck: systemProcedure
    .output(
      z.object({
        entries: z.number(),
        payments: z.number(),
        problems: z.array(
          z.object({
            kind: z.string(),
            paymentId: z.number().nullable(),
            txn: z.string().nullable(),
            detail: z.string(),
          }),
        ),
      }),
    )
    .query(({ ctx }) => checkLedger(ctx.db)),
  /** The operator's list of payments (`mytess payments list [--state disputed]`). */
  operatorList: systemProcedure
    .input(
      z
        .object({
          state: z
            .enum(FREIGHT_PAYMENT_STATES, { error: `state must be one of ${FREIGHT_PAYMENT_STATES.join(", ")}` })
            .optional(),
        })
        .optional(),
    )
    .output(z.array(ZOperatorPayment))
    .query(({ ctx, input }) => operatorPayments(ctx.db, input)),
  /** The operator settles a disputed payment (`mytess payments resolve`). */
  resolve: systemProcedure
    .input(ZResolvePaymentInput)
    .output(ZResolvePaymentResult)
    .mutation(({ ctx, input }) => resolvePayment(ctx.db, input)),
  /** The operator verifies a payout with Chapa now and settles it (`mytess payments payout-check`). */
  payoutCheck: systemProcedure
    .input(ZPaymentIdInput)
    .output(
      z.object({ paymentId: z.number(), state: z.string(), transfer: z.string(), reference: z.string().nullable() }),
    )
    .mutation(({ ctx, input }) => checkPayout(ctx.db, ctx.services.payments, input.paymentId)),
  /** The operator verifies a Chapa checkout page still pending and settles it (`mytess payments checkout-check`). */
  checkoutCheck: systemProcedure
    .input(ZPaymentIdInput)
    .output(z.object({ paymentId: z.number(), state: z.string(), chapa: z.string(), txRef: z.string() }))
    .mutation(({ ctx, input }) => checkCheckout(ctx.db, ctx.services.payments, input.paymentId)),
} satisfies TRPCRouterRecord;
