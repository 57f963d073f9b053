// The WhatsApp Web bridge (workers/whatsapp-web/main.mjs) as a child process of the worker role: one per deployment
// (a lease, as for Telegram's poller: one phone session cannot be driven from two browsers), started again with a
// growing pause when it exits (a dropped WhatsApp session, a crashed Chromium), stopped with the worker. It runs under
// Node: Puppeteer, which whatsapp-web.js drives Chromium with, is unreliable under Bun.
import { join } from "node:path";
import type { Subprocess } from "bun";
import type { TDb } from "../../../../db/client";
import { releaseLease, takeLease } from "../../jobs/lease";
import type { TLogger } from "../../logger";

export const BRIDGE_MAIN = join(import.meta.dir, "..", "..", "..", "..", "workers", "whatsapp-web", "main.mjs");
const LEASE_KEY = "lease:whatsapp-web";

export type TBridgeProcessSettings = {
  secret: string;
  /** Where the bridge listens (and MyTess's notifier finds it). */
  bridgeUrl: string;
  /** Where it posts messages people send to the linked number. */
  inboundUrl: string;
  sessionDir: string;
  chromiumPath?: string;
};

/** The bridge's environment: ours (PATH, HOME, proxies…) plus its settings; Puppeteer never downloads a browser. */
export const bridgeEnv = (
  base: Record<string, string | undefined>,
  s: TBridgeProcessSettings,
): Record<string, string> => {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(base)) if (v !== undefined) env[k] = v;
  return {
    ...env,
    WHATSAPP_WEB_SECRET: s.secret,
    WHATSAPP_WEB_BRIDGE_URL: s.bridgeUrl,
    WHATSAPP_WEB_INBOUND_URL: s.inboundUrl,
    WHATSAPP_WEB_SESSION_DIR: s.sessionDir,
    ...(s.chromiumPath ? { CHROMIUM_PATH: s.chromiumPath } : {}),
    PUPPETEER_SKIP_DOWNLOAD: "true",
  };
};

/** Each line the bridge prints is a JSON log line `{level, msg, ...}`; anything else (Chromium's chatter) is a warning. */
const relay = async (stream: ReadableStream<Uint8Array>, log: TLogger, fallback: "info" | "warn") => {
  const decoder = new TextDecoder();
  let buf = "";
  const emit = (line: string) => {
    if (!line.trim()) return;
    try {
      const { level, msg, ...rest } = JSON.parse(line) as Record<string, unknown>;
      const at = level === "error" || level === "warn" ? level : "info";
      log[at](typeof msg === "string" ? msg : "whatsapp web bridge", { source: "whatsapp-web", ...rest });
    } catch {
      log[fallback]("whatsapp web bridge", { source: "whatsapp-web", line: line.slice(0, 500) });
    }
  };
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    let nl = buf.indexOf("\n");
    while (nl >= 0) {
      emit(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
      nl = buf.indexOf("\n");
    }
  }
  emit(buf);
};

export const startWhatsAppWebBridge = ({
  db,
  log,
  env,
  command = ["node", BRIDGE_MAIN, "serve"],
  holder = `${process.pid}-${crypto.randomUUID().slice(0, 8)}`,
  leaseMs = 60_000,
  firstRestartMs = 1000,
  maxRestartMs = 60_000,
  stopGraceMs = 15_000,
}: {
  db: TDb;
  log: TLogger;
  /** The bridge process's whole environment (bridgeEnv). */
  env: Record<string, string>;
  command?: string[];
  holder?: string;
  leaseMs?: number;
  firstRestartMs?: number;
  maxRestartMs?: number;
  stopGraceMs?: number;
}) => {
  let child: Subprocess<"ignore", "pipe", "pipe"> | null = null;
  let holding = false;
  let stopped = false;
  let restarts = 0;
  let starts = 0;
  let leaseTimer: ReturnType<typeof setTimeout> | null = null;
  let restartTimer: ReturnType<typeof setTimeout> | null = null;

  const spawn = () => {
    const startedAt = Date.now();
    starts++;
    let p: Subprocess<"ignore", "pipe", "pipe">;
    try {
      p = Bun.spawn(command, { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
    } catch (err) {
      // `node` missing from PATH: say so and try again later (the operator may install it meanwhile).
      log.error("whatsapp web bridge could not start", { error: String(err) });
      scheduleRestart(startedAt, null);
      return;
    }
    child = p;
    void relay(p.stdout, log, "info").catch(() => undefined);
    void relay(p.stderr, log, "warn").catch(() => undefined);
    void p.exited.then((code) => {
      if (child === p) child = null;
      if (!stopped && holding) scheduleRestart(startedAt, code);
    });
  };

  const scheduleRestart = (startedAt: number, code: number | null) => {
    // A bridge that ran for a while gets a quick restart again; one that keeps failing waits longer each time.
    if (Date.now() - startedAt > maxRestartMs) restarts = 0;
    const wait = Math.min(maxRestartMs, firstRestartMs * 2 ** restarts++);
    log.warn("whatsapp web bridge exited; starting it again", { code, inMs: wait });
    restartTimer = setTimeout(() => {
      restartTimer = null;
      if (!stopped && holding && !child) spawn();
    }, wait);
  };

  const stopChild = async () => {
    if (restartTimer) clearTimeout(restartTimer);
    restartTimer = null;
    const c = child;
    if (!c) return;
    // SIGTERM lets the bridge close Chromium, which writes the session to disk; a bridge that hangs is killed.
    c.kill("SIGTERM");
    const ended = await Promise.race([
      c.exited.then(() => true),
      new Promise<false>((r) => setTimeout(() => r(false), stopGraceMs)),
    ]);
    if (!ended) c.kill("SIGKILL");
    await c.exited;
  };

  const check = async () => {
    try {
      const mine = await takeLease(db, LEASE_KEY, holder, leaseMs);
      if (mine && !holding && !stopped) {
        holding = true;
        log.info("whatsapp web bridge starting", { holder });
        spawn();
      } else if (!mine && holding) {
        holding = false;
        log.warn("whatsapp web lease lost; stopping the bridge", { holder });
        await stopChild();
      }
    } catch (err) {
      log.warn("whatsapp web lease check failed", { error: String(err) });
    }
    if (!stopped) leaseTimer = setTimeout(() => void check(), Math.max(1000, Math.floor(leaseMs / 3)));
  };
  void check();

  return {
    /** Whether this process holds the lease (and so runs the bridge, or is about to start it again). */
    isHolder: () => holding,
    /** The running bridge's process id, if one runs now. */
    pid: () => child?.pid ?? null,
    /** How many times a bridge was started. */
    starts: () => starts,
    stop: async () => {
      stopped = true;
      if (leaseTimer) clearTimeout(leaseTimer);
      holding = false;
      await stopChild();
      await releaseLease(db, LEASE_KEY, holder).catch(() => undefined);
    },
  };
};
