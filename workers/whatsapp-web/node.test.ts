import { afterAll, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

// The bridge runs under Node with the real whatsapp-web.js. WhatsApp Web itself cannot be reached from here, so these
// stop short of `initialize()` (which opens web.whatsapp.com): the module loads, our Client is made with our options,
// and those options start Debian's Chromium with the session folder as its profile.
const dir = mkdtempSync(join(tmpdir(), "mytess-wa-node-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const clientModule = pathToFileURL(join(import.meta.dir, "client.mjs")).href;

const node = (script: string, env: Record<string, string> = {}) => {
  const p = Bun.spawnSync(["node", "--input-type=module", "-e", script], {
    env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: "true", ...env },
  });
  return { code: p.exitCode, out: p.stdout.toString(), err: p.stderr.toString() };
};

test("under Node, whatsapp-web.js loads and our Client is made with LocalAuth and the system Chromium", () => {
  const r = node(
    `import { createWebClient } from ${JSON.stringify(clientModule)};
     const c = await createWebClient({ sessionDir: process.env.SESSION_DIR, chromiumPath: "/opt/chromium/chrome" });
     console.log(JSON.stringify({
       client: c.constructor.name,
       auth: c.authStrategy.constructor.name,
       dataPath: c.authStrategy.dataPath,
       clientId: c.authStrategy.clientId,
       puppeteer: c.options.puppeteer,
       cache: c.options.webVersionCache,
       started: Boolean(c.pupBrowser),
       node: process.versions.node,
     }));`,
    { SESSION_DIR: join(dir, "options") },
  );
  expect(r.err).toBe("");
  expect(r.code).toBe(0);
  const o = JSON.parse(r.out);
  expect(o).toMatchObject({
    client: "Client",
    auth: "LocalAuth",
    dataPath: join(dir, "options"),
    clientId: "mytess",
    cache: { type: "local", path: join(dir, "options", "web-cache") },
    started: false,
  });
  expect(o.puppeteer).toMatchObject({ executablePath: "/opt/chromium/chrome", headless: true });
  expect(o.puppeteer.args).toContain("--no-sandbox");
  expect(Number(o.node.split(".")[0])).toBeGreaterThanOrEqual(18);
  // Nothing was started, so nothing was written.
  expect(existsSync(join(dir, "options"))).toBe(false);
});

test("those options start Debian's Chromium through whatsapp-web.js's Puppeteer, with the session folder as profile", () => {
  const r = node(
    `import { createRequire } from "node:module";
     import { createWebClient } from ${JSON.stringify(clientModule)};
     const c = await createWebClient({ sessionDir: process.env.SESSION_DIR, chromiumPath: process.env.CHROMIUM_PATH });
     // What Client.initialize() does first: the auth strategy puts the profile in the session folder, then launch.
     await c.authStrategy.beforeBrowserInitialized();
     const require = createRequire(createRequire(import.meta.url).resolve("whatsapp-web.js"));
     const puppeteer = require("puppeteer");
     const browser = await puppeteer.launch(c.options.puppeteer);
     const page = await browser.newPage();
     await page.setContent("<p id=x>bridge</p>");
     const text = await page.$eval("#x", (e) => e.textContent);
     const version = await browser.version();
     await browser.close();
     console.log(JSON.stringify({ text, version, profile: c.options.puppeteer.userDataDir }));`,
    { SESSION_DIR: join(dir, "session"), CHROMIUM_PATH: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium" },
  );
  expect(r.code).toBe(0);
  const o = JSON.parse(r.out.trim().split("\n").at(-1)!);
  expect(o.text).toBe("bridge");
  expect(o.version).toMatch(/Chrom/);
  expect(o.profile).toBe(join(dir, "session", "session-mytess"));
  expect(existsSync(join(o.profile, "Default"))).toBe(true);
});

test("the bridge process refuses to start without its settings", () => {
  const p = Bun.spawnSync(["node", join(import.meta.dir, "main.mjs"), "serve"], {
    env: { ...process.env, WHATSAPP_WEB_SESSION_DIR: join(dir, "unused") },
  });
  expect(p.exitCode).toBe(2);
  expect(p.stderr.toString()).toContain("WHATSAPP_WEB_SECRET");
  const bad = Bun.spawnSync(["node", join(import.meta.dir, "main.mjs"), "dance"], {
    env: { ...process.env, WHATSAPP_WEB_SESSION_DIR: join(dir, "unused") },
  });
  expect(bad.exitCode).toBe(2);
});
