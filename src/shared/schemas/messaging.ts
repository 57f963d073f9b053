import { z } from "zod";
import { LANGUAGE_CODES } from "../constants";
import { normalizePhone } from "../phone";
import { zText } from "./text";

export { normalizePhone };

export const MESSAGING_TYPES = ["loadAssigned", "loadUpdates", "paymentReceived", "systemAlerts"] as const;
export type TMessagingType = (typeof MESSAGING_TYPES)[number];

/** A phone number typed as people do (Ethiopian 09…/07… or international), stored as E.164. */
const phone = (field: string) =>
  zText()
    .max(32)
    .transform((s, ctx) => {
      const e164 = normalizePhone(s);
      if (e164) return e164;
      ctx.addIssue({
        code: "custom",
        message: `${field} must be a phone number such as 0911 23 45 67 or +251 911 234 567`,
      });
      return z.NEVER;
    });

/** Telegram chat ids are integers (negative for groups), up to 52 bits. */
const chatId = (field: string) =>
  zText()
    .trim()
    .max(24)
    .refine((s) => /^-?\d{1,16}$/.test(s), { message: `${field} must be a number, e.g. 123456789` });

const optional = <T extends z.ZodType>(schema: T) =>
  z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? null : v), schema.nullable().optional());

/**
 * The messaging preferences as PUT takes them (the link URL and channel states are read-only). The Telegram chat
 * id can only repeat the chat the bot linked; a WhatsApp number is saved unverified until proven with a code.
 */
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

/** POST /api/messaging/whatsapp/send: a test message; the text sent is the fixed test text, not `message`. */
export const ZWhatsAppTestInput = z.object({
  phoneNumber: phone("phoneNumber"),
  message: zText().max(1000).optional(),
  type: z.literal("test", { message: "type must be test" }),
});

/** POST /api/messaging/telegram/send. */
export const ZTelegramTestInput = z.object({
  chatId: z.preprocess((v) => (typeof v === "number" ? String(v) : v), chatId("chatId")),
  message: zText().max(1000).optional(),
  type: z.literal("test", { message: "type must be test" }),
});

/** POST /api/messaging/whatsapp/code: a code to prove this number is the user's. */
export const ZWhatsAppCodeInput = z.object({ phoneNumber: phone("phoneNumber") });
export type TWhatsAppCodeInput = z.infer<typeof ZWhatsAppCodeInput>;

/** POST /api/messaging/whatsapp/verify: the code as received (spaces allowed, as people copy it). */
export const ZWhatsAppVerifyInput = z.object({
  code: zText()
    .max(20)
    .transform((s) => s.replace(/[\s-]/g, ""))
    .refine((s) => /^\d{6}$/.test(s), { message: "code must be the 6 digits sent to your WhatsApp" }),
});
export type TWhatsAppVerifyInput = z.infer<typeof ZWhatsAppVerifyInput>;
