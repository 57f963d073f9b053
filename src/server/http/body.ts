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
export const readCapped = async (req: Request) => new TextDecoder().decode(await readCappedBytes(req));

const readCappedBytes = async (req: Request, limit = MAX_JSON_BODY_BYTES, tooBig = tooLarge) => {
  const length = Number(req.headers.get("content-length") ?? "0");
  if (Number.isFinite(length) && length > limit) throw tooBig();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      // Not awaited: on a copy of a body (Request.clone tees the stream) cancelling settles only once the other copy
      // is cancelled too, which nobody will do.
      reader.cancel().catch(() => {});
      throw tooBig();
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks));
};

/**
 * An upload's multipart/form-data body, read within `limit` bytes, as an object: text fields as strings, a file as
 * `{ name, type, data }`. Anything that is not a form is refused; a field the procedure needs and the form lacks is
 * named by its schema.
 */
export const readMultipartBody = async (req: Request, limit: number): Promise<Record<string, unknown>> => {
  const type = req.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data;/i.test(type))
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ { id: "error.http.notMultipart", message: "The request body must be multipart/form-data" },
    );
  const fileTooLarge = () =>
    new AppError(
      "PAYLOAD_TOO_LARGE",
      /*i18n*/ { id: "error.http.fileTooLarge", message: "file must be at most {size} MB", values: { size: 10 } },
      {
        issues: [
          {
            path: "file",
            message: { id: "error.http.fileTooLarge", message: "file must be at most {size} MB", values: { size: 10 } },
          },
        ],
      },
    );
  const bytes = await readCappedBytes(req, limit, fileTooLarge);
  let form: FormData;
  try {
    form = await new Response(bytes, { headers: { "content-type": type } }).formData();
  } catch {
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ { id: "error.http.badMultipart", message: "The request body is not a readable form" },
    );
  }
  const out: Record<string, unknown> = {};
  for (const [key, value] of form.entries() as IterableIterator<[string, string | File]>) {
    if (key in out) continue;
    out[key] =
      typeof value === "string"
        ? value
        : { name: value.name || "file", type: value.type, data: new Uint8Array(await value.arrayBuffer()) };
  }
  return out;
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
