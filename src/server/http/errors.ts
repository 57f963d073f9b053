import { TRPCError } from "@trpc/server";
import { ZodError } from "zod";
import type { TLanguage } from "../../shared/constants";
import { AppError, describeError, type TErrorBody } from "../errors";
import { jsonBytes } from "../json-bytes";
import { logger } from "../logger";

export type { TErrorBody };

/**
 * One mapping from any thrown error to an HTTP status and the JSON body every error has, `{ message, code,
 * issues? }` plus the message's id, in the caller's language. Server failures are logged here.
 */
export const toHttpError = (err: unknown, locale: TLanguage = "en") => {
  const answer = describeError(err, locale);
  const cause = err instanceof TRPCError ? (err.cause ?? err) : err;
  if (cause instanceof AppError || cause instanceof ZodError) return answer;
  if (err instanceof TRPCError) {
    if (answer.status >= 500) logger.error("procedure failed", { error: String(err.cause ?? err) });
  } else {
    logger.error("unhandled error", { error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
  }
  return answer;
};

export const json = (body: unknown, status = 200, headers?: HeadersInit) => {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json; charset=utf-8");
  h.set("Cache-Control", "no-store");
  return new Response(jsonBytes(body), { status, headers: h });
};

/** The error answer for a request, in the caller's language. */
export const errorResponse = (err: unknown, locale: TLanguage, headers?: Headers) => {
  const { status, body, retryAfter } = toHttpError(err, locale);
  const h = new Headers(headers);
  if (retryAfter) h.set("Retry-After", String(retryAfter));
  return json(body, status, h);
};
