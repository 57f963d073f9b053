// Which adapter speaks to an integration's store, the platforms' own addresses for a set of credentials, and which
// addresses are sandboxes. Every adapter honours the settings' timeoutMs (per HTTP exchange); the domain keeps one
// adapter per integration version, so tokens (Amazon's LWA and RDT) are reused between syncs.
import { ALIBABA_GATEWAY, createAlibabaAdapter } from "./alibaba";
import { AMAZON_LWA_URL, amazonBaseUrl, createAmazonAdapter } from "./amazon";
import { isSandboxStoreUrl } from "./http";
import { createShopifyAdapter, shopifyShopUrl } from "./shopify";
import type { TStoreAdapter, TStorePlatform, TStoreSettings } from "./types";

export { AMAZON_LWA_URL, isSandboxStoreUrl };

/**
 * The hosts each platform documents for its API, production and sandbox: an integration's apiBaseUrl may point only
 * there (https, default port) or at the operator's Sandbox, so what comes back is the platform's own answer.
 */
export const STORE_HOSTS: Record<TStorePlatform, readonly string[]> = {
  shopify: ["*.myshopify.com"],
  amazon: ["na", "eu", "fe"].flatMap((r) => [
    `sellingpartnerapi-${r}.amazon.com`,
    `sandbox.sellingpartnerapi-${r}.amazon.com`,
  ]),
  alibaba: ["openapi-api.alibaba.com", "openapi-api-sandbox.alibaba.com"],
};

/**
 * Where a platform's requests go for these credentials: Shopify `https://{shop}.myshopify.com` (null when the shop
 * domain is not one), Amazon the SP-API host of the credentials' region (na, eu, fe; North America otherwise),
 * Alibaba.com its Open Platform gateway.
 */
export const defaultStoreBaseUrl = (platform: TStorePlatform, credentials: Record<string, string>): string | null => {
  switch (platform) {
    case "shopify":
      return shopifyShopUrl(credentials.shopDomain);
    case "amazon":
      return amazonBaseUrl(credentials.region);
    case "alibaba":
      return ALIBABA_GATEWAY;
  }
};

/** The adapter for an integration. */
export const createStoreAdapter = (s: TStoreSettings): TStoreAdapter => {
  switch (s.platform) {
    case "shopify":
      return createShopifyAdapter(s);
    case "amazon":
      return createAmazonAdapter(s);
    case "alibaba":
      return createAlibabaAdapter(s);
  }
};
