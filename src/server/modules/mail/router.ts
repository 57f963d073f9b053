import type { TRPCRouterRecord } from "@trpc/server";
import { publicProcedure } from "../../trpc/init";
import { sandboxInbox } from "./sandbox";

/** Demo mode's mail catcher inbox (404 outside demo mode): where the demo's reset links and codes arrive. */
export const mailRouter = {
  sandboxInbox: publicProcedure.query(({ ctx }) => ({ mails: sandboxInbox(ctx.services.mail.sandboxDir) })),
} satisfies TRPCRouterRecord;
