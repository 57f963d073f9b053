import type { TRPCRouterRecord } from "@trpc/server";
import { ZMessagingPreferences, ZTelegramTestInput, ZWhatsAppTestInput } from "../../../shared/schemas/messaging";
import { requirePremium } from "../../domain/billing/billing";
import { messagingView, saveMessagingPreferences, sendTestMessage } from "../../domain/messaging/preferences";
import { authedProcedure, premium } from "../../trpc/init";

export const messagingRouter = {
  /** SPEC §3's messaging preferences, the Telegram deep link (a fresh one-time token) and the channels' states. */
  preferences: authedProcedure.query(({ ctx }) => messagingView(ctx.db, ctx.services.notifiers, ctx.actor.id)),
  savePreferences: authedProcedure.input(ZMessagingPreferences).mutation(({ ctx, input }) => {
    // Chat alerts (Telegram, WhatsApp) are premium; switching them off is always allowed.
    if (input.telegramEnabled || input.whatsappEnabled) requirePremium(ctx.actor);
    return saveMessagingPreferences(ctx.db, ctx.services.notifiers, ctx.actor.id, input);
  }),
  whatsappTest: authedProcedure
    .use(premium)
    .input(ZWhatsAppTestInput)
    .mutation(({ ctx, input }) =>
      sendTestMessage(ctx.db, ctx.services.notifiers, ctx.actor.id, { channel: "whatsapp", phone: input.phoneNumber }),
    ),
  telegramTest: authedProcedure
    .use(premium)
    .input(ZTelegramTestInput)
    .mutation(({ ctx, input }) =>
      sendTestMessage(ctx.db, ctx.services.notifiers, ctx.actor.id, { channel: "telegram", chatId: input.chatId }),
    ),
} satisfies TRPCRouterRecord;
