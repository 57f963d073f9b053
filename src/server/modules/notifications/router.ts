import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZMessagingSettings, ZPushSettings } from "../../../shared/schemas/answers/common";
import {
  ZNotificationsHistoryAnswer,
  ZNotificationsListAnswer,
  ZNotificationsMarkAllReadAnswer,
  ZNotificationsMarkReadAnswer,
  ZNotificationsSubscribePushAnswer,
  ZNotificationsTelegramTestAnswer,
  ZNotificationsTestPushAnswer,
  ZNotificationsUnreadCountAnswer,
  ZNotificationsUnsubscribePushAnswer,
  ZNotificationsVapidKeyAnswer,
  ZNotificationsWhatsappSendCodeAnswer,
  ZNotificationsWhatsappTestAnswer,
} from "../../../shared/schemas/answers/notifications";
import {
  ZMessagingPreferences,
  ZTelegramTestInput,
  ZWhatsAppCodeInput,
  ZWhatsAppTestInput,
  ZWhatsAppVerifyInput,
} from "../../../shared/schemas/messaging";
import {
  ZPushPreferences,
  ZPushSubscribeInput,
  ZPushTestInput,
  ZPushUnsubscribeInput,
} from "../../../shared/schemas/push";
import { AppError } from "../../errors";
import type { TServices } from "../../services";
import { authedProcedure, publicProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { premium } from "../billing/middleware";
import { requirePremium } from "../billing/premium";
import { listInbox, markRead, unreadCount } from "./inbox";
import { messagingView, saveMessagingPreferences, sendTestMessage } from "./messaging-preferences";
import { listNotifications, preferencesView, savePreferences, sendTest, subscribe, unsubscribe } from "./push";
import { sendWhatsAppCode, verifyWhatsAppCode } from "./whatsapp-verification";

const queryInt = (field: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? fallback : typeof v === "string" ? Number(v) : v),
    z
      .number({ error: `${field} must be a number` })
      .int(`${field} must be a whole number`)
      .min(min, `${field} must be at least ${min}`)
      .max(max, `${field} must be at most ${max}`),
  );

const deps = (s: TServices) => ({ notifiers: s.notifiers, secrets: s.boards.secrets });

/**
 * Everything that reaches a user: the bell (in-app notifications), web push (the browser's subscription, its
 * preferences and quiet hours) and messaging (Telegram and WhatsApp: preferences, test messages, the number's proof).
 */
