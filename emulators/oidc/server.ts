// A local OpenID Connect provider for tests and demo mode: discovery, an authorization endpoint with a sign-in form,
// a token endpoint (authorization code + PKCE S256, client_secret_basic or client_secret_post), JWKS and userinfo.
import { exportJWK, generateKeyPair, SignJWT } from "jose";

export type TOidcEmulatorUser = {
  sub: string;
  email: string;
  given_name: string;
  family_name: string;
  email_verified: boolean;
};
export type TOidcEmulatorOptions = { port?: number; clientId: string; clientSecret: string; hostname?: string };

type TCode = {
  clientId: string;
  redirectUri: string;
  challenge: string;
  user: TOidcEmulatorUser;
  nonce?: string;
  expires: number;
};

const sha256b64url = async (s: string) =>
  Buffer.from(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(s))).toString("base64url");

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

const oauthError = (error: string, description: string, status = 400) =>
  Response.json({ error, error_description: description }, { status, headers: { "Cache-Control": "no-store" } });

export const startOidcEmulator = async (opts: TOidcEmulatorOptions) => {
  const { privateKey, publicKey } = await generateKeyPair("RS256");
  const jwk = { ...(await exportJWK(publicKey)), kid: "emulator-key", alg: "RS256", use: "sig" };
  const codes = new Map<string, TCode>();
  const accessTokens = new Map<string, TOidcEmulatorUser>();
  let issuer = "";

  const userFor = (email: string, given: string, family: string): TOidcEmulatorUser => ({
    sub: `emu-${Buffer.from(email.toLowerCase()).toString("hex").slice(0, 24)}`,
    email: email.toLowerCase(),
    given_name: given || email.split("@")[0],
    family_name: family || "User",
    email_verified: true,
  });

  const server = Bun.serve({
    port: opts.port ?? 0,
    hostname: opts.hostname ?? "127.0.0.1",
    async fetch(req) {
      const url = new URL(req.url);
      switch (`${req.method} ${url.pathname}`) {
        case "GET /.well-known/openid-configuration":
          return Response.json({
            issuer,
            authorization_endpoint: `${issuer}/authorize`,
            token_endpoint: `${issuer}/token`,
            userinfo_endpoint: `${issuer}/userinfo`,
            jwks_uri: `${issuer}/jwks`,
            response_types_supported: ["code"],
            subject_types_supported: ["public"],
            id_token_signing_alg_values_supported: ["RS256"],
            code_challenge_methods_supported: ["S256"],
            token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
            scopes_supported: ["openid", "email", "profile"],
          });
        case "GET /jwks":
          return Response.json({ keys: [jwk] });
        case "GET /authorize": {
          const p = url.searchParams;
          if (p.get("client_id") !== opts.clientId) return oauthError("unauthorized_client", "unknown client_id");
          if (p.get("response_type") !== "code")
            return oauthError("unsupported_response_type", "only code is supported");
          if (p.get("code_challenge_method") !== "S256" || !p.get("code_challenge")) {
            return oauthError("invalid_request", "PKCE with S256 is required");
          }
          const hidden = [...p.entries()]
            .map(([k, v]) => `<input type="hidden" name="${escapeHtml(k)}" value="${escapeHtml(v)}">`)
            .join("");
          return new Response(
            `<!doctype html><meta charset="utf-8"><title>Sandbox sign-in</title><h1>Sandbox identity provider</h1>
<form method="post" action="/authorize">${hidden}
<label>Email <input name="email" type="email" required></label>
<label>First name <input name="given_name"></label>
<label>Last name <input name="family_name"></label>
<button type="submit">Sign in</button></form>`,
            { headers: { "Content-Type": "text/html; charset=utf-8" } },
          );
        }
        case "POST /authorize": {
          const f = await req.formData();
          const get = (k: string) => String(f.get(k) ?? "");
          if (get("client_id") !== opts.clientId) return oauthError("unauthorized_client", "unknown client_id");
          const email = get("email");
          if (!email.includes("@")) return oauthError("invalid_request", "email is required");
          const code = crypto.randomUUID();
          codes.set(code, {
            clientId: get("client_id"),
            redirectUri: get("redirect_uri"),
            challenge: get("code_challenge"),
            user: userFor(email, get("given_name"), get("family_name")),
            nonce: get("nonce") || undefined,
            expires: Date.now() + 60_000,
          });
          const back = new URL(get("redirect_uri"));
          back.searchParams.set("code", code);
          if (get("state")) back.searchParams.set("state", get("state"));
          back.searchParams.set("iss", issuer);
          return new Response(null, { status: 302, headers: { Location: back.href } });
        }
        case "POST /token": {
          const f = new URLSearchParams(await req.text());
          let clientId = f.get("client_id");
          let secret = f.get("client_secret");
          const basic = req.headers.get("authorization");
          if (basic?.startsWith("Basic ")) {
            const [id, s] = Buffer.from(basic.slice(6), "base64").toString().split(":");
            clientId = decodeURIComponent(id);
            secret = decodeURIComponent(s);
          }
          if (clientId !== opts.clientId || secret !== opts.clientSecret) {
            return oauthError("invalid_client", "client authentication failed", 401);
          }
          if (f.get("grant_type") !== "authorization_code")
            return oauthError("unsupported_grant_type", "authorization_code only");
          const entry = codes.get(f.get("code") ?? "");
          codes.delete(f.get("code") ?? "");
          if (!entry || entry.expires < Date.now()) return oauthError("invalid_grant", "unknown or expired code");
          if (entry.redirectUri !== f.get("redirect_uri")) return oauthError("invalid_grant", "redirect_uri mismatch");
          if ((await sha256b64url(f.get("code_verifier") ?? "")) !== entry.challenge) {
            return oauthError("invalid_grant", "PKCE verification failed");
          }
          const now = Math.floor(Date.now() / 1000);
          const idToken = await new SignJWT({ ...entry.user, ...(entry.nonce ? { nonce: entry.nonce } : {}) })
            .setProtectedHeader({ alg: "RS256", kid: jwk.kid })
            .setIssuer(issuer)
            .setAudience(opts.clientId)
            .setSubject(entry.user.sub)
            .setIssuedAt(now)
            .setExpirationTime(now + 600)
            .sign(privateKey);
          const accessToken = crypto.randomUUID();
          accessTokens.set(accessToken, entry.user);
          return Response.json(
            {
              access_token: accessToken,
              token_type: "Bearer",
              expires_in: 600,
              id_token: idToken,
              scope: "openid email profile",
            },
            { headers: { "Cache-Control": "no-store" } },
          );
        }
        case "GET /userinfo": {
          const user = accessTokens.get(req.headers.get("authorization")?.replace(/^Bearer /, "") ?? "");
          if (!user)
            return new Response(null, { status: 401, headers: { "WWW-Authenticate": 'Bearer error="invalid_token"' } });
          return Response.json(user);
        }
        default:
          return oauthError("not_found", `${req.method} ${url.pathname} is not an endpoint here`, 404);
      }
    },
  });
  issuer = `http://${server.hostname}:${server.port}`;
  return { issuer, stop: () => server.stop(true) };
};

if (import.meta.main) {
  const e = await startOidcEmulator({
    port: Number(process.env.PORT ?? 4010),
    clientId: process.env.OIDC_CLIENT_ID ?? "mytess-sandbox",
    clientSecret: process.env.OIDC_CLIENT_SECRET ?? "sandbox-secret",
  });
  console.log(`OIDC emulator at ${e.issuer}`);
}
