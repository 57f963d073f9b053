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
  };
};
