import * as client from "openid-client";
import { isStorableText } from "../../../shared/schemas/text";
import { AppError } from "../../errors";
import { guardedFetcher } from "../http/guard";

export type TOidcSettings = { issuer: string; clientId: string; clientSecret: string };
export type TOidcStart = { url: string; state: string; codeVerifier: string };
export type TOidcClaims = {
  sub: string;
  issuer: string;
  email?: string;
  emailVerified?: boolean;
  givenName?: string;
  familyName?: string;
  name?: string;
  picture?: string;
};

/**
 * An OpenID Connect relying party: authorization code with PKCE, discovery cached per issuer. Its requests (discovery,
 * token, keys, user info) go through the outgoing-call guard, which trusts the operator's issuer (OIDC_ISSUER, plain
 * http or loopback allowed there) and holds the endpoints its metadata names to public https.
 */
export const createOidcClient = (settings: TOidcSettings) => {
  let configPromise: Promise<client.Configuration> | null = null;
  const insecure = new URL(settings.issuer).protocol === "http:";

  const config = () => {
    configPromise ??= client
      .discovery(new URL(settings.issuer), settings.clientId, settings.clientSecret, undefined, {
        execute: insecure ? [client.allowInsecureRequests] : [],
        [client.customFetch]: guardedFetcher({ trusted: [settings.issuer] }) as client.CustomFetch,
      })
      .catch((err) => {
        configPromise = null;
        throw new AppError(
          "BAD_GATEWAY",
          /*i18n*/ {
            id: "error.oidc.unreachable",
            message: "The sign-in provider could not be reached: {reason}",
            values: { reason: (err as Error).message },
          },
        );
      });
    return configPromise;
  };

  return {
    async start(redirectUri: string): Promise<TOidcStart> {
      const cfg = await config();
      const codeVerifier = client.randomPKCECodeVerifier();
      const state = client.randomState();
      const url = client.buildAuthorizationUrl(cfg, {
        redirect_uri: redirectUri,
        scope: "openid email profile",
        code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
        code_challenge_method: "S256",
        state,
      });
      return { url: url.href, state, codeVerifier };
    },

    async finish(callbackUrl: URL, expected: { state: string; codeVerifier: string }): Promise<TOidcClaims> {
      const cfg = await config();
      try {
        const tokens = await client.authorizationCodeGrant(cfg, callbackUrl, {
          pkceCodeVerifier: expected.codeVerifier,
          expectedState: expected.state,
        });
        const claims = tokens.claims();
        if (!claims) throw new Error("no ID token in the answer");
        let info: Record<string, unknown> = { ...claims };
        if (!claims.email) {
          info = { ...info, ...(await client.fetchUserInfo(cfg, tokens.access_token, claims.sub)) };
        }
        // What the provider says about the person goes into the account: only text that can be stored as sent is
        // used (see shared/schemas/text.ts); anything else counts as not sent, as a claim of the wrong type does.
        const text = (v: unknown) => (typeof v === "string" && isStorableText(v) ? v : undefined);
        if (!text(claims.sub)) throw new Error("the subject is not usable text");
        return {
          sub: claims.sub,
          issuer: String(claims.iss),
          email: text(info.email),
          emailVerified: typeof info.email_verified === "boolean" ? info.email_verified : undefined,
          givenName: text(info.given_name),
          familyName: text(info.family_name),
          name: text(info.name),
          picture: text(info.picture),
        };
      } catch (err) {
        throw new AppError(
          "UNAUTHORIZED",
          /*i18n*/ {
            id: "error.oidc.failed",
            message: "Sign-in with the provider failed: {reason}",
            values: { reason: (err as Error).message },
          },
        );
      }
    },
  };
};
export type TOidcClient = ReturnType<typeof createOidcClient>;
