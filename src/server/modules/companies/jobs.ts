import { z } from "zod";
import { defineJob } from "../../jobs/queue";
import { sendCompanyInvitation } from "./invitations";

/**
 * A company invitation by mail or SMS. The job's unique key is the invitation's own key: the link's token and the
 * mail's Message-ID are derived from it, and the row's `sentAt` keeps a retry from sending twice.
 */
export const COMPANY_INVITATION = defineJob({
  kind: "company_invitation",
  schema: z.object({ invitationId: z.number().int().positive() }),
  maxAttempts: 5,
  needs: ["mail", "sms", "secrets"],
  handler: (payload, ctx) =>
    sendCompanyInvitation(
      ctx.db,
      {
        mailer: ctx.services.mail.mailer,
        sms: ctx.services.sms,
        secrets: ctx.services.secrets,
        log: ctx.log,
        baseUrl: ctx.baseUrl,
      },
      payload.invitationId,
    ),
});

export const COMPANIES_JOBS = [COMPANY_INVITATION];
