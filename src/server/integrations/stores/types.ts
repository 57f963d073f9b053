// What every store adapter offers, whatever its wire format (Shopify Admin GraphQL, Amazon SP-API, Alibaba Open
// Platform). Adapters build requests and parse answers; the domain (src/server/modules/stores) stores orders, keeps
// the sync cursor and turns orders into loads.

export const STORE_PLATFORMS = ["shopify", "amazon", "alibaba"] as const;
export type TStorePlatform = (typeof STORE_PLATFORMS)[number];

/**
 * The credential fields each platform takes, in the order a form shows them (one list, in shared/schemas/ecommerce.ts):
 * - shopify: shopDomain (e.g. "acme.myshopify.com"), then either a Dev Dashboard app's clientId and clientSecret
 *   (tokens fetched with the client-credentials grant; the client secret signs its webhooks) or a legacy custom app's
 *   accessToken (Admin API token, shpat_…); webhookSecret when webhooks are signed with another key (optional).
 * - amazon: clientId and clientSecret (the LWA app), refreshToken (the seller's authorization), marketplaceId
 *   (e.g. A2VIGQ35RCS4UG), region ("na", "eu" or "fe").
 * - alibaba: appKey, appSecret, accessToken and refreshToken (the seller's authorization; the adapter refreshes the
 *   access token and stores the new pair back).
 */
export { STORE_CREDENTIAL_FIELDS, STORE_REQUIRED_FIELDS } from "../../../shared/schemas/stores";

export const STORE_NAMES: Record<TStorePlatform, string> = {
  shopify: "Shopify",
  amazon: "Amazon",
  alibaba: "Alibaba.com",
};

export type TStoreSettings = {
  platform: TStorePlatform;
  /** The integration's own name, used in errors ("Shopify (Addis shop)"). */
  name: string;
  /**
   * Where to send requests: for Shopify `https://{shopDomain}` by default, for Amazon the region's SP-API host, for
   * Alibaba its gateway; an integration's settings.apiBaseUrl replaces it (sandbox or emulator). For Amazon the LWA
   * token endpoint is `{authBaseUrl}/auth/o2/token` (default https://api.amazon.com) and follows apiBaseUrl when that
   * is set.
   */
  baseUrl: string;
  /** Amazon only: where the LWA token exchange goes. */
  authBaseUrl?: string;
  credentials: Record<string, string>;
  timeoutMs: number;
  /**
   * The operator's Sandbox origins (emulators in demo mode and tests, SANDBOX_ORIGINS): a base URL there may be plain
   * http on loopback. Every other address goes through the outgoing-call guard as a public https host.
   */
  sandboxOrigins?: readonly string[];
  /**
   * Where tokens the adapter renews are kept (Alibaba.com's access and refresh tokens): `load` reads the stored
   * credentials again (another process may have renewed them; null when the integration was changed since), `save`
   * stores renewed ones, sealed. Without it renewed tokens live as long as the adapter.
   */
  credentialStore?: {
    load: () => Promise<Record<string, string> | null>;
    save: (credentials: Record<string, string>) => Promise<void>;
  };
};

/** Where an order ships to, as the store gives it. */
export type TStoreAddress = {
  name: string | null;
  line1: string | null;
  city: string | null;
  /** State or province code. */
  state: string | null;
  /** ISO 3166 alpha-2. */
  country: string | null;
  postalCode: string | null;
  latitude: number | null;
  longitude: number | null;
};

export type TStoreLineItem = {
  title: string;
  quantity: number;
  sku: string | null;
  /** Weight of ONE unit in grams, when the store gives it. */
  unitWeightGrams: number | null;
};

/**
 * The platform-neutral status of an order (pending, processing and cancelled come from the store; synced and converted
 * are ours).
 */
export type TStoreOrderStatus = "pending" | "processing" | "cancelled";

export type TStoreOrder = {
  /** The store's id (Shopify gid, Amazon order id, Alibaba trade id). */
  externalOrderId: string;
  /** What the shop shows ("#1001", "112-…"). */
  orderNumber: string;
  /** Epoch ms. */
  orderDate: number;
  /** Epoch ms the store last changed it. */
  updatedAt: number;
  customerName: string | null;
  status: TStoreOrderStatus;
  /** The store's own status word, kept for display ("UNFULFILLED", "Unshipped", "WAIT_SELLER_SEND_GOODS"). */
  storeStatus: string;
  currency: string;
  /** Minor units. */
  totalMinor: number;
  shipping: TStoreAddress;
  items: TStoreLineItem[];
};

export type TOrderPage = {
  orders: TStoreOrder[];
  /** Pass back to get the next page; null at the end. */
  cursor: string | null;
};

export type TStoreAdapter = {
  platform: TStorePlatform;
  storeName: string;
  /** Emulator or sandbox hosts: shown as "Sandbox". */
  sandbox: boolean;
  /** Proves the credentials with a real call; throws an AppError naming the store and its reason. */
  test: () => Promise<void>;
  /**
   * Orders changed since `updatedSince` (epoch ms; 0 = the store's default window), one page at a time. Honours the
   * platform's throttling (waits or throws TOO_MANY_REQUESTS with retryAfterSeconds when the wait would be long).
   */
  listOrders: (q: { updatedSince: number; cursor: string | null; pageSize: number }) => Promise<TOrderPage>;
  /**
   * Webhooks (Shopify): checks the signature over the raw body and returns the orders it carries; null when the
   * platform has no webhooks. Throws an AppError (UNAUTHORIZED) on a bad signature.
   */
  verifyWebhook:
    | ((raw: string, headers: Headers) => { topic: string; webhookId: string | null; order: TStoreOrder })
    | null;
};
