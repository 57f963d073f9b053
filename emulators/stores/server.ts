// Starts the three store emulators on loopback ports (0 = any free port). Used by tests and demo mode; run it directly
// (`bun emulators/stores/server.ts`) for fixed ports 4121–4123.
import { ALIBABA_SANDBOX, createAlibabaEmulator } from "./alibaba";
import { AMAZON_SANDBOX, createAmazonEmulator } from "./amazon";
import { createShopifyEmulator, SHOPIFY_SANDBOX } from "./shopify";

/** The credentials every emulator accepts: each field is "sandbox" (Amazon's region is "na"). */
export const STORE_SANDBOX_CREDENTIALS = {
  shopify: SHOPIFY_SANDBOX,
  amazon: AMAZON_SANDBOX,
  alibaba: ALIBABA_SANDBOX,
} as const;

export type TStoreEmulatorPorts = { shopify?: number; amazon?: number; alibaba?: number };

const serve = (handle: (r: Request) => Promise<Response>, port: number) =>
  Bun.serve({ port, hostname: "127.0.0.1", fetch: handle });

/**
 * `shopifyClientSecret`: the client secret of the Sandbox Shopify shop's demo app (client ID SHOPIFY_DEMO_CLIENT_ID),
 * which its token grant checks and the emulator's webhooks are signed with; demo mode gives the installation's own.
 * Without it there is no demo app and webhooks are signed with the published "sandbox".
 */
export const startStoreEmulators = (ports: TStoreEmulatorPorts = {}, o: { shopifyClientSecret?: string } = {}) => {
  const shopify = createShopifyEmulator({ clientSecret: o.shopifyClientSecret });
  const amazon = createAmazonEmulator();
  const alibaba = createAlibabaEmulator();
  const servers = {
    shopify: serve(shopify.handle, ports.shopify ?? 0),
    amazon: serve(amazon.handle, ports.amazon ?? 0),
    alibaba: serve(alibaba.handle, ports.alibaba ?? 0),
  };
  const url = (s: ReturnType<typeof serve>) => `http://127.0.0.1:${s.port}`;
  return {
    /** Each platform's apiBaseUrl: Alibaba's includes the gateway's /rest, as its production address does. */
    urls: { shopify: url(servers.shopify), amazon: url(servers.amazon), alibaba: `${url(servers.alibaba)}/rest` },
    controls: { shopify: shopify.control, amazon: amazon.control, alibaba: alibaba.control },
    stop: () => {
      for (const s of Object.values(servers)) s.stop(true);
    },
  };
};

if (import.meta.main) {
  const e = startStoreEmulators({ shopify: 4121, amazon: 4122, alibaba: 4123 });
  console.log("Store emulators:", e.urls, 'credentials: every field is "sandbox" (Amazon region "na")');
}
