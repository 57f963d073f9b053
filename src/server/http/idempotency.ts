import { and, eq, inArray, lt } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { idempotencyKeys } from "../../../db/tables";
import { IDEMPOTENCY_TTL_MS } from "../../shared/constants";
import { AppError } from "../errors";
import { readCapped } from "./body";

export const IDEMPOTENCY_HEADER = "Idempotency-Key";
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
 * What identifies a request beside its key: SHA-256 of the method, the path with its query, and the body's exact bytes
 * (a REST body, or a tRPC call or batch). The web app's offline queue sends a write again with the same key, URL and
 * body text, so its replays match.
 */
const requestHash = async (req: Request) => {
  const url = new URL(req.url);
  // A copy of the body, read within the same limit as the route reads it; the route then reads the original.
  const body = await readCapped(req.clone());
  return new Bun.CryptoHasher("sha256").update(`${req.method} ${url.pathname}${url.search}\n${body}`).digest("hex");
};

const keyReused = () =>
  new AppError(
    "UNPROCESSABLE_CONTENT",
    /*i18n*/ {
      id: "error.http.idempotencyKeyReused",
      message: "This {header} was used for another request",
      values: { header: IDEMPOTENCY_HEADER },
    },
    {
      issues: [
        {
          path: IDEMPOTENCY_HEADER,
          message: /*i18n*/ {
            id: "error.http.idempotencyKeyOtherRequest",
            message: "already used with another method, path or body; a new request needs a new key",
          },
        },
      ],
    },
  );

const stillProcessing = () =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.http.stillProcessing",
      message: "The same request is still being processed; try again in a moment",
    },
  );

type TKeyRow = typeof idempotencyKeys.$inferInsert;

/** Claims the key (null) or reads the row that holds it. */
const claimKey = async (db: TDb, row: TKeyRow) => {
  // Twice: a key released between the failed claim and the read (its first run was refused or failed) is free again.
  for (let tries = 0; tries < 2; tries++) {
    const claimed = await db
      .insert(idempotencyKeys)
      .values(row)
      .onConflictDoNothing()
      .returning({ key: idempotencyKeys.key });
    if (claimed.length) return null;
    const [saved] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.userId, row.userId), eq(idempotencyKeys.key, row.key)));
    if (saved) return saved;
  }
  // Claimed and released again meanwhile: other requests with this key are at work.
  throw stillProcessing();
};

/**
 * Runs a write at most once per (user, Idempotency-Key). The key is claimed before the write runs (a primary-key
 * insert, so two replays racing each other cannot both run it), with a hash of the request; a successful answer (2xx,
 * 3xx) is stored, and a later request with the same key and the same method, path and body gets that answer again,
 * marked `Idempotent-Replayed: true`. The same key with another request is a 422 naming the header. A refusal (4xx)
 * changed nothing, so it is not kept: the key is released and a corrected request may use it. A failed run (5xx or a
 * thrown error) releases the key too, so the write can be tried again. Without the header the write simply runs.
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
  const hash = await requestHash(req);
  const saved = await claimKey(db, { userId, key, method: req.method, path, requestHash: hash, createdAt: now });
  if (saved) {
    // Rows stored before requests were hashed have none; they are matched by method and path until they expire.
    if (
      saved.method !== req.method ||
      saved.path !== path ||
      (saved.requestHash !== null && saved.requestHash !== hash)
    )
      throw keyReused();
    if (saved.status === null) throw stillProcessing();
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
  if (res.status >= 400) {
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
