import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, normalize } from "node:path";
import { requestLocale } from "./locale";

const ENCODINGS = [
  ["br", ".br"],
  ["gzip", ".gz"],
] as const;

/** The encodings the client accepts (q=0 refuses one). */
const accepted = (header: string | null) => {
  const out = new Set<string>();
  for (const part of (header ?? "").split(",")) {
    const [name, ...params] = part.trim().toLowerCase().split(";");
    const q = params.map((p) => p.trim()).find((p) => p.startsWith("q="));
    if (name && !(q && Number(q.slice(2)) === 0)) out.add(name);
  }
  return out;
};

/** The route a path belongs to ("/loads/$id" for "/loads/42": each `$name` stands for one segment), or null. */
const routeMatcher = (routes: string[]) => {
  const patterns = routes.map((r) => [r, r.split("/").filter(Boolean)] as const);
  return (pathname: string) => {
    const segments = pathname.split("/").filter(Boolean);
    return (
      patterns.find(
        ([, p]) => p.length === segments.length && p.every((s, i) => s.startsWith("$") || s === segments[i]),
      )?.[0] ?? null
    );
  };
};

/** A query's answer the app would ask for first, given with the page so it does not wait a round trip for it. */
export type TBootQuery = { path: string; input?: unknown; data: unknown };
export type TStaticOptions = {
  /** For a signed-in visitor: the first answers of the page at `route` (the current user, the rates, its first data). */
  bootQueries?: (req: Request, route: string, resHeaders: Headers) => Promise<TBootQuery[]>;
  /** The page's `<title>` and link-preview `<meta>` elements (Open Graph, Twitter), in place of index.html's own. */
  headTags?: (req: Request, route: string) => Promise<string>;
};

/** JSON inside a <script> element: nothing in it can close the element or open a comment. */
const scriptJson = (v: unknown) =>
  JSON.stringify(v)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");

type TPreloadMap = {
  routes: Record<string, string[]>;
  authed: string[];
  authedPaths: string[];
  shellCatalogs: Record<string, string>;
  appCatalogs: Record<string, string>;
};

/**
 * Serves the built web app: hashed assets for a year, everything else revalidated, the brotli or gzip copy made at build
 * time when the browser takes it, and index.html for any path that is not a file: status 200 for the app's routes,
 * 404 for anything else (the app then shows its own not-found screen).
 */
