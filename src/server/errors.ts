import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { ZodError } from "zod";
import type { TLanguage } from "../shared/constants";
import { sourceText, type TMessage, translate } from "./i18n";

export const APP_ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  /** Premium is needed (the trial and any paid period have ended). */
  SUBSCRIPTION_REQUIRED: 402,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  /** Well-formed but unusable as sent (an Idempotency-Key already used for another request). */
  UNPROCESSABLE_CONTENT: 422,
  TOO_MANY_REQUESTS: 429,
  BAD_GATEWAY: 502,
  SERVICE_UNAVAILABLE: 503,
  GATEWAY_TIMEOUT: 504,
  INTERNAL_SERVER_ERROR: 500,
} as const;
export type TAppErrorCode = keyof typeof APP_ERROR_STATUS;

export type TFieldIssue = { path: string; message: string };
/** A field an AppError names, with a message that is translated with the error. */
export type TAppIssue = { path: string; message: TMessage };

export type { TMessage };

/**
 * An expected failure of a business rule: the code picks the HTTP status, the message (an id, its English default and
 * values) is shown to the caller in their language; `message` is the English text, for logs. Write the descriptor as an
 * object literal preceded by an `i18n` block comment, so that `bun run i18n:extract` collects it into the catalogs:
 * `new AppError("NOT_FOUND", <i18n comment> { id: "error.load.notFound", message: "Load not found" })`.
 */
export class AppError extends Error {
  readonly code: TAppErrorCode;
  /** The message as thrown: id, English default and values. */
  readonly descriptor: TMessage;
  /** The field issues in English (see `issuesIn`). */
  readonly issues?: TFieldIssue[];
  readonly retryAfterSeconds?: number;
  readonly #issues?: TAppIssue[];

  constructor(code: TAppErrorCode, descriptor: TMessage, extra?: { issues?: TAppIssue[]; retryAfterSeconds?: number }) {
    super(sourceText(descriptor));
    this.name = "AppError";
    this.code = code;
    this.descriptor = descriptor;
    this.#issues = extra?.issues;
    this.issues = extra?.issues?.map((i) => ({ path: i.path, message: sourceText(i.message) }));
    this.retryAfterSeconds = extra?.retryAfterSeconds;
  }

  /** The stable id of the message, for clients that key on it. */
  get messageId() {
    return this.descriptor.id;
  }

  /** The message in a language; English where a translation is missing. */
  messageIn(locale: TLanguage) {
    return translate(locale, this.descriptor);
  }

  /** The field issues in a language. */
  issuesIn(locale: TLanguage): TFieldIssue[] | undefined {
    return this.#issues?.map((i) => ({ path: i.path, message: translate(locale, i.message) }));
  }
}

export const zodIssues = (error: ZodError): TFieldIssue[] =>
  error.issues.map((i) => ({ path: i.path.join(".") || "(root)", message: i.message }));

/** The answer every door gives for a failure: `{ message, code, messageId?, issues? }`. */
export type TErrorBody = { message: string; code: string; messageId?: string; issues?: TFieldIssue[] };

const INTERNAL = /*i18n*/ { id: "error.internal", message: "Internal server error" };

/**
 * What a thrown error tells the caller, in the caller's language: one mapping for REST, tRPC and the CLI. An AppError
 * (or a TRPCError caused by one) gives its translated message, its id and its issues; invalid input gives the
 * schema's issues (their texts come from the zod schemas shared with the web app); a server failure says only that.
 */
export const describeError = (
  err: unknown,
  locale: TLanguage = "en",
): { status: number; body: TErrorBody; retryAfter?: number } => {
  const cause = err instanceof TRPCError ? (err.cause ?? err) : err;
  if (cause instanceof AppError) {
    const issues = cause.issuesIn(locale);
    return {
      status: APP_ERROR_STATUS[cause.code],
      body: {
        message: cause.messageIn(locale),
        code: cause.code,
        messageId: cause.messageId,
        ...(issues ? { issues } : {}),
      },
      retryAfter: cause.retryAfterSeconds,
    };
  }
  if (cause instanceof ZodError) {
    const issues = zodIssues(cause);
    const message =
      issues[0]?.message ??
      translate(
        locale,
        /*i18n*/ {
          id: "error.invalidInput",
          comment: "Error when a request's data is wrong and no field says why",
          message: "Invalid input",
        },
      );
    return { status: 400, body: { message, code: "BAD_REQUEST", issues } };
  }
  const internal = { message: translate(locale, INTERNAL), messageId: INTERNAL.id };
  if (err instanceof TRPCError) {
    // tRPC's own refusals (an unknown procedure, a malformed batch) are for developers and stay in English.
    const status = getHTTPStatusCodeFromError(err);
    return { status, body: status >= 500 ? { ...internal, code: err.code } : { message: err.message, code: err.code } };
  }
  return { status: 500, body: { ...internal, code: "INTERNAL_SERVER_ERROR" } };
};
