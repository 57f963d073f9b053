import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { sendPasswordResetMail } from "./password-reset";

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

export const ACCOUNTS_JOBS = [PASSWORD_RESET_MAIL];
