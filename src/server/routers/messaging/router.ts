import type { TRPCRouterRecord } from "@trpc/server";
import { ZMessagingPreferences, ZTelegramTestInput, ZWhatsAppTestInput } from "../../../shared/schemas/messaging";
import { messagingView, saveMessagingPreferences, sendTestMessage } from "../../domain/messaging/preferences";
import { authedProcedure } from "../../trpc/init";

export const messagingRouter = {
  /** SPEC §3's messaging preferences, the Telegram deep link (a fresh one-time token) and the channels' states. */
  preferences: authedProcedure.query(({ ctx }) => messagingView(ctx.db, ctx.services.notifiers, ctx.actor.id)),
  savePreferences: authedProcedure
    .input(ZMessagingPreferences)
    .mutation(({ ctx, input }) => saveMessagingPreferences(ctx.db, ctx.services.notifiers, ctx.actor.id, input)),
  whatsappTest: authedProcedure
    .input(ZWhatsAppTestInput)
    .mutation(({ ctx, input }) =>
      sendTestMessage(ctx.db, ctx.services.notifiers, ctx.actor.id, { channel: "whatsapp", phone: input.phoneNumber }),
    ),
  telegramTest: authedProcedure
    .input(ZTelegramTestInput)
    .mutation(({ ctx, input }) =>
      sendTestMessage(ctx.db, ctx.services.notifiers, ctx.actor.id, { channel: "telegram", chatId: input.chatId }),
    ),
} satisfies TRPCRouterRecord;
