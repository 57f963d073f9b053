#!/usr/bin/env node
// @ts-check
// The WhatsApp Web bridge process, run under Node (Puppeteer is unreliable under Bun). MyTess starts it; nobody needs
// to by hand:
//   node workers/whatsapp-web/main.mjs serve   the worker role's bridge (src/server/bots/whatsapp/web-supervisor.ts)
//   node workers/whatsapp-web/main.mjs login   `mytess whatsapp login` when no bridge is running
// Settings come from the environment MyTess gives it: WHATSAPP_WEB_SESSION_DIR, CHROMIUM_PATH, and for `serve`
// WHATSAPP_WEB_SECRET, WHATSAPP_WEB_BRIDGE_URL (where to listen) and WHATSAPP_WEB_INBOUND_URL (where to post
// messages). Every line it prints is one JSON object: log lines `{level, msg, ...}`, and in login mode the events
// `{event: "qr", qr}`, `{event: "ready", number}`, `{event: "linked", number}`, `{event: "failed", message}`.
import { chmodSync, mkdirSync } from "node:fs";
import { createBridge, listen, waitForLink } from "./bridge.mjs";
import { createWebClient } from "./client.mjs";

/** @param {Record<string, unknown>} line */
const out = (line) => {
  process.stdout.write(`${JSON.stringify(line)}\n`);
};
/** @type {import("./bridge.mjs").TLog} */
const log = (level, msg, data) => out({ level, msg, ...data });

const mode = process.argv[2] ?? "serve";
const env = process.env;
const sessionDir = env.WHATSAPP_WEB_SESSION_DIR;
if (!sessionDir || (mode !== "serve" && mode !== "login")) {
  process.stderr.write("usage: WHATSAPP_WEB_SESSION_DIR=… node main.mjs serve|login\n");
  process.exit(2);
}
const secret = env.WHATSAPP_WEB_SECRET ?? "";
if (mode === "serve" && (!secret || !env.WHATSAPP_WEB_BRIDGE_URL || !env.WHATSAPP_WEB_INBOUND_URL)) {
  process.stderr.write("serve needs WHATSAPP_WEB_SECRET, WHATSAPP_WEB_BRIDGE_URL and WHATSAPP_WEB_INBOUND_URL\n");
  process.exit(2);
}
// WhatsApp keeps the session in Chromium's profile: give Chromium time to write it after the link before closing.
const SETTLE_MS = Number(env.WHATSAPP_WEB_SETTLE_MS ?? 5000);

// The session folder holds the keys of a linked WhatsApp account: readable by this service's user only.
mkdirSync(sessionDir, { recursive: true, mode: 0o700 });
chmodSync(sessionDir, 0o700);
const client = await createWebClient({ sessionDir, chromiumPath: env.CHROMIUM_PATH });

/** Closes Chromium (which flushes the profile) and ends the process. */
let ending = false;
const end = async (/** @type {number} */ code) => {
  if (ending) return;
  ending = true;
  // A browser that does not close in time is left to the process's end.
  await Promise.race([client.destroy().catch(() => undefined), new Promise((r) => setTimeout(r, 10_000))]);
  process.exit(code);
};
process.on("SIGTERM", () => void end(0));
process.on("SIGINT", () => void end(0));
// A parent that died without stopping us (SIGKILL, a crash) leaves us to init: end too, so that the next worker's
// bridge gets the port and the session folder.
const parent = process.ppid;
setInterval(() => {
  if (process.ppid !== parent) void end(0);
}, 5000).unref();

if (mode === "login") {
  const bridge = createBridge({ client, secret: "", log });
  const linked = waitForLink(bridge, (qr) => out({ event: "qr", qr }));
  client.initialize().catch((err) => {
    out({
      event: "failed",
      message: `WhatsApp Web did not start: ${err instanceof Error ? err.message : String(err)}`,
    });
    void end(1);
  });
  try {
    const number = await linked;
    out({ event: "ready", number });
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    out({ event: "linked", number });
    await end(0);
  } catch (err) {
    out({ event: "failed", message: err instanceof Error ? err.message : String(err) });
    await end(1);
  }
} else {
  const at = new URL(env.WHATSAPP_WEB_BRIDGE_URL ?? "");
  const bridge = createBridge({ client, secret, inboundUrl: env.WHATSAPP_WEB_INBOUND_URL, log });
  // A dropped session is started afresh by a new process (the supervisor restarts us): whatsapp-web.js does not
  // recover a client after `disconnected` on its own reliably.
  bridge.watch((s) => {
    if (s.state === "disconnected") void end(1);
  });
  const server = await listen(bridge, { host: at.hostname.replace(/^\[|\]$/g, ""), port: Number(at.port) });
  log("info", "whatsapp web bridge listening", { url: at.origin });
  process.on("exit", () => server.close());
  client.initialize().catch((err) => {
    log("error", "whatsapp web did not start", { error: err instanceof Error ? err.message : String(err) });
    void end(1);
  });
}
