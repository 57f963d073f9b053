// Demo mode's Sandbox webhook receiver (emulators/webhooks): the one private address an endpoint may name. It is
// trusted only as a whole receiver URL (`<WEBHOOK_SANDBOX_URL>/r/<43 base64url characters>`, nothing else on that
// origin, no query), only when the server runs in demo mode with the launcher's receiver configured; a user-typed
// loopback or private address stays refused, as does any other path or port of the receiver's host.
import { randomBytes, timingSafeEqual } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import type { User } from "../../../../db/tables";
import { AppError } from "../../errors";
import { guardedFetch } from "../../integrations/http/guard";
import type { TSecretBox } from "../../secrets";
import type { TServices } from "../../services";

const RECEIVER_PATH = /^\/r\/[A-Za-z0-9_-]{43}$/;

/** The Sandbox receiver's URL that `url` exactly is, or null. */
export const sandboxReceiverUrl = (url: string, services: Pick<TServices, "webhooks">) => {
  const base = services.webhooks.sandboxUrl;
  if (!base) return null;
  const u = URL.parse(url);
  if (!u || u.origin !== base || u.username || u.password || u.search || u.hash) return null;
  return RECEIVER_PATH.test(u.pathname) && url === `${base}${u.pathname}` ? url : null;
};

/** The origins a delivery to `url` may go to although they are private: the operator's, and the Sandbox receiver. */
export const trustedFor = (url: string, services: Pick<TServices, "boards" | "webhooks">) => {
  const receiver = sandboxReceiverUrl(url, services);
  return receiver ? [...services.boards.sandboxOrigins, receiver] : services.boards.sandboxOrigins;
};

/**
 * Tells the Sandbox receiver the secret of an endpoint registered at its URL, so it can check the signatures as a
 * user's own server would. Does nothing for any other URL.
 */
export const shareSecretWithSandbox = async (
  url: string,
  secret: string,
  services: Pick<TServices, "boards" | "webhooks">,
) => {
  const receiver = sandboxReceiverUrl(url, services);
  if (!receiver) return;
  const res = await guardedFetch(
    `${receiver}/secrets`,
    {
      method: "PUT",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ secret }),
      signal: AbortSignal.timeout(5000),
    },
    { trusted: [receiver] },
  );
  await res.body?.cancel();
  if (!res.ok) throw new Error(`Sandbox webhook receiver answered ${res.status}`);
};

const DEMO_ONLY = /*i18n*/ {
  id: "error.webhooks.noSandbox",
  message: "The Sandbox webhook receiver exists in demo mode only",
};
const NOT_YOURS = /*i18n*/ {
  id: "error.webhooks.sandboxNotYours",
  message: "url is a Sandbox receiver that was not made for you: use a fresh one",
};

const tokenMac = (secrets: TSecretBox, userId: number, nonce: string) =>
  Buffer.from(secrets.mac(`webhook-sandbox:${userId}:${nonce}`), "hex").subarray(0, 16);

/**
 * A fresh receiver token for a user: 16 random bytes and the first 16 bytes of a MAC of them with the user's id under
 * the server key, in base64url (43 characters). Nothing is stored: whose a token is can be checked from the token
 * alone, so a user can name only receivers made for them, and sees only what those got.
 */
export const newReceiverToken = (secrets: TSecretBox, userId: number) => {
  const nonce = randomBytes(16);
  return Buffer.concat([nonce, tokenMac(secrets, userId, nonce.toString("base64url"))]).toString("base64url");
};

/** Whether `token` was made for this user by newReceiverToken. */
export const ownsReceiverToken = (secrets: TSecretBox, userId: number, token: string) => {
  if (!/^[A-Za-z0-9_-]{43}$/.test(token)) return false;
  const raw = Buffer.from(token, "base64url");
  if (raw.length !== 32) return false;
  return timingSafeEqual(raw.subarray(16), tokenMac(secrets, userId, raw.subarray(0, 16).toString("base64url")));
};

/**
 * Whether the Sandbox receiver runs here: its origin in demo mode with the launcher's receiver (both its URL and its
 * folder configured, as /dev/webhooks needs), null otherwise. The web app shows "Use a Sandbox receiver" only then.
 */
export const sandboxInfo = (services: Pick<TServices, "webhooks">) => {
  const { sandboxUrl, sandboxDir } = services.webhooks;
  return { receiverOrigin: sandboxUrl && sandboxDir ? sandboxUrl : null };
};

/** A fresh Sandbox receiver address for the signed-in user (demo mode only; 404 otherwise). */
export const newSandboxReceiver = (services: Pick<TServices, "webhooks" | "secrets">, actor: User) => {
  const base = services.webhooks.sandboxUrl;
  if (!base) throw new AppError("NOT_FOUND", DEMO_ONLY);
  return { url: `${base}/r/${newReceiverToken(services.secrets, actor.id)}` };
};

/**
 * At registration, a Sandbox receiver's address must be one made for the registering user (400 naming `url`
 * otherwise), so no one reads another user's deliveries on /dev/webhooks by registering their address.
 */
export const checkSandboxOwner = (url: string, services: Pick<TServices, "webhooks" | "secrets">, actor: User) => {
  if (!sandboxReceiverUrl(url, services)) return;
  const token = new URL(url).pathname.slice("/r/".length);
  if (!ownsReceiverToken(services.secrets, actor.id, token))
    throw new AppError("BAD_REQUEST", NOT_YOURS, { issues: [{ path: "url", message: NOT_YOURS }] });
};

const ZReceived = z.object({
  id: z.string(),
  receiver: z.string(),
  event: z.string(),
  delivery: z.string(),
  signatureValid: z.boolean(),
  body: z.string(),
  receivedAt: z.number(),
});

/** How many of the newest deliveries /dev/webhooks shows. */
const RECEIVED_SHOWN = 50;

/**
 * What the Sandbox receiver got at the signed-in user's receivers, newest first (demo mode only; 404 otherwise). The
 * receiver writes one folder per receiver token; only the folders whose token was made for this user are read.
 */
export const receivedBySandbox = (services: Pick<TServices, "webhooks" | "secrets">, actor: User) => {
  const { sandboxUrl, sandboxDir } = services.webhooks;
  if (!sandboxUrl || !sandboxDir) throw new AppError("NOT_FOUND", DEMO_ONLY);
  const list = (dir: string) => {
    try {
      return readdirSync(dir);
    } catch {
      return [];
    }
  };
  const files = list(sandboxDir)
    .filter((token) => ownsReceiverToken(services.secrets, actor.id, token))
    .flatMap((token) =>
      list(join(sandboxDir, token))
        .filter((n) => n.endsWith(".json"))
        .map((n) => ({ name: n, path: join(sandboxDir, token, n) })),
    )
    .sort((a, b) => (a.name < b.name ? 1 : a.name > b.name ? -1 : 0))
    .slice(0, RECEIVED_SHOWN);
  const received = files.flatMap((f) => {
    try {
      const r = ZReceived.parse(JSON.parse(readFileSync(f.path, "utf8")));
      return [{ ...r, url: `${sandboxUrl}/r/${r.receiver}`, receivedAt: new Date(r.receivedAt).toISOString() }];
    } catch {
      return [];
    }
  });
  return { received };
};
