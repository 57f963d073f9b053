// Shopify: the Admin GraphQL API (the REST Admin API is legacy since 2024-10) and the orders/create, orders/updated
// webhooks.
//
//   POST {https://shop.myshopify.com}/admin/oauth/access_token   grant_type=client_credentials, client_id, client_secret
//     → {access_token, scope, expires_in}                          (a Dev Dashboard app on the merchant's own store)
//   POST {https://shop.myshopify.com}/admin/api/2026-01/graphql.json   X-Shopify-Access-Token: shpat_…
//   orders(first, after, query: "updated_at:>='ISO'", sortKey: UPDATED_AT) → nodes + pageInfo{hasNextPage endCursor}
//
// Access: since 2026 merchants make apps in the Dev Dashboard, whose client ID and secret get tokens through the
// client-credentials grant; a token lives `expires_in` seconds (about a day), is kept until shortly before then and
// asked for again (there is no refresh token), and once more should Shopify answer 401 anyway. A legacy custom app
// (made in the Shopify admin before 2026) has one Admin API token that does not expire.
//
// Scopes: the query reads only what read_orders and read_products allow (SHOPIFY_SCOPES): the order, its shipping
// address (whose name is the customer name we keep: Customer would need read_customers) and each variant's weight
// (ProductVariant needs read_products). A field the token may not read is refused with ACCESS_DENIED in Shopify's words,
// which name the scope; that becomes an error saying so and naming the scopes the app needs. The connection test checks
// the installation's scopes (currentAppInstallation.accessScopes; a write_ scope includes its read_ one).
//
// Cost: Shopify prices a query before running it (scalars 0, objects 1, a connection 2 + first × a node's cost) and
// refuses one over 1000 points. One order node of ORDERS_QUERY costs SHOPIFY_ORDER_COST (106 with 20 line items), so a
// page holds at most 9 orders whatever page size the caller asks for. The requested cost must be in the bucket before a
// query runs (the unused part is refunded after), so each page after the first asks for no more orders than the bucket
// held after the last answer: paging then runs at the bucket's refill rate without being throttled. Should Shopify still
// price a page above its limit (MAX_COST_EXCEEDED), the page is asked again, smaller, once.
//
// Throttling: the leaky bucket's state comes back in extensions.cost.throttleStatus. A THROTTLED answer waits
// (requested − available) / restoreRate seconds: a page that would wait long is asked again for what the bucket holds;
// waits up to 2 s are sat out (8 s in all for one query); longer is TOO_MANY_REQUESTS with retryAfterSeconds. An HTTP 429 (REST-style) is TOO_MANY_REQUESTS with its Retry-After.
//
// Status mapping (ours ← Shopify): cancelled ← cancelledAt set, or displayFulfillmentStatus RESTOCKED;
// processing ← IN_PROGRESS, PARTIALLY_FULFILLED, FULFILLED; pending ← anything else (UNFULFILLED, OPEN, SCHEDULED,
// ON_HOLD, PENDING_FULFILLMENT, REQUEST_DECLINED). storeStatus keeps displayFulfillmentStatus, or "CANCELLED".
// Webhook bodies (REST snake_case) map the same way (fulfillment_status null/partial/fulfilled/restocked), and the
// order's id is its GraphQL gid (admin_graphql_api_id) in both, so a webhook and a sync write the same order. They are
// signed with the app's client secret (a legacy app's API secret key), or with the key Settings → Notifications shows
// for webhooks made there, which an integration then names as its webhookSecret.
//
// Versions: Shopify names a version after its release quarter (YYYY-MM, January, April, July, October) and supports
// each for at least 12 months; the pinned one is checked at start (shopifyVersionWarning).
import { createHmac } from "node:crypto";
import { z } from "zod";
import { SHOPIFY_SCOPES, shopifyAppKind } from "../../../shared/schemas/stores";
import { AppError } from "../../errors";
import {
  credentialsRefused,
  exchange,
  parseWire,
  readJson,
  serviceFailed,
  serviceLimiting,
  serviceUnreadable,
  trimBase,
  webhookRefused,
} from "../http/kit";
import {
  amountMinor,
  failOnStatus,
  gramsOf,
  isoSeconds,
  isSandboxStoreUrl,
  num,
  parseStoreDate,
  sameBytes,
  sleep,
  storeReason,
  text,
} from "./http";
import {
  STORE_NAMES,
  type TStoreAdapter,
  type TStoreAddress,
  type TStoreLineItem,
  type TStoreOrder,
  type TStoreOrderStatus,
  type TStoreSettings,
} from "./types";

