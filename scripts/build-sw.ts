// Builds dist/web/sw.js from src/web/sw.ts with the list of built files to precache and a version derived from them.
import { readdirSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(import.meta.dir, "..");
const dist = join(root, "dist", "web");

const walk = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? walk(p) : [p];
  });

const files = walk(dist)
  .map((p) => `/${relative(dist, p)}`)
  .filter(
    (p) =>
      p !== "/sw.js" &&
      p !== "/index.html" &&
      !/\.(map|br|gz)$/.test(p) &&
      // The map library (about 1.6 MB before compression) is fetched only when a map is opened, never installed ahead
      // on a phone's data plan; so is the maps' shared code and style (a chunk the bundler names after one of its
      // modules, place-labels today).
      !/\/(maplibre-gl|maplibre-gl-worker|loads-map|route-map|place-labels|basemap|maplibre)-[^/]+\.(m?js|css)$/.test(
        p,
      ) &&
      // Nor the basemap's countries (about 230 KB compressed): fetched with the first map, then kept by the browser.
      !/\/countries-50m-[^/]+\.json$/.test(p) &&
      p !== "/routes.json" &&
      !p.startsWith("/prerender/") &&
      p !== "/preload.json",
  )
  .sort();
const version = new Bun.CryptoHasher("sha256")
  .update(files.join("\n"))
  .update(await Bun.file(join(dist, "index.html")).text())
  .digest("hex")
  .slice(0, 12);

const result = await Bun.build({
  entrypoints: [join(root, "src", "web", "sw.ts")],
  outdir: dist,
  naming: "sw.js",
  minify: true,
  target: "browser",
  define: { __PRECACHE__: JSON.stringify(files), __VERSION__: JSON.stringify(version) },
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
console.log(`sw.js: ${files.length} files precached, version ${version}`);
