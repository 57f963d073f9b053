import { z } from "zod";
import { LANGUAGE_CODES } from "../constants";

export const MESSAGING_TYPES = ["loadAssigned", "loadUpdates", "paymentReceived", "systemAlerts"] as const;
export type TMessagingType = (typeof MESSAGING_TYPES)[number];

/** Spaces, dashes, dots and brackets people type inside numbers are dropped; a leading 00 means +. */
export const normalizePhone = (s: string) => {
  const t = s.trim().replace(/[\s\-.()]/g, "");
  return t.startsWith("00") ? `+${t.slice(2)}` : t;
};

/** E.164: a plus, the country code and the number, 8 to 15 digits in all (Ethiopia: +251 9… or +251 7…). */
export const isE164 = (s: string) => /^\+[1-9]\d{7,14}$/.test(s);

const phone = (field: string) =>
  z
    .string()
    .max(32)
    .transform(normalizePhone)
    .refine(isE164, { message: `${field} must be an international number with its country code, e.g. +251911234567` });

/** Telegram chat ids are integers (negative for groups), up to 52 bits. */
const chatId = (field: string) =>
  z
    .string()
    .trim()
    .max(24)
    .refine((s) => /^-?\d{1,16}$/.test(s), { message: `${field} must be a number, e.g. 123456789` });

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), schema.nullable().optional());

/** SPEC §3's messaging preferences as PUT takes them (the link URL and channel states are read-only). */
export const ZMessagingPreferences = z
  .object({
    whatsappEnabled: z.boolean(),
    whatsappNumber: optional(phone("whatsappNumber")),
    telegramEnabled: z.boolean(),
    telegramChatId: optional(chatId("telegramChatId")),
    notificationTypes: z.object({
      loadAssigned: z.boolean(),
      loadUpdates: z.boolean(),
      paymentReceived: z.boolean(),
      systemAlerts: z.boolean(),
    }),
    language: z.enum(LANGUAGE_CODES, { message: "language must be one of en, am, om" }),
  })
  .superRefine((p, ctx) => {
    if (p.whatsappEnabled && !p.whatsappNumber)
      ctx.addIssue({
        code: "custom",
        path: ["whatsappNumber"],
        message: "whatsappNumber is required while WhatsApp is on",
      });
  });
export type TMessagingPreferencesInput = z.infer<typeof ZMessagingPreferences>;

export const DEFAULT_MESSAGING_TYPES: Record<TMessagingType, boolean> = {
  loadAssigned: true,
  loadUpdates: true,
  paymentReceived: true,
  systemAlerts: false,
};

/** POST /api/messaging/whatsapp/send: SPEC's test; the text sent is the fixed test text, not `message`. */
export const ZWhatsAppTestInput = z.object({
  phoneNumber: phone("phoneNumber"),
  message: z.string().max(1000).optional(),
  type: z.literal("test", { message: "type must be test" }),
});

/** POST /api/messaging/telegram/send. */
export const ZTelegramTestInput = z.object({
  chatId: z.preprocess((v) => (typeof v === "number" ? String(v) : v), chatId("chatId")),
  message: z.string().max(1000).optional(),
  type: z.literal("test", { message: "type must be test" }),
});
