import { existsSync } from "node:fs";
import { join, normalize } from "node:path";

/**
 * Serves the built web app: hashed assets for a year, everything else revalidated, and index.html for any path that
 * is not a file (the app shows its own 404 screen).
 */
export const createStaticHandler = (root: string) => {
  const index = join(root, "index.html");
  return async (pathname: string) => {
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
    if (path.startsWith(root) && rel !== "/" && existsSync(path)) {
      const file = Bun.file(path);
      if ((await file.exists()) && file.size >= 0) {
        const immutable = rel.startsWith("/assets/");
        return new Response(file, {
          headers: {
            "Content-Type": file.type,
            "Cache-Control": immutable ? "public, max-age=31536000, immutable" : "no-cache",
            ...(rel === "/sw.js" ? { "Service-Worker-Allowed": "/" } : {}),
          },
        });
      }
    }
    if (!existsSync(index)) {
      return new Response("The web app is not built yet: run `bun run build`.", {
        status: 503,
        headers: { "Content-Type": "text/plain; charset=utf-8" },
      });
    }
    return new Response(Bun.file(index), {
      headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache" },
    });
  };
};
