// @ts-check
// The wire between MyTess and its WhatsApp Web bridge, shared by both sides: the bridge runs under Node (plain
// JavaScript, no build step), MyTess under Bun imports this same file. Every request either way is signed with the
// shared secret over its time, method, path and exact body, so the secret itself never travels and a captured request
// stops working after a few minutes.
import { createHmac, timingSafeEqual } from "node:crypto";

export const TIMESTAMP_HEADER = "x-mytess-timestamp";
export const SIGNATURE_HEADER = "x-mytess-signature";
/** How far a request's clock may be from ours: both ends usually share one machine, so this only bounds replays. */
export const MAX_SKEW_MS = 5 * 60_000;

/** The bridge's paths (GET state, POST send) and MyTess's route for messages people send to the linked number. */
export const BRIDGE_PATHS = { state: "/state", send: "/send" };
export const INBOUND_PATH = "/api/messaging/whatsapp/web-inbound";

/**
 * @param {string} secret
 * @param {number} timestamp epoch ms
 * @param {string} method
 * @param {string} path
 * @param {string} body
 */
export const signature = (secret, timestamp, method, path, body) =>
  `sha256=${createHmac("sha256", secret).update(`${timestamp}\n${method.toUpperCase()}\n${path}\n${body}`).digest("hex")}`;

/**
 * The headers of a signed request.
 * @param {string} secret
 * @param {string} method
 * @param {string} path
 * @param {string} body
 * @param {number} [now]
 * @returns {Record<string, string>}
 */
export const signedHeaders = (secret, method, path, body, now = Date.now()) => ({
  [TIMESTAMP_HEADER]: String(now),
  [SIGNATURE_HEADER]: signature(secret, now, method, path, body),
});

/**
 * Whether a request carries a valid signature for this exact body, made within MAX_SKEW_MS of `now`.
 * @param {string} secret
 * @param {{ method: string; path: string; body: string; timestamp: string | null | undefined; signature: string | null | undefined }} req
 * @param {number} [now]
 */
export const verifySignature = (secret, req, now = Date.now()) => {
  if (!secret) return false;
  const ts = Number(req.timestamp);
  if (!req.timestamp || !Number.isSafeInteger(ts) || Math.abs(now - ts) > MAX_SKEW_MS) return false;
  const m = /^sha256=([0-9a-f]{64})$/i.exec(req.signature?.trim() ?? "");
  if (!m) return false;
  const expected = Buffer.from(signature(secret, ts, req.method, req.path, req.body).slice(7), "hex");
  return timingSafeEqual(expected, Buffer.from(m[1], "hex"));
};

/**
 * `+251 91 234 5678`, `251912345678@c.us` → `251912345678`: E.164 digits without the plus, as WhatsApp ids use them;
 * null when that cannot be a phone number (E.164 has at most 15 digits; the shortest real ones have 7).
 * @param {string} phone
 */
export const phoneDigits = (phone) => {
  const digits = phone.replace(/@.*$/, "").replace(/\D/g, "");
  return digits.length >= 7 && digits.length <= 15 ? digits : null;
};
