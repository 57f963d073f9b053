import type { TLanguage } from "../shared/constants";
import { sourceText, type TMessage, translate } from "./i18n";

export const APP_ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
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
