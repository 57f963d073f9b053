// Amazon Selling Partner API emulator: Login with Amazon, Orders v2026-01-01 searchOrders, the legacy Orders v0
// getOrders and getOrderAddress, and the Tokens API's Restricted Data Tokens, on one base URL (models:
// amzn/selling-partner-api-models orders_2026-01-01.json, ordersV0.json, tokens_2021-03-01.json).
//
//   POST /auth/o2/token                        grant_type=refresh_token, refresh_token, client_id, client_secret
//   GET  /orders/2026-01-01/orders             x-amz-access-token: LWA token; lastUpdatedAfter | createdAfter, …
//   GET  /orders/v0/orders                     x-amz-access-token: LWA token or an RDT for /orders/v0/orders
//   GET  /orders/v0/orders/{orderId}/address   x-amz-access-token: an RDT for that path (or {orderId})
//   POST /tokens/2021-03-01/restrictedDataToken  {restrictedResources: [{method, path, dataElements}]}
//
// Credentials: every field "sandbox". LWA refuses another client with 401 invalid_client and another refresh token
// with 400 invalid_grant. An expired token gets 403 "The access token you provided has expired."; an unknown one 403
// "…revoked, malformed or invalid.". Each operation has its own usage plan (Amazon's default rate and burst, as a
// token bucket) and names its rate in x-amzn-RateLimit-Limit; past the burst it answers 429 QuotaExceeded (the
// control's rateLimit mode answers 429 without the header, and spares LWA). PII
// (names, address lines, buyer info) comes in v0 only with an RDT that names its data elements; v2026 gives it
// role-based, as Amazon documents. A control switch makes v2026 unavailable (404), for the adapter's v0 fallback.
import {
  createStoreState,
  decimal,
  iso,
  readParams,
  type TEmuOrder,
  type TEmuStatus,
  type TStoreControl,
  totalMinorOf,
} from "./model";

export const AMAZON_SANDBOX = {
  clientId: "sandbox",
  clientSecret: "sandbox",
  refreshToken: "sandbox",
  marketplaceId: "sandbox",
  region: "na",
} as const;

export type TAmazonOperation = "searchOrders" | "getOrders" | "getOrderAddress" | "createRestrictedDataToken";
/** Amazon's default usage plans (requests per second, burst). */
export const AMAZON_USAGE_PLANS: Record<TAmazonOperation, { rate: number; burst: number }> = {
  searchOrders: { rate: 0.0056, burst: 20 },
  getOrders: { rate: 0.0167, burst: 20 },
  getOrderAddress: { rate: 0.5, burst: 30 },
  createRestrictedDataToken: { rate: 1, burst: 10 },
};

const V2026_STATUS: Record<TEmuStatus, string> = {
  placed: "PENDING",
  ready: "UNSHIPPED",
  partial: "PARTIALLY_SHIPPED",
  shipped: "SHIPPED",
  cancelled: "CANCELLED",
};
const V0_STATUS: Record<TEmuStatus, string> = {
  placed: "Pending",
  ready: "Unshipped",
  partial: "PartiallyShipped",
  shipped: "Shipped",
  cancelled: "Canceled",
};
const INCLUDED_DATA = [
  "BUYER",
  "RECIPIENT",
  "PROCEEDS",
  "EXPENSE",
  "PROMOTION",
  "CANCELLATION",
  "FULFILLMENT",
  "PACKAGES",
  "TAX",
  "PAYMENT",
  "FULFILLMENT_ORDERS",
];

/** Amazon gives a shipping address only once an order can ship. */
const shippable = (o: TEmuOrder) => o.status === "ready" || o.status === "partial" || o.status === "shipped";

const requestId = () => crypto.randomUUID();
const reply = (body: unknown, status = 200, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: { "Content-Type": "application/json", "x-amzn-RequestId": requestId(), ...headers },
  });
const error = (status: number, code: string, message: string, details = "", headers: Record<string, string> = {}) =>
  reply({ errors: [{ code, message, details }] }, status, headers);

const paging = {
  encode: (offset: number) => Buffer.from(JSON.stringify({ offset })).toString("base64url"),
  decode: (token: string): number | null => {
    try {
      const v = JSON.parse(Buffer.from(token, "base64url").toString("utf8")) as { offset?: unknown };
      return typeof v.offset === "number" && v.offset >= 0 ? v.offset : null;
    } catch {
      return null;
    }
  },
};

