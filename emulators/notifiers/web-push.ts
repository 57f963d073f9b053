// A Web Push service (RFC 8030) over HTTPS: POST /push/<id>. It mints subscriptions whose private keys it keeps, so
// it can decrypt each message and show tests the exact text a user would read; it checks VAPID like real services.
import { createECDH, type ECDH, randomBytes, randomUUID } from "node:crypto";
import { decryptAes128gcm, verifyVapid } from "./push-crypto";

export type TPushMessage = {
  id: string;
  text: string;
  ttl: number;
  urgency: string;
  topic?: string;
  vapidSubject: string;
  receivedAt: number;
};
type TPushMode = { kind: "ok" } | { kind: "gone" } | { kind: "flood"; retryAfter: number } | { kind: "down" };
type TSubscriber = { ecdh: ECDH; auth: Buffer; applicationServerKey?: string; mode: TPushMode; inbox: TPushMessage[] };

const URGENCIES = ["very-low", "low", "normal", "high"];
const MAX_RECORD = 4096;

// Shaped like Mozilla autopush's errors: {code, errno, error, message}.
const problem = (code: number, errno: number, error: string, message: string, headers?: Record<string, string>) =>
  Response.json({ code, errno, error, message }, { status: code, headers });

export const createPushServiceEmulator = () => {
  const subscribers = new Map<string, TSubscriber>();
  let origin = "https://127.0.0.1";

  const control = {
    /** Set by the server once it listens: endpoints are built from it. */
    setOrigin: (o: string) => {
      origin = o;
    },
    /**
     * A browser subscribing: returns the PushSubscription JSON it would hand to the page. With an
     * applicationServerKey, only messages signed by that VAPID key are accepted (403 otherwise), as in browsers.
     */
    subscribe: (opts: { applicationServerKey?: string } = {}) => {
      const id = randomUUID();
      const ecdh = createECDH("prime256v1");
      ecdh.generateKeys();
      const auth = randomBytes(16);
      subscribers.set(id, {
        ecdh,
        auth,
        applicationServerKey: opts.applicationServerKey,
        mode: { kind: "ok" },
        inbox: [],
      });
      return {
        id,
        subscription: {
          endpoint: `${origin}/push/${id}`,
          expirationTime: null,
          keys: { p256dh: ecdh.getPublicKey("base64url"), auth: auth.toString("base64url") },
        },
      };
    },
    /** "gone": the user unsubscribed or it expired (410); "flood": 429 with Retry-After; "down": 503. */
    setMode: (id: string, mode: TPushMode) => {
      const s = subscribers.get(id);
      if (s) s.mode = mode;
    },
    /** The user clears the browser: the service forgets the subscription (404). */
    forget: (id: string) => subscribers.delete(id),
    /** Messages as the user agent decrypted them, oldest first. */
    received: (id: string) => subscribers.get(id)?.inbox ?? [],
  };

  const handle = async (req: Request) => {
    const url = new URL(req.url);
    const m = /^\/push\/([\w-]+)$/.exec(url.pathname);
    if (!m || req.method !== "POST") return problem(404, 102, "Not Found", "Request did not validate invalid token");
    const s = subscribers.get(m[1]);
    if (!s) return problem(404, 102, "Not Found", "Request did not validate invalid token");
    if (s.mode.kind === "gone") return problem(410, 106, "Gone", "Request did not validate, subscription expired");
    if (s.mode.kind === "flood")
      return problem(429, 900, "Too Many Requests", "Too many messages", { "Retry-After": String(s.mode.retryAfter) });
    if (s.mode.kind === "down") return problem(503, 999, "Service Unavailable", "Try again later");

    const vapid = verifyVapid(req.headers.get("authorization"), origin);
    if (!vapid.ok) return problem(401, 109, "Unauthorized", vapid.reason);
    if (s.applicationServerKey && s.applicationServerKey.replace(/=+$/, "") !== vapid.publicKey)
      return problem(403, 109, "Forbidden", "VAPID key does not match the subscription's applicationServerKey");
    const ttl = req.headers.get("ttl");
    if (ttl === null || !/^\d+$/.test(ttl)) return problem(400, 112, "Bad Request", "Missing or invalid TTL header");
    const urgency = req.headers.get("urgency") ?? "normal";
    if (!URGENCIES.includes(urgency)) return problem(400, 111, "Bad Request", "Invalid Urgency header");
    const topic = req.headers.get("topic") ?? undefined;
    if (topic !== undefined && !/^[A-Za-z0-9_-]{1,32}$/.test(topic))
      return problem(400, 111, "Bad Request", "Topic must be at most 32 URL-safe base64 characters");

    const body = Buffer.from(await req.arrayBuffer());
    if (body.length > MAX_RECORD) return problem(413, 104, "Payload Too Large", "Body is too large");
    let text = "";
    if (body.length) {
      if (req.headers.get("content-encoding") !== "aes128gcm")
        return problem(400, 110, "Bad Request", "Content-Encoding must be aes128gcm");
      try {
        text = decryptAes128gcm(body, s.ecdh, s.auth).toString("utf8");
      } catch (err) {
        return problem(400, 110, "Bad Request", `Could not decrypt: ${(err as Error).message}`);
      }
    }
    const message: TPushMessage = {
      id: randomUUID(),
      text,
      ttl: Number(ttl),
      urgency,
      topic,
      vapidSubject: vapid.claims.sub,
      receivedAt: Date.now(),
    };
    // A message with a topic replaces an older one with the same topic that the device has not yet received.
    s.inbox = [...s.inbox.filter((x) => !topic || x.topic !== topic), message];
    return new Response(null, { status: 201, headers: { Location: `${origin}/m/${message.id}` } });
  };

  return { handle, control };
};
