// The Sandbox webhook receiver: what a user's own server would be, on loopback, for demo mode (where every address a
// user types must be public https and nothing outside is reachable). Each receiver is a path `/r/<token>` with an
// unguessable token; MyTess tells it the secret of an endpoint registered at that path (`PUT /r/<token>/secrets`),
// and every POST there is kept with whether its `MyTess-Signature` verifies under one of them, checked on the raw body
// exactly as the README's snippet does. Only paths that were given a secret exist (404 otherwise). The demo launcher
// runs one and writes each delivery to a folder of its receiver's own (`<dir>/<token>/`), which the server's
// /dev/webhooks page reads for the signed-in user's receivers. With a folder, the receiver also keeps what outlives a
// restart there: each receiver's secrets (`<dir>/<token>/secrets`, owner-only) and its port (`<dir>/port`, taken
// again when free), so endpoints registered before a restart still reach it and still verify.
import { createHmac, timingSafeEqual } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** A receiver's path: `/r/` and 32 random bytes in base64url. */
export const RECEIVER_PATH = /^\/r\/([A-Za-z0-9_-]{43})$/;
const SECRETS_PATH = /^\/r\/([A-Za-z0-9_-]{43})\/secrets$/;
/** How far the signature's time may be from the receiver's clock, as in the README's snippet. */
export const SIGNATURE_TOLERANCE_S = 300;

export type TReceivedWebhook = {
  id: string;
  /** The receiver's token (its path's last part). */
  receiver: string;
  event: string;
  delivery: string;
  signature: string;
  signatureValid: boolean;
  body: string;
  receivedAt: number;
};

/** The README's verification snippet: true when `header` signs `rawBody` with `secret` within `toleranceS` of now. */
export const verifyMyTessSignature = (secret: string, header: string, rawBody: string, toleranceS = 300) => {
  const parts = Object.fromEntries(header.split(",").map((kv) => kv.split("=", 2)));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > toleranceS || !parts.v1) return false;
  const expected = createHmac("sha256", secret).update(`${t}.${rawBody}`).digest();
  const given = Buffer.from(parts.v1, "hex");
  return given.length === expected.length && timingSafeEqual(given, expected);
};

export type TWebhookReceiver = {
  port: number;
  /** The receiver's origin (WEBHOOK_SANDBOX_URL). */
  url: string;
  received: TReceivedWebhook[];
  /** The first delivery to `token` after `after` received ones, waiting for it (no fixed sleep). */
  waitFor: (token: string, o?: { after?: number; timeoutMs?: number }) => Promise<TReceivedWebhook>;
  close: () => Promise<void>;
};

const TOKEN = /^[A-Za-z0-9_-]{43}$/;
const readText = (path: string) => {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return null;
  }
};

/** The secrets the receivers in `dir` were given before (a receiver whose file is unreadable has none). */
const loadSecrets = (dir: string) => {
  const secrets = new Map<string, string[]>();
  for (const token of readdirSync(dir).filter((n) => TOKEN.test(n))) {
    try {
      const list = JSON.parse(readText(join(dir, token, "secrets")) ?? "[]") as unknown;
      if (Array.isArray(list) && list.length && list.every((x) => typeof x === "string" && x))
        secrets.set(token, list as string[]);
    } catch {
      // Not a secrets file the receiver wrote: that receiver answers 404 until its endpoint is registered again.
    }
  }
  return secrets;
};

export const startWebhookReceiver = (o: { port?: number; dir?: string } = {}): TWebhookReceiver => {
  const received: TReceivedWebhook[] = [];
  if (o.dir) mkdirSync(o.dir, { recursive: true });
  const secrets = o.dir ? loadSecrets(o.dir) : new Map<string, string[]>();
  const waiters = new Set<() => void>();
  const fetch = async (req: Request) => {
    const path = new URL(req.url).pathname;
    const setting = SECRETS_PATH.exec(path);
    if (setting && req.method === "PUT") {
      const parsed = (await req.json().catch(() => null)) as { secret?: unknown } | null;
      if (typeof parsed?.secret !== "string" || !parsed.secret)
        return Response.json({ error: "secret" }, { status: 400 });
      const token = setting[1]!;
      const list = secrets.get(token) ?? [];
      if (!list.includes(parsed.secret)) list.push(parsed.secret);
      secrets.set(token, list);
      if (o.dir) {
        const folder = join(o.dir, token);
        mkdirSync(folder, { recursive: true });
        writeFileSync(join(folder, "secrets"), JSON.stringify(list), { mode: 0o600 });
      }
      return new Response(null, { status: 204 });
    }
    const receiving = RECEIVER_PATH.exec(path);
    const known = receiving ? secrets.get(receiving[1]!) : undefined;
    if (!receiving || !known) return new Response("no such receiver", { status: 404 });
    if (req.method !== "POST") return new Response("POST only", { status: 405, headers: { Allow: "POST" } });
    const body = await req.text();
    const signature = req.headers.get("mytess-signature") ?? "";
    const hook: TReceivedWebhook = {
      id: crypto.randomUUID(),
      receiver: receiving[1]!,
      event: req.headers.get("mytess-event") ?? "",
      delivery: req.headers.get("mytess-delivery") ?? "",
      signature,
      signatureValid: known.some((s) => verifyMyTessSignature(s, signature, body, SIGNATURE_TOLERANCE_S)),
      body,
      receivedAt: Date.now(),
    };
    received.push(hook);
    if (o.dir) {
      const folder = join(o.dir, hook.receiver);
      mkdirSync(folder, { recursive: true });
      // Names start with the time received (zero-padded), so sorting them sorts the deliveries.
      writeFileSync(join(folder, `${String(hook.receivedAt).padStart(15, "0")}-${hook.id}.json`), JSON.stringify(hook));
    }
    for (const w of waiters) w();
    // A receiver following the snippet refuses what does not verify; the delivery log then shows the 400.
    return hook.signatureValid ? new Response("ok") : new Response("bad signature", { status: 400 });
  };
  // The endpoints' addresses hold the port: with a folder and no port asked for, the one used before, when free.
  const portFile = o.dir ? join(o.dir, "port") : null;
  const before = portFile ? Number(readText(portFile)) : 0;
  const serve = (port: number) => Bun.serve({ hostname: "127.0.0.1", port, fetch });
  let server: ReturnType<typeof serve>;
  if (o.port === undefined && Number.isInteger(before) && before > 0 && before < 65536) {
    try {
      server = serve(before);
    } catch {
      server = serve(0);
    }
  } else server = serve(o.port ?? 0);
  if (portFile) writeFileSync(portFile, String(server.port));
  const url = `http://127.0.0.1:${server.port}`;
  const find = (token: string, after: number) => received.slice(after).find((r) => r.receiver === token);
  return {
    port: server.port!,
    url,
    received,
    waitFor: (token, w = {}) =>
      new Promise((resolve, reject) => {
        const hit = find(token, w.after ?? 0);
        if (hit) return resolve(hit);
        const check = () => {
          const h = find(token, w.after ?? 0);
          if (!h) return;
          waiters.delete(check);
          clearTimeout(timer);
          resolve(h);
        };
        const timer = setTimeout(() => {
          waiters.delete(check);
          reject(new Error(`no webhook reached receiver ${token}`));
        }, w.timeoutMs ?? 10_000);
        waiters.add(check);
      }),
    close: async () => {
      await server.stop(true);
    },
  };
};
