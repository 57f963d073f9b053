// Renders the landing page into HTML for each language at build time (see src/web/prerender/render.tsx): builds the
// SSR bundle with Vite, renders, and writes dist/web/prerender/<page>.<language>.html. The server puts it inside
// `<div id="root">` of the page's HTML for a signed-out visitor in that language.
//   bun run scripts/prerender.ts   (part of `bun run build`)
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { LANGUAGE_CODES } from "../src/shared/constants";

export const PRERENDERED_PAGES = ["/landing"] as const;

const root = join(import.meta.dir, "..");
const ssrDir = join(root, "dist", "ssr");
const out = join(root, "dist", "web", "prerender");

const build = Bun.spawnSync(
  ["bun", "--bun", "vite", "build", "--ssr", "prerender/render.tsx", "--outDir", ssrDir, "--emptyOutDir"],
  { cwd: root, stdout: "inherit", stderr: "inherit", env: { ...process.env, MYTESS_SSR_BUILD: "1" } },
);
if (build.exitCode !== 0) throw new Error("the SSR build of the prerendered pages failed");

// What the app reads while it renders, as a first visit finds it: nothing stored yet.
const stored = new Map<string, string>();
// Module-level listeners (storage, online) have nothing to listen to here.
const events = { addEventListener: () => {}, removeEventListener: () => {} };
Object.assign(globalThis, {
  window: events,
  localStorage: {
    getItem: (k: string) => stored.get(k) ?? null,
    setItem: (k: string, v: string) => void stored.set(k, String(v)),
    removeItem: (k: string) => void stored.delete(k),
  },
});

process.env.NODE_ENV = "production";
const { render } = (await import(join(ssrDir, "render.js"))) as typeof import("../src/web/prerender/render");
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });
for (const page of PRERENDERED_PAGES) {
  for (const language of LANGUAGE_CODES) {
    const html = await render(page, language);
    if (!html.includes("<h1")) throw new Error(`the prerendered ${page} (${language}) has no heading`);
    writeFileSync(join(out, `${page.slice(1)}.${language}.html`), html);
    console.log(`prerendered ${page} (${language}): ${(html.length / 1024).toFixed(1)} KB`);
  }
}
rmSync(ssrDir, { recursive: true, force: true });
// Done: a render's leftovers (a request the app began, its retry timer) must not keep the build waiting.
process.exit(0);
