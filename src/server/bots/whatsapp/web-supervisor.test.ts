import { afterAll, afterEach, beforeEach, expect, setDefaultTimeout, test } from "bun:test";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { closeTestApps, createTestApp, type TTestApp } from "../../testing";
import { bridgeEnv, startWhatsAppWebBridge } from "./web-supervisor";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

// The supervisor with a stand-in for the bridge (a small Node script), since the real one would open WhatsApp Web.
const dir = mkdtempSync(join(tmpdir(), "mytess-wa-sup-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const script = join(dir, "fake-bridge.mjs");
writeFileSync(
  script,
  `import { appendFileSync } from "node:fs";
   const mark = (what) => appendFileSync(process.env.MARKS, what + " " + process.pid + "\\n");
   // The handler before the mark: a test that sees "started" may stop the bridge at once.
   process.on("SIGTERM", () => { mark("stopped"); process.exit(0); });
   mark("started");
   console.log(JSON.stringify({ level: "warn", msg: "whatsapp web needs linking", secretSet: !!process.env.WHATSAPP_WEB_SECRET }));
   console.error("[chromium] some chatter");
   if (process.env.CRASH) process.exit(3);
   setInterval(() => {}, 1000);`,
);

type TLine = { level: string; msg: string; data?: Record<string, unknown> };
const logged: TLine[] = [];
const log = {
  info: (msg: string, data?: Record<string, unknown>) => logged.push({ level: "info", msg, data }),
  warn: (msg: string, data?: Record<string, unknown>) => logged.push({ level: "warn", msg, data }),
  error: (msg: string, data?: Record<string, unknown>) => logged.push({ level: "error", msg, data }),
};
const until = async (what: string, ok: () => boolean) => {
  for (let i = 0; i < 1500 && !ok(); i++) await Bun.sleep(20);
  if (!ok()) throw new Error(`timed out waiting for ${what}`);
};

let t: TTestApp;
let marks: string;
const marked = (what: string) =>
  existsSync(marks)
    ? readFileSync(marks, "utf8")
        .split("\n")
        .filter((l) => l.startsWith(what)).length
    : 0;
beforeEach(async () => {
  t = await createTestApp();
  logged.length = 0;
  marks = join(dir, `marks-${crypto.randomUUID()}`);
});
afterEach(() => closeTestApps());

const settings = {
  secret: "supervisor-test-secret-0123",
  bridgeUrl: "http://127.0.0.1:3901",
  inboundUrl: "http://127.0.0.1:3000/api/messaging/whatsapp/web-inbound",
  sessionDir: join(dir, "session"),
};

test("the bridge's environment carries its settings, and Puppeteer is told not to download a browser", () => {
  const env = bridgeEnv({ PATH: "/usr/bin", UNSET: undefined }, { ...settings, chromiumPath: "/opt/chrome" });
  expect(env).toEqual({
    PATH: "/usr/bin",
    WHATSAPP_WEB_SECRET: settings.secret,
    WHATSAPP_WEB_BRIDGE_URL: settings.bridgeUrl,
    WHATSAPP_WEB_INBOUND_URL: settings.inboundUrl,
    WHATSAPP_WEB_SESSION_DIR: settings.sessionDir,
    CHROMIUM_PATH: "/opt/chrome",
    PUPPETEER_SKIP_DOWNLOAD: "true",
  });
});

test("one bridge per deployment; its log lines reach the app's log; stopping sends SIGTERM and frees the lease", async () => {
  const env = { ...bridgeEnv(process.env, settings), MARKS: marks };
  const command = ["node", script];
  const first = startWhatsAppWebBridge({ db: t.db, log, env, command, holder: "first", leaseMs: 6000 });
  await until("the first bridge", () => marked("started") === 1);
  const second = startWhatsAppWebBridge({ db: t.db, log, env, command, holder: "second", leaseMs: 6000 });
  await until("the relayed log lines", () => logged.some((l) => l.data?.line === "[chromium] some chatter"));
  expect(logged).toContainEqual({
    level: "warn",
    msg: "whatsapp web needs linking",
    data: { source: "whatsapp-web", secretSet: true },
  });
  // The second worker checks the lease (at once, then every 2 s) and never starts a bridge of its own.
  await Bun.sleep(2500);
  expect(second.isHolder()).toBe(false);
  expect(second.starts()).toBe(0);
  expect(marked("started")).toBe(1);

  const pid = first.pid();
  await first.stop();
  expect(marked("stopped")).toBe(1);
  expect(first.pid()).toBeNull();
  expect(readFileSync(marks, "utf8")).toContain(`stopped ${pid}`);
  // The lease is free: the second worker takes it over at its next check and starts the bridge.
  await until("the second bridge", () => marked("started") === 2);
  expect(second.isHolder()).toBe(true);
  await second.stop();
  expect(marked("stopped")).toBe(2);
});

test("a bridge that exits is started again, waiting longer after each quick failure", async () => {
  const env = { ...bridgeEnv(process.env, settings), MARKS: marks, CRASH: "1" };
  const sup = startWhatsAppWebBridge({
    db: t.db,
    log,
    env,
    command: ["node", script],
    holder: "crashy",
    firstRestartMs: 100,
  });
  await until("three starts", () => sup.starts() >= 3);
  await sup.stop();
  const waits = logged.filter((l) => l.msg === "whatsapp web bridge exited; starting it again").map((l) => l.data);
  expect(waits.slice(0, 2)).toEqual([
    { code: 3, inMs: 100 },
    { code: 3, inMs: 200 },
  ]);
  const starts = sup.starts();
  await Bun.sleep(500);
  expect(sup.starts()).toBe(starts);
});

test("a missing node binary is logged and tried again, not a crash of the worker", async () => {
  const sup = startWhatsAppWebBridge({
    db: t.db,
    log,
    env: { PATH: dir },
    command: ["no-such-node-binary-here", script],
    holder: "nonode",
    firstRestartMs: 50,
  });
  await until("two tries", () => sup.starts() >= 2);
  await sup.stop();
  expect(logged.some((l) => l.level === "error" && l.msg === "whatsapp web bridge could not start")).toBe(true);
});
