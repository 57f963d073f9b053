import type { TDb } from "../../../db/client";
import { SESSION_COOKIE, type TLanguage } from "../../shared/constants";
import type { TConfig } from "../config";
import { readCookie, resolveSession, sessionCookie } from "../modules/accounts/sessions";
import { resolveToken } from "../modules/tokens/tokens";
import type { TServices } from "../services";
import { createContext, type TChannel, type TContext } from "../trpc/context";
import { requestLocale, requestRegion } from "./locale";

export type TRequestMeta = { ip: string | null };

export const isSecureRequest = (req: Request, config: TConfig) =>
  new URL(req.url).protocol === "https:" ||
  (config.trustProxy && req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https");

/** The site's public origin: PUBLIC_URL, else what the request shows (behind a trusted proxy, its forwarded host). */
export const publicOrigin = (req: Request, config: TConfig) => {
  if (config.publicUrl) return config.publicUrl.replace(/\/$/, "");
  const url = new URL(req.url);
  const proto = isSecureRequest(req, config) ? "https" : url.protocol.replace(":", "");
  const host = (config.trustProxy && req.headers.get("x-forwarded-host")) || req.headers.get("host") || url.host;
  return `${proto}://${host}`;
};

/** The bearer token of a request (`Authorization: Bearer <token>`), if it carries one. */
export const bearerToken = (req: Request) => {
  const m = /^Bearer\s+(\S+)\s*$/i.exec(req.headers.get("authorization") ?? "");
  return m ? m[1]! : null;
};

export const clientIp = (req: Request, config: TConfig, meta: TRequestMeta) =>
  (config.trustProxy ? req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() : null) || meta.ip || "local";

/**
 * The router context for an HTTP request: the session cookie decides the actor, and the actor's language the locale
 * (signed out: the web app's language cookie, else Accept-Language).
 */
export const contextFromRequest = async (
  req: Request,
  db: TDb,
  config: TConfig,
  meta: TRequestMeta,
  channel: TChannel,
  resHeaders: Headers,
  services: TServices,
  /** REST only: a bearer token decides the actor (and its scopes) instead of the cookie. */
  bearer = false,
): Promise<TContext> => {
  const secure = isSecureRequest(req, config);
  const token = bearer ? bearerToken(req) : null;
  if (token) {
    const caller = await resolveToken(db, token);
    return createContext({
      db,
      actor: caller.user,
      apiToken: caller.token,
      channel,
      locale: (caller.user.language as TLanguage | undefined) ?? requestLocale(req),
      services,
      http: {
        sessionHash: null,
        ip: clientIp(req, config, meta),
        secure,
        resHeaders,
        origin: publicOrigin(req, config),
      },
    });
  }
  const cookie = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
  const session = cookie ? await resolveSession(db, cookie) : null;
  // The cookie's Max-Age slides with the stored expiry.
  if (session?.refreshed && cookie) resHeaders.append("Set-Cookie", sessionCookie(cookie, secure));
  const actor = session?.user ?? null;
  return createContext({
    db,
    actor,
    channel,
    locale: (actor?.language as TLanguage | undefined) ?? requestLocale(req),
    services,
    http: {
      sessionHash: session?.idHash ?? null,
      ip: clientIp(req, config, meta),
      secure,
      resHeaders,
      origin: publicOrigin(req, config),
      region: requestRegion(req),
    },
  });
};
