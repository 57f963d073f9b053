/** The page's Content-Security-Policy; `mapOrigins` are the map style's hosts (MAP_ORIGINS), allowed to be fetched. */
export const contentSecurityPolicy = (mapOrigins: readonly string[] = []) =>
  [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https:",
    "font-src 'self' data:",
    ["connect-src 'self'", ...mapOrigins].join(" "),
    "worker-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "object-src 'none'",
  ].join("; ");

export const applySecurityHeaders = (headers: Headers, secure: boolean, csp: string) => {
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("X-Frame-Options", "DENY");
  headers.set("Referrer-Policy", "strict-origin-when-cross-origin");
  headers.set("Permissions-Policy", "geolocation=(self), camera=(), microphone=()");
  headers.set("Cross-Origin-Opener-Policy", "same-origin");
  if (!headers.has("Content-Security-Policy")) headers.set("Content-Security-Policy", csp);
  if (secure) headers.set("Strict-Transport-Security", "max-age=31536000; includeSubDomains");
};

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * A state-changing request sent by a page of another site is refused: the Origin (or, without it, Sec-Fetch-Site)
 * must name this host. Requests with neither come from non-browser clients, which carry no ambient cookies.
 */
export const isCrossSiteWrite = (req: Request, trustProxy: boolean) => {
  if (SAFE_METHODS.has(req.method)) return false;
  const origin = req.headers.get("origin");
  if (origin) {
    if (origin === "null") return true;
    const host =
      (trustProxy && req.headers.get("x-forwarded-host")) || req.headers.get("host") || new URL(req.url).host;
    try {
      return new URL(origin).host !== host;
    } catch {
      return true;
    }
  }
  const site = req.headers.get("sec-fetch-site");
  return site === "cross-site";
};
