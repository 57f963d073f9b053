import webpush from "web-push";
import { DEFAULT_WEB_PUSH_HOSTS } from "../../config";
import { guardedFetch, hostMatches, isTrusted, OutgoingRefused } from "../http/guard";
import { networkReason, retryAfterSeconds } from "../http/kit";
import type { TNotification, TNotifier, TPushAddress, TSendResult } from "./types";
import type { TVapidKeys } from "./vapid-keys";

// Push services refuse records over 4096 bytes; the JSON plus encryption overhead must fit, so text is capped first.
const MAX_TITLE = 120;
const MAX_BODY = 1000;
const DEFAULT_TTL_S = 24 * 3600;

/**
 * The push services browsers subscribe at: Google FCM (Chrome, Edge on Android, Opera…), Mozilla autopush (Firefox),
 * Apple (Safari), Microsoft WNS (older Edge). WEB_PUSH_HOSTS replaces the list.
 */
export const WEB_PUSH_HOSTS = DEFAULT_WEB_PUSH_HOSTS;

export type TWebPushSettings = {
  vapid: TVapidKeys & { subject: string };
  timeoutMs: number;
  /** PEM of an extra certificate authority for push endpoints: the local emulator's, in tests and demo mode. */
  ca?: string;
  sandbox: boolean;
  /** Hosts of the push services endpoints may be at ("fcm.googleapis.com", "*.push.apple.com"); WEB_PUSH_HOSTS. */
  hosts?: readonly string[];
  /** The operator's Sandbox push service (an emulator, WEB_PUSH_SANDBOX_URL): its origin is allowed too, loopback included. */
  sandboxOrigin?: string | null;
};

/**
 * Whether a subscription's endpoint is at a push service we send to: https on the default port, without user info,
 * at one of the push services' hosts, or on the operator's Sandbox push service. Nothing else is ever sent to, so a
 * subscription cannot point the server at another host.
 */
export const acceptsPushEndpoint = (s: Pick<TWebPushSettings, "hosts" | "sandboxOrigin">, endpoint: string) => {
  let u: URL;
  try {
    u = new URL(endpoint);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  if (s.sandboxOrigin && isTrusted(u, [s.sandboxOrigin])) return true;
  return u.protocol === "https:" && u.port === "" && hostMatches(u.hostname, s.hosts ?? WEB_PUSH_HOSTS);
};

/** What the service worker receives: `JSON.parse(event.data.text())`. */
export type TPushPayload = { title: string; body: string; url?: string; tag?: string };

export const pushPayload = (n: TNotification): TPushPayload => ({
  title: (n.title ?? "").slice(0, MAX_TITLE),
  body: n.body.length > MAX_BODY ? `${n.body.slice(0, MAX_BODY - 1)}…` : n.body,
  ...(n.url ? { url: n.url } : {}),
  ...(n.topic ? { tag: n.topic } : {}),
});

/** The push service's answer (RFC 8030) as a TSendResult. */
export const pushOutcome = (status: number, headers: Headers, body: string): TSendResult => {
  const reason = `Push service: HTTP ${status}${body.trim() ? ` ${body.trim().slice(0, 200)}` : ""}`;
  if (status >= 200 && status < 300) return { status: "delivered", messageId: headers.get("location") ?? undefined };
  // 410: the browser unsubscribed or the subscription expired; 404: the service does not know it.
  if (status === 404 || status === 410) return { status: "gone", reason };
  if (status === 429 || status >= 500)
    return { status: "retry", reason, retryAfterSeconds: retryAfterSeconds(headers) };
  // 400/401/403 (our VAPID keys or JWT), 413 (too large): the same request would fail again.
  return { status: "failed", reason };
};

/**
 * Encrypts and signs with `web-push` (aes128gcm, VAPID) but sends with fetch: the same timeout and header handling as
 * our other adapters, and under Bun a per-request trusted CA (`tls.ca`) for the HTTPS emulator without turning
 * certificate checks off. (`sendNotification` goes through node:https and needs an https.Agent for that.)
 */
export const createWebPushNotifier = (
  s: TWebPushSettings,
): TNotifier<"web_push"> & { publicKey: string; accepts: (endpoint: string) => boolean } => ({
  channel: "web_push",
  name: "Web Push",
  sandbox: s.sandbox,
  publicKey: s.vapid.publicKey,
  accepts: (endpoint) => acceptsPushEndpoint(s, endpoint),
  send: async (to: TPushAddress, n: TNotification) => {
    let endpoint: URL;
    try {
      endpoint = new URL(to.endpoint);
    } catch {
      return { status: "gone", reason: "Push subscription endpoint is not a URL" };
    }
    // Browsers only hand out https endpoints; anything else was not made by a browser and never will work.
    if (endpoint.protocol !== "https:") return { status: "gone", reason: "Push subscription endpoint is not https" };
    // A subscription stored before the list of push services was enforced, or at a service since removed from it.
    if (!acceptsPushEndpoint(s, to.endpoint))
      return { status: "gone", reason: "Push subscription endpoint is not at a known push service" };
    let details: ReturnType<typeof webpush.generateRequestDetails>;
    try {
      details = webpush.generateRequestDetails(to, JSON.stringify(pushPayload(n)), {
        vapidDetails: s.vapid,
        TTL: n.ttlSeconds ?? DEFAULT_TTL_S,
        urgency: n.urgency ?? "normal",
        ...(n.topic ? { topic: n.topic } : {}),
        contentEncoding: "aes128gcm",
      });
    } catch (err) {
      // Malformed p256dh/auth keys: no request could ever be encrypted for this subscription.
      return { status: "gone", reason: `Push subscription keys are not usable: ${(err as Error).message}` };
    }
    try {
      const res = await guardedFetch(
        details.endpoint,
        {
          method: details.method,
          headers: details.headers,
          body: details.body ? new Uint8Array(details.body) : undefined,
          redirect: "manual",
          signal: AbortSignal.timeout(s.timeoutMs),
          ...(s.ca ? { tls: { ca: s.ca } } : {}),
        },
        { trusted: [s.sandboxOrigin] },
      );
      return pushOutcome(res.status, res.headers, await res.text());
    } catch (err) {
      // A push service's name that resolves to a private address is refused like any other; it may be fixed later.
      if (err instanceof OutgoingRefused)
        return { status: err.refusal === "unresolved" ? "retry" : "failed", reason: `Push service: ${err.message}` };
      return { status: "retry", reason: `Push service could not be reached: ${networkReason(err)}` };
    }
  },
});
