// After the web build: brotli and gzip copies of every compressible built file (the server sends the smallest one the
// browser accepts, without compressing per request); dist/web/routes.json, the app's route paths, so the server can
// answer 404 for a path no route matches while still serving the app's own not-found screen; and
// dist/web/preload.json, which chunks each route and each language's catalogs need, so the page can ask for them at
// once instead of after the main bundle has run.
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = join(import.meta.dir, "..");
const dist = join(root, "dist", "web");
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|webmanifest|txt|xml)$/;
const MIN_BYTES = 1024;

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });

// Route paths from the generated route tree (its FileRoutesByFullPath interface): "/loads/$id" and the like.
const tree = readFileSync(join(root, "src", "web", "routeTree.gen.ts"), "utf8");
const block = tree.slice(tree.indexOf("export interface FileRoutesByFullPath"));
const routes = [...block.slice(0, block.indexOf("}")).matchAll(/"([^"]+)":/g)].map((m) => m[1]);
if (!routes.includes("/")) throw new Error("routes.json: no routes found in routeTree.gen.ts");
writeFileSync(join(dist, "routes.json"), JSON.stringify(routes));

// Route files to URL paths: "routes/_authed/loads.tsx" is /loads, "routes/loads_.$id.tsx" is /loads/$id.
type TChunk = { file: string; imports?: string[] };
const manifest = JSON.parse(readFileSync(join(dist, ".vite", "manifest.json"), "utf8")) as Record<string, TChunk>;
const shared = new Set(
  Object.entries(manifest)
    .filter(([k]) => /^_(boot|rolldown-runtime)/.test(k))
    .map(([, v]) => v.file),
);
const chunksOf = (key: string, out = new Set<string>()) => {
  const c = manifest[key];
  if (!c || out.has(c.file)) return out;
  if (!shared.has(c.file)) out.add(c.file);
  for (const i of c.imports ?? []) chunksOf(i, out);
  return out;
};
const routeChunks: Record<string, string[]> = {};
let authedChunks: string[] = [];
for (const key of Object.keys(manifest)) {
  const m = key.match(/^routes\/(.+)\.tsx\?tsr-split=component$/);
  if (!m) continue;
  if (m[1] === "_authed") {
    authedChunks = [...chunksOf(key)];
    continue;
  }
  const segments = m[1]
    .split("/")
    .filter((s) => !s.startsWith("_"))
    .join("/")
    .replace(/_\./g, "/")
    .replace(/_$/, "");
  const path = segments === "index" ? "/" : `/${segments.replace(/\/index$/, "")}`;
  routeChunks[path] = [...chunksOf(key)];
}
const catalog = (re: RegExp) =>
  Object.fromEntries(
    Object.entries(manifest)
      .map(([k, v]) => [k.match(re)?.[1], v.file] as const)
      .filter((e): e is [string, string] => Boolean(e[0])),
  );
const preload = {
  routes: routeChunks,
  authed: authedChunks,
  authedPaths: Object.keys(manifest)
    .map((k) => k.match(/^routes\/_authed\/(.+)\.tsx\?tsr-split=component$/)?.[1])
    .filter((p): p is string => Boolean(p))
    .map((p) => `/${p}`),
  shellCatalogs: catalog(/locales\/(en|am|om)\.po$/),
  appCatalogs: catalog(/locales\/app\/(en|am|om)\.po$/),
};
writeFileSync(join(dist, "preload.json"), JSON.stringify(preload));

let raw = 0;
let br = 0;
let count = 0;
for (const file of walk(dist)) {
  if (!COMPRESSIBLE.test(file)) continue;
  const data = readFileSync(file);
  if (data.byteLength < MIN_BYTES) continue;
  const b = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(`${file}.br`, b);
  writeFileSync(`${file}.gz`, gzipSync(data, { level: 9 }));
  raw += data.byteLength;
  br += b.byteLength;
  count++;
}
console.log(
  `compressed ${count} files: ${(raw / 1024).toFixed(0)} KB raw, ${(br / 1024).toFixed(0)} KB brotli; ${routes.length} routes (${relative(root, join(dist, "routes.json"))}), preload map for ${Object.keys(routeChunks).length}`,
);
