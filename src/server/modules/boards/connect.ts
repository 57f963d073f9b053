import { randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type MarketplaceConfig, marketplaceConfigs, type User } from "../../../../db/tables";
import type { TMarketplaceProvider } from "../../../shared/schemas/boards";
import { AppError } from "../../errors";
import { boardLabel, nameConfiguration } from "../../integrations/boards/http";
import {
  LB123_CALLBACK_PATH,
  lb123AuthorizeUrl,
  lb123ExchangeCode,
  pkcePair,
} from "../../integrations/boards/loadboard123-oauth";
import type { TBoardServices } from "../../integrations/boards/services";
import { BOARD_NAMES } from "../../integrations/boards/types";
import { credentialsOf, noBoardApp, ownMarketplace } from "./configs";
import { boardClientOf, needsUserConnect, sealTokens } from "./user-auth";

// Connect 123Loadboard: the user's own authorization, given on 123Loadboard's page (the authorization-code grant with
// PKCE). Starting a connection stores, sealed on the configuration, the MAC of a random state, the PKCE verifier, the
// redirect URI and a ten-minute expiry; the state sent is "<configuration id>.<random>". The callback is accepted once,
// for the signed-in owner of that configuration only, within the ten minutes: the pending connection is cleared by a
// conditional update before the code is exchanged, so a state is never used twice and another user's (or another
// configuration's) state is refused. A newer start replaces an older one.

const PENDING_MS = 10 * 60_000;

type TPending = { mac: string; verifier: string; redirectUri: string; expiresAt: number; userId: number };

const stateMac = (services: TBoardServices, id: number, nonce: string) =>
  services.secrets.mac(`board-connect:${id}:${nonce}`);

const labelOf = (c: MarketplaceConfig) => boardLabel(BOARD_NAMES[c.provider as TMarketplaceProvider], c.name);

/** The client to connect with, and the settings the token calls need. */
const clientSettings = (services: TBoardServices, c: MarketplaceConfig) => {
  const client = boardClientOf(services, credentialsOf(services, c));
  if (!client) throw noBoardApp();
  return {
    provider: c.provider as TMarketplaceProvider,
    name: c.name,
    baseUrl: c.apiBaseUrl,
    credentials: client,
    timeoutMs: services.timeoutMs,
    rateLimitPerHour: c.rateLimitPerHour,
    sandboxOrigins: services.sandboxOrigins,
  };
};

/** Where 123Loadboard sends the user back, on this site. */
export const connectRedirectUri = (origin: string) => `${origin.replace(/\/+$/, "")}${LB123_CALLBACK_PATH}`;

/** Starts Connect 123Loadboard for the caller's configuration: the address to send the browser to. */
export const startConnect = async (
  db: TDb,
  services: TBoardServices,
  user: User,
  id: number,
  origin: string,
  now = Date.now(),
) => {
  const c = await ownMarketplace(db, user, id);
  if (!needsUserConnect(c.provider))
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.board.connectNotNeeded",
        message: "{board} is connected with the credentials of its configuration; there is nothing to authorize",
        values: { board: BOARD_NAMES[c.provider as TMarketplaceProvider] },
      },
    );
  const settings = clientSettings(services, c);
  const nonce = randomBytes(32).toString("base64url");
  const pkce = pkcePair();
  const redirectUri = connectRedirectUri(origin);
  const pending: TPending = {
    mac: stateMac(services, c.id, nonce),
    verifier: pkce.verifier,
    redirectUri,
    expiresAt: now + PENDING_MS,
    userId: user.id,
  };
  await db
    .update(marketplaceConfigs)
    .set({ oauthPending: services.secrets.seal(JSON.stringify(pending)) })
    .where(and(eq(marketplaceConfigs.id, c.id), eq(marketplaceConfigs.userId, user.id)));
  return {
    url: lb123AuthorizeUrl(c.apiBaseUrl, {
      clientId: settings.credentials.clientId,
      redirectUri,
      state: `${c.id}.${nonce}`,
      codeChallenge: pkce.challenge,
    }),
  };
};

const CONNECT_FAILED = /*i18n*/ {
  id: "error.board.connectExpired",
  message: "The connection was not completed: the link is used, expired or not yours. Use Connect 123Loadboard again",
};