/** The Admin API version every request names (pinned: Shopify keeps a version for at least 12 months). */
export const SHOPIFY_API_VERSION = "2026-01";
export { SHOPIFY_SCOPES };
/** Line items read per order. */
export const SHOPIFY_LINE_ITEMS = 20;
/** Shopify's limit on one query's requested cost. */
export const SHOPIFY_MAX_QUERY_COST = 1000;
/**
 * One order node of ORDERS_QUERY in Shopify's calculated cost: the node 1, totalPriceSet 1 + shopMoney 1,
 * shippingAddress 1, and lineItems 2 + SHOPIFY_LINE_ITEMS × (line item 1, variant 1, inventoryItem 1, measurement 1,
 * weight 1).
 */
export const SHOPIFY_ORDER_COST = 1 + 2 + 1 + (2 + SHOPIFY_LINE_ITEMS * 5);
/** The longest throttling pause an adapter sits out itself. */
export const SHOPIFY_MAX_WAIT_SECONDS = 2;
/** All the short waits one query may sit out before it answers TOO_MANY_REQUESTS. */
export const SHOPIFY_MAX_TOTAL_WAIT_SECONDS = 8;

/** Orders asked per page: the caller's page size, within 1–250 and within the query cost limit. */
export const shopifyPageSize = (pageSize: number) =>
  Math.max(1, Math.min(Math.floor(pageSize) || 1, 250, Math.floor((SHOPIFY_MAX_QUERY_COST - 2) / SHOPIFY_ORDER_COST)));

export const ORDERS_QUERY = `query Orders($first: Int!, $after: String, $query: String) {
  orders(first: $first, after: $after, query: $query, sortKey: UPDATED_AT) {
    nodes {
      id name createdAt updatedAt cancelledAt displayFulfillmentStatus displayFinancialStatus currencyCode
      totalPriceSet { shopMoney { amount currencyCode } }
      shippingAddress { name address1 city provinceCode countryCodeV2 zip latitude longitude }
      lineItems(first: ${SHOPIFY_LINE_ITEMS}) {
        nodes { title quantity sku variant { inventoryItem { measurement { weight { unit value } } } } }
      }
    }
    pageInfo { hasNextPage endCursor }
  }
}`;
export const SHOP_QUERY = "{ shop { name } currentAppInstallation { accessScopes { handle } } }";

// Versions ---------------------------------------------------------------------------------------------------------

/** Months before a version's end of support that the start warns. */
export const SHOPIFY_VERSION_WARN_MONTHS = 3;

/**
 * When a stable version is supported until at the least: 12 months after its release on the first of its month (Shopify
 * releases a version each quarter and supports it for at least 12 months). Null for a name that is not a stable
 * version's (unstable, a release candidate, a typo).
 */
export const shopifyVersionEnd = (version: string): number | null => {
  const m = /^(\d{4})-(01|04|07|10)$/.exec(version.trim());
  return m ? Date.UTC(Number(m[1]) + 1, Number(m[2]) - 1, 1) : null;
};

/**
 * What the start logs about the pinned version at `now`: null while its support has more than 3 months to run, else a
 * warning saying until when it is supported (or since when it may not be; Shopify then answers with its oldest
 * supported version instead, whose fields may differ).
 */
export const shopifyVersionWarning = (version: string, now: number): string | null => {
  const end = shopifyVersionEnd(version);
  if (end === null) return `Shopify Admin API version ${version} is not a stable version (YYYY-MM of a quarter)`;
  const endDay = new Date(end).toISOString().slice(0, 10);
  const d = new Date(end);
  const warnFrom = Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - SHOPIFY_VERSION_WARN_MONTHS, 1);
  if (now < warnFrom) return null;
  return now < end
    ? `Shopify Admin API version ${version} is supported until ${endDay} at the least: move SHOPIFY_API_VERSION to a newer version before then`
    : `Shopify Admin API version ${version} may no longer be supported since ${endDay} (Shopify then answers with its oldest supported version): move SHOPIFY_API_VERSION to a newer version`;
};

