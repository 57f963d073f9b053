import { existsSync, readFileSync } from "node:fs";
import { join, normalize } from "node:path";

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

/** "/loads/$id" matches "/loads/42": each `$name` stands for one path segment. */
const routeMatcher = (routes: string[]) => {
  const patterns = routes.map((r) => r.split("/").filter(Boolean));
  return (pathname: string) => {
    const segments = pathname.split("/").filter(Boolean);
    return patterns.some(
      (p) => p.length === segments.length && p.every((s, i) => s.startsWith("$") || s === segments[i]),
    );
  };
};

/**
 * Serves the built web app: hashed assets for a year, everything else revalidated, the brotli or gzip copy made at build
 * time when the browser takes it, and index.html for any path that is not a file: status 200 for the app's routes,
 * 404 for anything else (the app then shows its own not-found screen).
 */
export const createStaticHandler = (root: string) => {
  const index = join(root, "index.html");
  const routesFile = join(root, "routes.json");
  const isRoute = existsSync(routesFile)
    ? routeMatcher(JSON.parse(readFileSync(routesFile, "utf8")) as string[])
    : () => true;

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
    if (!existsSync(index)) {
      return new Response("The web app is not built yet: run `bun run build`.", {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    return fileResponse(
      index,
      "text/html; charset=utf-8",
      { "Cache-Control": "no-cache" },
      req,
      isRoute(decoded) ? 200 : 404,
    );
  };
};