export const notificationsRouter = {
  // The bell.
  /** The bell's list: the caller's in-app notifications, newest first, with the unread count. */
  list: authedProcedure
    .meta(
      rest("GET", "/api/notifications", {
        summary: "The bell's notifications",
        tags: ["Notifications"],
        scope: "notifications:read",
      }),
    )
    .input(
      z
        .object({ page: queryInt("page", 1, 10_000, 1), pageSize: queryInt("pageSize", 1, 50, 20) })
        .default({ page: 1, pageSize: 20 }),
    )
    .output(ZNotificationsListAnswer)
    .query(({ ctx, input }) => listInbox(ctx.db, ctx.actor.id, input)),
  unreadCount: authedProcedure
    .meta(
      rest("GET", "/api/notifications/unread-count", {
        summary: "Unread notifications",
        tags: ["Notifications"],
        scope: "notifications:read",
      }),
    )
    .output(ZNotificationsUnreadCountAnswer)
    .query(async ({ ctx }) => ({ unread: await unreadCount(ctx.db, ctx.actor.id) })),
  markRead: authedProcedure
    .meta(
      rest("POST", "/api/notifications/read", {
        summary: "Mark notifications read",
        tags: ["Notifications"],
        scope: "notifications:write",
      }),
    )
    .input(
      z.object({
        ids: z
          .array(
            z.number({ error: "ids must be notification numbers" }).int().positive("ids must be notification numbers"),
            {
              error: "ids must be a list of notification numbers",
            },
          )
          .min(1, "ids must name at least one notification")
          .max(200, "ids may name at most 200 notifications"),
      }),
    )
    .output(ZNotificationsMarkReadAnswer)
    .mutation(({ ctx, input }) => markRead(ctx.db, ctx.actor.id, input.ids)),
  markAllRead: authedProcedure
    .meta(
      rest("POST", "/api/notifications/read-all", {
        summary: "Mark every notification read",
        tags: ["Notifications"],
        scope: "notifications:write",
      }),
    )
    .output(ZNotificationsMarkAllReadAnswer)
    .mutation(({ ctx }) => markRead(ctx.db, ctx.actor.id, "all")),

  // Web push.
  /** The applicationServerKey browsers subscribe with; `sandbox` when the push service is a local emulator. */
  vapidKey: publicProcedure
    .meta(rest("GET", "/api/push/vapid-key", { summary: "The web push public key", tags: ["Push"], scope: "public" }))
    .output(ZNotificationsVapidKeyAnswer)
    .query(({ ctx }) => {
      const publicKey = ctx.services.notifiers.vapidPublicKey;
      if (!publicKey)
        throw new AppError(
          "SERVICE_UNAVAILABLE",
          /*i18n*/ {
            id: "error.push.notConfigured",
            message: "Web push is not configured",
          },
        );
      const state = ctx.services.notifiers.states().find((s) => s.channel === "web_push")?.state;
      return { publicKey, sandbox: state === "sandbox" };
    }),
  subscribePush: authedProcedure
    .meta(
      rest("POST", "/api/push/subscribe", {
        summary: "Subscribe a browser to push",
        tags: ["Push"],
        scope: "notifications:write",
        status: 201,
      }),
    )
    .input(ZPushSubscribeInput)
    .output(ZNotificationsSubscribePushAnswer)
    .mutation(({ ctx, input }) => subscribe(ctx.db, ctx.services.notifiers, ctx.actor.id, input)),
  unsubscribePush: authedProcedure
    .meta(
      rest("DELETE", "/api/push/subscribe", {
        summary: "Unsubscribe a browser from push",
        tags: ["Push"],
        scope: "notifications:write",
      }),
    )
    .input(ZPushUnsubscribeInput)
    .output(ZNotificationsUnsubscribePushAnswer)
    .mutation(({ ctx, input }) => unsubscribe(ctx.db, ctx.actor.id, input.endpoint)),
  testPush: authedProcedure
    .meta(rest("POST", "/api/push/test", { summary: "Send a test push", tags: ["Push"], scope: "notifications:write" }))
    .input(ZPushTestInput)
    .output(ZNotificationsTestPushAnswer)
    .mutation(({ ctx, input }) => sendTest(ctx.db, ctx.services.notifiers, ctx.actor.id, input, null)),
  pushPreferences: authedProcedure
    .meta(
      rest("GET", "/api/push/preferences", {
        summary: "Push preferences",
        tags: ["Push"],
        scope: "notifications:read",
      }),
    )
    .output(ZPushSettings)
    .query(({ ctx }) => preferencesView(ctx.db, ctx.actor.id)),
  savePushPreferences: authedProcedure
    .meta(
      rest("PUT", "/api/push/preferences", {
        summary: "Save push preferences",
        tags: ["Push"],
        scope: "notifications:write",
      }),
    )
    .input(ZPushPreferences)
    .output(ZPushSettings)
    .mutation(({ ctx, input }) => savePreferences(ctx.db, ctx.actor.id, input)),
  /** What was sent to the caller, on every channel, newest first. */
  history: authedProcedure
    .meta(
      rest("GET", "/api/push/notifications", { summary: "Pushes sent", tags: ["Push"], scope: "notifications:read" }),
    )
    .output(ZNotificationsHistoryAnswer)
    .query(async ({ ctx }) =>
      (await listNotifications(ctx.db, ctx.actor.id)).map((n) => ({
        id: n.id,
        type: n.type,
        title: n.title,
        body: n.body,
        url: n.url,
        channel: n.channel,
        status: n.status,
        createdAt: new Date(n.createdAt).toISOString(),
      })),
    ),

  // Messaging (Telegram, WhatsApp).
  /** The messaging preferences, the Telegram deep link (the live one-time token) and the channels' states. */
  messagingPreferences: authedProcedure
    .meta(
      rest("GET", "/api/messaging/preferences", {
        summary: "Telegram and WhatsApp preferences",
        tags: ["Messaging"],
        scope: "notifications:read",
      }),
    )
    .output(ZMessagingSettings)
    .query(({ ctx }) => messagingView(ctx.db, deps(ctx.services), ctx.actor.id)),
  saveMessagingPreferences: authedProcedure
    .meta(
      rest("PUT", "/api/messaging/preferences", {
        summary: "Save Telegram and WhatsApp preferences",
        tags: ["Messaging"],
        scope: "notifications:write",
      }),
    )
    .input(ZMessagingPreferences)
    .output(ZMessagingSettings)
    .mutation(({ ctx, input }) => {
      // Chat alerts (Telegram, WhatsApp) are premium; switching them off is always allowed.
      if (input.telegramEnabled || input.whatsappEnabled) requirePremium(ctx.actor);
      return saveMessagingPreferences(ctx.db, deps(ctx.services), ctx.actor.id, input);
    }),
  whatsappTest: authedProcedure
    .meta(
      rest("POST", "/api/messaging/whatsapp/send", {
        summary: "Send a WhatsApp test message",
        tags: ["Messaging"],
        scope: "notifications:write",
      }),
    )
    .use(premium)
    .input(ZWhatsAppTestInput)
    .output(ZNotificationsWhatsappTestAnswer)
    .mutation(({ ctx, input }) =>
      sendTestMessage(ctx.db, ctx.services.notifiers, ctx.actor.id, { channel: "whatsapp", phone: input.phoneNumber }),
    ),
  telegramTest: authedProcedure
    .meta(
      rest("POST", "/api/messaging/telegram/send", {
        summary: "Send a Telegram test message",
        tags: ["Messaging"],
        scope: "notifications:write",
      }),
    )
    .use(premium)
    .input(ZTelegramTestInput)
    .output(ZNotificationsTelegramTestAnswer)
    .mutation(({ ctx, input }) =>
      sendTestMessage(ctx.db, ctx.services.notifiers, ctx.actor.id, { channel: "telegram", chatId: input.chatId }),
    ),
  /** Sends a code to a WhatsApp number, to prove it is the user's (nothing else goes to an unverified number). */
  whatsappSendCode: authedProcedure
    .meta(
      rest("POST", "/api/messaging/whatsapp/code", {
        summary: "Send a code to a WhatsApp number",
        tags: ["Messaging"],
        scope: "notifications:write",
      }),
    )
    .use(premium)
    .input(ZWhatsAppCodeInput)
    .output(ZNotificationsWhatsappSendCodeAnswer)
    .mutation(({ ctx, input }) => sendWhatsAppCode(ctx.db, deps(ctx.services), ctx.actor.id, input.phoneNumber)),
  /** The code typed back: its number becomes the user's verified WhatsApp number. */
  whatsappVerify: authedProcedure
    .meta(
      rest("POST", "/api/messaging/whatsapp/verify", {
        summary: "Confirm a WhatsApp number",
        tags: ["Messaging"],
        scope: "notifications:write",
      }),
    )
    .input(ZWhatsAppVerifyInput)
    .output(ZMessagingSettings)
    .mutation(({ ctx, input }) => verifyWhatsAppCode(ctx.db, deps(ctx.services), ctx.actor.id, input.code)),
} satisfies TRPCRouterRecord;
