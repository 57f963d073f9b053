// @ts-check
// The WhatsApp Web bridge: one whatsapp-web.js client (a WhatsApp Web page in Chromium, linked to a phone by a QR
// code) behind a small signed HTTP API that MyTess's `whatsapp` notifier calls (state, send), and a forwarder that
// posts text messages people send to the linked number to MyTess, which answers them like the Cloud API's webhook.
// The client is anything with the few methods of whatsapp-web.js's Client used here (TWebClient): production passes
// the real one (client.mjs), tests a fake that emits the same events.
import { createServer } from "node:http";
import {
  BRIDGE_PATHS,
  MAX_SKEW_MS,
  phoneDigits,
  SIGNATURE_HEADER,
  signedHeaders,
  TIMESTAMP_HEADER,
  verifySignature,
} from "./protocol.mjs";

/**
 * @typedef {"starting" | "qr" | "authenticated" | "ready" | "disconnected" | "auth_failure"} TBridgeState
 * @typedef {{ state: TBridgeState; qr: string | null; number: string | null; detail: string | null }} TBridgeSnapshot
 * @typedef {{ _serialized: string }} TWid
 * @typedef {{
 *   id?: { _serialized?: string };
 *   from: string;
 *   fromMe?: boolean;
 *   isStatus?: boolean;
 *   type?: string;
 *   body?: string;
 *   timestamp?: number;
 * }} TIncoming
 * @typedef {{
 *   on: (event: string, listener: (...args: any[]) => void) => unknown;
 *   initialize: () => Promise<unknown>;
 *   sendMessage: (chatId: string, text: string) => Promise<{ id?: { _serialized?: string } }>;
 *   getNumberId: (number: string) => Promise<TWid | null>;
 *   getContactLidAndPhone?: (ids: string[]) => Promise<{ lid?: string; pn?: string }[]>;
 *   destroy: () => Promise<unknown>;
 *   info?: { wid?: { user?: string } } | null;
 * }} TWebClient
 * @typedef {(level: "info" | "warn" | "error", msg: string, data?: Record<string, unknown>) => void} TLog
 * @typedef {{ status: "delivered"; messageId?: string }
 *   | { status: "retry"; reason: string }
 *   | { status: "gone"; reason: string }
 *   | { status: "failed"; reason: string }} TSendResult
 */

/** Incoming message ids remembered, so a message WhatsApp Web reports twice is posted to MyTess once. */
const SEEN_MESSAGES = 5000;

/** WhatsApp's limit for one text is larger, but MyTess renders at most this much (as for the Cloud API). */
export const MAX_TEXT = 4096;
const MAX_BODY_BYTES = 64 * 1024;
/** whatsapp-web.js waits on the page without a limit; a send that hangs this long is reported as passing trouble. */
const SEND_TIMEOUT_MS = 20_000;

/** `+251912345678` → `+2519123****`: enough for an operator to tell numbers apart in a log. */
const masked = (/** @type {string} */ digits) => `+${digits.slice(0, -4)}****`;

/**
 * @template T
 * @param {Promise<T>} p
 * @param {number} ms
 * @returns {Promise<T>}
 */
const within = (p, ms) =>
  new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    p.then(
      (v) => {
        clearTimeout(timer);
        resolve(v);
      },
      (e) => {
        clearTimeout(timer);
        reject(e);
      },
    );
  });

/**
 * @param {{
 *   client: TWebClient;
 *   secret: string;
 *   inboundUrl?: string | null;
 *   log: TLog;
 *   retryDelaysMs?: number[];
 *   sendTimeoutMs?: number;
 * }} opts
 */
