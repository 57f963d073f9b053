import { AppError } from "../../errors";
import type { createCaller } from "../../trpc/root";

export type TCaller = ReturnType<typeof createCaller>;
export type TRestRequest = {
  params: Record<string, string>;
  query: Record<string, string>;
  body: unknown;
};
export type TRestRoute = {
  method: "GET" | "POST" | "PUT" | "DELETE";
  path: string;
  /** HTTP status on success (200 unless said). */
  status?: number;
  /** Which procedure answers, and how path, query and body become its input. */
  call: (caller: TCaller, req: TRestRequest) => Promise<unknown>;
  /** Whether an anonymous caller may send this route a body (sign-up and sign-in); others are refused before reading it. */
  anonymousBody?: boolean;
};

export const route = (
  method: TRestRoute["method"],
  path: string,
  call: TRestRoute["call"],
  status?: number,
  options: { anonymousBody?: boolean } = {},
): TRestRoute => ({ method, path, call, status, ...options });

/** A numeric path parameter, or a 400 naming it. */
export const idParam = (req: TRestRequest, name = "id") => {
  const value = Number(req.params[name]);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.http.positiveInteger",
        message: "{name} must be a positive integer",
        values: { name },
      },
    );
  return value;
};

/** The JSON body as an object (an absent body is an empty object, so missing fields are named by the schema). */
export const bodyObject = (req: TRestRequest) => (req.body ?? {}) as Record<string, unknown>;
