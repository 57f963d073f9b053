import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZMessageInput } from "../../../shared/schemas/loads";
import { authedProcedure, shipperProcedure } from "../../trpc/init";
import { listConversations, listMessages, sendMessage } from "./messages";

const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

export const messagesRouter = {
  list: authedProcedure
    .input(ZLoadId.extend({ driverId: z.number({ error: "driverId must be a number" }).int().positive().optional() }))
    .query(({ ctx, input }) => listMessages(ctx.db, ctx.actor, input.loadId, input.driverId)),
  send: authedProcedure
    .input(ZLoadId.extend(ZMessageInput.shape))
    .mutation(({ ctx, input }) => sendMessage(ctx.db, ctx.actor, input.loadId, input.body, input.driverId)),
  conversations: shipperProcedure
    .input(ZLoadId)
    .query(({ ctx, input }) => listConversations(ctx.db, ctx.actor, input.loadId)),
} satisfies TRPCRouterRecord;