export const createBridge = ({
  client,
  secret,
  inboundUrl = null,
  log,
  retryDelaysMs = [1000, 5000, 15000],
  sendTimeoutMs = SEND_TIMEOUT_MS,
}) => {
  /** @type {TBridgeSnapshot} */
  let snap = { state: "starting", qr: null, number: null, detail: null };
  /** @type {Set<(s: TBridgeSnapshot) => void>} */
  const watchers = new Set();
  /** @param {Partial<TBridgeSnapshot>} next */
  const set = (next) => {
    snap = { ...snap, ...next };
    for (const w of watchers) w(snap);
  };

  client.on("qr", (/** @type {string} */ qr) => {
    if (snap.state !== "qr")
      log("warn", "whatsapp web needs linking: run `mytess whatsapp login` and scan the QR code");
    set({ state: "qr", qr: String(qr), detail: null });
  });
  client.on("authenticated", () => set({ state: "authenticated", qr: null, detail: null }));
  client.on("ready", () => {
    const number = client.info?.wid?.user ? `+${client.info.wid.user}` : null;
    set({ state: "ready", qr: null, number, detail: null });
    log("info", "whatsapp web ready", { number: number ? masked(number.slice(1)) : null });
  });
  client.on("auth_failure", (/** @type {unknown} */ message) => {
    set({ state: "auth_failure", qr: null, detail: String(message ?? "") });
    log("error", "whatsapp web authentication failed", { detail: String(message ?? "") });
  });
  client.on("disconnected", (/** @type {unknown} */ reason) => {
    set({ state: "disconnected", qr: null, detail: String(reason ?? "") });
    log("warn", "whatsapp web disconnected", { reason: String(reason ?? "") });
  });
  /**
   * Signed requests already taken, by signature, with their outcome: a signature covers the time and the exact body,
   * so the same signature again is a replay of one request (within the window the signature is accepted), which gets
   * the first outcome and sends nothing. Entries older than the window are dropped: their signatures are refused.
   * @type {Map<string, { at: number; outcome: Promise<{ status: number; body: unknown }> }>}
   */
  const handled = new Map();
  /** @type {Set<string>} ids of incoming messages already forwarded, oldest first */
  const forwarded = new Set();

  client.on("message", (/** @type {TIncoming} */ m) => {
    forward(m).catch((err) => log("error", "whatsapp web message not forwarded", { error: String(err) }));
  });

  /**
   * Sends a text to a phone number. Never rejects: the outcome says what MyTess's job should do.
   * @param {string} phone
   * @param {string} text
   * @returns {Promise<TSendResult>}
   */
  const send = async (phone, text) => {
    const digits = phoneDigits(phone);
    if (!digits) return { status: "failed", reason: "WhatsApp Web: not a phone number in international format" };
    if (!text.trim()) return { status: "failed", reason: "WhatsApp Web: the message is empty" };
    if (snap.state !== "ready")
      return {
        status: "retry",
        reason:
          snap.state === "qr" || snap.state === "auth_failure"
            ? "WhatsApp Web is not linked to a phone: run `mytess whatsapp login`"
            : `WhatsApp Web is not ready (${snap.state})`,
      };
    /** @type {TWid | null} */
    let id;
    try {
      id = await within(client.getNumberId(digits), sendTimeoutMs);
    } catch (err) {
      return { status: "retry", reason: `WhatsApp Web could not look the number up: ${errorText(err)}` };
    }
    if (!id?._serialized) return { status: "gone", reason: `WhatsApp Web: ${masked(digits)} is not on WhatsApp` };
    try {
      const sent = await within(client.sendMessage(id._serialized, text.slice(0, MAX_TEXT)), sendTimeoutMs);
      return { status: "delivered", messageId: sent?.id?._serialized };
    } catch (err) {
      return { status: "retry", reason: `WhatsApp Web did not send the message: ${errorText(err)}` };
    }
  };

  /**
   * The sender's number: a private chat is `<digits>@c.us`, or `<id>@lid` where WhatsApp hides numbers behind linked
   * ids, which the client can map back to the number.
   * @param {string} from
   */
  const senderDigits = async (from) => {
    if (from.endsWith("@c.us")) return phoneDigits(from);
    if (!from.endsWith("@lid") || !client.getContactLidAndPhone) return null;
    const [pair] = await client.getContactLidAndPhone([from]);
    return pair?.pn ? phoneDigits(pair.pn) : null;
  };

  /** Posts one message to MyTess, signed; tries again later when MyTess cannot be reached or fails. */
  const forward = async (/** @type {TIncoming} */ m) => {
    if (!inboundUrl || m.fromMe || m.isStatus || m.type !== "chat" || !m.body?.trim()) return;
    const from = await senderDigits(m.from);
    if (!from) return; // groups, channels, broadcasts, and chats whose number WhatsApp does not give us
    const messageId = m.id?._serialized ?? `${from}-${m.timestamp ?? Date.now()}`;
    // whatsapp-web.js may report one message twice (a page reload, a reconnect): it is posted once.
    if (forwarded.has(messageId)) return;
    forwarded.add(messageId);
    if (forwarded.size > SEEN_MESSAGES) forwarded.delete(forwarded.values().next().value ?? "");
    const body = JSON.stringify({
      from,
      text: m.body.slice(0, MAX_TEXT),
      messageId,
      at: m.timestamp ? m.timestamp * 1000 : Date.now(),
    });
    const url = new URL(inboundUrl);
    for (let attempt = 0; ; attempt++) {
      let status = 0;
      try {
        const res = await fetch(url, {
          method: "POST",
          headers: { "Content-Type": "application/json", ...signedHeaders(secret, "POST", url.pathname, body) },
          body,
          signal: AbortSignal.timeout(60_000),
        });
        status = res.status;
        await res.arrayBuffer();
      } catch (err) {
        log("warn", "mytess could not be reached with a whatsapp message", { error: errorText(err) });
      }
      if (status >= 200 && status < 300) return;
      if (status === 401) {
        log("error", "mytess refused the bridge's signature: WHATSAPP_WEB_SECRET differs between them");
        return;
      }
      if (status >= 400 && status < 500) {
        log("warn", "mytess refused a whatsapp message", { status });
        return;
      }
      if (attempt >= retryDelaysMs.length) {
        log("error", "whatsapp message dropped after retries", { from: masked(from) });
        return;
      }
      await new Promise((r) => setTimeout(r, retryDelaysMs[attempt]));
    }
  };

  /**
   * One HTTP request to the bridge, transport aside. GET /state and POST /send, each signed; anything else 404.
   * @param {{ method: string; path: string; headers: Record<string, string | string[] | undefined>; body: string }} req
   * @returns {Promise<{ status: number; body: unknown }>}
   */
  const handle = async (req) => {
    const header = (/** @type {string} */ name) => {
      const v = req.headers[name];
      return Array.isArray(v) ? v[0] : v;
    };
    const route =
      req.method === "GET" && req.path === BRIDGE_PATHS.state
        ? "state"
        : req.method === "POST" && req.path === BRIDGE_PATHS.send
          ? "send"
          : null;
    if (!route) return { status: 404, body: { message: "Not found" } };
    const signed = verifySignature(secret, {
      method: req.method,
      path: req.path,
      body: req.body,
      timestamp: header(TIMESTAMP_HEADER),
      signature: header(SIGNATURE_HEADER),
    });
    if (!signed) return { status: 401, body: { message: "Signature missing or wrong" } };
    if (route === "state") return { status: 200, body: snap };
    const now = Date.now();
    for (const [key, h] of handled) if (now - h.at > 2 * MAX_SKEW_MS) handled.delete(key);
    const key = String(header(SIGNATURE_HEADER)).trim().toLowerCase();
    const seen = handled.get(key);
    if (seen) return seen.outcome;
    const outcome = sendRequest(req.body);
    handled.set(key, { at: now, outcome });
    return outcome;
  };

  /**
   * POST /send's body {phone, text}: the send's outcome, or 400.
   * @param {string} raw
   * @returns {Promise<{ status: number; body: unknown }>}
   */
  const sendRequest = async (raw) => {
    /** @type {unknown} */
    let input = null;
    try {
      input = JSON.parse(raw);
    } catch {}
    const { phone, text } = /** @type {{ phone?: unknown; text?: unknown }} */ (input ?? {});
    if (typeof phone !== "string" || typeof text !== "string")
      return { status: 400, body: { message: "Body must be {phone, text}: both strings" } };
    return { status: 200, body: await send(phone, text) };
  };

  return {
    snapshot: () => snap,
    /** Calls `fn` on every change of state (QR codes included) until the returned function is called. */
    watch: (/** @type {(s: TBridgeSnapshot) => void} */ fn) => {
      watchers.add(fn);
      return () => {
        watchers.delete(fn);
      };
    },
    send,
    handle,
    forward,
  };
};

