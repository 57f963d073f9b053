import { join } from "node:path";

export type TConfig = {
  port: number;
  databasePath: string;
  /** Where the built web app lives; absent in API-only tests. */
  webDist: string;
  /** Trust X-Forwarded-For / X-Forwarded-Proto from a reverse proxy. */
  trustProxy: boolean;
  demo: boolean;
  oidc: { issuer: string; clientId: string; clientSecret: string } | null;
  /** The public origin used for redirect URIs; derived from the request when unset. */
  publicUrl: string | null;
  /** Outside origins the maps may fetch their style, tiles, glyphs and sprites from (the page's CSP connect-src). */
  mapOrigins: string[];
};

/**
 * `MAP_ORIGINS`: space- or comma-separated https origins ("https://tiles.example.com"). A value that is not an https
 * origin stops the start with the variable named, rather than a map that silently fails under the CSP.
 */
export const parseMapOrigins = (value: string | undefined): string[] => {
  const origins: string[] = [];
  for (const item of (value ?? "").split(/[\s,]+/).filter(Boolean)) {
    const url = URL.parse(item);
    if (url?.protocol !== "https:" || url.origin !== item.replace(/\/$/, "")) {
      throw new Error(`MAP_ORIGINS: "${item}" is not an https origin such as https://tiles.example.com`);
    }
    if (!origins.includes(url.origin)) origins.push(url.origin);
  }
  return origins;
};

const ROOT = join(import.meta.dir, "..", "..");

export const loadConfig = (env: Record<string, string | undefined> = process.env): TConfig => {
  const oidcVars = [env.OIDC_ISSUER, env.OIDC_CLIENT_ID, env.OIDC_CLIENT_SECRET];
  return {
    port: Number(env.PORT ?? 3000),
    databasePath: env.DATABASE_PATH ?? join(ROOT, "data", "mytess.db"),
    webDist: env.WEB_DIST ?? join(ROOT, "dist", "web"),
    trustProxy: env.TRUST_PROXY === "1" || env.TRUST_PROXY === "true",
    demo: env.MYTESS_DEMO === "1",
    oidc: oidcVars.every(Boolean)
      ? { issuer: env.OIDC_ISSUER!, clientId: env.OIDC_CLIENT_ID!, clientSecret: env.OIDC_CLIENT_SECRET! }
      : null,
    publicUrl: env.PUBLIC_URL ?? null,
    mapOrigins: parseMapOrigins(env.MAP_ORIGINS),
  };
};
