import type { TRPCRouterRecord } from "@trpc/server";
import { ZMailSandboxInboxAnswer } from "../../../shared/schemas/answers/mail";
import { publicProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { sandboxInbox } from "./sandbox";

/** Demo mode's mail catcher inbox (404 outside demo mode): where the demo's reset links and codes arrive. */
export const mailRouter = {
  sandboxInbox: publicProcedure
    .meta(rest("GET", "/api/dev/mail", { summary: "Demo mode's mail inbox", tags: ["Demo"], scope: "public" }))
    .output(ZMailSandboxInboxAnswer)
    .query(({ ctx }) => ({ mails: sandboxInbox(ctx.services.mail.sandboxDir) })),
} satisfies TRPCRouterRecord;
