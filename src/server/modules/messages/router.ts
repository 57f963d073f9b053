import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZMessage } from "../../../shared/schemas/answers/common";
import { ZMessagesConversationsAnswer, ZMessagesListAnswer } from "../../../shared/schemas/answers/messages";
import { ZMessageInput } from "../../../shared/schemas/loads";
import { authedProcedure, shipperProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { listConversations, listMessages, sendMessage } from "./messages";

const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

export const messagesRouter = {
  list: authedProcedure
    .meta(
      rest("GET", "/api/loads/:id/messages", {
        summary: "A load's conversation",
        tags: ["Messages"],
        scope: "messages:read",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId.extend({ driverId: z.number({ error: "driverId must be a number" }).int().positive().optional() }))
    .output(ZMessagesListAnswer)
    .query(({ ctx, input }) => listMessages(ctx.db, ctx.actor, input.loadId, input.driverId)),
  send: authedProcedure
    .meta(
      rest("POST", "/api/loads/:id/messages", {
        summary: "Write in a load's conversation",
        tags: ["Messages"],
        scope: "messages:write",
        status: 201,
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId.extend(ZMessageInput.shape))
    .output(ZMessage)
    .mutation(({ ctx, input }) => sendMessage(ctx.db, ctx.actor, input.loadId, input.body, input.driverId)),
  conversations: shipperProcedure
    .meta(
      rest("GET", "/api/loads/:id/conversations", {
        summary: "A load's conversations",
        tags: ["Messages"],
        scope: "messages:read",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZMessagesConversationsAnswer)
    .query(({ ctx, input }) => listConversations(ctx.db, ctx.actor, input.loadId)),
} satisfies TRPCRouterRecord;
