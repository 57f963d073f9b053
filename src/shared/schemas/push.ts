import { z } from "zod";
import { zText } from "./text";

// Bytes a base64url string decodes to (no Buffer: this file also runs in the browser).
const decodedLength = (s: string) => {
  const n = s.replace(/=+$/, "").length;
  return n % 4 === 1 ? -1 : Math.floor((n * 6) / 8);
};

const b64url = (field: string, bytes: number) =>
  zText()
    .max(200)
    .refine((s) => /^[A-Za-z0-9_-]+={0,2}$/.test(s) && decodedLength(s) === bytes, {
      message: `${field} must be ${bytes} bytes in base64url`,
    });

/** The browser's PushSubscription as `subscription.toJSON()` gives it. */
export const ZPushSubscribeInput = z.object({
  endpoint: zText()
    .max(2048)
    .refine(
      (s) => {
        try {
          return new URL(s).protocol === "https:";
        } catch {
          return false;
        }
      },
      { message: "endpoint must be an https URL" },
    ),
  keys: z.object({ p256dh: b64url("keys.p256dh", 65), auth: b64url("keys.auth", 16) }),
  expirationTime: z.number().int().min(0).nullable().optional(),
});
export type TPushSubscribeInput = z.infer<typeof ZPushSubscribeInput>;

export const ZPushUnsubscribeInput = z.object({ endpoint: zText().min(1).max(2048) });

export const ZPushTestInput = z.object({
  title: zText().trim().min(1, "title is required").max(120),
  message: zText().trim().min(1, "message is required").max(1000),
});

const ZTime = zText().regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:MM");

const isTimeZone = (tz: string) => {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(tz)) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
};

export const PUSH_TYPES = ["loadAssigned", "loadUpdates", "paymentReceived", "systemAlerts", "marketing"] as const;
export type TPushType = (typeof PUSH_TYPES)[number];

/** The push preferences as PUT takes them (`subscriptions` is read-only and ignored). */
export const ZPushPreferences = z.object({
  enabled: z.boolean(),
  notificationTypes: z.object({
    loadAssigned: z.boolean(),
    loadUpdates: z.boolean(),
    paymentReceived: z.boolean(),
    systemAlerts: z.boolean(),
    marketing: z.boolean(),
  }),
  quietHours: z.object({
    enabled: z.boolean(),
    start: ZTime,
    end: ZTime,
    timezone: zText()
      .max(64)
      .refine(isTimeZone, { message: "timezone must be an IANA time zone such as Africa/Addis_Ababa" }),
  }),
});
export type TPushPreferences = z.infer<typeof ZPushPreferences>;

/** The preferences of a user who never saved any (docs/product-rules.md, Notifications). */
export const DEFAULT_PUSH_PREFERENCES: TPushPreferences = {
  enabled: true,
  notificationTypes: {
    loadAssigned: true,
    loadUpdates: true,
    paymentReceived: true,
    systemAlerts: false,
    marketing: false,
  },
  quietHours: { enabled: false, start: "22:00", end: "08:00", timezone: "UTC" },
};
