// Amazon Selling Partner API: Login with Amazon, Orders v2026-01-01 searchOrders, and the legacy Orders v0 getOrders
// as the fallback where v2026 is not offered, as the models in
// amzn/selling-partner-api-models describe them (orders_2026-01-01.json, ordersV0.json, tokens_2021-03-01.json).
//
//   POST {https://api.amazon.com}/auth/o2/token   grant_type=refresh_token&refresh_token&client_id&client_secret
//   GET  {regional host}/orders/2026-01-01/orders  x-amz-access-token
//        ?lastUpdatedAfter=ISO&marketplaceIds=…&maxResultsPerPage=1..100&includedData=BUYER,RECIPIENT,PROCEEDS,FULFILLMENT
//        [&paginationToken=<pagination.nextToken>]
//   GET  {regional host}/orders/v0/orders          (fallback: v2026 answered 404, or 400 "not supported")
//        ?MarketplaceIds=…&LastUpdatedAfter=ISO&MaxResultsPerPage=1..100[&NextToken=…]
//   POST {regional host}/tokens/2021-03-01/restrictedDataToken
//        {restrictedResources: [{method: "GET", path: "/orders/v0/orders", dataElements: ["buyerInfo", "shippingAddress"]}]}
//
// v2026 gives the recipient's address by role, without a Restricted Data Token. v0 hides the shipping address's name
// and lines (and the buyer's name) behind an RDT: the fallback asks one RDT for the bulk getOrders path (Amazon's
// documented way for order lists; cheaper than getOrderAddress per order at 0.5 req/s) and reads the orders with it.
// Without the restricted role the RDT is refused (403) and getOrders is read with the plain token: city, state, postal
// code and country still come. v0 getOrders carries no line items (getOrderItems would cost a call per order), so
// orders read through the fallback have none; Amazon gives no item weights in either version.
//
// Tokens: the LWA access token lives an hour (TokenCache); a 401/403 about the access token (expired, revoked) is
// answered by one fresh exchange and a second try. Rate limits: each operation's rate (requests per second) comes in
// x-amzn-RateLimit-Limit; a 429 is TOO_MANY_REQUESTS with retryAfterSeconds = 1 / rate (at least 1), the rate taken
// from that answer, else the last one seen, else Amazon's documented default.
//
// Status mapping (ours ← Amazon): pending ← PENDING_AVAILABILITY, PENDING (v0 PendingAvailability, Pending);
// processing ← UNSHIPPED, PARTIALLY_SHIPPED, SHIPPED (v0 also InvoiceUnconfirmed); cancelled ← CANCELLED,
// UNFULFILLABLE (v0 Canceled, Unfulfillable). storeStatus keeps the word of the version read.
import { z } from "zod";
import { TokenCache } from "../carriers/token-cache";
import {
  credentialsRefused,
  exchange,
  parseWire,
  readJson,
  serviceUnreadable,
  type TExchange,
  trimBase,
} from "../http/kit";
import {
  amountMinor,
  failOnStatus,
  isoSeconds,
  isSandboxStoreUrl,
  num,
  parseStoreDate,
  storeReason,
  text,
} from "./http";
import {
  STORE_NAMES,
  type TOrderPage,
  type TStoreAdapter,
  type TStoreOrder,
  type TStoreOrderStatus,
  type TStoreSettings,
} from "./types";

/** SP-API's regional hosts. */
export const AMAZON_HOSTS = {
  na: "https://sellingpartnerapi-na.amazon.com",
  eu: "https://sellingpartnerapi-eu.amazon.com",
  fe: "https://sellingpartnerapi-fe.amazon.com",
} as const;
/** Where Login with Amazon exchanges refresh tokens. */
export const AMAZON_LWA_URL = "https://api.amazon.com";
/** The datasets searchOrders is asked to include. */
export const AMAZON_INCLUDED_DATA = ["BUYER", "RECIPIENT", "PROCEEDS", "FULFILLMENT"] as const;
/** The window read when the caller has no cursor yet. */
export const AMAZON_DEFAULT_WINDOW_MS = 30 * 86_400_000;

