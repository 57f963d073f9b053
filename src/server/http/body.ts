import { AppError } from "../errors";

/** The largest JSON body any route accepts; every call of the API fits in a few kilobytes. */
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export const tooLarge = () =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    /*i18n*/ {
      id: "error.http.bodyTooLarge",
      message: "The request body is larger than {size} MB",
      values: { size: MAX_JSON_BODY_BYTES / 1024 / 1024 },
    },
  );

/** True when the request says up front that its body is over the limit. */
export const declaresTooLargeBody = (req: Request) => {
  const length = Number(req.headers.get("content-length") ?? "0");
  return Number.isFinite(length) && length > MAX_JSON_BODY_BYTES;
};

/** The body's bytes, stopping as soon as the limit is passed (a chunked body declares no length). */
export const readCapped = async (req: Request) => {
  if (declaresTooLargeBody(req)) throw tooLarge();
  if (!req.body) return "";
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_JSON_BODY_BYTES) {
      // Not awaited: on a copy of a body (Request.clone tees the stream) cancelling settles only once the other copy
      // is cancelled too, which nobody will do.
      reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
};

/**
 * A REST call's JSON body: absent (undefined) or a JSON object. Anything else (a string, an array, a number, null) is
 * refused before any route spreads it into its input: spreading a long string makes one property per character.
 */
export const readJsonBody = async (req: Request): Promise<Record<string, unknown> | undefined> => {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  const text = await readCapped(req);
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ { id: "error.http.invalidJson", message: "The request body must be valid JSON" },
    );
  }
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ { id: "error.http.notObject", message: "The request body must be a JSON object" },
    );
  return value as Record<string, unknown>;
};
