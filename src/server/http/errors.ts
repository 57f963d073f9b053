import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { ZodError } from "zod";
import { APP_ERROR_STATUS, AppError } from "../errors";
import { logger } from "../logger";
import { zodIssues } from "../trpc/init";

export type TErrorBody = { message: string; code: string; issues?: { path: string; message: string }[] };

/** One mapping from any thrown error to an HTTP status and the JSON body of DESIGN's error shape. */
export const toHttpError = (err: unknown): { status: number; body: TErrorBody; retryAfter?: number } => {
  const cause = err instanceof TRPCError ? (err.cause ?? err) : err;
  if (cause instanceof AppError) {
    return {
      status: APP_ERROR_STATUS[cause.code],
      body: { message: cause.message, code: cause.code, ...(cause.issues ? { issues: cause.issues } : {}) },
      retryAfter: cause.retryAfterSeconds,
    };
  }
  if (cause instanceof ZodError) {
    const issues = zodIssues(cause);
    return { status: 400, body: { message: issues[0]?.message ?? "Invalid input", code: "BAD_REQUEST", issues } };
  }
  if (err instanceof TRPCError) {
    const status = getHTTPStatusCodeFromError(err);
    if (status >= 500) logger.error("procedure failed", { error: String(err.cause ?? err) });
    return { status, body: { message: status >= 500 ? "Internal server error" : err.message, code: err.code } };
  }
  logger.error("unhandled error", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  return { status: 500, body: { message: "Internal server error", code: "INTERNAL_SERVER_ERROR" } };
};

export const json = (body: unknown, status = 200, headers?: HeadersInit) => {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json; charset=utf-8");
  h.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { status, headers: h });
};

export const errorResponse = (err: unknown, headers?: Headers) => {
  const { status, body, retryAfter } = toHttpError(err);
  const h = new Headers(headers);
  if (retryAfter) h.set("Retry-After", String(retryAfter));
  return json(body, status, h);
};