/** An order as Orders v2026-01-01 returns it, with the datasets asked for. */
export const v2026Order = (o: TEmuOrder, included: Set<string>) => {
  const a = o.address;
  const money = (minor: number) => ({ amount: decimal(minor), currencyCode: o.currency });
  return {
    orderId: o.id,
    createdTime: iso(o.createdAt),
    lastUpdatedTime: iso(o.updatedAt),
    salesChannel: { channelName: "AMAZON", marketplaceId: AMAZON_SANDBOX.marketplaceId, marketplaceName: "Amazon.com" },
    ...(included.has("BUYER")
      ? {
          buyer: {
            buyerName: `${o.customer.firstName} ${o.customer.lastName}`,
            buyerEmail: `${o.id.replaceAll("-", "")}@marketplace.amazon.com`,
          },
        }
      : {}),
    ...(included.has("RECIPIENT") && shippable(o)
      ? {
          recipient: {
            deliveryAddress: {
              name: a.name,
              addressLine1: a.line1,
              city: a.city,
              ...(a.state ? { stateOrRegion: a.state } : {}),
              ...(a.postalCode ? { postalCode: a.postalCode } : {}),
              countryCode: a.country,
              addressType: "RESIDENTIAL",
            },
          },
        }
      : {}),
    ...(included.has("PROCEEDS") ? { proceeds: { grandTotal: money(totalMinorOf(o)) } } : {}),
    ...(included.has("FULFILLMENT")
      ? { fulfillment: { fulfillmentStatus: V2026_STATUS[o.status], fulfilledBy: "MERCHANT" } }
      : {}),
    orderItems: o.items.map((it, i) => ({
      orderItemId: `${o.id.replaceAll("-", "").slice(-10)}${i}`,
      quantityOrdered: it.quantity,
      product: {
        asin: `B0${o.id.replaceAll("-", "").slice(-7)}${i}`,
        title: it.title,
        ...(it.sku ? { sellerSku: it.sku } : {}),
        price: { unitPrice: money(it.unitPriceMinor) },
      },
    })),
  };
};

/** The v0 address: City, StateOrRegion, PostalCode, CountryCode always; Name and AddressLine1 only with the PII. */
const v0Address = (o: TEmuOrder, pii: boolean) => {
  const a = o.address;
  return {
    ...(pii ? { Name: a.name, AddressLine1: a.line1, AddressType: "Residential" } : {}),
    City: a.city,
    ...(a.state ? { StateOrRegion: a.state } : {}),
    ...(a.postalCode ? { PostalCode: a.postalCode } : {}),
    CountryCode: a.country,
  };
};

/** An order as Orders v0 getOrders returns it; `pii` names the RDT's data elements. */
export const v0Order = (o: TEmuOrder, pii: { shippingAddress: boolean; buyerInfo: boolean }) => ({
  AmazonOrderId: o.id,
  PurchaseDate: iso(o.createdAt),
  LastUpdateDate: iso(o.updatedAt),
  OrderStatus: V0_STATUS[o.status],
  FulfillmentChannel: "MFN",
  SalesChannel: "Amazon.com",
  OrderType: "StandardOrder",
  MarketplaceId: AMAZON_SANDBOX.marketplaceId,
  OrderTotal: { CurrencyCode: o.currency, Amount: decimal(totalMinorOf(o)) },
  NumberOfItemsShipped: o.status === "shipped" ? o.items.reduce((s, i) => s + i.quantity, 0) : 0,
  NumberOfItemsUnshipped: o.status === "shipped" ? 0 : o.items.reduce((s, i) => s + i.quantity, 0),
  ...(shippable(o) ? { ShippingAddress: v0Address(o, pii.shippingAddress) } : {}),
  BuyerInfo: pii.buyerInfo
    ? {
        BuyerName: `${o.customer.firstName} ${o.customer.lastName}`,
        BuyerEmail: `${o.id.replaceAll("-", "")}@marketplace.amazon.com`,
      }
    : {},
});

type TRestricted = { method: string; path: string; dataElements: string[] };

export type TAmazonControl = TStoreControl & {
  /** false: /orders/2026-01-01 answers 404, as where v2026 is not offered. */
  v2026Available: boolean;
  /** false: the app lacks the restricted role; Restricted Data Tokens are refused with 403. */
  rdtAllowed: boolean;
  /** Restricted Data Tokens issued. */
  rdtCalls: number;
  /** Each operation's usage plan; change it to provoke 429s sooner. */
  usagePlans: Record<TAmazonOperation, { rate: number; burst: number }>;
};