const equal = (a: string, b: string) => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/** Takes the pending connection a state names, once: the configuration, or null when the state is not valid. */
const takePending = async (db: TDb, services: TBoardServices, userId: number, state: string, now: number) => {
  const m = /^(\d{1,12})\.([A-Za-z0-9_-]{20,100})$/.exec(state);
  if (!m) return null;
  const id = Number(m[1]);
  const [c] = await db
    .select()
    .from(marketplaceConfigs)
    .where(and(eq(marketplaceConfigs.id, id), eq(marketplaceConfigs.userId, userId)));
  if (!c?.oauthPending) return null;
  let pending: TPending;
  try {
    pending = JSON.parse(services.secrets.open(c.oauthPending)) as TPending;
  } catch {
    return null;
  }
  if (pending.userId !== userId || !equal(pending.mac, stateMac(services, id, m[2]))) return null;
  // Spent now, used or not: the conditional update lets one of two callbacks at once through.
  const taken = await db
    .update(marketplaceConfigs)
    .set({ oauthPending: null })
    .where(and(eq(marketplaceConfigs.id, id), eq(marketplaceConfigs.oauthPending, c.oauthPending)))
    .returning({ id: marketplaceConfigs.id });
  if (!taken.length) return null;
  return { c, pending, expired: pending.expiresAt < now };
};

/**
 * An OAuth error code as it may be kept: its printable ASCII characters, the only ones the standard allows (RFC 6749
 * §4.1.2.1), at most 100. The rest of the callback's address is the browser's to write: a NUL character would fail
 * PostgreSQL's insert and be stored by SQLite, and a cut could split a surrogate pair.
 */
const oauthErrorCode = (error: string) => error.replace(/[^\x20-\x7e]/g, "").slice(0, 100) || "?";

export type TConnectOutcome = { configId: number | null; outcome: "connected" | "denied" | "failed" };

/**
 * The callback: 123Loadboard sent the signed-in user back with a code (or an error, when they denied). The code is
 * exchanged for the user's tokens, stored sealed; the configuration is connected. Failures are recorded as the
 * configuration's last error, in words that name it.
 */
export const finishConnect = async (
  db: TDb,
  services: TBoardServices,
  userId: number,
  q: { state: string | null; code: string | null; error: string | null },
  now = Date.now(),
): Promise<TConnectOutcome> => {
  const taken = q.state ? await takePending(db, services, userId, q.state, now) : null;
  if (!taken) {
    // The configuration, when the state names one of this user's: it is told why it is not connected.
    const id = Number(/^(\d{1,12})\./.exec(q.state ?? "")?.[1] ?? Number.NaN);
    const own = Number.isSafeInteger(id)
      ? (
          await db
            .select({ id: marketplaceConfigs.id })
            .from(marketplaceConfigs)
            .where(and(eq(marketplaceConfigs.id, id), eq(marketplaceConfigs.userId, userId)))
        )[0]
      : undefined;
    if (own) await record(db, own.id, new AppError("BAD_REQUEST", CONNECT_FAILED).message);
    return { configId: own?.id ?? null, outcome: "failed" };
  }
  const { c, pending, expired } = taken;
  if (expired || (!q.code && !q.error)) {
    await record(db, c.id, new AppError("BAD_REQUEST", CONNECT_FAILED).message);
    return { configId: c.id, outcome: "failed" };
  }
  if (q.error) {
    const denied = new AppError(
      "BAD_REQUEST",
      q.error === "access_denied"
        ? /*i18n*/ {
            id: "error.board.connectDenied",
            message: "{name} is not connected: the authorization was denied on 123Loadboard",
            values: { name: labelOf(c) },
          }
        : /*i18n*/ {
            id: "error.board.connectRefused",
            message: "{name} is not connected: 123Loadboard answered {error}",
            values: { name: labelOf(c), error: oauthErrorCode(q.error) },
          },
    );
    await record(db, c.id, denied.message);
    return { configId: c.id, outcome: q.error === "access_denied" ? "denied" : "failed" };
  }
  try {
    const settings = clientSettings(services, c);
    const tokens = await lb123ExchangeCode(settings, {
      code: q.code!,
      redirectUri: pending.redirectUri,
      codeVerifier: pending.verifier,
    }).catch((err) => {
      throw nameConfiguration(err, BOARD_NAMES[settings.provider], c.name);
    });
    await db
      .update(marketplaceConfigs)
      .set({
        oauthTokens: sealTokens(services, tokens),
        oauthStatus: "connected",
        lastError: null,
        // A new version of the configuration: adapters made for the old one (and the tokens they hold) are dropped.
        updatedAt: Math.max(now, c.updatedAt + 1),
      })
      .where(eq(marketplaceConfigs.id, c.id));
    return { configId: c.id, outcome: "connected" };
  } catch (err) {
    await record(db, c.id, err instanceof Error ? err.message : String(err));
    return { configId: c.id, outcome: "failed" };
  }
};

const record = (db: TDb, id: number, error: string) =>
  db.update(marketplaceConfigs).set({ lastError: error }).where(eq(marketplaceConfigs.id, id));
