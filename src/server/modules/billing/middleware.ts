import { middleware } from "../../trpc/init";
import { requirePremium } from "./premium";

/**
 * Premium (the trial or a paid period), checked on the server: placing bids, posting loads, connecting boards and
 * stores and chat alerts answer 402 SUBSCRIPTION_REQUIRED without it.
 */
export const premium = middleware(({ ctx, next }) => {
  if (ctx.actor) requirePremium(ctx.actor);
  return next();
});
