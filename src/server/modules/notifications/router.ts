import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { authedProcedure } from "../../trpc/init";
import { listInbox, markRead, unreadCount } from "./inbox";

const queryInt = (field: string, min: number, max: number, fallback: number) =>
  z.preprocess(
    (v) => (v === undefined || v === "" ? fallback : typeof v === "string" ? Number(v) : v),
    z
      .number({ error: `${field} must be a number` })
      .int(`${field} must be a whole number`)
      .min(min, `${field} must be at least ${min}`)
      .max(max, `${field} must be at most ${max}`),
  );

export const notificationsRouter = {
  /** The bell's list: the caller's in-app notifications, newest first, with the unread count. */
  list: authedProcedure
    .input(
      z
        .object({ page: queryInt("page", 1, 10_000, 1), pageSize: queryInt("pageSize", 1, 50, 20) })
        .default({ page: 1, pageSize: 20 }),
    )
    .query(({ ctx, input }) => listInbox(ctx.db, ctx.actor.id, input)),
  unreadCount: authedProcedure.query(async ({ ctx }) => ({ unread: await unreadCount(ctx.db, ctx.actor.id) })),
  markRead: authedProcedure
    .input(
      z.object({
        ids: z
          .array(
            z.number({ error: "ids must be notification numbers" }).int().positive("ids must be notification numbers"),
            {
              error: "ids must be a list of notification numbers",
            },
          )
          .min(1, "ids must name at least one notification")
          .max(200, "ids may name at most 200 notifications"),
      }),
    )
    .mutation(({ ctx, input }) => markRead(ctx.db, ctx.actor.id, input.ids)),
  markAllRead: authedProcedure.mutation(({ ctx }) => markRead(ctx.db, ctx.actor.id, "all")),
} satisfies TRPCRouterRecord;
