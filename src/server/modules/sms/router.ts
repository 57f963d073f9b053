import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { publicProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { sandboxSmsInbox, ZSandboxSms } from "./sandbox";

/** Demo mode's SMS inbox (404 outside demo mode): where the demo's codes arrive. */
export const smsRouter = {
  sandboxInbox: publicProcedure
    .meta(rest("GET", "/api/dev/sms", { summary: "Demo mode's SMS inbox", tags: ["Demo"], scope: "public" }))
    .output(z.object({ messages: z.array(ZSandboxSms) }))
    .query(({ ctx }) => ({ messages: sandboxSmsInbox(ctx.services.sms.sandboxDir) })),
} satisfies TRPCRouterRecord;
