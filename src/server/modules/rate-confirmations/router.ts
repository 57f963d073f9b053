import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZRateConfirmationAnswer } from "../../../shared/schemas/answers/rate-confirmations";
import { zText } from "../../../shared/schemas/text";
import { AppError } from "../../errors";
import { authedProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { rateConfirmationPdf } from "./document";
import { acceptRateConfirmation, rateConfirmationOf } from "./rate-confirmation";

const ZLoadId = z.object({
  loadId: z
    .number({ error: "loadId must be a number" })
    .int("loadId must be a positive integer")
    .positive("loadId must be a positive integer"),
});

/** An awarded load's rate confirmation: its state, its PDF, and each party's acceptance. */
export const rateConfirmationsRouter = {
  get: authedProcedure
    .meta(
      rest("GET", "/api/loads/:id/rate-confirmation", {
        summary: "An awarded load's rate confirmation: agreed amount, both parties, who accepted it when",
        tags: ["Trips"],
        scope: "loads:read",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZRateConfirmationAnswer)
    .query(({ ctx, input }) => rateConfirmationOf(ctx.db, ctx.actor, input.loadId)),
  accept: authedProcedure
    .meta(
      rest("POST", "/api/loads/:id/rate-confirmation/accept", {
        summary: "Accept an awarded load's rate confirmation (each party once; repeating it changes nothing)",
        tags: ["Trips"],
        scope: "loads:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZRateConfirmationAnswer)
    .mutation(({ ctx, input }) => acceptRateConfirmation(ctx.db, ctx.actor, input.loadId)),
  /** The PDF itself: served by its explicit route in http/app.ts, not over tRPC's JSON. */
  pdf: authedProcedure.input(ZLoadId.extend({ timeZone: zText().max(64).nullish() })).query(({ ctx, input }) => {
    if (ctx.channel !== "rest")
      throw new AppError(
        "NOT_FOUND",
        /*i18n*/ {
          id: "error.rateConfirmation.restOnly",
          message: "The rate confirmation is served at /api/loads/{loadId}/rate-confirmation.pdf",
          values: { loadId: input.loadId },
        },
      );
    return rateConfirmationPdf(ctx.db, ctx.actor, input.loadId, {
      language: ctx.locale,
      timeZone: input.timeZone,
    });
  }),
} satisfies TRPCRouterRecord;
