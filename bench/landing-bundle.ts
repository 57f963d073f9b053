// Prints the first-load JavaScript of the landing page, gzipped, from the production build (budget: 150 KB).
// First load = the entry chunk and everything it imports statically, the landing route's lazy chunks, the root
// route's, and the English catalog that loads before the first render.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "bun";

const BUDGET_KB = 150;
const dist = join(import.meta.dir, "..", "dist", "web");
const manifestPath = join(dist, ".vite", "manifest.json");
if (!existsSync(manifestPath)) {
  console.error("No production build: run `bun run build` first.");
  process.exit(1);
}
type TChunk = { file: string; imports?: string[]; dynamicImports?: string[]; isEntry?: boolean; src?: string };
const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Record<string, TChunk>;

const files = new Set<string>();
const addStatic = (key: string) => {
  const chunk = manifest[key];
  if (!chunk || files.has(chunk.file)) return;
  files.add(chunk.file);
  for (const i of chunk.imports ?? []) addStatic(i);
};
// The entry is what index.html loads: its module scripts and modulepreloads (the build may fold the entry module into
// a named chunk, which the manifest then does not mark as the entry).
const html = readFileSync(join(dist, "index.html"), "utf8");
const htmlFiles = [
  ...html.matchAll(/<(?:script[^>]*\ssrc|link[^>]*rel="modulepreload"[^>]*\shref)="\/([^"]+\.js)"/g),
].map((m) => m[1]);
if (!htmlFiles.length) throw new Error("index.html loads no script");
for (const file of htmlFiles) {
  const key = Object.keys(manifest).find((k) => manifest[k].file === file);
  if (key) addStatic(key);
  else files.add(file);
}
const firstLoad = Object.keys(manifest).filter(
  (k) => /routes\/(landing|__root)\.tsx/.test(k) || /locales\/en\.po/.test(k),
);
for (const k of firstLoad) addStatic(k);

let raw = 0;
let gz = 0;
const rows: [string, number, number][] = [];
for (const f of files) {
  if (!f.endsWith(".js")) continue;
  const bytes = readFileSync(join(dist, f));
  const z = gzipSync(bytes, { level: 9 }).length;
  raw += bytes.length;
  gz += z;
  rows.push([f, bytes.length, z]);
}
rows.sort((a, b) => b[2] - a[2]);
for (const [f, r, z] of rows)
  console.log(`${(z / 1024).toFixed(1).padStart(7)} KB gz  ${(r / 1024).toFixed(1).padStart(7)} KB  ${f}`);
const kb = gz / 1024;
console.log(
  `\nlanding first-load JS: ${kb.toFixed(1)} KB gzipped (${(raw / 1024).toFixed(1)} KB raw) in ${rows.length} files; budget ${BUDGET_KB} KB: ${kb <= BUDGET_KB ? "within" : "OVER"}`,
);
console.log(
  `files=${rows.length} raw_kb=${(raw / 1024).toFixed(1)} gzip_kb=${kb.toFixed(1)} budget_kb=${BUDGET_KB} within_budget=${kb <= BUDGET_KB}`,
);