type TOperation = "searchOrders" | "getOrders" | "createRestrictedDataToken";
/** Amazon's documented default rates (requests per second), for a 429 that does not name its own. */
export const AMAZON_DEFAULT_RATES: Record<TOperation, number> = {
  searchOrders: 0.0056,
  getOrders: 0.0167,
  createRestrictedDataToken: 1,
};

/** The regional host for a region code (na, eu, fe); North America when the code is unknown. */
export const amazonBaseUrl = (region: string | undefined) => {
  const r = (region ?? "").trim().toLowerCase();
  return r === "eu" || r === "fe" ? AMAZON_HOSTS[r] : AMAZON_HOSTS.na;
};

/** Amazon's own SP-API hosts (production and sandbox): their tokens come from LWA, not from the base URL. */
export const isAmazonApiHost = (url: string) => {
  try {
    return /(^|\.)sellingpartnerapi-(na|eu|fe)\.amazon\.com$/i.test(new URL(url).hostname);
  } catch {
    return false;
  }
};

const STATUS: Record<string, TStoreOrderStatus> = {
  PENDINGAVAILABILITY: "pending",
  PENDING: "pending",
  UNSHIPPED: "processing",
  PARTIALLYSHIPPED: "processing",
  SHIPPED: "processing",
  INVOICEUNCONFIRMED: "processing",
  CANCELLED: "cancelled",
  CANCELED: "cancelled",
  UNFULFILLABLE: "cancelled",
};

/** Our status for Amazon's word, in either version's spelling (UNSHIPPED, Unshipped, PARTIALLY_SHIPPED…). */
export const amazonStatus = (word: string | null | undefined): TStoreOrderStatus =>
  STATUS[(word ?? "").replace(/[^a-z]/gi, "").toUpperCase()] ?? "pending";

/** Seconds to wait after a 429: one request's worth of the operation's rate, at least 1. */
export const amazonRetryAfter = (rate: number) => Math.max(1, Math.ceil(1 / rate));

// The answer fields we read, loosely.
const s = z.string().nullish();
const n = z.union([z.number(), z.string()]).nullish();
const ZMoney = z.looseObject({ amount: n, currencyCode: s });
const ZLwa = z.looseObject({ access_token: z.string().min(1), expires_in: n });
const ZRdt = z.looseObject({ restrictedDataToken: z.string().min(1), expiresIn: n });
const ZOrder2026 = z.looseObject({
  orderId: z.string(),
  createdTime: z.string(),
  lastUpdatedTime: s,
  buyer: z.looseObject({ buyerName: s }).nullish(),
  recipient: z
    .looseObject({
      deliveryAddress: z
        .looseObject({
          name: s,
          addressLine1: s,
          city: s,
          stateOrRegion: s,
          postalCode: s,
          countryCode: s,
        })
        .nullish(),
    })
    .nullish(),
  proceeds: z.looseObject({ grandTotal: ZMoney.nullish() }).nullish(),
  fulfillment: z.looseObject({ fulfillmentStatus: s }).nullish(),
  orderItems: z
    .array(
      z.looseObject({
        quantityOrdered: n,
        product: z
          .looseObject({
            asin: s,
            title: s,
            sellerSku: s,
            price: z.looseObject({ unitPrice: ZMoney.nullish() }).nullish(),
          })
          .nullish(),
      }),
    )
    .nullish(),
});
const ZSearch = z.looseObject({
  orders: z.array(z.unknown()),
  pagination: z.looseObject({ nextToken: s }).nullish(),
});
const ZOrderV0 = z.looseObject({
  AmazonOrderId: z.string(),
  PurchaseDate: z.string(),
  LastUpdateDate: s,
  OrderStatus: s,
  OrderTotal: z.looseObject({ CurrencyCode: s, Amount: n }).nullish(),
  ShippingAddress: z
    .looseObject({
      Name: s,
      AddressLine1: s,
      City: s,
      StateOrRegion: s,
      PostalCode: s,
      CountryCode: s,
      ExtendedFields: z
        .looseObject({ GeoCoordinates: z.looseObject({ Latitude: n, Longitude: n }).nullish() })
        .nullish(),
    })
    .nullish(),
  BuyerInfo: z.looseObject({ BuyerName: s }).nullish(),
});
const ZGetOrders = z.looseObject({
  payload: z.looseObject({ Orders: z.array(z.unknown()), NextToken: s }),
});

