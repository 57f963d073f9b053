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
 * Where a platform's requests go for these credentials: Shopify `https://{shopDomain}` (a bare shop name gets
 * .myshopify.com), Amazon the SP-API host of the credentials' region (na, eu, fe; North America otherwise), Alibaba.com
 * its Open Platform gateway.
 */
export const defaultStoreBaseUrl = (platform: TStorePlatform, credentials: Record<string, string>): string => {
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
