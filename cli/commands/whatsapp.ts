import { Command } from "commander";
import qrcode from "qrcode-terminal";
import { BRIDGE_MAIN } from "../../src/server/bots/whatsapp/web-supervisor";
import {
  sessionDirFor,
  type TBridgeState,
  type TWhatsAppWebSettings,
  whatsappWebSecretFileFor,
  whatsappWebSecretFrom,
  whatsappWebState,
} from "../../src/server/integrations/notifiers/whatsapp-web";
import { CliError, cliConfig, i18n } from "../context";

type TLoginEvents = { onQr: (qr: string) => void };

const settings = () => {
  const config = cliConfig();
  const web: TWhatsAppWebSettings = {
    bridgeUrl: config.whatsapp.web.bridgeUrl,
    secret: whatsappWebSecretFrom(config.whatsapp.web.secret, whatsappWebSecretFileFor(config.databasePath)),
  };
  return { web, sessionDir: sessionDirFor(config.whatsapp.web.sessionDir, config.databasePath) };
};

const loginFailed = (reason: string) =>
  new CliError(
    i18n._({ id: "cli.whatsapp.failed", message: "WhatsApp Web login failed: {reason}", values: { reason } }),
  );
const timedOut = (seconds: number) =>
  new CliError(
    i18n._({
      id: "cli.whatsapp.timeout",
      message: "No phone was linked within {seconds} seconds; run mytess whatsapp login again.",
      values: { seconds },
    }),
  );

/** The bridge's answer, or null when none runs; a bridge that refuses our signature is an operator's error. */
const askBridge = async (web: TWhatsAppWebSettings) => {
  try {
    return await whatsappWebState(web);
  } catch {
    throw new CliError(
      i18n._({
        id: "cli.whatsapp.secretMismatch",
        message: "The WhatsApp Web bridge at {url} refused our signature: WHATSAPP_WEB_SECRET differs.",
        values: { url: web.bridgeUrl },
      }),
    );
  }
};

/**
 * Login through the bridge the worker already runs (its browser holds the session folder, so a second one cannot open
 * it): show each QR code it reports until it is ready. Resolves with the linked number.
 */
export const loginThroughBridge = async (
  web: TWhatsAppWebSettings,
  first: TBridgeState,
  { onQr, timeoutMs, pollMs = 1000 }: TLoginEvents & { timeoutMs: number; pollMs?: number },
) => {
  const until = Date.now() + timeoutMs;
  let shown: string | null = null;
  let s: TBridgeState | null = first;
  for (;;) {
    if (s?.state === "ready") return s.number;
    if (s?.state === "auth_failure") throw loginFailed(s.detail || "auth_failure");
    if (s?.state === "qr" && s.qr && s.qr !== shown) {
      shown = s.qr;
      onQr(s.qr);
    }
    if (Date.now() >= until) throw timedOut(Math.round(timeoutMs / 1000));
    await Bun.sleep(pollMs);
    // Between a dropped session and the supervisor's restart no bridge answers: keep asking until the time is up.
    s = await askBridge(web);
  }
};

/**
 * Login with a bridge of our own in login mode (no worker runs one): it prints JSON events, this shows the QR codes,
 * and it exits once the session is on disk. Resolves with the linked number.
 */