// Access -----------------------------------------------------------------------------------------------------------

/** How long before a token's expiry it is asked for again: 5 minutes, or a tenth of its life when that is shorter. */
export const shopifyTokenMargin = (lifetimeMs: number) => Math.min(5 * 60_000, lifetimeMs / 10);

/** Whether granted scopes include one: a write_ scope includes its read_ one. */
export const hasScope = (granted: readonly string[], scope: string) =>
  granted.includes(scope) || (scope.startsWith("read_") && granted.includes(`write_${scope.slice(5)}`));

/** The search string for orders changed at or after a moment (none: Shopify's default window, the last 60 days). */
export const shopifyOrderQuery = (updatedSince: number) =>
  updatedSince > 0 ? `updated_at:>='${isoSeconds(updatedSince)}'` : null;

/**
 * A shop's host from what a user types: "acme" or "acme.myshopify.com" (an "https://" before it and a "/" after it are
 * forgiven). Anything else (another domain, a port, user info, a path, an IP address) is null: the Admin API is only
 * ever called on the shop's own myshopify.com name, so a shop domain cannot point the server anywhere else.
 */
export const shopifyShopHost = (shopDomain: string | undefined): string | null => {
  const t = (shopDomain ?? "")
    .trim()
    .toLowerCase()
    .replace(/^https:\/\//, "")
    .replace(/\/$/, "");
  const m = /^([a-z0-9][a-z0-9-]{0,62})(\.myshopify\.com)?$/.exec(t);
  return m ? `${m[1]}.myshopify.com` : null;
};

/** The shop's Admin API origin (https://acme.myshopify.com), or null when the shop domain is not a shop's. */
export const shopifyShopUrl = (shopDomain: string | undefined) => {
  const host = shopifyShopHost(shopDomain);
  return host ? `https://${host}` : null;
};

const PROCESSING = new Set(["IN_PROGRESS", "PARTIALLY_FULFILLED", "FULFILLED"]);
const REST_FULFILLMENT: Record<string, string> = {
  partial: "PARTIALLY_FULFILLED",
  fulfilled: "FULFILLED",
  restocked: "RESTOCKED",
};

/** Our status and the store's word for an order, from its fulfillment status and whether it was cancelled. */
export const shopifyStatus = (
  displayFulfillmentStatus: string | null | undefined,
  cancelled: boolean,
): { status: TStoreOrderStatus; storeStatus: string } => {
  const word = displayFulfillmentStatus?.trim().toUpperCase() || "UNFULFILLED";
  if (cancelled) return { status: "cancelled", storeStatus: "CANCELLED" };
  if (word === "RESTOCKED") return { status: "cancelled", storeStatus: word };
  return { status: PROCESSING.has(word) ? "processing" : "pending", storeStatus: word };
};

// The answer fields we read, loosely: unknown fields pass, nulls are allowed where Shopify may leave a value out.
const s = z.string().nullish();
const n = z.union([z.number(), z.string()]).nullish();
const ZGqlError = z.looseObject({
  message: z.string().optional(),
  extensions: z
    .looseObject({ code: z.string().optional(), cost: n, maxCost: n, requiredAccess: z.unknown().optional() })
    .optional(),
});
const ZCost = z.looseObject({
  requestedQueryCost: n,
  actualQueryCost: n,
  throttleStatus: z.looseObject({ maximumAvailable: n, currentlyAvailable: n, restoreRate: n }).nullish(),
});
const ZGqlResponse = z.looseObject({
  data: z.unknown().optional(),
  errors: z.union([z.array(ZGqlError), z.string()]).optional(),
  extensions: z.looseObject({ cost: ZCost.optional() }).optional(),
});
const ZOrderNode = z.looseObject({
  id: z.string(),
  name: s,
  createdAt: z.string(),
  updatedAt: s,
  cancelledAt: s,
  displayFulfillmentStatus: s,
  currencyCode: s,
  totalPriceSet: z.looseObject({ shopMoney: z.looseObject({ amount: n, currencyCode: s }) }).nullish(),
  shippingAddress: z
    .looseObject({
      name: s,
      address1: s,
      city: s,
      provinceCode: s,
      countryCodeV2: s,
      zip: s,
      latitude: n,
      longitude: n,
    })
    .nullish(),
  lineItems: z
    .looseObject({
      nodes: z.array(
        z.looseObject({
          title: s,
          quantity: n,
          sku: s,
          variant: z
            .looseObject({
              inventoryItem: z
                .looseObject({
                  measurement: z.looseObject({ weight: z.looseObject({ unit: s, value: n }).nullish() }).nullish(),
                })
                .nullish(),
            })
            .nullish(),
        }),
      ),
    })
    .nullish(),
});
const ZOrdersData = z.looseObject({
  orders: z.looseObject({
    nodes: z.array(z.unknown()),
    pageInfo: z.looseObject({ hasNextPage: z.boolean(), endCursor: s }),
  }),
});
const ZShopData = z.looseObject({
  shop: z.looseObject({ name: z.string() }),
  currentAppInstallation: z.looseObject({ accessScopes: z.array(z.looseObject({ handle: z.string() })) }),
});
const ZToken = z.looseObject({ access_token: z.string().min(1), scope: s, expires_in: n });

const ZRestOrder = z.looseObject({
  id: z.union([z.number(), z.string()]),
  admin_graphql_api_id: s,
  name: s,
  order_number: n,
  created_at: z.string(),
  updated_at: s,
  cancelled_at: s,
  fulfillment_status: s,
  currency: s,
  total_price: n,
  shipping_address: z
    .looseObject({
      name: s,
      address1: s,
      city: s,
      province_code: s,
      country_code: s,
      zip: s,
      latitude: n,
      longitude: n,
    })
    .nullish(),
  line_items: z.array(z.looseObject({ title: s, quantity: n, sku: s, grams: n })).nullish(),
});

const address = (a: {
  name?: string | null;
  line1?: string | null;
  city?: string | null;
  state?: string | null;
  country?: string | null;
  postalCode?: string | null;
  latitude?: number | string | null;
  longitude?: number | string | null;
}): TStoreAddress => {
  const latitude = num(a.latitude);
  const longitude = num(a.longitude);
  const placed = latitude !== null && longitude !== null;
  return {
    name: text(a.name),
    line1: text(a.line1),
    city: text(a.city),
    state: text(a.state)?.toUpperCase() ?? null,
    country: text(a.country)?.toUpperCase() ?? null,
    postalCode: text(a.postalCode),
    latitude: placed ? latitude : null,
    longitude: placed ? longitude : null,
  };
};

/** One GraphQL order node as a store order; null when it lacks an id or a creation date. */
export const mapShopifyOrder = (raw: unknown): TStoreOrder | null => {
  const r = ZOrderNode.safeParse(raw);
  if (!r.success) return null;
  const o = r.data;
  const orderDate = parseStoreDate(o.createdAt);
  if (orderDate === null) return null;
  const currency = text(o.totalPriceSet?.shopMoney.currencyCode) ?? text(o.currencyCode) ?? "USD";
  const a = o.shippingAddress;
  return {
    externalOrderId: o.id,
    orderNumber: text(o.name) ?? o.id,
    orderDate,
    updatedAt: parseStoreDate(o.updatedAt) ?? orderDate,
    // The recipient: the customer's own record needs read_customers, which a sync does not ask for.
    customerName: text(a?.name),
    ...shopifyStatus(o.displayFulfillmentStatus, !!text(o.cancelledAt)),
    currency,
    totalMinor: amountMinor(o.totalPriceSet?.shopMoney.amount, currency) ?? 0,
    shipping: address({
      name: a?.name,
      line1: a?.address1,
      city: a?.city,
      state: a?.provinceCode,
      country: a?.countryCodeV2,
      postalCode: a?.zip,
      latitude: a?.latitude,
      longitude: a?.longitude,
    }),
    items: (o.lineItems?.nodes ?? []).map(
      (li): TStoreLineItem => ({
        title: text(li.title) ?? "",
        quantity: num(li.quantity) ?? 0,
        sku: text(li.sku),
        unitWeightGrams: gramsOf(
          li.variant?.inventoryItem?.measurement?.weight?.value,
          li.variant?.inventoryItem?.measurement?.weight?.unit,
        ),
      }),
    ),
  };
};

/** A webhook's REST (snake_case) order as a store order, keyed by its GraphQL gid like a synced one. */
export const mapShopifyRestOrder = (raw: unknown): TStoreOrder | null => {
  const r = ZRestOrder.safeParse(raw);
  if (!r.success) return null;
  const o = r.data;
  const orderDate = parseStoreDate(o.created_at);
  if (orderDate === null) return null;
  const currency = text(o.currency) ?? "USD";
  const fulfillment = text(o.fulfillment_status)?.toLowerCase();
  const a = o.shipping_address;
  const id = String(o.id);
  return {
    externalOrderId: text(o.admin_graphql_api_id) ?? `gid://shopify/Order/${id}`,
    orderNumber: text(o.name) ?? (o.order_number != null ? `#${o.order_number}` : id),
    orderDate,
    updatedAt: parseStoreDate(o.updated_at) ?? orderDate,
    customerName: text(a?.name),
    ...shopifyStatus(
      fulfillment ? (REST_FULFILLMENT[fulfillment] ?? fulfillment.toUpperCase()) : "UNFULFILLED",
      !!text(o.cancelled_at),
    ),
    currency,
    totalMinor: amountMinor(o.total_price, currency) ?? 0,
    shipping: address({
      name: a?.name,
      line1: a?.address1,
      city: a?.city,
      state: a?.province_code,
      country: a?.country_code,
      postalCode: a?.zip,
      latitude: a?.latitude,
      longitude: a?.longitude,
    }),
    items: (o.line_items ?? []).map(
      (li): TStoreLineItem => ({
        title: text(li.title) ?? "",
        quantity: num(li.quantity) ?? 0,
        sku: text(li.sku),
        // REST gives one unit's weight in grams; 0 means none was set.
        unitWeightGrams: gramsOf(li.grams, "GRAMS"),
      }),
    ),
  };
};

type TCost = z.output<typeof ZCost>;

/** Seconds until the bucket holds the requested cost; null when Shopify did not say. */
export const throttleWaitSeconds = (cost: TCost | undefined): number | null => {
  const requested = num(cost?.requestedQueryCost);
  const available = num(cost?.throttleStatus?.currentlyAvailable);
  const rate = num(cost?.throttleStatus?.restoreRate);
  if (requested === null || available === null || rate === null || !(rate > 0)) return null;
  return Math.max(0, (requested - available) / rate);
};

/** The refusal of a query Shopify did not let the app run: its own words (which name the scope) and the scopes needed. */
const accessDenied = (store: string, reason: string) =>
  new AppError(
    "BAD_REQUEST",
    /*i18n*/ {
      id: "error.store.accessDenied",
      message: "{store} refused access: {reason}; the app needs the access scopes {scopes}",
      values: { store, reason, scopes: SHOPIFY_SCOPES.join(", ") },
    },
  );

/**
 * Shopify: the Admin GraphQL API with a Dev Dashboard app's expiring tokens (client credentials) or a legacy custom
 * app's Admin API token; webhooks checked with the secret that signs them.
 */
export const createShopifyAdapter = (s: TStoreSettings): TStoreAdapter => {
  const store = s.name || STORE_NAMES.shopify;
  const creds = s.credentials;
  const kind = shopifyAppKind((f) => !!creds[f]);
  // No base and no valid shop domain leaves an empty address, which the guard refuses before anything is sent.
  const base = trimBase(s.baseUrl || (shopifyShopUrl(creds.shopDomain) ?? ""));
  const endpoint = `${base}/admin/api/${SHOPIFY_API_VERSION}/graphql.json`;

  // A Dev Dashboard app's token, kept until shortly before it expires; one grant at a time.
  let token: { value: string; renewAt: number } | null = null;
  let granting: Promise<string> | null = null;
  const grant = async (): Promise<string> => {
    const res = await exchange(
      store,
      `${base}/admin/oauth/access_token`,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: creds.clientId ?? "",
          client_secret: creds.clientSecret ?? "",
        }).toString(),
      },
      s.timeoutMs,
      { trusted: s.sandboxOrigins },
    );
    // An unknown client, a wrong secret or an app not installed on this shop: Shopify's OAuth error, a 400.
    if (res.status === 400 || res.status === 401 || res.status === 403)
      throw credentialsRefused(store, storeReason(res.text) ?? `HTTP ${res.status}`);
    failOnStatus(store, res);
    const t = parseWire(store, ZToken, readJson(store, res));
    // Shopify says how long the token lives; should it not, an hour, and a 401 before then asks again.
    const lifetimeMs = Math.max(1, num(t.expires_in) ?? 3600) * 1000;
    token = { value: t.access_token, renewAt: Date.now() + lifetimeMs - shopifyTokenMargin(lifetimeMs) };
    return t.access_token;
  };
  const accessToken = async (): Promise<string> => {
    if (kind !== "devDashboard") return creds.accessToken ?? "";
    if (token && Date.now() < token.renewAt) return token.value;
    granting ??= grant().finally(() => {
      granting = null;
    });
    return granting;
  };

  // What the bucket held after the last answer: the next page asks for no more than that, so it is not throttled.
  let lastAvailable: number | null = null;
  const graphql = async (
    query: string,
    variables: Record<string, unknown>,
    renewed = false,
  ): Promise<{ data: unknown; errors: z.output<typeof ZGqlError>[]; cost: TCost | undefined }> => {
    const used = await accessToken();
    const res = await exchange(
      store,
      endpoint,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          "X-Shopify-Access-Token": used,
        },
        body: JSON.stringify({ query, variables }),
      },
      s.timeoutMs,
      { trusted: s.sandboxOrigins },
    );
    // A token refused before its time (the app was reinstalled, its secret rotated): a new one, once.
    if (res.status === 401 && kind === "devDashboard" && !renewed) {
      if (token?.value === used) token = null;
      return graphql(query, variables, true);
    }
    failOnStatus(store, res);
    const body = parseWire(store, ZGqlResponse, readJson(store, res));
    const available = num(body.extensions?.cost?.throttleStatus?.currentlyAvailable);
    if (available !== null) lastAvailable = available;
    // A top-level string is how Shopify words a refusal that is not about the query.
    if (typeof body.errors === "string") throw serviceFailed(store, body.errors);
    return { data: body.data, errors: body.errors ?? [], cost: body.extensions?.cost };
  };

  /**
   * Runs a query: a throttled page is asked again smaller when the bucket holds part of it, or after one short wait;
   * `first` is shrunk once if the page is priced above Shopify's limit.
   */
  const run = async (query: string, variables: Record<string, unknown> = {}): Promise<unknown> => {
    let vars = variables;
    let waitedMs = 0;
    let shrunk = false;
    for (;;) {
      const r = await graphql(query, vars);
      if (!r.errors.length) return r.data;
      const code = (e: z.output<typeof ZGqlError>) => e.extensions?.code?.toUpperCase();
      const denied = r.errors.filter((e) => code(e) === "ACCESS_DENIED");
      if (denied.length)
        throw accessDenied(
          store,
          [...new Set(denied.map((e) => e.message?.trim().replace(/\.$/, "") || "ACCESS_DENIED"))].join("; "),
        );
      if (r.errors.some((e) => code(e) === "THROTTLED" || e.message?.trim().toLowerCase() === "throttled")) {
        const wait = throttleWaitSeconds(r.cost);
        // A long wait for a big page: ask for as many orders as the bucket holds now instead.
        const pageFirst = typeof vars.first === "number" ? vars.first : null;
        const requested = num(r.cost?.requestedQueryCost);
        const available = num(r.cost?.throttleStatus?.currentlyAvailable);
        if (
          wait !== null &&
          wait > SHOPIFY_MAX_WAIT_SECONDS &&
          pageFirst !== null &&
          pageFirst > 1 &&
          requested !== null &&
          available !== null &&
          requested > 0
        ) {
          const fits = Math.floor((available * pageFirst) / requested);
          if (fits >= 1 && fits < pageFirst) {
            vars = { ...vars, first: fits };
            continue;
          }
        }
        // Short waits are sat out, up to SHOPIFY_MAX_TOTAL_WAIT_SECONDS in all for one query (other apps share the bucket).
        const ms = wait === null ? null : Math.ceil(wait * 1000) + 50;
        if (
          ms !== null &&
          wait! <= SHOPIFY_MAX_WAIT_SECONDS &&
          waitedMs + ms <= SHOPIFY_MAX_TOTAL_WAIT_SECONDS * 1000
        ) {
          waitedMs += ms;
          // A little over the computed time: Shopify reports whole points.
          await sleep(ms);
          continue;
        }
        throw serviceLimiting(store, wait === null ? undefined : Math.max(1, Math.ceil(wait)));
      }
      const tooCostly = r.errors.find((e) => code(e) === "MAX_COST_EXCEEDED");
      const first = typeof vars.first === "number" ? vars.first : null;
      const cost = num(tooCostly?.extensions?.cost);
      const max = num(tooCostly?.extensions?.maxCost) ?? SHOPIFY_MAX_QUERY_COST;
      if (tooCostly && !shrunk && first !== null && first > 1 && cost !== null && cost > 0) {
        shrunk = true;
        vars = { ...vars, first: Math.max(1, Math.min(first - 1, Math.floor((first * max) / cost))) };
        continue;
      }
      const reasons = r.errors.map((e) => e.message?.trim()).filter(Boolean);
      throw serviceFailed(store, reasons.join("; ") || "GraphQL error");
    }
  };

  return {
    platform: "shopify",
    storeName: STORE_NAMES.shopify,
    sandbox: isSandboxStoreUrl(base),
    async test() {
      const data = parseWire(store, ZShopData, await run(SHOP_QUERY));
      if (!data.shop.name) throw serviceUnreadable(store, "shop.name");
      const granted = data.currentAppInstallation.accessScopes.map((a) => a.handle);
      const missing = SHOPIFY_SCOPES.filter((scope) => !hasScope(granted, scope));
      if (missing.length)
        throw new AppError(
          "BAD_REQUEST",
          /*i18n*/ {
            id: "error.store.scopesMissing",
            message: "{store}: the app does not have the access scopes {missing}; it needs {scopes}",
            values: { store, missing: missing.join(", "), scopes: SHOPIFY_SCOPES.join(", ") },
          },
        );
    },
    async listOrders(q) {
      const data = parseWire(
        store,
        ZOrdersData,
        await run(ORDERS_QUERY, {
          first:
            lastAvailable === null
              ? shopifyPageSize(q.pageSize)
              : Math.max(
                  1,
                  Math.min(shopifyPageSize(q.pageSize), Math.floor((lastAvailable - 2) / SHOPIFY_ORDER_COST)),
                ),
          after: q.cursor,
          query: shopifyOrderQuery(q.updatedSince),
        }),
      );
      const page = data.orders;
      return {
        orders: page.nodes.flatMap((node) => mapShopifyOrder(node) ?? []),
        cursor: page.pageInfo.hasNextPage ? (text(page.pageInfo.endCursor) ?? null) : null,
      };
    },
    verifyWebhook(raw, headers) {
      // The key named for this integration, else a Dev Dashboard app's client secret, which signs its webhooks.
      const secret = creds.webhookSecret || (kind === "devDashboard" ? creds.clientSecret : undefined);
      if (!secret)
        throw webhookRefused(
          store,
          /*i18n*/ { id: "error.store.webhookNoSecret", message: "no webhook secret is set for this integration" },
        );
      const given = headers.get("x-shopify-hmac-sha256")?.trim();
      if (!given)
        throw webhookRefused(
          store,
          /*i18n*/ { id: "error.store.webhookUnsigned", message: "the X-Shopify-Hmac-Sha256 header is missing" },
        );
      const expected = createHmac("sha256", secret).update(raw, "utf8").digest();
      if (!sameBytes(expected, Buffer.from(given, "base64")))
        throw webhookRefused(
          store,
          /*i18n*/ { id: "error.store.webhookBadSignature", message: "the signature does not match the body" },
        );
      let body: unknown;
      try {
        body = JSON.parse(raw);
      } catch {
        body = null;
      }
      const order = mapShopifyRestOrder(body);
      if (!order)
        throw new AppError(
          "BAD_REQUEST",
          /*i18n*/ {
            id: "error.store.webhookUnreadable",
            message: "{store} sent a webhook that is not an order we can read",
            values: { store },
          },
        );
      return {
        topic: headers.get("x-shopify-topic")?.trim() ?? "",
        webhookId: headers.get("x-shopify-webhook-id")?.trim() || null,
        order,
      };
    },
  };
};
