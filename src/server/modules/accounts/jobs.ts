import { z } from "zod";
import { LANGUAGE_CODES } from "../../../shared/constants";
import { defineJob } from "../../jobs/queue";
import { sendEmailLink } from "./email-verification";
import { sendPasswordResetMail } from "./password-reset";
import { sendPhoneCode } from "./phone-codes";

/**
 * A password reset mail. The job's unique key (random, made by the request) is the mail's idempotency key: the link's
 * token and the Message-ID are derived from it, so an attempt after a failure sends the same mail, never a second link.
 */
export const PASSWORD_RESET_MAIL = defineJob({
  kind: "password_reset_mail",
  schema: z.object({ email: z.string().min(1) }),
  // Few and quick (30 s, 1, 2, 4 min): the link lives 30 minutes.
  maxAttempts: 5,
  needs: ["mail", "secrets"],
  handler: (payload, ctx) => {
    if (!ctx.job.uniqueKey) throw new Error("a password reset mail needs its job's unique key");
    return sendPasswordResetMail(
      ctx.db,
      { mailer: ctx.services.mail.mailer, secrets: ctx.services.secrets, log: ctx.log, baseUrl: ctx.baseUrl },
      payload.email,
      ctx.job.uniqueKey,
    );
  },
});

/**
 * An SMS with a one-time code. The job's unique key (random, made by the request) derives the code, so an attempt
 * after a failure sends the same code; once the provider took the SMS the row records it and no attempt sends again.
 */
export const PHONE_CODE_SMS = defineJob({
  kind: "phone_code_sms",
  schema: z.object({
    phone: z.string().regex(/^\+[1-9]\d{7,14}$/),
    purpose: z.enum(["reset", "add_phone", "signin", "delete_account"]),
    userId: z.number().int().positive().optional(),
    language: z.enum(LANGUAGE_CODES).optional(),
  }),
  // Few and quick (30 s, 1, 2, 4 min): the code lives 30 minutes.
  maxAttempts: 5,
  needs: ["sms", "secrets"],
  handler: (payload, ctx) => {
    if (!ctx.job.uniqueKey) throw new Error("an SMS code needs its job's unique key");
    return sendPhoneCode(
      ctx.db,
      { sms: ctx.services.sms, secrets: ctx.services.secrets, log: ctx.log },
      payload,
      ctx.job.uniqueKey,
    );
  },
});

/** A link proving an email address (at sign-up, or added to a phone account); its token derives from the job's key. */
export const EMAIL_VERIFICATION_MAIL = defineJob({
  kind: "email_verification_mail",
  schema: z.object({ userId: z.number().int().positive(), email: z.string().min(1) }),
  maxAttempts: 5,
  needs: ["mail", "secrets"],
  handler: (payload, ctx) => {
    if (!ctx.job.uniqueKey) throw new Error("an email link needs its job's unique key");
    return sendEmailLink(
      ctx.db,
      { mailer: ctx.services.mail.mailer, secrets: ctx.services.secrets, log: ctx.log, baseUrl: ctx.baseUrl },
      payload,
      ctx.job.uniqueKey,
    );
  },
});

export const ACCOUNTS_JOBS = [PASSWORD_RESET_MAIL, PHONE_CODE_SMS, EMAIL_VERIFICATION_MAIL];
