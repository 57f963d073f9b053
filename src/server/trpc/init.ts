import { initTRPC, TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { User } from "../../../db/tables";
import { AppError, describeError, type TMessage } from "../errors";
import type { TContext } from "./context";
import type { TProcedureMeta } from "./rest-meta";

const TRPC_CODE = {
  BAD_REQUEST: "BAD_REQUEST",
  UNAUTHORIZED: "UNAUTHORIZED",
  SUBSCRIPTION_REQUIRED: "PAYMENT_REQUIRED",
  FORBIDDEN: "FORBIDDEN",
  NOT_FOUND: "NOT_FOUND",
  CONFLICT: "CONFLICT",
  PAYLOAD_TOO_LARGE: "PAYLOAD_TOO_LARGE",
  UNPROCESSABLE_CONTENT: "UNPROCESSABLE_CONTENT",
  TOO_MANY_REQUESTS: "TOO_MANY_REQUESTS",
  BAD_GATEWAY: "BAD_GATEWAY",
  SERVICE_UNAVAILABLE: "SERVICE_UNAVAILABLE",
  GATEWAY_TIMEOUT: "GATEWAY_TIMEOUT",
  INTERNAL_SERVER_ERROR: "INTERNAL_SERVER_ERROR",
} as const;

// Procedures may carry their REST route as metadata (rest-meta.ts).
const t = initTRPC
  .context<TContext>()
  .meta<TProcedureMeta>()
  .create({
    // The message in the caller's language (English when the request failed before it had a context, as a malformed
    // batch does), with the message's id and the field issues beside tRPC's code.
    errorFormatter({ shape, error, ctx }) {
      const { body, retryAfter } = describeError(error, ctx?.locale ?? "en");
      return {
        ...shape,
        message: body.message,
        data: {
          ...shape.data,
          stack: undefined,
          messageId: body.messageId,
          // The application's own code where it says more than tRPC's (SUBSCRIPTION_REQUIRED beside PAYMENT_REQUIRED).
          appCode: body.code,
          issues: body.issues,
          retryAfterSeconds: retryAfter,
        },
      };
    },
  });

/**
 * Turns an AppError thrown anywhere below a procedure into the matching TRPCError, keeping it as the cause. A ZodError
 * from a domain function (a whole checked again after changes were merged onto what is saved) is bad input, as the
 * procedure's own input check would have said.
 */
const appErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok && result.error.cause instanceof AppError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
  }
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR" && result.error.cause instanceof ZodError) {
    const cause = result.error.cause;
    throw new TRPCError({ code: "BAD_REQUEST", message: cause.message, cause });
  }
  return result;
});

export const createTRPCRouter = t.router;
export const createCallerFactory = t.createCallerFactory;
/** A check a module adds to its procedures (`.use(...)`), such as billing's premium. */
export const middleware = t.middleware;

export const SIGN_IN_REQUIRED = /*i18n*/ { id: "error.auth.signInRequired", message: "Sign in to continue" };

/** Anyone, signed in or not. */
export const publicProcedure = t.procedure.use(appErrors);

/** A signed-in user; narrows ctx.actor. */
export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.actor) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  return next({ ctx: { ...ctx, actor: ctx.actor as User } });
});

/** A signed-in driver. */
export const driverProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.actor.userType !== "driver")
    throw new AppError("FORBIDDEN", /*i18n*/ { id: "error.auth.driversOnly", message: "Only drivers can do this" });
  return next();
});

/** A signed-in shipper. */
export const shipperProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.actor.userType !== "shipper")
    throw new AppError("FORBIDDEN", /*i18n*/ { id: "error.auth.shippersOnly", message: "Only shippers can do this" });
  return next();
});

/** A signed-in user, or the operator (CLI, jobs): for services that hold no one's data, such as carrier look-ups. */
export const userOrSystemProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.actor && !ctx.system) throw new AppError("UNAUTHORIZED", SIGN_IN_REQUIRED);
  return next();
});

/** The operator: the CLI and background jobs, never a web request. */
export const systemProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.system)
    throw new AppError("FORBIDDEN", /*i18n*/ { id: "error.auth.operatorOnly", message: "Operator access only" });
  return next();
});

/**
 * Throws NOT_FOUND (with the given message, such as "Load not found") unless the record exists and belongs to the
 * caller. Another user's record reads as missing, so ids cannot be probed.
 */
export const assertOwned = <T>(
  record: T | undefined | null,
  ownerId: number | null | undefined,
  actor: User,
  notFound: TMessage,
): T => {
  if (!record || ownerId !== actor.id) throw new AppError("NOT_FOUND", notFound);
  return record;
};

/**
 * The procedure without tRPC's runtime check of its answer: `.output(schema)` still types the answer and describes it
 * in the OpenAPI document, but the answer is not parsed again on every call. Only for a hot procedure whose answer the
 * domain builds field by field in the schema's exact shape, with a test that parses real answers against the schema and
 * finds them unchanged (docs/design-notes.md, "Answers checked in tests"). Throws when the procedure has no output
 * check to drop (a tRPC upgrade that changed how it checks answers must be looked at, not silently ignored).
 */
export const withoutOutputParse = <T>(procedure: T): T => {
  const list = (procedure as { _def: { middlewares: { _type?: string }[] } })._def.middlewares;
  const at = list.findIndex((m) => m._type === "output");
  if (at < 0) throw new Error("withoutOutputParse: the procedure has no output check");
  list.splice(at, 1);
  return procedure;
};
