// After the web build: brotli and gzip copies of every compressible built file (the server sends the smallest one the
// browser accepts, without compressing per request), and dist/web/routes.json, the app's route paths, so the server can
// answer 404 for a path no route matches while still serving the app's own not-found screen.
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
  `compressed ${count} files: ${(raw / 1024).toFixed(0)} KB raw, ${(br / 1024).toFixed(0)} KB brotli; ${routes.length} routes (${relative(root, join(dist, "routes.json"))})`,
);
