import { and, eq, inArray, lt } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { idempotencyKeys } from "../../../db/tables";
import { AppError } from "../errors";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
/** How long an answer is kept for replays: a phone that was offline for a day still gets its answer. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const KEY_RE = /^[A-Za-z0-9_-]{8,128}$/;

const readKey = (req: Request) => {
  const key = req.headers.get(IDEMPOTENCY_HEADER);
  if (key === null) return null;
  if (!KEY_RE.test(key))
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.http.idempotencyKeyInvalid",
        message: '{header} must be 8 to 128 letters, digits, "-" or "_"',
        values: { header: IDEMPOTENCY_HEADER },
      },
      {
        issues: [
          {
            path: IDEMPOTENCY_HEADER,
            message: /*i18n*/ { id: "error.http.idempotencyKeyFormat", message: "8 to 128 letters, digits, - or _" },
          },
        ],
      },
    );
  return key;
};

/**
 * Runs a write at most once per (user, Idempotency-Key). The key is claimed before the write runs (a primary-key
 * insert, so two replays racing each other cannot both run it); the answer is stored when it is not a server failure,
 * and a later request with the same key gets that answer again, marked `Idempotent-Replayed: true`. A failed run (5xx
 * or a thrown error) releases the key so the write can be tried again. Without the header the write simply runs.
 */
export const withIdempotency = async (
  db: TDb,
  req: Request,
  userId: number | null,
  run: () => Promise<Response>,
  now = Date.now(),
): Promise<Response> => {
  const key = readKey(req);
  if (!key || userId === null || req.method === "GET" || req.method === "HEAD") return run();
  const path = new URL(req.url).pathname;
  const claimed = await db
    .insert(idempotencyKeys)
    .values({ userId, key, method: req.method, path, createdAt: now })
    .onConflictDoNothing()
    .returning({ key: idempotencyKeys.key });
  if (!claimed.length) {
    const [saved] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
    if (!saved || saved.method !== req.method || saved.path !== path)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.http.idempotencyKeyReused",
          message: "This {header} was used for another request",
          values: { header: IDEMPOTENCY_HEADER },
        },
      );
    if (saved.status === null)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.http.stillProcessing",
          message: "The same request is still being processed; try again in a moment",
        },
      );
    return new Response(saved.body, {
      status: saved.status,
      headers: {
        "Content-Type": saved.contentType ?? "application/json; charset=utf-8",
        "Cache-Control": "no-store",
        "Idempotent-Replayed": "true",
      },
    });
  }
  const release = () =>
    db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  let res: Response;
  try {
    res = await run();
  } catch (err) {
    await release();
    throw err;
  }
  if (res.status >= 500) {
    await release();
    return res;
  }
  const body = await res.text();
  await db
    .update(idempotencyKeys)
    .set({ status: res.status, contentType: res.headers.get("Content-Type"), body })
    .where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.key, key)));
  await purgeOldKeys(db, now);
  return new Response(body, { status: res.status, statusText: res.statusText, headers: res.headers });
};

/** Answers older than a day are dropped, a few at a time, as new ones are stored. */
const purgeOldKeys = async (db: TDb, now: number) => {
  const old = await db
    .select({ userId: idempotencyKeys.userId, key: idempotencyKeys.key })
    .from(idempotencyKeys)
    .where(lt(idempotencyKeys.createdAt, now - IDEMPOTENCY_TTL_MS))
    .limit(100);
  for (const o of old)
    await db
      .delete(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, o.userId), inArray(idempotencyKeys.key, [o.key])));
};