const upper = (v: unknown) => text(v)?.toUpperCase() ?? null;

/** One searchOrders (v2026-01-01) order as a store order; null when it lacks an id or a creation date. */
export const mapAmazonOrder = (raw: unknown): TStoreOrder | null => {
  const r = ZOrder2026.safeParse(raw);
  if (!r.success) return null;
  const o = r.data;
  const orderDate = parseStoreDate(o.createdTime);
  if (orderDate === null) return null;
  const items = o.orderItems ?? [];
  const firstPrice = items.find((i) => i.product?.price?.unitPrice)?.product?.price?.unitPrice;
  const currency = upper(o.proceeds?.grandTotal?.currencyCode) ?? upper(firstPrice?.currencyCode) ?? "USD";
  const itemsTotal = items.reduce(
    (sum, i) => sum + (num(i.quantityOrdered) ?? 0) * (amountMinor(i.product?.price?.unitPrice?.amount, currency) ?? 0),
    0,
  );
  const a = o.recipient?.deliveryAddress;
  const storeStatus = text(o.fulfillment?.fulfillmentStatus) ?? "";
  return {
    externalOrderId: o.orderId,
    orderNumber: o.orderId,
    orderDate,
    updatedAt: parseStoreDate(o.lastUpdatedTime) ?? orderDate,
    customerName: text(o.buyer?.buyerName) ?? text(a?.name),
    status: amazonStatus(storeStatus),
    storeStatus,
    currency,
    totalMinor: amountMinor(o.proceeds?.grandTotal?.amount, currency) ?? itemsTotal,
    shipping: {
      name: text(a?.name),
      line1: text(a?.addressLine1),
      city: text(a?.city),
      state: upper(a?.stateOrRegion),
      country: upper(a?.countryCode),
      postalCode: text(a?.postalCode),
      // v2026 addresses carry no coordinates: the domain places them by city and country.
      latitude: null,
      longitude: null,
    },
    items: items.map((i) => ({
      title: text(i.product?.title) ?? text(i.product?.asin) ?? "",
      quantity: num(i.quantityOrdered) ?? 0,
      sku: text(i.product?.sellerSku),
      unitWeightGrams: null,
    })),
  };
};

/** One getOrders (v0) order as a store order; v0 lists carry no items. */
export const mapAmazonV0Order = (raw: unknown): TStoreOrder | null => {
  const r = ZOrderV0.safeParse(raw);
  if (!r.success) return null;
  const o = r.data;
  const orderDate = parseStoreDate(o.PurchaseDate);
  if (orderDate === null) return null;
  const currency = upper(o.OrderTotal?.CurrencyCode) ?? "USD";
  const a = o.ShippingAddress;
  const geo = a?.ExtendedFields?.GeoCoordinates;
  const latitude = num(geo?.Latitude);
  const longitude = num(geo?.Longitude);
  const placed = latitude !== null && longitude !== null;
  const storeStatus = text(o.OrderStatus) ?? "";
  return {
    externalOrderId: o.AmazonOrderId,
    orderNumber: o.AmazonOrderId,
    orderDate,
    updatedAt: parseStoreDate(o.LastUpdateDate) ?? orderDate,
    customerName: text(o.BuyerInfo?.BuyerName) ?? text(a?.Name),
    status: amazonStatus(storeStatus),
    storeStatus,
    currency,
    totalMinor: amountMinor(o.OrderTotal?.Amount, currency) ?? 0,
    shipping: {
      name: text(a?.Name),
      line1: text(a?.AddressLine1),
      city: text(a?.City),
      state: upper(a?.StateOrRegion),
      country: upper(a?.CountryCode),
      postalCode: text(a?.PostalCode),
      latitude: placed ? latitude : null,
      longitude: placed ? longitude : null,
    },
    items: [],
  };
};

/** Amazon refused a Restricted Data Token: the app lacks the restricted role (not an error for the caller). */
class RdtRefused extends Error {}

