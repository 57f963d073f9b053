import type { TRPCRouterRecord } from "@trpc/server";
import {
  ZUpdateCalendarInput,
  ZUpdateCurrencyInput,
  ZUpdateLanguageInput,
  ZUpdateProfileInput,
} from "../../../shared/schemas/auth";
import { authedProcedure } from "../../trpc/init";
import { subscriptionOf } from "../billing/billing";
import { toPublicUser } from "./public-user";
import { updateUser } from "./users";

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

  updateProfile: authedProcedure.input(ZUpdateProfileInput).mutation(async ({ ctx, input }) => ({
    user: toPublicUser(await updateUser(ctx.db, ctx.actor.id, input)),
  })),

  subscriptionStatus: authedProcedure.query(({ ctx }) => subscriptionOf(ctx.actor)),
} satisfies TRPCRouterRecord;
