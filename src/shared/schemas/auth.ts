import { z } from "zod";
import { DISPLAY_CURRENCY_CODES, LANGUAGE_CODES, PASSWORD_MIN_LENGTH, USER_TYPES } from "../constants";
import { CALENDARS } from "../dates";
import { normalizePhone } from "../phone";
import { UNIT_SYSTEMS } from "../units";
import { isStorableText, STORABLE_TEXT, zText } from "./text";

const name = (field: string) =>
  zText({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(80, `${field} must be at most 80 characters`);

export const ZEmail = zText({ error: "email is required" })
  .trim()
  .toLowerCase()
  .pipe(z.email({ error: "email must be a valid email address" }).max(254, "email is too long"));

export const ZRegisterInput = z.object({
  email: ZEmail,
  password: zText({ error: "password is required" })
    .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
    .max(200, "password must be at most 200 characters"),
  firstName: name("firstName"),
  lastName: name("lastName"),
  userType: z.enum(USER_TYPES, { error: 'userType must be "driver" or "shipper"' }),
});
export type TRegisterInput = z.infer<typeof ZRegisterInput>;

const ZNewPassword = zText({ error: "password is required" })
  .min(PASSWORD_MIN_LENGTH, `password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(200, "password must be at most 200 characters");

/** A phone number as typed (0911 23 45 67, +251 911 234 567, +1 415 555 0100), read as E.164. */
export const ZPhone = zText({ error: "phone is required" }).transform((v, ctx) => {
  const e164 = normalizePhone(v);
  if (e164) return e164;
  ctx.addIssue({ code: "custom", message: "phone must be a phone number such as +251911234567 or 0911234567" });
  return z.NEVER;
});

/** The 6 digits of an SMS code. */
export const ZSmsCode = zText({ error: "code is required" })
  .trim()
  .regex(/^\d{6}$/, "code must be the 6 digits from the SMS");

/** A reset link by mail ({email}) or a code by SMS ({phone}), one of the two. */
export const ZForgotPasswordInput = z
  .object({ email: ZEmail.optional(), phone: ZPhone.optional() })
  .superRefine((v, ctx) => {
    if (v.email === undefined && v.phone === undefined)
      ctx.addIssue({ code: "custom", path: ["email"], message: "email or phone is required" });
    if (v.email !== undefined && v.phone !== undefined)
      ctx.addIssue({ code: "custom", path: ["phone"], message: "give email or phone, not both" });
  });
export type TForgotPasswordInput = z.infer<typeof ZForgotPasswordInput>;

/** A new password with the reset link's token, or with the SMS code and the number it was sent to. */
export const ZResetPasswordInput = z
  .object({
    token: zText({ error: "token is required" })
      .trim()
      .regex(/^[A-Za-z0-9_-]{43}$/, "token must be the one from the reset link")
      .optional(),
    code: ZSmsCode.optional(),
    phone: ZPhone.optional(),
    password: ZNewPassword,
  })
  .superRefine((v, ctx) => {
    if (v.token === undefined && v.code === undefined)
      ctx.addIssue({
        code: "custom",
        path: ["token"],
        message: "token (from the link) or code (from the SMS) is required",
      });
    if (v.token !== undefined && v.code !== undefined)
      ctx.addIssue({ code: "custom", path: ["code"], message: "give token or code, not both" });
    if (v.code !== undefined && v.phone === undefined)
      ctx.addIssue({ code: "custom", path: ["phone"], message: "phone is required with a code" });
  });
export type TResetPasswordInput = z.infer<typeof ZResetPasswordInput>;

export const ZAddPhoneInput = z.object({ phone: ZPhone });

/** Asking for a sign-in code by SMS (answered 202 whether or not the number has an account). */
export const ZPhoneStartInput = z.object({ phone: ZPhone });
/** The code sent to the number; a number without an account also gives the new account's name and role. */
export const ZPhoneVerifyInput = z.object({
  phone: ZPhone,
  code: ZSmsCode,
  firstName: name("firstName").optional(),
  lastName: name("lastName").optional(),
  userType: z.enum(USER_TYPES, { error: 'userType must be "driver" or "shipper"' }).optional(),
});
export type TPhoneVerifyInput = z.infer<typeof ZPhoneVerifyInput>;

/** An email address to prove with a mailed link (added to an account made with a phone number). */
export const ZAddEmailInput = z.object({ email: ZEmail });
/** The token of a link that proves an email address. */
export const ZConfirmEmailInput = z.object({
  token: zText({ error: "token is required" })
    .trim()
    .regex(/^[A-Za-z0-9_-]{43}$/, "token must be the one from the link in the mail"),
});
export const ZConfirmPhoneInput = z.object({ phone: ZPhone, code: ZSmsCode });
/** An answer that says the request was taken (202): the SMS or mail follows from a job. */
export const ZAccepted = z.object({ ok: z.literal(true) });

/** Signing in with a password: the account's email, or its phone number (a driver who signed up by SMS). */
export const ZLoginInput = z
  .object({
    email: zText({ error: "email is required" }).trim().toLowerCase().min(1, "email is required").optional(),
    phone: ZPhone.optional(),
    password: zText({ error: "password is required" }).min(1, "password is required"),
  })
  .superRefine((v, ctx) => {
    if (v.email === undefined && v.phone === undefined)
      ctx.addIssue({ code: "custom", path: ["email"], message: "email or phone is required" });
    if (v.email !== undefined && v.phone !== undefined)
      ctx.addIssue({ code: "custom", path: ["phone"], message: "give email or phone, not both" });
  });
export type TLoginInput = z.infer<typeof ZLoginInput>;

export const ZUpdateLanguageInput = z.object({
  language: z.enum(LANGUAGE_CODES, { error: `language must be one of ${LANGUAGE_CODES.join(", ")}` }),
});
export const ZUpdateCurrencyInput = z.object({
  currency: z.enum(DISPLAY_CURRENCY_CODES, { error: `currency must be one of ${DISPLAY_CURRENCY_CODES.join(", ")}` }),
});
export const ZUpdateCalendarInput = z.object({
  calendar: z.enum(CALENDARS, { error: `calendar must be one of ${CALENDARS.join(", ")}` }),
  ethiopianTime: z.boolean({ error: "ethiopianTime must be true or false" }).optional(),
});
export type TUpdateCalendarInput = z.infer<typeof ZUpdateCalendarInput>;
export const ZUpdateUnitsInput = z.object({
  units: z.enum(UNIT_SYSTEMS, { error: `units must be one of ${UNIT_SYSTEMS.join(", ")}` }),
});
export type TUpdateUnitsInput = z.infer<typeof ZUpdateUnitsInput>;

/** The account as the API shows it (fields added later pass through: this names what callers rely on). */
export const ZPublicUser = z.looseObject({
  id: z.number(),
  /** Null for an account made with a phone number (then `phone` is set). */
  email: z.string().nullable(),
  /** The email was proven by the link mailed to it. */
  emailVerified: z.boolean(),
  /** Only ever set once proven by a code sent to it. */
  phone: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  profileImageUrl: z.string().nullable(),
  userType: z.enum(USER_TYPES),
  currency: z.string(),
  language: z.string(),
  calendar: z.enum(CALENDARS),
  ethiopianTime: z.boolean(),
  units: z.enum(UNIT_SYSTEMS),
  rating: z.number(),
  totalRatings: z.number(),
  totalTrips: z.number(),
  /** The account's own last known position (drivers share it), null when it has none. */
  location: z.object({ latitude: z.number(), longitude: z.number(), updatedAt: z.string().nullable() }).nullable(),
  createdAt: z.string(),
});
/** What a change of the account's settings answers: the account as it now is. */
export const ZUserAnswer = z.object({ user: ZPublicUser });

export const ZUpdateProfileInput = z.object({
  firstName: name("firstName"),
  lastName: name("lastName"),
  profileImageUrl: z
    .url({ protocol: /^https$/, error: "profileImageUrl must be an https:// URL" })
    .max(500, "profileImageUrl must be at most 500 characters")
    .refine(isStorableText, STORABLE_TEXT)
    // An image is fetched with the viewer's cookies: no user:password in it, and nothing of this site's API.
    .refine((u) => {
      // Also asked of text that failed the URL check above (zod runs every check): no URL, nothing more to say.
      const url = URL.canParse(u) ? new URL(u) : null;
      return !url || (!url.username && !url.password && !/^\/(api|trpc)(\/|$)/i.test(url.pathname));
    }, "profileImageUrl must be an https:// URL of an image")
    .nullable()
    .optional(),
});
export type TUpdateProfileInput = z.infer<typeof ZUpdateProfileInput>;
