import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZOkAnswer } from "../../../shared/schemas/answers/common";
import { ZTokensCreateAnswer, ZTokensListAnswer } from "../../../shared/schemas/answers/tokens";
import { ZCreateTokenInput } from "../../../shared/schemas/tokens";
import { AppError } from "../../errors";
import { authedProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { createToken, listTokens, revokeToken, SESSION_ONLY } from "./tokens";

// Tokens are made and revoked from a signed-in browser only: the REST routes are `session` (a token is refused), and
// the procedures refuse a token's context too, so a leaked token cannot mint others or outlive its revocation.
const sessionOnly = authedProcedure.use(({ ctx, next }) => {
  if (ctx.apiToken) throw new AppError("FORBIDDEN", SESSION_ONLY);
  return next();
});

export const tokensRouter = {
  list: sessionOnly
    .meta(rest("GET", "/api/tokens", { summary: "Your API tokens", tags: ["API tokens"], scope: "session" }))
    .output(ZTokensListAnswer)
    .query(({ ctx }) => listTokens(ctx.db, ctx.actor)),
  create: sessionOnly
    .meta(
      rest("POST", "/api/tokens", {
        summary: "Create an API token (shown once)",
        tags: ["API tokens"],
        scope: "session",
        status: 201,
      }),
    )
    .input(ZCreateTokenInput)
    .output(ZTokensCreateAnswer)
    .mutation(({ ctx, input }) => createToken(ctx.db, ctx.actor, input)),
  revoke: sessionOnly
    .meta(rest("DELETE", "/api/tokens/:id", { summary: "Revoke an API token", tags: ["API tokens"], scope: "session" }))
    .input(z.object({ id: z.number({ error: "id must be a number" }).int().positive() }))
    .output(ZOkAnswer)
    .mutation(({ ctx, input }) => revokeToken(ctx.db, ctx.actor, input.id)),
} satisfies TRPCRouterRecord;