export const loginWithChild = async (
  command: string[],
  env: Record<string, string | undefined>,
  { onQr, onReady, timeoutMs }: TLoginEvents & { onReady: (number: string | null) => void; timeoutMs: number },
) => {
  let child: ReturnType<typeof Bun.spawn<"ignore", "pipe", "pipe">>;
  try {
    child = Bun.spawn(command, { env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  } catch {
    throw new CliError(
      i18n._({
        id: "cli.whatsapp.noNode",
        message: "WhatsApp Web needs Node.js 18 or newer (node on PATH) to run its browser.",
      }),
    );
  }
  let linked: string | null | undefined;
  let failure: string | null = null;
  const timer = setTimeout(() => {
    failure ??= "timeout";
    child.kill("SIGTERM");
  }, timeoutMs);
  const stderr = new Response(child.stderr).text();
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let buf = "";
  const onLine = (line: string) => {
    let e: { event?: string; qr?: string; number?: string | null; message?: string };
    try {
      e = JSON.parse(line);
    } catch {
      return;
    }
    if (e.event === "qr" && e.qr) onQr(e.qr);
    else if (e.event === "ready") onReady(e.number ?? null);
    else if (e.event === "linked") linked = e.number ?? null;
    else if (e.event === "failed") failure ??= e.message ?? "failed";
  };
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buf += decoder.decode(value, { stream: true });
    for (let nl = buf.indexOf("\n"); nl >= 0; nl = buf.indexOf("\n")) {
      onLine(buf.slice(0, nl));
      buf = buf.slice(nl + 1);
    }
  }
  onLine(buf);
  const code = await child.exited;
  clearTimeout(timer);
  if (failure === "timeout") throw timedOut(Math.round(timeoutMs / 1000));
  if (failure) throw loginFailed(failure);
  if (linked === undefined || code !== 0)
    throw loginFailed((await stderr).trim().split("\n").slice(-3).join(" ") || `the bridge exited with code ${code}`);
  return linked;
};

const printQr = (raw: boolean) => (qr: string) => {
  console.log(
    i18n._({
      id: "cli.whatsapp.scan",
      message:
        "Scan this QR code with WhatsApp on the phone MyTess should send from (Settings → Linked devices → Link a device):",
    }),
  );
  qrcode.generate(qr, { small: true }, (art) => console.log(art));
  if (raw) console.log(qr);
};

const login = new Command("login")
  .description("Link MyTess to a WhatsApp number through WhatsApp Web: shows a QR code to scan, keeps the session")
  .option("--raw", "also print the QR code's text, for another QR tool")
  .option("--timeout <seconds>", "how long to wait for the phone", "180")
  .action(async (o: { raw?: boolean; timeout: string }) => {
    const seconds = Number(o.timeout);
    if (!Number.isFinite(seconds) || seconds < 10 || seconds > 3600)
      throw new CliError(
        i18n._({ id: "cli.whatsapp.badTimeout", message: "--timeout must be a number of seconds from 10 to 3600" }),
      );
    const { web, sessionDir } = settings();
    const onQr = printQr(!!o.raw);
    const running = await askBridge(web);
    const number = running
      ? await loginThroughBridge(web, running, { onQr, timeoutMs: seconds * 1000 })
      : await loginWithChild(
          ["node", BRIDGE_MAIN, "login"],
          { ...process.env, WHATSAPP_WEB_SESSION_DIR: sessionDir, PUPPETEER_SKIP_DOWNLOAD: "true" },
          {
            onQr,
            onReady: () => console.log(i18n._({ id: "cli.whatsapp.saving", message: "Linked; saving the session…" })),
            timeoutMs: seconds * 1000,
          },
        );
    console.log(
      i18n._({
        id: "cli.whatsapp.linked",
        message: "WhatsApp Web is linked to {number}. The session is kept in {dir}.",
        values: { number: number ?? "?", dir: sessionDir },
      }),
    );
  });

const STATES = {
  starting: /*i18n*/ {
    id: "cli.whatsapp.state.starting",
    comment: "Operator CLI WhatsApp status: the WhatsApp Web bridge is starting",
    message: "starting",
  },
  qr: /*i18n*/ { id: "cli.whatsapp.state.qr", message: "not linked: run mytess whatsapp login" },
  authenticated: /*i18n*/ {
    id: "cli.whatsapp.state.authenticated",
    comment: "Operator CLI WhatsApp status: the WhatsApp Web session is signing in",
    message: "signing in",
  },
  ready: /*i18n*/ {
    id: "cli.whatsapp.state.ready",
    comment: "Operator CLI WhatsApp status: the WhatsApp Web session is linked to the phone number {number}",
    message: "linked to {number}",
  },
  disconnected: /*i18n*/ { id: "cli.whatsapp.state.disconnected", message: "disconnected; it is started again" },
  auth_failure: /*i18n*/ { id: "cli.whatsapp.state.authFailure", message: "WhatsApp refused the session" },
} as const;

const status = new Command("status")
  .description("Which WhatsApp transport is in use and, for WhatsApp Web, whether the bridge runs and is linked")
  .option("--json", "print JSON")
  .action(async (o: { json?: boolean }) => {
    const { transport } = cliConfig().whatsapp;
    const { web } = settings();
    const state = await askBridge(web);
    if (o.json) {
      // The QR code is for `login` to show, not for a status report.
      const bridge = state ? { state: state.state, number: state.number, detail: state.detail } : null;
      console.log(JSON.stringify({ transport, bridgeUrl: web.bridgeUrl, bridge }, null, 2));
      return;
    }
    console.log(
      i18n._({
        id: "cli.whatsapp.transport",
        comment: "Operator CLI: how WhatsApp messages are sent (web bridge, cloud API)",
        message: "Transport: {transport}",
        values: { transport },
      }),
    );
    console.log(
      state
        ? i18n._({
            id: "cli.whatsapp.bridge",
            message: "WhatsApp Web bridge at {url}: {state}",
            values: { url: web.bridgeUrl, state: i18n._({ ...STATES[state.state], values: { number: state.number } }) },
          })
        : i18n._({
            id: "cli.whatsapp.noBridge",
            message: "No WhatsApp Web bridge answers at {url} (the worker runs it when WHATSAPP_TRANSPORT=web).",
            values: { url: web.bridgeUrl },
          }),
    );
  });

export const whatsapp = new Command("whatsapp")
  .description("WhatsApp Web: link a phone, see the bridge's state")
  .addCommand(login)
  .addCommand(status);
