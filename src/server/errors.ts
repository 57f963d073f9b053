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

/** An expected failure of a business rule: the code picks the HTTP status, the message is shown to the caller. */
export class AppError extends Error {
  readonly code: TAppErrorCode;
  readonly issues?: TFieldIssue[];
  readonly retryAfterSeconds?: number;

  constructor(code: TAppErrorCode, message: string, extra?: { issues?: TFieldIssue[]; retryAfterSeconds?: number }) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.issues = extra?.issues;
    this.retryAfterSeconds = extra?.retryAfterSeconds;
  }
}
