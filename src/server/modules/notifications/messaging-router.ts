import type { TRPCRouterRecord } from "@trpc/server";
import {
  ZMessagingPreferences,
  ZTelegramTestInput,
  ZWhatsAppCodeInput,
  ZWhatsAppTestInput,
  ZWhatsAppVerifyInput,
} from "../../../shared/schemas/messaging";
import type { TServices } from "../../trpc/context";
import { authedProcedure, premium } from "../../trpc/init";
import { requirePremium } from "../billing/billing";
import { messagingView, saveMessagingPreferences, sendTestMessage } from "./messaging-preferences";
import { sendWhatsAppCode, verifyWhatsAppCode } from "./whatsapp-verification";

const deps = (s: TServices) => ({ notifiers: s.notifiers, secrets: s.boards.secrets });

export const messagingRouter = {
  /** The messaging preferences, the Telegram deep link (the live one-time token) and the channels' states. */
  preferences: authedProcedure.query(({ ctx }) => messagingView(ctx.db, deps(ctx.services), ctx.actor.id)),
  savePreferences: authedProcedure.input(ZMessagingPreferences).mutation(({ ctx, input }) => {
    // Chat alerts (Telegram, WhatsApp) are premium; switching them off is always allowed.
    if (input.telegramEnabled || input.whatsappEnabled) requirePremium(ctx.actor);
    return saveMessagingPreferences(ctx.db, deps(ctx.services), ctx.actor.id, input);
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
  /** Sends a code to a WhatsApp number, to prove it is the user's (nothing else goes to an unverified number). */
  whatsappSendCode: authedProcedure
    .use(premium)
    .input(ZWhatsAppCodeInput)
    .mutation(({ ctx, input }) => sendWhatsAppCode(ctx.db, deps(ctx.services), ctx.actor.id, input.phoneNumber)),
  /** The code typed back: its number becomes the user's verified WhatsApp number. */
  whatsappVerify: authedProcedure
    .input(ZWhatsAppVerifyInput)
    .mutation(({ ctx, input }) => verifyWhatsAppCode(ctx.db, deps(ctx.services), ctx.actor.id, input.code)),
} satisfies TRPCRouterRecord;
