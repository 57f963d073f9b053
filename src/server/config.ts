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

/**
 * VAPID_SUBJECT: the contact push services see in every push (RFC 8292), a `mailto:` address or an `https:` URL. Apple's
 * push service refuses a placeholder such as mailto:postmaster@localhost, so iPhones would get no notifications.
 * Returns what is wrong with a value, or null.
 */
export const vapidSubjectProblem = (value: string | undefined): string | null => {
  const v = value?.trim() ?? "";
  if (!v)
    return "VAPID_SUBJECT is not set: set it to a contact push services can reach, such as mailto:ops@example.com or https://example.com (Apple refuses pushes without a real one)";
  const url = URL.parse(v);
  const mailto = url?.protocol === "mailto:" ? /^[^\s@]+@([^\s@]+)$/.exec(decodeURIComponent(url.pathname)) : null;
  const host = (url?.protocol === "https:" ? url.hostname : mailto?.[1])?.toLowerCase();
  if (!url || (url.protocol !== "mailto:" && url.protocol !== "https:") || !host)
    return `VAPID_SUBJECT: "${v}" is not a mailto: address or an https: URL`;
  if (host === "localhost" || host.endsWith(".localhost") || host.endsWith(".local"))
    return `VAPID_SUBJECT: "${v}" names a local host, which Apple's push service refuses`;
  if (!host.includes(".")) return `VAPID_SUBJECT: "${v}" is not a mailto: address or an https: URL`;
  return null;
};

/**
 * What the start refuses outside demo mode and test runs: settings production cannot do without. Throws an Error whose
 * message names the variable.
 */
export const checkProductionSettings = (env: Record<string, string | undefined>, config: Pick<TConfig, "demo">) => {
  if (config.demo || env.NODE_ENV === "test") return;
  const problem = vapidSubjectProblem(env.VAPID_SUBJECT);
  if (problem) throw new Error(problem);
};