export const createStaticHandler = (root: string, opts: TStaticOptions = {}) => {
  const index = join(root, "index.html");
  const routesFile = join(root, "routes.json");
  const routeOf = existsSync(routesFile)
    ? routeMatcher(JSON.parse(readFileSync(routesFile, "utf8")) as string[])
    : () => "/";
  const preloadFile = join(root, "preload.json");
  const preload = existsSync(preloadFile) ? (JSON.parse(readFileSync(preloadFile, "utf8")) as TPreloadMap) : null;
  const indexHtml = existsSync(index) ? readFileSync(index, "utf8") : null;
  // Public pages rendered at build time, per language ("landing.am.html"): scripts/prerender.ts.
  const prerenderDir = join(root, "prerender");
  const prerendered = new Map<string, string>(
    existsSync(prerenderDir)
      ? readdirSync(prerenderDir)
          .filter((f) => f.endsWith(".html"))
          .map((f) => [`/${f.slice(0, -".html".length)}`, readFileSync(join(prerenderDir, f), "utf8")] as const)
      : [],
  );

  /**
   * index.html with the page's own chunks and its language's messages asked for at once (modulepreload), in parallel
   * with the main bundle: otherwise each waits for the code before it to run, a round trip apiece on a slow phone.
   */
  const shell = async (req: Request, route: string | null, resHeaders = new Headers()) => {
    if (!indexHtml || !preload || !route) return null;
    const language = requestLocale(req);
    const signedIn = /(?:^|;\s*)mytess_session=/.test(req.headers.get("cookie") ?? "");
    const signedInScreen = preload.authedPaths.includes(route) || route === "/loads/$id" || route === "/";
    const files = [
      preload.shellCatalogs[language],
      ...(signedIn && signedInScreen ? [preload.appCatalogs[language], ...preload.authed] : []),
      ...(preload.routes[route] ?? []),
    ].filter(Boolean);
    const links = files.map((f) => `<link rel="modulepreload" crossorigin href="/${f}">`).join("");
    const head = opts.headTags ? await opts.headTags(req, route).catch(() => null) : null;
    let html = indexHtml;
    if (head)
      html = html
        .replace(/<title>[^<]*<\/title>/, "")
        .replace(/<meta name="description"[^>]*>/, "")
        .replace("</head>", () => `${head}</head>`);
    html = html.replace("</head>", `${links}</head>`);
    // A signed-in visitor's first answers come with the page (the app seeds its query cache from them): on a slow phone
    // each would otherwise be a round trip after the code has arrived. A failure leaves the app to ask as usual.
    const boot = signedIn && opts.bootQueries ? await opts.bootQueries(req, route, resHeaders).catch(() => []) : [];
    if (boot.length)
      html = html.replace(
        "<body>",
        () => `<body><script id="mytess-boot" type="application/json">${scriptJson(boot)}</script>`,
      );
    // A signed-out visitor gets the page itself in the HTML, in their language, instead of the splash: it shows as soon
    // as the HTML and the stylesheet are in, seconds before the app's code on a slow phone. The app replaces it.
    // `personal`: the page carries the visitor's own data (their first answers).
    const personal = boot.length > 0;
    const page = signedIn ? undefined : prerendered.get(`${route}.${language}`);
    if (!page) return { html, personal };
    return {
      html: html
        .replace(/<html lang="[^"]*"/, `<html lang="${language}"`)
        .replace(/<div id="root">[\s\S]*?<!--\/root-->/, () => `<div id="root" data-prerendered="${route}">${page}`),
      personal,
    };
  };

  const fileResponse = async (
    path: string,
    type: string,
    headers: Record<string, string>,
    req: Request,
    status = 200,
  ) => {
    const take = accepted(req.headers.get("accept-encoding"));
    for (const [encoding, ext] of ENCODINGS) {
      if (!take.has(encoding)) continue;
      const variant = Bun.file(`${path}${ext}`);
      if (await variant.exists())
        return new Response(variant, {
          status,
          headers: { ...headers, "Content-Type": type, "Content-Encoding": encoding, Vary: "Accept-Encoding" },
        });
    }
    return new Response(Bun.file(path), {
      status,
      headers: { ...headers, "Content-Type": type, Vary: "Accept-Encoding" },
    });
  };

  return async (req: Request) => {
    const { pathname } = new URL(req.url);
    let decoded: string;
    try {
      decoded = decodeURIComponent(pathname);
    } catch {
      return new Response("Bad request: the path is not valid percent-encoding.", {
        status: 400,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    const rel = normalize(decoded).replace(/^(\.\.[/\\])+/, "");
    const path = join(root, rel);
    if (path.startsWith(root) && rel !== "/" && !/\.(br|gz)$/.test(rel) && existsSync(path)) {
      const file = Bun.file(path);
      if ((await file.exists()) && file.size >= 0) {
        const immutable = rel.startsWith("/assets/");
        return fileResponse(
          path,
          file.type,
          {
            "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
            ...(rel === "/sw.js" ? { "Service-Worker-Allowed": "/" } : {}),
          },
          req,
        );
      }
    }
    const route = routeOf(decoded);
    const resHeaders = new Headers();
    const shown = await shell(req, route, resHeaders);
    if (shown) {
      const res = new Response(shown.html, {
        status: route ? 200 : 404,
        headers: {
          "Content-Type": "text/html; charset=utf-8",
          // A page with the visitor's own data (their first answers) is never kept by a shared cache.
          "Cache-Control": shown.personal ? "private, no-cache" : "no-cache",
          Vary: "Cookie, Accept-Language",
        },
      });
      // The session's sliding expiry, when reading it renewed it.
      for (const c of resHeaders.getSetCookie()) res.headers.append("Set-Cookie", c);
      return res;
    }
    if (!existsSync(index)) {
      return new Response("The web app is not built yet: run `bun run build`.", {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    return fileResponse(index, "text/html; charset=utf-8", { "Cache-Control": "no-cache" }, req, route ? 200 : 404);
  };
};
