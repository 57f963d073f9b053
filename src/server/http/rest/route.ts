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
  /** The body is multipart/form-data up to this many bytes (file uploads) instead of a JSON object. */
  multipartBytes?: number;
};

export const route = (
  method: TRestRoute["method"],
  path: string,
  call: TRestRoute["call"],
  status?: number,
  options: { anonymousBody?: boolean; multipartBytes?: number } = {},
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

/**
 * A stored file as the answer: its own type, a download name, and headers that keep a browser from reading it as
 * anything else (nosniff) or running anything in it (a sandboxed, script-less document if opened on its own).
 */
export const fileResponse = (f: { fileName: string; contentType: string; size: number; stream: ReadableStream }) =>
  new Response(f.stream, {
    headers: {
      "Content-Type": f.contentType,
      "Content-Length": String(f.size),
      "Content-Disposition": `inline; filename="${f.fileName.replace(/[^\x20-\x7e]|["\\]/g, "_")}"; filename*=UTF-8''${encodeURIComponent(f.fileName)}`,
      "X-Content-Type-Options": "nosniff",
      "Content-Security-Policy": "default-src 'none'; sandbox",
      "Cache-Control": "private, no-store",
    },
  });
