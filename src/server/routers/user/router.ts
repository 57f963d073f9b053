import type { TRPCRouterRecord } from "@trpc/server";
import {
  ZUpdateCalendarInput,
  ZUpdateCurrencyInput,
  ZUpdateLanguageInput,
  ZUpdateProfileInput,
  ZUpdateUnitsInput,
  ZUserAnswer,
} from "../../../shared/schemas/auth";
import { subscriptionOf } from "../../domain/billing/billing";
import { toPublicUser } from "../../domain/users/public-user";
import { updateUser } from "../../domain/users/users";
import { authedProcedure } from "../../trpc/init";

export const userRouter = {
  updateLanguage: authedProcedure.input(ZUpdateLanguageInput).mutation(async ({ ctx, input }) => ({
    user: toPublicUser(await updateUser(ctx.db, ctx.actor.id, { language: input.language })),
  })),

  updateCurrency: authedProcedure.input(ZUpdateCurrencyInput).mutation(async ({ ctx, input }) => ({
    user: toPublicUser(await updateUser(ctx.db, ctx.actor.id, { currency: input.currency })),
  })),

  updateCalendar: authedProcedure.input(ZUpdateCalendarInput).mutation(async ({ ctx, input }) => ({
    user: toPublicUser(
      await updateUser(ctx.db, ctx.actor.id, {
        calendar: input.calendar,
        ...(input.ethiopianTime === undefined ? {} : { ethiopianTime: input.ethiopianTime }),
      }),
    ),
  })),

  /** Kilometres and kilograms or miles and pounds, for what this account reads everywhere (web, bots, notifications). */
  updateUnits: authedProcedure
    .input(ZUpdateUnitsInput)
    .output(ZUserAnswer)
    .mutation(async ({ ctx, input }) => ({
      user: toPublicUser(await updateUser(ctx.db, ctx.actor.id, { units: input.units })),
    })),

  updateProfile: authedProcedure.input(ZUpdateProfileInput).mutation(async ({ ctx, input }) => ({
    user: toPublicUser(await updateUser(ctx.db, ctx.actor.id, input)),
  })),

  subscriptionStatus: authedProcedure.query(({ ctx }) => subscriptionOf(ctx.actor)),
} satisfies TRPCRouterRecord;
