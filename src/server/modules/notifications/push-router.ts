import type { TRPCRouterRecord } from "@trpc/server";
import {
  ZPushPreferences,
  ZPushSubscribeInput,
  ZPushTestInput,
  ZPushUnsubscribeInput,
} from "../../../shared/schemas/push";
import { AppError } from "../../errors";
import { authedProcedure, publicProcedure } from "../../trpc/init";
import { listNotifications, preferencesView, savePreferences, sendTest, subscribe, unsubscribe } from "./push";

export const pushRouter = {
  /** The applicationServerKey browsers subscribe with; `sandbox` when the push service is a local emulator. */
  vapidKey: publicProcedure.query(({ ctx }) => {
    const publicKey = ctx.services.notifiers.vapidPublicKey;
    if (!publicKey)
      throw new AppError(
        "SERVICE_UNAVAILABLE",
        /*i18n*/ {
          id: "error.push.notConfigured",
          message: "Web push is not configured",
        },
      );
    const state = ctx.services.notifiers.states().find((s) => s.channel === "web_push")?.state;
    return { publicKey, sandbox: state === "sandbox" };
  }),
  subscribe: authedProcedure
    .input(ZPushSubscribeInput)
    .mutation(({ ctx, input }) => subscribe(ctx.db, ctx.services.notifiers, ctx.actor.id, input)),
  unsubscribe: authedProcedure
    .input(ZPushUnsubscribeInput)
    .mutation(({ ctx, input }) => unsubscribe(ctx.db, ctx.actor.id, input.endpoint)),
  test: authedProcedure
    .input(ZPushTestInput)
    .mutation(({ ctx, input }) => sendTest(ctx.db, ctx.services.notifiers, ctx.actor.id, input, null)),
  preferences: authedProcedure.query(({ ctx }) => preferencesView(ctx.db, ctx.actor.id)),
  savePreferences: authedProcedure
    .input(ZPushPreferences)
    .mutation(({ ctx, input }) => savePreferences(ctx.db, ctx.actor.id, input)),
  /** What was sent to the caller, newest first. */
  notifications: authedProcedure.query(async ({ ctx }) =>
    (await listNotifications(ctx.db, ctx.actor.id)).map((n) => ({
      id: n.id,
      type: n.type,
      title: n.title,
      body: n.body,
      url: n.url,
      channel: n.channel,
      status: n.status,
      createdAt: new Date(n.createdAt).toISOString(),
    })),
  ),
} satisfies TRPCRouterRecord;
