import { AppError } from "../../errors";
import { middleware, SIGN_IN_REQUIRED } from "../../trpc/init";
import { isOperator } from "./operators";

const NOT_FOUND = /*i18n*/ {
  id: "error.http.notFound",
  comment: "Error answer: the address or record does not exist",
  message: "Not found",
};

/**
 * The operator: the CLI, or a signed-in account the CLI made an operator. A signed-out caller is asked to sign in
 * (401); any other account is told the page does not exist (404), so operator pages and ids cannot be found by trying.
 */
export const operatorOnly = middleware(async ({ ctx, next }) => {
  if (ctx.system) return next();
  if (!ctx.actor) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  if (!(await isOperator(ctx.db, ctx.actor.id))) throw new AppError("NOT_FOUND", NOT_FOUND);
  return next();
});
