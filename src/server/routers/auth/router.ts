import type { TRPCRouterRecord } from "@trpc/server";
import { ZLoginInput, ZRegisterInput } from "../../../shared/schemas/auth";
import { authenticate, registerUser } from "../../domain/auth/auth";
import { clearedSessionCookie, createSession, deleteSession, sessionCookie } from "../../domain/auth/sessions";
import { toPublicUser } from "../../domain/users/public-user";
import type { TContext } from "../../trpc/context";
import { authedProcedure, publicProcedure } from "../../trpc/init";

const startSession = async (ctx: TContext, userId: number) => {
  const { token } = await createSession(ctx.db, userId, null);
  ctx.resHeaders.append("Set-Cookie", sessionCookie(token, ctx.secure));
};

export const authRouter = {
  /** The signed-in user, or null. */
  me: publicProcedure.query(({ ctx }) => (ctx.actor ? toPublicUser(ctx.actor) : null)),

  register: publicProcedure.input(ZRegisterInput).mutation(async ({ ctx, input }) => {
    const user = await registerUser(ctx.db, input);
    await startSession(ctx, user.id);
    ctx.log.info("user registered", { userId: user.id, userType: user.userType });
    return { user: toPublicUser(user) };
  }),

  login: publicProcedure.input(ZLoginInput).mutation(async ({ ctx, input }) => {
    const user = await authenticate(ctx.db, input, ctx.ip);
    await startSession(ctx, user.id);
    return { user: toPublicUser(user) };
  }),

  logout: authedProcedure.mutation(async ({ ctx }) => {
    if (ctx.sessionHash) await deleteSession(ctx.db, ctx.sessionHash);
    ctx.resHeaders.append("Set-Cookie", clearedSessionCookie(ctx.secure));
    return { ok: true };
  }),
} satisfies TRPCRouterRecord;