export const createAmazonEmulator = () => {
  const buckets = new Map<TAmazonOperation, { tokens: number; at: number }>();
  const state = createStoreState({
    platform: "amazon",
    tokenLifetimeSeconds: 3600,
    outage: () => error(503, "ServiceUnavailable", "Service temporarily unavailable. Please try again later."),
    // No x-amzn-RateLimit-Limit here: the adapter must fall back on the documented rate.
    rateLimited: () => error(429, "QuotaExceeded", "You exceeded your quota for the requested resource."),
    onReset: () => {
      control.v2026Available = true;
      control.rdtAllowed = true;
      control.rdtCalls = 0;
      control.usagePlans = structuredClone(AMAZON_USAGE_PLANS);
      buckets.clear();
    },
  });
  const control: TAmazonControl = Object.assign(state.control, {
    v2026Available: true,
    rdtAllowed: true,
    rdtCalls: 0,
    usagePlans: structuredClone(AMAZON_USAGE_PLANS),
  });

  /** Charges one request to an operation's bucket; a 429 when it is empty. */
  const charge = (op: TAmazonOperation): Response | null => {
    const plan = control.usagePlans[op];
    const now = Date.now();
    const b = buckets.get(op) ?? { tokens: plan.burst, at: now };
    b.tokens = Math.min(plan.burst, b.tokens + ((now - b.at) / 1000) * plan.rate);
    b.at = now;
    buckets.set(op, b);
    const header = { "x-amzn-RateLimit-Limit": String(plan.rate) };
    if (b.tokens < 1)
      return error(429, "QuotaExceeded", "You exceeded your quota for the requested resource.", "", header);
    b.tokens -= 1;
    return null;
  };
  const rateHeader = (op: TAmazonOperation) => ({ "x-amzn-RateLimit-Limit": String(control.usagePlans[op].rate) });

  /** The presented token: a 403 answer, or what it is. */
  const authorize = (req: Request) => {
    const c = state.check(req.headers.get("x-amz-access-token"));
    if (c.state === "unknown")
      return error(403, "Unauthorized", "The access token you provided is revoked, malformed or invalid.");
    if (c.state === "expired") return error(403, "Unauthorized", "The access token you provided has expired.");
    return { kind: c.kind, resources: (c.data as TRestricted[] | undefined) ?? [] };
  };
  const denied = () =>
    error(
      403,
      "Unauthorized",
      "Access to requested resource is denied.",
      "The access token you provided does not grant access to this operation.",
    );

  const sorted = () => [...state.current()].sort((a, b) => a.updatedAt - b.updatedAt || a.id.localeCompare(b.id));
  const isoParam = (v: string | undefined) => {
    if (v === undefined) return undefined;
    const ms = Date.parse(v);
    return Number.isNaN(ms) ? null : ms;
  };
  const list = (v: string | undefined) =>
    v
      ? v
          .split(",")
          .map((s) => s.trim())
          .filter(Boolean)
      : [];

  const lwa = async (req: Request) => {
    // Login with Amazon is not SP-API: the rate-limit mode spares it.
    const refused = await state.enter("token", { limited: false });
    if (refused) return refused;
    const p = await readParams(req);
    if (p.grant_type !== "refresh_token")
      return reply(
        { error: "unsupported_grant_type", error_description: "The authorization grant type is not supported" },
        400,
      );
    if (p.client_id !== AMAZON_SANDBOX.clientId || p.client_secret !== AMAZON_SANDBOX.clientSecret)
      return reply({ error: "invalid_client", error_description: "Client authentication failed" }, 401);
    if (p.refresh_token !== AMAZON_SANDBOX.refreshToken)
      return reply(
        { error: "invalid_grant", error_description: "The request has an invalid grant parameter : refresh_token" },
        400,
      );
    const t = state.issue("lwa", "Atza|");
    return reply({
      access_token: t.token,
      refresh_token: AMAZON_SANDBOX.refreshToken,
      token_type: "bearer",
      expires_in: t.expiresIn,
    });
  };

  const searchOrders = async (req: Request) => {
    const refused = await state.enter("orders");
    if (refused) return refused;
    if (!control.v2026Available) return error(404, "NotFound", "Resource not found");
    const auth = authorize(req);
    if (auth instanceof Response) return auth;
    if (auth.kind !== "lwa") return denied();
    const limited = charge("searchOrders");
    if (limited) return limited;
    const headers = rateHeader("searchOrders");
    const p = Object.fromEntries(new URL(req.url).searchParams);
    const bad = (message: string) => error(400, "InvalidInput", message, "", headers);
    if ((p.createdAfter === undefined) === (p.lastUpdatedAfter === undefined))
      return bad("You must provide exactly one of createdAfter and lastUpdatedAfter.");
    const createdAfter = isoParam(p.createdAfter);
    const updatedAfter = isoParam(p.lastUpdatedAfter);
    const updatedBefore = isoParam(p.lastUpdatedBefore);
    if (createdAfter === null || updatedAfter === null || updatedBefore === null)
      return bad("Dates must be in ISO 8601 format.");
    const marketplaces = list(p.marketplaceIds);
    const unknown = marketplaces.find((m) => m !== AMAZON_SANDBOX.marketplaceId);
    if (unknown) return bad(`Invalid marketplace identifier: ${unknown}`);
    const max = p.maxResultsPerPage === undefined ? 100 : Number(p.maxResultsPerPage);
    if (!Number.isInteger(max) || max < 1 || max > 100) return bad("maxResultsPerPage must be between 1 and 100.");
    const included = list(p.includedData);
    const wrong = included.find((d) => !INCLUDED_DATA.includes(d));
    if (wrong) return bad(`Invalid includedData value: ${wrong}`);
    const offset = p.paginationToken === undefined ? 0 : paging.decode(p.paginationToken);
    if (offset === null) return bad("Invalid paginationToken.");
    const matching = sorted().filter(
      (o) =>
        (createdAfter === undefined || o.createdAt >= createdAfter) &&
        (updatedAfter === undefined || o.updatedAt >= updatedAfter) &&
        (updatedBefore === undefined || o.updatedAt <= updatedBefore),
    );
    const page = matching.slice(offset, offset + max);
    const set = new Set(included);
    return reply(
      {
        orders: page.map((o) => v2026Order(o, set)),
        ...(offset + max < matching.length ? { pagination: { nextToken: paging.encode(offset + max) } } : {}),
        ...(updatedAfter !== undefined ? { lastUpdatedBefore: iso(Date.now()) } : { createdBefore: iso(Date.now()) }),
      },
      200,
      headers,
    );
  };

  const getOrders = async (req: Request) => {
    const refused = await state.enter("orders");
    if (refused) return refused;
    const auth = authorize(req);
    if (auth instanceof Response) return auth;
    const grant = auth.resources.find((r) => r.method === "GET" && r.path === "/orders/v0/orders");
    if (auth.kind === "rdt" && !grant) return denied();
    const limited = charge("getOrders");
    if (limited) return limited;
    const headers = rateHeader("getOrders");
    const p = Object.fromEntries(new URL(req.url).searchParams);
    const bad = (message: string) => error(400, "InvalidInput", message, "", headers);
    const marketplaces = list(p.MarketplaceIds);
    if (!marketplaces.length) return bad("MarketplaceIds is required.");
    const unknown = marketplaces.find((m) => m !== AMAZON_SANDBOX.marketplaceId);
    if (unknown) return bad(`Invalid MarketplaceId: ${unknown}`);
    if (p.CreatedAfter === undefined && p.LastUpdatedAfter === undefined && p.NextToken === undefined)
      return bad("Either CreatedAfter or LastUpdatedAfter must be specified.");
    if (p.CreatedAfter !== undefined && p.LastUpdatedAfter !== undefined)
      return bad("CreatedAfter and LastUpdatedAfter cannot both be specified.");
    const createdAfter = isoParam(p.CreatedAfter);
    const updatedAfter = isoParam(p.LastUpdatedAfter);
    if (createdAfter === null || updatedAfter === null) return bad("Dates must be in ISO 8601 format.");
    const max = p.MaxResultsPerPage === undefined ? 100 : Number(p.MaxResultsPerPage);
    if (!Number.isInteger(max) || max < 1 || max > 100) return bad("MaxResultsPerPage must be between 1 and 100.");
    const offset = p.NextToken === undefined ? 0 : paging.decode(p.NextToken);
    if (offset === null) return bad("Invalid NextToken.");
    const matching = sorted().filter(
      (o) =>
        (createdAfter === undefined || o.createdAt >= createdAfter) &&
        (updatedAfter === undefined || o.updatedAt >= updatedAfter),
    );
    const page = matching.slice(offset, offset + max);
    const elements = new Set(grant?.dataElements ?? []);
    const pii = { shippingAddress: elements.has("shippingAddress"), buyerInfo: elements.has("buyerInfo") };
    return reply(
      {
        payload: {
          Orders: page.map((o) => v0Order(o, pii)),
          ...(offset + max < matching.length ? { NextToken: paging.encode(offset + max) } : {}),
          ...(updatedAfter !== undefined ? { LastUpdatedBefore: iso(Date.now()) } : { CreatedBefore: iso(Date.now()) }),
        },
      },
      200,
      headers,
    );
  };

  const getOrderAddress = async (req: Request, orderId: string) => {
    const refused = await state.enter("orders");
    if (refused) return refused;
    const auth = authorize(req);
    if (auth instanceof Response) return auth;
    const path = `/orders/v0/orders/${orderId}/address`;
    const ok =
      auth.kind === "rdt" &&
      auth.resources.some(
        (r) => r.method === "GET" && (r.path === path || r.path === "/orders/v0/orders/{orderId}/address"),
      );
    if (!ok) return denied();
    const limited = charge("getOrderAddress");
    if (limited) return limited;
    const o = state.current().find((x) => x.id === orderId);
    if (!o) return error(404, "NotFound", `Order ${orderId} not found`, "", rateHeader("getOrderAddress"));
    return reply(
      { payload: { AmazonOrderId: o.id, ...(shippable(o) ? { ShippingAddress: v0Address(o, true) } : {}) } },
      200,
      rateHeader("getOrderAddress"),
    );
  };

  const PATHS = [
    /^\/orders\/v0\/orders$/,
    /^\/orders\/v0\/orders\/(\{orderId\}|[\w-]+)$/,
    /^\/orders\/v0\/orders\/(\{orderId\}|[\w-]+)\/(address|orderItems|buyerInfo)$/,
  ];
  const createRdt = async (req: Request) => {
    const refused = await state.enter("token");
    if (refused) return refused;
    const auth = authorize(req);
    if (auth instanceof Response) return auth;
    if (auth.kind !== "lwa") return denied();
    const limited = charge("createRestrictedDataToken");
    if (limited) return limited;
    const headers = rateHeader("createRestrictedDataToken");
    let body: { restrictedResources?: unknown };
    try {
      body = (await req.json()) as typeof body;
    } catch {
      return error(400, "InvalidInput", "The request body is not JSON.", "", headers);
    }
    const resources = body.restrictedResources;
    if (!Array.isArray(resources) || resources.length === 0 || resources.length > 50)
      return error(400, "InvalidInput", "restrictedResources must list 1 to 50 resources.", "", headers);
    const granted: TRestricted[] = [];
    for (const r of resources as Record<string, unknown>[]) {
      const method = String(r?.method ?? "");
      const path = String(r?.path ?? "");
      const dataElements = Array.isArray(r?.dataElements) ? r.dataElements.map(String) : [];
      if (!["GET", "PUT", "POST", "DELETE"].includes(method) || !PATHS.some((re) => re.test(path)))
        return error(400, "InvalidInput", "Invalid Input", `Not a restricted resource: ${method} ${path}`, headers);
      if (/^\/orders\/v0\/orders(\/[^/]+)?$/.test(path) && !dataElements.length)
        return error(400, "InvalidInput", "Invalid Input", `dataElements is required for ${path}`, headers);
      const unknown = dataElements.find((d) => !["buyerInfo", "shippingAddress", "buyerTaxInformation"].includes(d));
      if (unknown) return error(400, "InvalidInput", "Invalid Input", `Unknown data element: ${unknown}`, headers);
      granted.push({ method, path, dataElements });
    }
    if (!control.rdtAllowed)
      return error(
        403,
        "Unauthorized",
        "Application does not have access to one or more requested data elements",
        "The Direct-to-Consumer Delivery (Restricted) role is required.",
        headers,
      );
    control.rdtCalls++;
    const t = state.issue("rdt", "Atz.sprdt|", granted);
    return reply({ restrictedDataToken: t.token, expiresIn: t.expiresIn }, 200, headers);
  };

  const handle = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    if (req.method === "POST" && path === "/auth/o2/token") return lwa(req);
    if (req.method === "GET" && path === "/orders/2026-01-01/orders") return searchOrders(req);
    if (req.method === "GET" && path === "/orders/v0/orders") return getOrders(req);
    const address = /^\/orders\/v0\/orders\/([\w-]+)\/address$/.exec(path);
    if (req.method === "GET" && address) return getOrderAddress(req, address[1]);
    if (req.method === "POST" && path === "/tokens/2021-03-01/restrictedDataToken") return createRdt(req);
    return error(404, "NotFound", "Resource not found");
  };
  return { handle, control };
};
