// Demo mode's Sandbox webhook receiver (emulators/webhooks): the one private address an endpoint may name. It is
// trusted only as a whole receiver URL (`<WEBHOOK_SANDBOX_URL>/r/<43 base64url characters>`, nothing else on that
// origin, no query), only when the server runs in demo mode with the launcher's receiver configured; a user-typed
// loopback or private address stays refused, as does any other path or port of the receiver's host.
import { guardedFetch } from "../../integrations/http/guard";
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
