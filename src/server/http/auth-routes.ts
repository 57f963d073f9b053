import type { TDb } from "../../../db/client";
import { type TLanguage, type TUserType, USER_TYPES } from "../../shared/constants";
import { accountDefaults } from "../../shared/region";
import { safeReturnTo } from "../../shared/return-to";
import type { TConfig } from "../config";
import { translate } from "../i18n";
import type { TOidcClient } from "../integrations/oidc/oidc";
import { logger } from "../logger";
import { findOrCreateOidcUser } from "../modules/accounts/oidc-users";
import { clearedSessionCookie, createSession, deleteSession, sessionCookie } from "../modules/accounts/sessions";
import type { TServices } from "../services";
import { errorResponse } from "./errors";
import { requestLocale, requestRegion } from "./locale";
import { contextFromRequest, isSecureRequest, publicOrigin, type TRequestMeta } from "./request-context";

const OIDC_COOKIE = "mytess_oidc";

const redirect = (location: string, headers = new Headers()) => {
  headers.set("Location", location);
  headers.set("Cache-Control", "no-store");
  return new Response(null, { status: 302, headers });
};

const originOf = publicOrigin;

/** A sign-out asked for by this site's own page, or typed into the address bar; not one set off by another site. */
const isOwnNavigation = (req: Request) => {
  const site = req.headers.get("sec-fetch-site");
  return site === null || site === "same-origin" || site === "none";
};

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The page shown when another site links to /api/logout: the user decides, with a same-site form post. */
const confirmSignOutPage = (locale: TLanguage) => {
  const title = translate(locale, /*i18n*/ { id: "logout.confirm.title", message: "Sign out of MyTess?" });
  const body = translate(
    locale,
    /*i18n*/ {
      id: "logout.confirm.body",
      message: "Another site sent you here. You are still signed in; sign out only if you meant to.",
    },
  );
  const button = translate(
    locale,
    /*i18n*/ {
      id: "logout.confirm.button",
      comment: "Button on the sign-out confirmation page: sign out of MyTess",
      message: "Sign out",
    },
  );
  const back = translate(locale, /*i18n*/ { id: "logout.confirm.back", message: "Back to MyTess" });
  const html = `<!doctype html><html lang="${locale}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title></head><body style="font-family:system-ui,'Noto Sans Ethiopic',sans-serif;max-width:28rem;margin:4rem auto;padding:0 1rem"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(body)}</p><form method="post" action="/api/logout"><button type="submit">${escapeHtml(button)}</button></form><p><a href="/">${escapeHtml(back)}</a></p></body></html>`;
  return new Response(html, {
    status: 200,
    headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" },
  });
};

export const createAuthRoutes = (db: TDb, config: TConfig, oidc: TOidcClient | null, services: TServices) => ({
  /** GET /api/login: the provider when one is configured, else the sign-in screen. */
  async login(req: Request) {
    const url = new URL(req.url);
    const returnTo = safeReturnTo(url.searchParams.get("returnTo"), originOf(req, config));
    const typeParam = url.searchParams.get("userType");
    const userType: TUserType = (USER_TYPES as readonly string[]).includes(typeParam ?? "")
      ? (typeParam as TUserType)
      : "shipper";
    if (!oidc) {
      const q = new URLSearchParams({ returnTo });
      if (typeParam) q.set("userType", userType);
      const mode = url.searchParams.get("mode");
      if (mode === "register" || mode === "signin") q.set("mode", mode);
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
      return errorResponse(err, requestLocale(req));
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
      const user = await findOrCreateOidcUser(
        db,
        claims,
        saved.t,
        accountDefaults({ language: requestLocale(req), region: requestRegion(req) }),
      );
      const { token } = await createSession(db, user.id, req.headers.get("user-agent"));
      headers.append("Set-Cookie", sessionCookie(token, secure));
      logger.info("oidc sign-in", { userId: user.id });
      return redirect(safeReturnTo(saved.r, originOf(req, config)), headers);
    } catch (err) {
      logger.warn("oidc callback failed", { error: (err as Error).message });
      return errorResponse(err, requestLocale(req), headers);
    }
  },

  /**
   * GET /api/logout (and the POST of its confirmation form): ends the session on the server, clears the cookie, back to
   * the start. A GET that another site set off (a link or an image; the Lax cookie rides along) only asks.
   */
  async logout(req: Request, meta: TRequestMeta) {
    const headers = new Headers();
    const ctx = await contextFromRequest(req, db, config, meta, "rest", headers, services);
    if (req.method === "GET" && !isOwnNavigation(req)) return confirmSignOutPage(ctx.locale);
    if (ctx.http?.sessionHash) await deleteSession(db, ctx.http.sessionHash);
    const out = new Headers();
    out.append("Set-Cookie", clearedSessionCookie(ctx.http?.secure ?? false));
    return redirect("/", out);
  },
});
