// @ts-check
// The real whatsapp-web.js client, as the bridge runs it: Debian's Chromium (Puppeteer never downloads a browser
// here: .puppeteerrc.cjs), headless, and the session kept on disk by LocalAuth so a restart needs no new QR code.
// whatsapp-web.js is loaded only when a client is made, so the bridge's own code loads without Puppeteer.
import { join } from "node:path";

export const DEFAULT_CHROMIUM = "/usr/bin/chromium";

/**
 * Puppeteer's launch options. `--no-sandbox` because the bridge runs as a service user (or root in a container) where
 * Chromium's sandbox cannot start; the rest stop Chromium's own background traffic and shared-memory trouble in
 * containers. whatsapp-web.js adds its user agent and `--disable-blink-features=AutomationControlled` itself.
 * @param {{ chromiumPath?: string }} s
 */
export const puppeteerOptions = (s) => ({
  executablePath: s.chromiumPath || DEFAULT_CHROMIUM,
  headless: true,
  args: [
    "--no-sandbox",
    "--disable-dev-shm-usage",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
  ],
});

/**
 * A whatsapp-web.js Client with our options; nothing starts until `initialize()`. The WhatsApp Web version cache (one
 * HTML file per version) lives in the session folder rather than in the working directory.
 * @param {{ sessionDir: string; chromiumPath?: string }} s
 * @returns {Promise<import("./bridge.mjs").TWebClient>}
 */
export const createWebClient = async (s) => {
  const { default: wweb } = await import("whatsapp-web.js");
  return new wweb.Client({
    authStrategy: new wweb.LocalAuth({ dataPath: s.sessionDir, clientId: "mytess" }),
    puppeteer: puppeteerOptions(s),
    webVersionCache: { type: "local", path: join(s.sessionDir, "web-cache") },
  });
};
