import { fileURLToPath } from "node:url";
import { linguiMacroSwcPlugin } from "@lingui/swc-plugin/options";
import { lingui } from "@lingui/vite-plugin";
import tailwindcss from "@tailwindcss/vite";
import { tanstackRouter } from "@tanstack/router-plugin/vite";
import react from "@vitejs/plugin-react-swc";
import { defineConfig } from "vite";
import { webShellCatalog } from "./scripts/vite-web-catalog";

const here = (p: string) => fileURLToPath(new URL(p, import.meta.url));
const apiTarget = `http://localhost:${process.env.API_PORT ?? 3000}`;

export default defineConfig({
  root: here("./src/web"),
  publicDir: here("./public"),
  resolve: { alias: { "@": here("./src/web") } },
  build: {
    outDir: here("./dist/web"),
    emptyOutDir: true,
    target: "es2022",
    reportCompressedSize: false,
    manifest: true,
    // The prerender build (scripts/prerender.ts, Node-side code run once at build time) keeps the default splitting.
    rolldownOptions: process.env.MYTESS_SSR_BUILD
      ? {}
      : {
          // tRPC's client package declares no `sideEffects`, so its WebSocket link (unused here) came along with the
          // links this app uses; its modules only define things.
          treeshake: {
            moduleSideEffects: (id: string) =>
              /[\\/]node_modules[\\/]@trpc[\\/]client[\\/]/.test(id) ? false : undefined,
          },
          output: {
            // Everything the first screen loads statically goes in one file: on a phone at 400 ms a round trip, over
            // HTTP/1.1's six connections, thirty small chunks cost seconds of waiting that one larger file does not.
            // Small chunks shared by a few lazy routes (an icon, a badge) are copied into each instead of fetched apart.
            codeSplitting: {
              groups: [{ name: "boot", tags: ["$initial"] }],
              experimentalInlineCommonChunks: { maxSize: 8 * 1024 },
            },
          },
        },
  },
  plugins: [
    tanstackRouter({
      target: "react",
      autoCodeSplitting: true,
      routesDirectory: here("./src/web/routes"),
      generatedRouteTree: here("./src/web/routeTree.gen.ts"),
      quoteStyle: "double",
    }),
    // Translator comments are for the catalogs (lingui extract reads the source), not for the bundle.
    react({ plugins: [linguiMacroSwcPlugin({ descriptorFields: "message" })] }),
    lingui(),
    webShellCatalog(here(".")),
    tailwindcss(),
  ],
  server: { proxy: { "/api": apiTarget, "/trpc": apiTarget, "/sw.js": apiTarget } },
});
