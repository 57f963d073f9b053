import { z } from "zod";

export const ZNotificationsListAnswer = z.object({
  items: z.array(
    z.object({
      id: z.number(),
      type: z.string(),
      title: z.string(),
      body: z.string(),
      url: z.string().nullable(),
      loadId: z.number().nullable(),
      read: z.boolean(),
      createdAt: z.string(),
    }),
  ),
  page: z.number(),
  hasMore: z.boolean(),
  unread: z.number(),
});
export const ZNotificationsUnreadCountAnswer = z.object({ unread: z.number() });
export const ZNotificationsMarkReadAnswer = z.object({ marked: z.number() });
export const ZNotificationsMarkAllReadAnswer = z.object({ marked: z.number() });
export const ZNotificationsVapidKeyAnswer = z.object({ publicKey: z.string(), sandbox: z.boolean() });
export const ZNotificationsSubscribePushAnswer = z.object({ subscribed: z.boolean(), created: z.boolean() });
export const ZNotificationsUnsubscribePushAnswer = z.object({ unsubscribed: z.boolean() });
export const ZNotificationsTestPushAnswer = z.object({ sent: z.number(), total: z.number(), removed: z.number() });
export const ZNotificationsHistoryAnswer = z.array(
  z.object({
    id: z.number(),
    type: z.string(),
    title: z.string(),
    body: z.string(),
    url: z.string().nullable(),
    channel: z.string(),
    status: z.enum(["sent", "held", "failed"]),
    createdAt: z.string(),
  }),
);
export const ZNotificationsWhatsappTestAnswer = z.object({
  sent: z.boolean(),
  channel: z.enum(["telegram", "whatsapp"]),
});
export const ZNotificationsTelegramTestAnswer = z.object({
  sent: z.boolean(),
  channel: z.enum(["telegram", "whatsapp"]),
});
export const ZNotificationsWhatsappSendCodeAnswer = z.object({
  sent: z.literal(true),
  phoneNumber: z.string(),
  expiresAt: z.string(),
});
