// Personal API tokens: `mt_<public id>_<secret>`, shown once. The public id finds the row; the SHA-256 of the whole
// token is what is kept and compared (in constant time). Each token has a budget of requests per minute kept on its
// row, so every server process counts against the same budget.
import { timingSafeEqual } from "node:crypto";
import { and, desc, eq, lt, or, sql } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { apiTokens, type User, users } from "../../../../db/tables";
import { API_SCOPES, type TApiScope } from "../../../shared/api-scopes";
import type { TCreateTokenInput } from "../../../shared/schemas/tokens";
import { AppError } from "../../errors";

/** Requests a token may make per minute (every process together). */
export const TOKEN_REQUESTS_PER_MINUTE = 120;
/** Tokens one account may hold. */
export const MAX_TOKENS_PER_USER = 20;
/** How often the last-used time is moved forward. */
const LAST_USED_EVERY_MS = 60_000;
const WINDOW_MS = 60_000;

const TOKEN_FORMAT = /^mt_([a-z0-9]{12})_([A-Za-z0-9_-]{43})$/;

const hash = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");

const ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";
const publicIdOf = () =>
  Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => ALPHABET[b % ALPHABET.length]).join("");

const TOKEN_NOT_FOUND = /*i18n*/ { id: "error.tokens.notFound", message: "API token not found" };
const TOKEN_REFUSED = /*i18n*/ {
  id: "error.tokens.refused",
  message: "The API token is not valid or was revoked",
};

/** What a token is told on the routes that take a signed-in browser only (the token routes themselves). */
export const SESSION_ONLY = /*i18n*/ {
  id: "error.tokens.sessionOnly",
  message: "API tokens are managed from a signed-in browser only",
};

/** A token calling a route whose scope it was not given. */
export const missingScope = (scope: TApiScope) =>
  new AppError(
    "FORBIDDEN",
    /*i18n*/ {
      id: "error.tokens.missingScope",
      message: "This API token lacks the {scope} scope",
      values: { scope },
    },
  );

const scopesOf = (text: string): TApiScope[] => API_SCOPES.filter((s) => text.split(" ").includes(s));

export type TPublicToken = {
  id: number;
  name: string;
  /** The token's visible start (`mt_<public id>`), so its owner can tell tokens apart. */
  prefix: string;
  scopes: TApiScope[];
  createdAt: string;
  lastUsedAt: string | null;
};

const toPublic = (row: typeof apiTokens.$inferSelect): TPublicToken => ({
  id: row.id,
  name: row.name,
  prefix: `mt_${row.publicId}`,
  scopes: scopesOf(row.scopes),
  createdAt: new Date(row.createdAt).toISOString(),
  lastUsedAt: row.lastUsedAt === null ? null : new Date(row.lastUsedAt).toISOString(),
});

export const listTokens = async (db: TDb, actor: User) =>
  (await db.select().from(apiTokens).where(eq(apiTokens.userId, actor.id)).orderBy(desc(apiTokens.id))).map(toPublic);

/** A new token; the whole token is in this answer only. */
export const createToken = async (db: TDb, actor: User, input: TCreateTokenInput, now = Date.now()) => {
  const scopes = API_SCOPES.filter((s) => input.scopes.includes(s));
  const [{ n } = { n: 0 }] = await db
    .select({ n: sql<number>`count(*)` })
    .from(apiTokens)
    .where(eq(apiTokens.userId, actor.id));
  if (Number(n) >= MAX_TOKENS_PER_USER)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.tokens.tooMany",
        message: "You have {max} API tokens already; revoke one first",
        values: { max: MAX_TOKENS_PER_USER },
      },
    );
  const publicId = publicIdOf();
  const secret = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
  const token = `mt_${publicId}_${secret}`;
  const [row] = await db
    .insert(apiTokens)
    .values({
      userId: actor.id,
      name: input.name,
      publicId,
      tokenHash: hash(token),
      scopes: scopes.join(" "),
      createdAt: now,
    })
    .returning();
  if (!row) throw new AppError("INTERNAL_SERVER_ERROR", TOKEN_NOT_FOUND);
  return { ...toPublic(row), token };
};

export const revokeToken = async (db: TDb, actor: User, id: number) => {
  const gone = await db
    .delete(apiTokens)
    .where(and(eq(apiTokens.id, id), eq(apiTokens.userId, actor.id)))
    .returning({ id: apiTokens.id });
  if (!gone.length) throw new AppError("NOT_FOUND", TOKEN_NOT_FOUND);
  return { ok: true as const };
};

export type TTokenCaller = { user: User; token: { id: number; scopes: TApiScope[] } };

/**
 * The user and scopes behind a bearer token, counting the request against the token's budget for this minute (a 429
 * with the seconds to wait when it is spent). An unknown, malformed or revoked token is a 401.
 */
export const resolveToken = async (db: TDb, token: string, now = Date.now()): Promise<TTokenCaller> => {
  const m = TOKEN_FORMAT.exec(token);
  if (!m) throw new AppError("UNAUTHORIZED", TOKEN_REFUSED);
  const [row] = await db.select().from(apiTokens).where(eq(apiTokens.publicId, m[1]!));
  const given = Buffer.from(hash(token), "hex");
  if (!row || !timingSafeEqual(given, Buffer.from(row.tokenHash, "hex")))
    throw new AppError("UNAUTHORIZED", TOKEN_REFUSED);
  const window = now - (now % WINDOW_MS);
  // One conditional write: a later minute starts the count again, otherwise it counts only while under the budget.
  // A window newer than this process's clock (another process ahead of it) is never reset.
  const stale = sql`${apiTokens.windowStart} < ${window}`;
  const counted = await db
    .update(apiTokens)
    .set({
      windowCount: sql`CASE WHEN ${stale} THEN 1 ELSE ${apiTokens.windowCount} + 1 END`,
      windowStart: sql`CASE WHEN ${stale} THEN ${window} ELSE ${apiTokens.windowStart} END`,
      lastUsedAt: sql`CASE WHEN ${apiTokens.lastUsedAt} IS NULL OR ${apiTokens.lastUsedAt} <= ${now - LAST_USED_EVERY_MS} THEN ${now} ELSE ${apiTokens.lastUsedAt} END`,
    })
    .where(
      and(
        eq(apiTokens.id, row.id),
        or(lt(apiTokens.windowStart, window), lt(apiTokens.windowCount, TOKEN_REQUESTS_PER_MINUTE)),
      ),
    )
    .returning({ id: apiTokens.id });
  if (!counted.length)
    throw new AppError(
      "TOO_MANY_REQUESTS",
      /*i18n*/ {
        id: "error.tokens.rateLimited",
        message: "This API token has made {max} requests this minute; try again shortly",
        values: { max: TOKEN_REQUESTS_PER_MINUTE },
      },
      { retryAfterSeconds: Math.max(1, Math.ceil((window + WINDOW_MS - now) / 1000)) },
    );
  const [user] = await db.select().from(users).where(eq(users.id, row.userId));
  if (!user) throw new AppError("UNAUTHORIZED", TOKEN_REFUSED);
  return { user, token: { id: row.id, scopes: scopesOf(row.scopes) } };
};
