// The shell catalogs (locales/{en,am,om}.po) also hold the server's, the bots' and the CLI's messages, which the server
// reads from the same files (src/server/i18n.ts). The browser never shows those: the server sends its errors and
// notifications translated already. This plugin keeps the web app's own messages only in the shell catalogs the web
// build compiles, so they stay out of the first load (the landing page's JavaScript budget).
import { readFileSync } from "node:fs";
import { relative } from "node:path";
import { formatter } from "@lingui/format-po";
import type { Plugin } from "vite";

const SHELL_CATALOG = /[\\/]locales[\\/](en|am|om)\.po$/;
// What @lingui/vite-plugin emits for a catalog (@lingui/cli's createCompiledCatalog, namespace "es").
const COMPILED = /^\/\*eslint-disable\*\/export const messages=JSON\.parse\(("(?:[^"\\]|\\.)*")\);?$/s;

/** The ids of the messages used somewhere in the web app (a message may be used by the server too). */
const webIds = async (poPath: string, root: string) => {
  type TEntry = { origin?: [string, number?][] };
  const catalog = (await formatter().parse(readFileSync(poPath, "utf8"), {} as never)) as Record<string, TEntry>;
  const ids = new Set<string>();
  for (const [msgid, entry] of Object.entries(catalog))
    if (entry.origin?.some(([file]) => file.startsWith("src/web/"))) ids.add(msgid);
  if (!ids.size) throw new Error(`${relative(root, poPath)}: no message of the web app (src/web) in the catalog`);
  return ids;
};

/** Put after `lingui()`: it narrows the compiled shell catalogs to the web app's messages. */
export const webShellCatalog = (root: string): Plugin => ({
  name: "mytess-web-shell-catalog",
  transform: {
    filter: { id: SHELL_CATALOG },
    async handler(code, id) {
      const path = id.split("?")[0];
      if (!SHELL_CATALOG.test(path)) return;
      const match = COMPILED.exec(code.trim());
      // Fails the build rather than shipping every message, should the Lingui plugin's output ever change its form.
      if (!match) throw new Error(`${relative(root, path)}: the compiled catalog is not in the form this plugin reads`);
      const all = JSON.parse(JSON.parse(match[1])) as Record<string, unknown>;
      const keep = await webIds(path, root);
      const messages = Object.fromEntries(Object.entries(all).filter(([msgid]) => keep.has(msgid)));
      return { code: `export const messages=JSON.parse(${JSON.stringify(JSON.stringify(messages))});`, map: null };
    },
  },
});