/** "v2026:<token>" or "v0:<token>": which API a page came from, and its next-page token. */
const cursorOf = (version: "v2026" | "v0", token: string | null | undefined) => {
  const t = text(token);
  return t ? `${version}:${t}` : null;
};
const parseCursor = (cursor: string | null): { version: "v2026" | "v0" | null; token: string | null } => {
  const m = cursor ? /^(v2026|v0):(.+)$/s.exec(cursor) : null;
  return m ? { version: m[1] as "v2026" | "v0", token: m[2] } : { version: null, token: null };
};

/** Amazon: LWA refresh-token grant, then SP-API Orders v2026-01-01 (v0 where v2026 is not offered). */
export const createAmazonAdapter = (s: TStoreSettings): TStoreAdapter => {
  const store = s.name || STORE_NAMES.amazon;
  const creds = s.credentials;
  const base = trimBase(s.baseUrl || amazonBaseUrl(creds.region));
  // LWA lives on api.amazon.com for Amazon's hosts; an emulator or proxy base serves it too.
  const authBase = trimBase(s.authBaseUrl || (isAmazonApiHost(base) ? AMAZON_LWA_URL : base));
  const marketplaceId = creds.marketplaceId?.trim() ?? "";
  const rates = new Map<TOperation, number>();
  /** Set once v2026 turned out not to be offered: later calls go to v0 directly. */
  let v0Only = false;
  /** Set once Amazon refused the Restricted Data Token (no restricted role): v0 is read without PII. */
  let rdtRefused = false;

  const lwa = new TokenCache(async () => {
    const res = await exchange(
      store,
      `${authBase}/auth/o2/token`,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded;charset=UTF-8", Accept: "application/json" },
        body: new URLSearchParams({
          grant_type: "refresh_token",
          refresh_token: creds.refreshToken ?? "",
          client_id: creds.clientId ?? "",
          client_secret: creds.clientSecret ?? "",
        }).toString(),
      },
      s.timeoutMs,
      { trusted: s.sandboxOrigins },
    );
    // LWA answers a wrong client with 401 invalid_client and a wrong refresh token with 400 invalid_grant.
    if (res.status === 400 || res.status === 401)
      throw credentialsRefused(store, storeReason(res.text) ?? `HTTP ${res.status}`);
    failOnStatus(store, res);
    const t = parseWire(store, ZLwa, readJson(store, res));
    return { accessToken: t.access_token, expiresAt: Date.now() + (num(t.expires_in) ?? 3600) * 1000 };
  });

  /** One SP-API call with a token from `tokens`; a refused access token is fetched afresh and tried once more. */
  const call = async (
    op: TOperation,
    url: string,
    tokens: TokenCache,
    init: RequestInit = { method: "GET" },
  ): Promise<TExchange> => {
    for (let attempt = 0; ; attempt++) {
      const token = await tokens.get();
      const res = await exchange(
        store,
        url,
        {
          ...init,
          headers: {
            Accept: "application/json",
            "User-Agent": "MyTess/0.1 (Language=TypeScript)",
            ...(init.body ? { "Content-Type": "application/json" } : {}),
            "x-amz-access-token": token,
          },
        },
        s.timeoutMs,
        { trusted: s.sandboxOrigins },
      );
      const rate = num(res.headers.get("x-amzn-ratelimit-limit"));
      if (rate !== null && rate > 0) rates.set(op, rate);
      const tokenProblem =
        (res.status === 401 || res.status === 403) && /access token/i.test(storeReason(res.text) ?? "");
      if (tokenProblem && attempt === 0) {
        tokens.invalidate();
        continue;
      }
      return res;
    }
  };
  const fail = (op: TOperation, res: TExchange) =>
    failOnStatus(store, res, { retryAfter: amazonRetryAfter(rates.get(op) ?? AMAZON_DEFAULT_RATES[op]) });

  const rdt = new TokenCache(async () => {
    const res = await call("createRestrictedDataToken", `${base}/tokens/2021-03-01/restrictedDataToken`, lwa, {
      method: "POST",
      body: JSON.stringify({
        restrictedResources: [
          { method: "GET", path: "/orders/v0/orders", dataElements: ["buyerInfo", "shippingAddress"] },
        ],
      }),
    });
    // What is left of a 403 once the access token was renewed: the app lacks the restricted role.
    if (res.status === 403) throw new RdtRefused(storeReason(res.text) ?? "HTTP 403");
    fail("createRestrictedDataToken", res);
    const t = parseWire(store, ZRdt, readJson(store, res));
    return { accessToken: t.restrictedDataToken, expiresAt: Date.now() + (num(t.expiresIn) ?? 3600) * 1000 };
  });

  /** A page of searchOrders; null when v2026 is not offered here. */
  const searchOrders = async (since: number, pageSize: number, token: string | null): Promise<TOrderPage | null> => {
    const url = new URL(`${base}/orders/2026-01-01/orders`);
    url.searchParams.set("lastUpdatedAfter", isoSeconds(since));
    url.searchParams.set("marketplaceIds", marketplaceId);
    url.searchParams.set("maxResultsPerPage", String(Math.max(1, Math.min(100, Math.floor(pageSize) || 1))));
    url.searchParams.set("includedData", AMAZON_INCLUDED_DATA.join(","));
    if (token) url.searchParams.set("paginationToken", token);
    const res = await call("searchOrders", url.toString(), lwa);
    if (res.status === 404 || (res.status === 400 && /not (supported|available)|unsupported/i.test(res.text)))
      return null;
    fail("searchOrders", res);
    const body = parseWire(store, ZSearch, readJson(store, res));
    return {
      orders: body.orders.flatMap((o) => mapAmazonOrder(o) ?? []),
      cursor: cursorOf("v2026", body.pagination?.nextToken),
    };
  };

  /** The token getOrders is read with: the bulk RDT when Amazon grants it, else the plain access token. */
  const v0Tokens = async (): Promise<TokenCache> => {
    if (rdtRefused) return lwa;
    try {
      await rdt.get();
      return rdt;
    } catch (err) {
      if (!(err instanceof RdtRefused)) throw err;
      rdtRefused = true;
      return lwa;
    }
  };

  const getOrders = async (since: number, pageSize: number, token: string | null): Promise<TOrderPage> => {
    const url = new URL(`${base}/orders/v0/orders`);
    url.searchParams.set("MarketplaceIds", marketplaceId);
    url.searchParams.set("LastUpdatedAfter", isoSeconds(since));
    url.searchParams.set("MaxResultsPerPage", String(Math.max(1, Math.min(100, Math.floor(pageSize) || 1))));
    if (token) url.searchParams.set("NextToken", token);
    const res = await call("getOrders", url.toString(), await v0Tokens());
    fail("getOrders", res);
    const body = parseWire(store, ZGetOrders, readJson(store, res));
    return {
      orders: body.payload.Orders.flatMap((o) => mapAmazonV0Order(o) ?? []),
      cursor: cursorOf("v0", body.payload.NextToken),
    };
  };

  const page = async (since: number, pageSize: number, cursor: string | null): Promise<TOrderPage> => {
    const c = parseCursor(cursor);
    if (!v0Only && c.version !== "v0") {
      const r = await searchOrders(since, pageSize, c.version === "v2026" ? c.token : null);
      if (r) return r;
      v0Only = true;
    }
    // A v2026 cursor means nothing to v0: its listing starts over.
    return getOrders(since, pageSize, c.version === "v0" ? c.token : null);
  };

  return {
    platform: "amazon",
    storeName: STORE_NAMES.amazon,
    sandbox: isSandboxStoreUrl(base),
    async test() {
      // A real exchange: a cached token would prove nothing.
      lwa.invalidate();
      await lwa.get();
      const r = await page(Date.now() - AMAZON_DEFAULT_WINDOW_MS, 1, null);
      if (!Array.isArray(r.orders)) throw serviceUnreadable(store, "orders");
    },
    async listOrders(q) {
      const since = q.updatedSince > 0 ? q.updatedSince : Date.now() - AMAZON_DEFAULT_WINDOW_MS;
      return page(since, q.pageSize, q.cursor);
    },
    verifyWebhook: null,
  };
};
