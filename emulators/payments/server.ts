// Starts the Stripe and Chapa emulators on loopback ports (0 = any free port). Used by tests and demo mode; run it
// directly (`bun emulators/payments/server.ts`) for fixed ports 4131–4132.
//
// Besides the providers' own endpoints each server has test doors under /_emulator/ for when no test holds the
// control objects: PUT /_emulator/webhook {"url": …}, GET /_emulator/deliveries, and on Stripe
// POST /_emulator/subscriptions/{id}/advance | /fail, on Chapa POST /_emulator/transactions/{tx_ref}/pay | /fail.
import { withControl } from "../notifiers/control";
import { CHAPA_SANDBOX, createChapaEmulator, type TChapaControl } from "./chapa";
import { createStripeEmulator, STRIPE_SANDBOX, type TFetchImpl, type TStripeControl } from "./stripe";

export { CHAPA_SANDBOX, STRIPE_SANDBOX };

export type TPaymentEmulatorPorts = { stripe?: number; chapa?: number };

type TRoutes = Parameters<typeof withControl>[0];

const webhookRoute = (setWebhookUrl: (url: string | null) => void): TRoutes[number] => [
  "PUT",
  /^\/_emulator\/webhook$/,
  (_, b) => setWebhookUrl(typeof b.url === "string" && b.url ? b.url : null),
];

const stripeRoutes = (c: TStripeControl): TRoutes => [
  webhookRoute(c.setWebhookUrl),
  [
    "GET",
    /^\/_emulator\/deliveries$/,
    () =>
      c.deliveries.map((d) => ({ id: d.event.id, type: d.event.type, url: d.url, status: d.status, error: d.error })),
  ],
  [
    "POST",
    /^\/_emulator\/subscriptions\/([\w-]+)\/advance$/,
    async (m) => ({ deliveries: (await c.advance(m[1])).length }),
  ],
  [
    "POST",
    /^\/_emulator\/subscriptions\/([\w-]+)\/fail$/,
    async (m) => ({ deliveries: (await c.failPayment(m[1])).length }),
  ],
];

const chapaRoutes = (c: TChapaControl): TRoutes => [
  webhookRoute(c.setWebhookUrl),
  [
    "GET",
    /^\/_emulator\/deliveries$/,
    () => c.deliveries.map((d) => ({ event: d.event, url: d.url, status: d.status, error: d.error })),
  ],
  [
    "POST",
    /^\/_emulator\/transactions\/([^/]+)\/pay$/,
    async (m) => ({ reference: (await c.pay(decodeURIComponent(m[1]))).reference }),
  ],
  ["POST", /^\/_emulator\/transactions\/([^/]+)\/fail$/, async (m) => void (await c.fail(decodeURIComponent(m[1])))],
];

/**
 * `webhookSecrets`: what the emulators sign their webhooks with instead of the published Sandbox defaults (demo mode
 * passes the installation's own, so nobody else can sign a webhook the server accepts).
 */
export const startPaymentEmulators = (
  ports: TPaymentEmulatorPorts = {},
  o: { fetchImpl?: TFetchImpl; webhookSecrets?: { stripe?: string; chapa?: string } } = {},
) => {
  const stripe = createStripeEmulator({ fetchImpl: o.fetchImpl, webhookSecret: o.webhookSecrets?.stripe });
  const chapa = createChapaEmulator({ fetchImpl: o.fetchImpl, webhookSecret: o.webhookSecrets?.chapa });
  const servers = {
    stripe: Bun.serve({
      port: ports.stripe ?? 0,
      hostname: "127.0.0.1",
      fetch: withControl(stripeRoutes(stripe.control), stripe.handle),
    }),
    chapa: Bun.serve({
      port: ports.chapa ?? 0,
      hostname: "127.0.0.1",
      fetch: withControl(chapaRoutes(chapa.control), chapa.handle),
    }),
  };
  const urls = {
    stripe: `http://127.0.0.1:${servers.stripe.port}`,
    chapa: `http://127.0.0.1:${servers.chapa.port}`,
  };
  stripe.control.baseUrl = urls.stripe;
  chapa.control.baseUrl = urls.chapa;
  return {
    urls,
    controls: { stripe: stripe.control, chapa: chapa.control },
    /** The environment that points MyTess's payment adapters at these emulators. */
    env: (): Record<string, string> => ({
      STRIPE_API_BASE: urls.stripe,
      STRIPE_SECRET_KEY: stripe.control.secretKey,
      STRIPE_WEBHOOK_SECRET: stripe.control.webhookSecret,
      STRIPE_PRICE_USD: STRIPE_SANDBOX.prices.USD,
      STRIPE_PRICE_EUR: STRIPE_SANDBOX.prices.EUR,
      CHAPA_API_BASE: urls.chapa,
      CHAPA_SECRET_KEY: chapa.control.secretKey,
      CHAPA_WEBHOOK_SECRET: chapa.control.webhookSecret,
    }),
    stop: () => {
      for (const s of Object.values(servers)) s.stop(true);
    },
  };
};

if (import.meta.main) {
  const e = startPaymentEmulators({ stripe: 4131, chapa: 4132 });
  console.log("Payment emulators:", e.urls);
  console.log("Environment:", e.env());
  console.log('Set the webhook URLs with PUT /_emulator/webhook {"url": "…"} on each.');
}
