import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZOkAnswer } from "../../../shared/schemas/answers/common";
import {
  ZWebhookDeliveriesAnswer,
  ZWebhookEndpointCreateAnswer,
  ZWebhookEndpointsListAnswer,
  ZWebhookResendAnswer,
  ZWebhookSandboxAnswer,
  ZWebhookSandboxReceivedAnswer,
  ZWebhookSandboxReceiverAnswer,
} from "../../../shared/schemas/answers/webhooks";
import { ZCreateWebhookEndpointInput } from "../../../shared/schemas/webhooks";
import { authedProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { createEndpoint, deleteEndpoint, listDeliveries, listEndpoints, resendDelivery } from "./endpoints";
import { newSandboxReceiver, receivedBySandbox, sandboxInfo } from "./sandbox";

const ZId = z.object({ id: z.number({ error: "id must be a number" }).int().positive() });
const TAGS = ["Webhooks"];

export const webhooksRouter = {
  list: authedProcedure
    .meta(
      rest("GET", "/api/webhook-endpoints", { summary: "Your webhook endpoints", tags: TAGS, scope: "webhooks:read" }),
    )
    .output(ZWebhookEndpointsListAnswer)
    .query(({ ctx }) => listEndpoints(ctx.db, ctx.actor)),
  create: authedProcedure
    .meta(
      rest("POST", "/api/webhook-endpoints", {
        summary: "Register a webhook endpoint (its signing secret is shown once)",
        tags: TAGS,
        scope: "webhooks:write",
        status: 201,
      }),
    )
    .input(ZCreateWebhookEndpointInput)
    .output(ZWebhookEndpointCreateAnswer)
    .mutation(({ ctx, input }) => createEndpoint(ctx.db, ctx.services, ctx.actor, input)),
  remove: authedProcedure
    .meta(
      rest("DELETE", "/api/webhook-endpoints/:id", {
        summary: "Delete a webhook endpoint and its deliveries",
        tags: TAGS,
        scope: "webhooks:write",
      }),
    )
    .input(ZId)
    .output(ZOkAnswer)
    .mutation(({ ctx, input }) => deleteEndpoint(ctx.db, ctx.actor, input.id)),
  deliveries: authedProcedure
    .meta(
      rest("GET", "/api/webhook-endpoints/:id/deliveries", {
        summary: "An endpoint's newest deliveries with their attempts",
        tags: TAGS,
        scope: "webhooks:read",
      }),
    )
    .input(ZId)
    .output(ZWebhookDeliveriesAnswer)
    .query(({ ctx, input }) => listDeliveries(ctx.db, ctx.actor, input.id)),
  resend: authedProcedure
    .meta(
      rest("POST", "/api/webhook-deliveries/:id/resend", {
        summary: "Send a delivery again (once, through the queue)",
        tags: TAGS,
        scope: "webhooks:write",
        status: 202,
      }),
    )
    .input(ZId)
    .output(ZWebhookResendAnswer)
    .mutation(({ ctx, input }) => resendDelivery(ctx.db, ctx.actor, input.id)),
  /** Whether the Sandbox receiver runs (demo mode): the web app offers it on Settings only then. */
  sandbox: authedProcedure
    .meta(
      rest("GET", "/api/dev/webhook-sandbox", {
        summary: "Whether this server runs the Sandbox webhook receiver (demo mode): its origin, or null",
        tags: ["Demo"],
        scope: "session",
      }),
    )
    .output(ZWebhookSandboxAnswer)
    .query(({ ctx }) => sandboxInfo(ctx.services)),
  /** Demo mode (404 otherwise): a fresh Sandbox receiver address of the signed-in user's own; nothing is stored. */
  sandboxReceiver: authedProcedure
    .meta(
      rest("GET", "/api/dev/webhook-receiver", {
        summary: "Demo mode: a fresh Sandbox webhook receiver address",
        tags: ["Demo"],
        scope: "session",
      }),
    )
    .output(ZWebhookSandboxReceiverAnswer)
    .query(({ ctx }) => newSandboxReceiver(ctx.services, ctx.actor)),
  /** Demo mode (404 otherwise): what the Sandbox receiver got at the signed-in user's receivers. */
  sandboxReceived: authedProcedure
    .meta(
      rest("GET", "/api/dev/webhooks", {
        summary: "Demo mode: deliveries the Sandbox webhook receiver got at your receivers",
        tags: ["Demo"],
        scope: "session",
      }),
    )
    .output(ZWebhookSandboxReceivedAnswer)
    .query(({ ctx }) => receivedBySandbox(ctx.services, ctx.actor)),
} satisfies TRPCRouterRecord;
