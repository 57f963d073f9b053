// WhatsApp through WhatsApp Web (WHATSAPP_TRANSPORT=web): a whatsapp-web.js client in a Node process of its own (the
// bridge, workers/whatsapp-web/), linked to a phone by a QR code, which this notifier asks over signed HTTP. Unlike the
// Cloud API there is no 24-hour window or template: WhatsApp Web sends free text to any number on WhatsApp.
import { randomBytes } from "node:crypto";
import { linkSync, mkdirSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { z } from "zod";
import { BRIDGE_PATHS, signedHeaders } from "../../../../workers/whatsapp-web/protocol.mjs";
import { parseWhatsAppWebSecret } from "../../config";
import { guardedFetch } from "../http/guard";
import type { TNotifier, TSendResult } from "./types";
import { renderWhatsAppText, whatsappNumber } from "./whatsapp-cloud";

/** The bridge bounds each WhatsApp Web step at 20 s (look the number up, send); a little more for the way there. */
const SEND_TIMEOUT_MS = 45_000;

export type TWhatsAppWebSettings = { bridgeUrl: string; secret: string };

export const whatsappWebSecretFileFor = (databasePath: string) =>
  databasePath === ":memory:" || databasePath === "" ? null : join(dirname(databasePath), "whatsapp-web-secret");

/** The session (Chromium profile with WhatsApp's keys) lives beside the database unless WHATSAPP_WEB_SESSION_DIR. */
export const whatsappWebSessionDir = (env: Record<string, string | undefined>, databasePath: string) =>
  sessionDirFor(env.WHATSAPP_WEB_SESSION_DIR?.trim() || null, databasePath);

/** The configured session folder (WHATSAPP_WEB_SESSION_DIR), else `whatsapp-web/` beside the database. */
export const sessionDirFor = (configured: string | null, databasePath: string) =>
  configured ??
  join(
    databasePath === ":memory:" || databasePath === "" ? join(process.cwd(), "data") : dirname(databasePath),
    "whatsapp-web",
  );

let processSecret: string | null = null;

/**
 * The secret MyTess and the bridge sign their requests with: WHATSAPP_WEB_SECRET, else a file beside the database made
 * once (mode 600; processes starting together link a finished file into place and the losers read the winner's, as for
 * the VAPID keys), else (an in-memory database) one for this process.
 */
export const loadWhatsAppWebSecret = (env: Record<string, string | undefined>, file: string | null): string =>
  whatsappWebSecretFrom(parseWhatsAppWebSecret(env), file);

/** The configured secret (WHATSAPP_WEB_SECRET), else the file's (made once), else one for this process. */
export const whatsappWebSecretFrom = (configured: string | null, file: string | null): string => {
  if (configured !== null) return configured;
  if (!file) {
    processSecret ??= randomBytes(32).toString("base64url");
    return processSecret;
  }
  const read = () => {
    const s = readFileSync(file, "utf8").trim();
    if (s.length < 16) throw new Error(`${file} does not hold a secret; remove it to make a new one`);
    return s;
  };
  try {
    return read();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  mkdirSync(dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  writeFileSync(tmp, `${randomBytes(32).toString("base64url")}\n`, { mode: 0o600 });
  try {
    linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "EEXIST") throw err;
  } finally {
    unlinkSync(tmp);
  }
  return read();
};

const ZSendResult = z.discriminatedUnion("status", [
  z.object({ status: z.literal("delivered"), messageId: z.string().optional() }),
  z.object({ status: z.literal("retry"), reason: z.string() }),
  z.object({ status: z.literal("gone"), reason: z.string() }),
  z.object({ status: z.literal("failed"), reason: z.string() }),
]);

export const ZBridgeState = z.object({
  state: z.enum(["starting", "qr", "authenticated", "ready", "disconnected", "auth_failure"]),
  qr: z.string().nullable(),
  number: z.string().nullable(),
  detail: z.string().nullable(),
});
export type TBridgeState = z.infer<typeof ZBridgeState>;

/** A signed request to the bridge; the answer's status and JSON body, or a thrown network error. */
const callBridge = async (s: TWhatsAppWebSettings, method: "GET" | "POST", path: string, body: string, ms: number) => {
  const url = new URL(path, s.bridgeUrl);
  // The bridge is the operator's (loopback by default): the guard trusts its origin and nothing else.
  const res = await guardedFetch(
    url,
    {
      method,
      headers: {
        ...(method === "POST" ? { "Content-Type": "application/json" } : {}),
        ...signedHeaders(s.secret, method, url.pathname, body),
      },
      body: method === "POST" ? body : undefined,
      signal: AbortSignal.timeout(ms),
    },
    { trusted: [s.bridgeUrl] },
  );
  let json: unknown = null;
  try {
    json = await res.json();
  } catch {}
  return { status: res.status, json };
};

/** What the bridge says of its WhatsApp Web session; null when no bridge answers there. */
export const whatsappWebState = async (s: TWhatsAppWebSettings, timeoutMs = 3000): Promise<TBridgeState | null> => {
  try {
    const r = await callBridge(s, "GET", BRIDGE_PATHS.state, "", timeoutMs);
    if (r.status === 401) throw new Error("the WhatsApp Web bridge refused our signature: WHATSAPP_WEB_SECRET differs");
    const state = ZBridgeState.safeParse(r.json);
    return state.success ? state.data : null;
  } catch (err) {
    if (err instanceof Error && err.message.includes("WHATSAPP_WEB_SECRET")) throw err;
    return null;
  }
};

export const createWhatsAppWebNotifier = (s: TWhatsAppWebSettings): TNotifier<"whatsapp"> => ({
  channel: "whatsapp",
  name: "WhatsApp",
  sandbox: false,
  send: async (to, n): Promise<TSendResult> => {
    // A linked phone writes to numbers only; a business-scoped user id means something to the Cloud API alone.
    if (to.phone === undefined)
      return { status: "failed", reason: "WhatsApp Web writes to phone numbers only, not to a user id" };
    const body = JSON.stringify({ phone: `+${whatsappNumber(to.phone)}`, text: renderWhatsAppText(n) });
    let r: Awaited<ReturnType<typeof callBridge>>;
    try {
      r = await callBridge(s, "POST", BRIDGE_PATHS.send, body, SEND_TIMEOUT_MS);
    } catch (err) {
      return { status: "retry", reason: `The WhatsApp Web bridge could not be reached: ${(err as Error).message}` };
    }
    if (r.status === 401)
      return {
        status: "failed",
        reason: "The WhatsApp Web bridge refused our signature: WHATSAPP_WEB_SECRET differs between MyTess and it",
      };
    if (r.status >= 500) return { status: "retry", reason: `The WhatsApp Web bridge failed: HTTP ${r.status}` };
    const result = ZSendResult.safeParse(r.json);
    if (r.status !== 200 || !result.success)
      return { status: "failed", reason: `The WhatsApp Web bridge refused the message: HTTP ${r.status}` };
    return result.data;
  },
});
