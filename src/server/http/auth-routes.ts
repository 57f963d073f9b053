import type { Db } from "../../../db/client";
import { type TUserType, USER_TYPES } from "../../shared/constants";
import type { TConfig } from "../config";
import { findOrCreateOidcUser } from "../domain/auth/oidc-users";
import { clearedSessionCookie, createSession, deleteSession, sessionCookie } from "../domain/auth/sessions";
import type { TCarrierRegistry } from "../integrations/carriers/registry";
import type { TOidcClient } from "../integrations/oidc/oidc";
import { logger } from "../logger";
import { errorResponse } from "./errors";
import { contextFromRequest, isSecureRequest, type TRequestMeta } from "./request-context";

const OIDC_COOKIE = "mytess_oidc";

const redirect = (location: string, headers = new Headers()) => {
  headers.set("Location", location);
  headers.set("Cache-Control", "no-store");
  return new Response(null, { status: 302, headers });
};

const originOf = (req: Request, config: TConfig) => {
  if (config.publicUrl) return config.publicUrl.replace(/\/$/, "");
  const url = new URL(req.url);
  const proto = isSecureRequest(req, config) ? "https" : url.protocol.replace(":", "");
  const host = (config.trustProxy && req.headers.get("x-forwarded-host")) || req.headers.get("host") || url.host;
  return `${proto}://${host}`;
};

/** Only same-site paths may be returned to after sign-in. */
const safeReturnTo = (value: string | null) => (value?.startsWith("/") && !value.startsWith("//") ? value : "/");

export const createAuthRoutes = (db: Db, config: TConfig, oidc: TOidcClient | null, carriers: TCarrierRegistry) => ({
  /** GET /api/login: the provider when one is configured, else the sign-in screen. */
  async login(req: Request) {
    const url = new URL(req.url);
    const returnTo = safeReturnTo(url.searchParams.get("returnTo"));
    const typeParam = url.searchParams.get("userType");
    const userType: TUserType = (USER_TYPES as readonly string[]).includes(typeParam ?? "")
      ? (typeParam as TUserType)
      : "shipper";
    if (!oidc) {
      const q = new URLSearchParams({ returnTo });
      if (typeParam) q.set("userType", userType);
      return redirect(`/signin?${q}`);
    }
    try {
      const start = await oidc.start(`${originOf(req, config)}/api/auth/callback`);
      const payload = Buffer.from(
        JSON.stringify({ s: start.state, v: start.codeVerifier, r: returnTo, t: userType }),
      ).toString("base64url");
      const secure = isSecureRequest(req, config);
      const headers = new Headers();
      headers.append(
        "Set-Cookie",
        `${OIDC_COOKIE}=${payload}; Path=/api/auth/callback; HttpOnly; SameSite=Lax; Max-Age=600${secure ? "; Secure" : ""}`,
      );
      return redirect(start.url, headers);
    } catch (err) {
      return errorResponse(err);
    }
  },

  /** GET /api/auth/callback: the provider's answer becomes a session. */
  async callback(req: Request) {
    if (!oidc) return redirect("/signin");
    const secure = isSecureRequest(req, config);
    const raw = req.headers
      .get("cookie")
      ?.split(";")
      .map((p) => p.trim())
      .find((p) => p.startsWith(`${OIDC_COOKIE}=`))
      ?.slice(OIDC_COOKIE.length + 1);
    const headers = new Headers();
    headers.append("Set-Cookie", `${OIDC_COOKIE}=; Path=/api/auth/callback; HttpOnly; SameSite=Lax; Max-Age=0`);
    try {
      if (!raw) return redirect("/signin?error=expired", headers);
      const saved = JSON.parse(Buffer.from(raw, "base64url").toString()) as {
        s: string;
        v: string;
        r: string;
        t: TUserType;
      };
      const external = new URL(req.url);
      const callbackUrl = new URL(`${originOf(req, config)}/api/auth/callback${external.search}`);
      const claims = await oidc.finish(callbackUrl, { state: saved.s, codeVerifier: saved.v });
      const user = findOrCreateOidcUser(db, claims, saved.t);
      const { token } = createSession(db, user.id, req.headers.get("user-agent"));
      headers.append("Set-Cookie", sessionCookie(token, secure));
      logger.info("oidc sign-in", { userId: user.id });
      return redirect(safeReturnTo(saved.r), headers);
    } catch (err) {
      logger.warn("oidc callback failed", { error: (err as Error).message });
      return errorResponse(err, headers);
    }
  },

  /** GET /api/logout: ends the session on the server, clears the cookie, back to the start. */
  logout(req: Request, meta: TRequestMeta) {
    const headers = new Headers();
    const ctx = contextFromRequest(req, db, config, meta, "rest", headers, carriers);
    if (ctx.sessionHash) deleteSession(db, ctx.sessionHash);
    const out = new Headers();
    out.append("Set-Cookie", clearedSessionCookie(ctx.secure));
    return redirect("/", out);
  },
});
