import type { TDb } from "../../../db/client";
import { LANGUAGE_CODES, SESSION_COOKIE, type TLanguage } from "../../shared/constants";
import type { TConfig } from "../config";
import { readCookie, resolveSession, sessionCookie } from "../domain/auth/sessions";
import { createContext, type TChannel, type TContext, type TServices } from "../trpc/context";

export type TRequestMeta = { ip: string | null };

const pickLocale = (header: string | null): TLanguage => {
  for (const part of (header ?? "").split(",")) {
    const code = part.trim().slice(0, 2).toLowerCase();
    if ((LANGUAGE_CODES as readonly string[]).includes(code)) return code as TLanguage;
  }
  return "en";
};

export const isSecureRequest = (req: Request, config: TConfig) =>
  new URL(req.url).protocol === "https:" ||
  (config.trustProxy && req.headers.get("x-forwarded-proto")?.split(",")[0]?.trim() === "https");

export const clientIp = (req: Request, config: TConfig, meta: TRequestMeta) =>
  (config.trustProxy ? req.headers.get("x-forwarded-for")?.split(",")[0]?.trim() : null) || meta.ip || "local";

/** The router context for an HTTP request: the session cookie decides the actor. */
export const contextFromRequest = async (
  req: Request,
  db: TDb,
  config: TConfig,
  meta: TRequestMeta,
  channel: TChannel,
  resHeaders: Headers,
  services: TServices,
): Promise<TContext> => {
  const secure = isSecureRequest(req, config);
  const token = readCookie(req.headers.get("cookie"), SESSION_COOKIE);
  const session = token ? await resolveSession(db, token) : null;
  // The cookie's Max-Age slides with the stored expiry.
  if (session?.refreshed && token) resHeaders.append("Set-Cookie", sessionCookie(token, secure));
  const actor = session?.user ?? null;
  return createContext({
    db,
    actor,
    channel,
    locale: (actor?.language as TLanguage | undefined) ?? pickLocale(req.headers.get("accept-language")),
    services,
    http: { sessionHash: session?.idHash ?? null, ip: clientIp(req, config, meta), secure, resHeaders },
  });
};