/** @typedef {ReturnType<typeof createBridge>} TBridge */

const errorText = (/** @type {unknown} */ err) => (err instanceof Error ? err.message : String(err));

/**
 * Serves the bridge over HTTP on `host:port` (loopback unless the operator chose otherwise); resolves once listening.
 * @param {TBridge} bridge
 * @param {{ host: string; port: number }} at
 * @returns {Promise<import("node:http").Server>}
 */
export const listen = (bridge, at) =>
  new Promise((resolve, reject) => {
    const server = createServer((req, res) => {
      /** @type {Buffer[]} */
      const chunks = [];
      let size = 0;
      req.on("data", (/** @type {Buffer} */ c) => {
        size += c.length;
        if (size > MAX_BODY_BYTES) {
          res.writeHead(413, { "Content-Type": "application/json" }).end('{"message":"Body too large"}');
          req.destroy();
          return;
        }
        chunks.push(c);
      });
      req.on("end", () => {
        if (res.headersSent) return;
        const url = new URL(req.url ?? "/", "http://bridge");
        bridge
          .handle({
            method: req.method ?? "GET",
            path: url.pathname,
            headers: req.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          })
          .then(
            (out) => res.writeHead(out.status, { "Content-Type": "application/json" }).end(JSON.stringify(out.body)),
            (err) =>
              res
                .writeHead(500, { "Content-Type": "application/json" })
                .end(JSON.stringify({ message: errorText(err) })),
          );
      });
    });
    server.once("error", reject);
    server.listen(at.port, at.host, () => {
      server.off("error", reject);
      resolve(server);
    });
  });

/**
 * Login: resolves with the linked number once the client is ready (after showing each QR code through `onQr`),
 * rejects when WhatsApp refuses the session or the client stops. The session is on disk (LocalAuth) once ready.
 * @param {TBridge} bridge
 * @param {(qr: string) => void} onQr
 * @returns {Promise<string | null>}
 */
export const waitForLink = (bridge, onQr) =>
  new Promise((resolve, reject) => {
    let lastQr = /** @type {string | null} */ (null);
    /** @param {TBridgeSnapshot} s */
    const check = (s) => {
      if (s.state === "qr" && s.qr && s.qr !== lastQr) {
        lastQr = s.qr;
        onQr(s.qr);
      } else if (s.state === "ready") {
        stop();
        resolve(s.number);
      } else if (s.state === "auth_failure" || s.state === "disconnected") {
        stop();
        reject(
          new Error(`${s.state === "auth_failure" ? "authentication failed" : "disconnected"}: ${s.detail ?? ""}`),
        );
      }
    };
    const stop = bridge.watch(check);
    check(bridge.snapshot());
  });
