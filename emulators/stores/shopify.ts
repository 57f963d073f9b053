// Shopify emulator: the Admin GraphQL endpoint, as much of it as an order sync uses, the token grant of a Dev Dashboard
// app, and signed webhook deliveries.
//
//   POST /admin/oauth/access_token   grant_type=client_credentials&client_id=sandbox&client_secret=sandbox (form or JSON)
//     → {"access_token": "shpat_…", "scope": "read_orders,read_products", "expires_in": 86399}
//   POST /admin/api/{version}/graphql.json   X-Shopify-Access-Token: shpat_… (or a legacy custom app's "sandbox")
//     {"query": "…", "variables": {…}}
//
// Access, as Shopify's: two apps are installed on the Sandbox shop (three in demo mode, whose own Dev Dashboard app
// has the installation's secret and signs the webhooks). A Dev Dashboard app (client ID and secret "sandbox") gets
// tokens by the client-credentials grant; each lives `tokenLifetimeSeconds` (a day less a second, as Shopify's) and
// carries the scopes the app had when it was granted (`appScopes`). A legacy custom app's Admin API token ("sandbox")
// never expires and has `legacyScopes`. A token that is unknown or expired gets Shopify's 401. Each type needs its
// scope: Order read_orders (orders created in the last 60 days only, unless read_all_orders), Customer read_customers,
// ProductVariant read_products, InventoryItem read_inventory or read_products (a write_ scope includes its read_ one).
// A field whose type the token may not read is null in `data`, and `errors` says so in Shopify's words:
// {message: "Access denied for customer field. Required access: `read_customers` access scope.", path,
// extensions: {code: "ACCESS_DENIED", documentation, requiredAccess}}. `currentAppInstallation.accessScopes` lists a
// token's scopes.
//
// The query is really parsed (a small GraphQL reader: operations, variables, aliases, arguments, selections) and the
// answer holds exactly the fields asked for; a field Shopify's types lack is refused the way Shopify refuses it. Root
// fields: `shop { name … }`, `orders(first, after, query, sortKey, reverse)` and `order(id)`. The `query` search string
// understands `updated_at:>='ISO'` / `created_at:` with >, >=, <, <= (other terms are ignored, as Shopify ignores
// terms it cannot use). Cursors are keyset cursors over the sort key, so a page is stable while orders change.
//
// Cost and throttling follow Shopify's calculated query cost: scalars 0, objects 1, a connection 2 + first × the cost
// of one node; a query over 1000 is refused (MAX_COST_EXCEEDED); a leaky bucket of 1000 points restoring 50 per second
// is charged the requested cost up front and refunded down to the actual cost; when the bucket holds less than the
// requested cost the answer is `errors: [{message: "Throttled", extensions: {code: "THROTTLED"}}]` (HTTP 200).
// Every answer carries `extensions.cost`.
import { createHmac } from "node:crypto";
import {
  createStoreState,
  decimal,
  gramsOf,
  iso,
  json,
  readParams,
  type TEmuOrder,
  type TStoreControl,
  totalMinorOf,
} from "./model";

/** The Sandbox shop's Dev Dashboard app: its client ID and published client secret (which also signs its webhooks). */
export const SHOPIFY_SANDBOX = { shopDomain: "sandbox", clientId: "sandbox", clientSecret: "sandbox" } as const;
/**
 * The client ID of a second Dev Dashboard app, installed when the emulator is made with its `clientSecret`: demo mode's
 * own, whose secret is the installation's, so the demo stores' webhooks cannot be forged with a published secret.
 */
export const SHOPIFY_DEMO_CLIENT_ID = "mytess-demo";
/** The Sandbox shop's legacy custom app: its Admin API token, and the secret its webhooks are signed with. */
export const SHOPIFY_SANDBOX_LEGACY = {
  shopDomain: "sandbox",
  accessToken: "sandbox",
  webhookSecret: "sandbox",
} as const;
/** The scopes both Sandbox apps are configured with (reset() restores them): what MyTess asks merchants to grant. */
export const SHOPIFY_SANDBOX_SCOPES = ["read_orders", "read_products"] as const;
/** How long a client-credentials token lives, as Shopify's do. */
export const SHOPIFY_TOKEN_LIFETIME_SECONDS = 86_399;
export const SHOPIFY_SHOP_NAME = "MyTess Sandbox Shop";
/** The Standard plan's bucket (Shopify Plus restores 1000 points a second; see the control's restoreRate). */
export const SHOPIFY_BUCKET = { maximumAvailable: 1000, restoreRate: 50, maxQueryCost: 1000 } as const;
/** The shop's time zone (Addis Ababa, UTC+3): webhook bodies carry local times, as Shopify's REST shapes do. */
const SHOP_OFFSET_MINUTES = 180;

const INVALID_TOKEN = "[API] Invalid API key or access token (unrecognized login or wrong password)";
const DAY_MS = 86_400_000;

/** Whether granted scopes include one: a write_ scope includes its read_ one. */
const grants = (granted: readonly string[], scope: string) =>
  granted.includes(scope) || (scope.startsWith("read_") && granted.includes(`write_${scope.slice(5)}`));

// A small GraphQL reader ---------------------------------------------------------------------------------------------

type TArg = string | number | boolean | null | { $var: string } | { enum: string } | TArg[];
export type TGqlField = { alias: string; name: string; args: Record<string, TArg>; selections: TGqlField[] | null };
export class GqlSyntaxError extends Error {}

const tokenize = (src: string): string[] => {
  const out: string[] = [];
  const re =
    /\s+|,|#[^\n]*|("""[\s\S]*?"""|"(?:[^"\\]|\\.)*")|(\.\.\.|[{}():$!=[\]@])|(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([_A-Za-z][_0-9A-Za-z]*)/y;
  let i = 0;
  while (i < src.length) {
    re.lastIndex = i;
    const m = re.exec(src);
    if (!m) throw new GqlSyntaxError(`Parse error on "${src.slice(i, i + 10)}"`);
    const t = m[1] ?? m[2] ?? m[3] ?? m[4];
    if (t !== undefined) out.push(t);
    i = re.lastIndex;
  }
  return out;
};

/** The root selections of the document's (only) query operation. */
export const parseQuery = (src: string): TGqlField[] => {
  const t = tokenize(src);
  let p = 0;
  const peek = () => t[p];
  const take = (expected?: string) => {
    const v = t[p++];
    if (v === undefined || (expected !== undefined && v !== expected))
      throw new GqlSyntaxError(`Parse error: expected ${expected ?? "a token"}, got ${v ?? "end of query"}`);
    return v;
  };
  const value = (): TArg => {
    const v = take();
    if (v === "$") return { $var: take() };
    if (v === "[") {
      const list: TArg[] = [];
      while (peek() !== "]") list.push(value());
      take("]");
      return list;
    }
    if (v.startsWith('"""')) return v.slice(3, -3);
    if (v.startsWith('"')) return JSON.parse(v) as string;
    if (/^-?\d/.test(v)) return Number(v);
    if (v === "true" || v === "false") return v === "true";
    if (v === "null") return null;
    if (/^[_A-Za-z]/.test(v)) return { enum: v };
    throw new GqlSyntaxError(`Parse error on "${v}"`);
  };
  const selectionSet = (): TGqlField[] => {
    take("{");
    const fields: TGqlField[] = [];
    while (peek() !== "}") {
      if (peek() === "...") throw new GqlSyntaxError("Fragments are not supported by this emulator");
      let name = take();
      const alias = name;
      if (peek() === ":") {
        take(":");
        name = take();
      }
      const args: Record<string, TArg> = {};
      if (peek() === "(") {
        take("(");
        while (peek() !== ")") {
          const k = take();
          take(":");
          args[k] = value();
        }
        take(")");
      }
      fields.push({ alias, name, args, selections: peek() === "{" ? selectionSet() : null });
      if (peek() === undefined) throw new GqlSyntaxError("Parse error: unexpected end of query");
    }
    take("}");
    return fields;
  };
  if (peek() === "mutation" || peek() === "subscription")
    throw new GqlSyntaxError("Only queries are supported by this emulator");
  if (peek() === "query") {
    take();
    if (peek() !== "(" && peek() !== "{") take();
    if (peek() === "(") {
      let depth = 0;
      do {
        const v = take();
        if (v === "(") depth++;
        if (v === ")") depth--;
      } while (depth > 0);
    }
  }
  const root = selectionSet();
  if (p < t.length) throw new GqlSyntaxError(`Parse error on "${t[p]}"`);
  return root;
};

const argValue = (a: TArg | undefined, vars: Record<string, unknown>): unknown => {
  if (a === undefined) return undefined;
  if (Array.isArray(a)) return a.map((x) => argValue(x, vars));
  if (a && typeof a === "object") return "$var" in a ? (vars[a.$var] ?? null) : a.enum;
  return a;
};
const argsOf = (f: TGqlField, vars: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(f.args).map(([k, v]) => [k, argValue(v, vars)])) as Record<string, unknown>;

// Cost ---------------------------------------------------------------------------------------------------------------

const nodeSelections = (f: TGqlField): TGqlField[] => {
  const nodes = f.selections?.find((s) => s.name === "nodes");
  if (nodes) return nodes.selections ?? [];
  const node = f.selections?.find((s) => s.name === "edges")?.selections?.find((s) => s.name === "node");
  return node?.selections ?? [];
};
const sizeOf = (f: TGqlField, vars: Record<string, unknown>) => {
  const a = argsOf(f, vars);
  const n = Number(a.first ?? a.last);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** The requested cost of selections: objects 1, connections 2 + size × (1 + a node's selections), scalars 0. */
export const requestedCost = (fields: TGqlField[], vars: Record<string, unknown>): number =>
  fields.reduce((sum, f) => {
    if (!f.selections || f.name === "pageInfo") return sum;
    const size = sizeOf(f, vars);
    if (size !== null) return sum + 2 + size * (1 + requestedCost(nodeSelections(f), vars));
    return sum + 1 + requestedCost(f.selections, vars);
  }, 0);

/** The actual cost: the same rule over what the answer holds. */
const actualCost = (fields: TGqlField[], data: unknown, vars: Record<string, unknown>): number =>
  fields.reduce((sum, f) => {
    if (!f.selections || f.name === "pageInfo") return sum;
    const v = (data as Record<string, unknown> | null)?.[f.alias];
    if (sizeOf(f, vars) !== null) {
      const c = v as { nodes?: unknown[]; edges?: { node: unknown }[] } | null;
      const nodes = c?.nodes ?? c?.edges?.map((e) => e.node) ?? [];
      return sum + 2 + nodes.reduce((s: number, n) => s + 1 + actualCost(nodeSelections(f), n, vars), 0);
    }
    const sel = f.selections;
    if (Array.isArray(v)) return sum + 1 + v.reduce((s: number, x) => s + actualCost(sel, x, vars), 0);
    return sum + 1 + (v ? actualCost(sel, v, vars) : 0);
  }, 0);

// Resolving ----------------------------------------------------------------------------------------------------------

type TResolver = (args: Record<string, unknown>) => TValue;
type TValue = string | number | boolean | null | TObj | TValue[] | TResolver;
type TObj = { __typename: string; [field: string]: TValue };

type TGqlError = { message: string; path?: (string | number)[]; extensions?: Record<string, unknown> };

/** The scopes an object's type needs (any one of them), as Shopify's access scopes document them. */
const ACCESS = new WeakMap<object, readonly string[]>();
const needs = <T extends TObj>(scopes: readonly string[], obj: T): T => {
  ACCESS.set(obj, scopes);
  return obj;
};

/** What a query runs with: its variables, the errors found so far, and the scopes of the token. */
type TRun = { vars: Record<string, unknown>; errors: TGqlError[]; granted: readonly string[] };

/**
 * Projects a value onto selections: exactly the fields asked for; unknown fields become GraphQL errors, and so does an
 * object of a type the token may not read (the field is then null).
 */
const project = (value: TValue, f: TGqlField, run: TRun, path: (string | number)[]): unknown => {
  const { vars, errors } = run;
  const v = typeof value === "function" ? value(argsOf(f, vars)) : value;
  if (v === null || v === undefined) return null;
  if (Array.isArray(v)) return v.map((x, i) => project(x, f, run, [...path, i]));
  const required = typeof v === "object" ? ACCESS.get(v) : undefined;
  if (required && !required.some((scope) => grants(run.granted, scope))) {
    const requiredAccess = `${required.map((scope) => `\`${scope}\``).join(" or ")} access scope.`;
    errors.push({
      message: `Access denied for ${f.name} field. Required access: ${requiredAccess}`,
      path,
      extensions: {
        code: "ACCESS_DENIED",
        documentation: "https://shopify.dev/api/usage/access-scopes",
        requiredAccess,
      },
    });
    return null;
  }
  if (typeof v !== "object") {
    if (f.selections)
      errors.push({
        message: `Selections can't be made on scalars (field '${f.name}' returns a scalar but has selections)`,
        path,
        extensions: { code: "selectionMismatch" },
      });
    return v;
  }
  if (!f.selections) {
    errors.push({
      message: `Field must have selections (field '${f.name}' returns ${v.__typename} but has no selections. Did you mean '${f.name} { ... }'?)`,
      path,
      extensions: { code: "selectionMismatch", nodeName: `field '${f.name}'`, typeName: v.__typename },
    });
    return null;
  }
  return selectOn(v, f.selections, run, path);
};

const selectOn = (obj: TObj, selections: TGqlField[], run: TRun, path: (string | number)[]) => {
  const { errors } = run;
  const out: Record<string, unknown> = {};
  for (const s of selections) {
    if (s.name === "__typename") {
      out[s.alias] = obj.__typename;
      continue;
    }
    if (!(s.name in obj)) {
      errors.push({
        message: `Field '${s.name}' doesn't exist on type '${obj.__typename}'`,
        path: [...path, s.alias],
        extensions: { code: "undefinedField", typeName: obj.__typename, fieldName: s.name },
      });
      continue;
    }
    out[s.alias] = project(obj[s.name], s, run, [...path, s.alias]);
  }
  return out;
};

const gid = (o: TEmuOrder) => `gid://shopify/Order/${o.id}`;

const fulfillmentOf = (o: TEmuOrder) =>
  o.status === "partial" ? "PARTIALLY_FULFILLED" : o.status === "shipped" ? "FULFILLED" : "UNFULFILLED";
const financialOf = (o: TEmuOrder) =>
  o.status === "placed" ? "PENDING" : o.status === "cancelled" ? "REFUNDED" : "PAID";

type TSortKey = "CREATED_AT" | "UPDATED_AT" | "PROCESSED_AT" | "ID";
const sortValue = (o: TEmuOrder, key: TSortKey) =>
  key === "UPDATED_AT" ? o.updatedAt : key === "ID" ? Number(o.id) : o.createdAt;

const encodeCursor = (o: TEmuOrder, key: TSortKey) =>
  Buffer.from(JSON.stringify({ last_id: Number(o.id), last_value: sortValue(o, key) })).toString("base64");
const decodeCursor = (c: string): { last_id: number; last_value: number } | null => {
  try {
    const v = JSON.parse(Buffer.from(c, "base64").toString("utf8")) as { last_id?: unknown; last_value?: unknown };
    return typeof v.last_id === "number" && typeof v.last_value === "number"
      ? { last_id: v.last_id, last_value: v.last_value }
      : null;
  } catch {
    return null;
  }
};

/** Shopify's search syntax, the part a sync uses: `updated_at:>='…'` and `created_at:…` comparisons. */
export const searchFilter = (q: string | null | undefined) => {
  const tests: ((o: TEmuOrder) => boolean)[] = [];
  const re = /\b(updated_at|created_at|processed_at):(>=|<=|>|<)?\s*(?:'([^']*)'|"([^"]*)"|(\S+))/g;
  for (const m of (q ?? "").matchAll(re)) {
    const at = Date.parse(m[3] ?? m[4] ?? m[5]);
    if (Number.isNaN(at)) continue;
    const field = m[1] === "updated_at" ? "updatedAt" : "createdAt";
    const op = m[2] ?? "=";
    tests.push((o) => {
      const v = o[field];
      return op === ">=" ? v >= at : op === ">" ? v > at : op === "<=" ? v <= at : op === "<" ? v < at : v === at;
    });
  }
  return (o: TEmuOrder) => tests.every((t) => t(o));
};

/** An order as the GraphQL Order type (the fields a sync reads, and a few more). */
export const graphqlOrder = (o: TEmuOrder): TObj => {
  const money = (minor: number): TObj => ({ __typename: "MoneyV2", amount: decimal(minor), currencyCode: o.currency });
  const moneyBag = (minor: number): TObj => ({
    __typename: "MoneyBag",
    shopMoney: money(minor),
    presentmentMoney: money(minor),
  });
  const items: TObj[] = o.items.map((it, i) => ({
    __typename: "LineItem",
    id: `gid://shopify/LineItem/${Number(o.id) * 10 + i}`,
    title: it.title,
    name: it.title,
    quantity: it.quantity,
    currentQuantity: o.status === "cancelled" ? 0 : it.quantity,
    sku: it.sku,
    originalUnitPriceSet: moneyBag(it.unitPriceMinor),
    // A custom line item (no SKU here) has no variant; a variant without a weight says 0.
    variant: it.sku
      ? needs(["read_products"], {
          __typename: "ProductVariant",
          id: `gid://shopify/ProductVariant/${Number(o.id) * 10 + i}`,
          sku: it.sku,
          inventoryItem: needs(["read_inventory", "read_products"], {
            __typename: "InventoryItem",
            id: `gid://shopify/InventoryItem/${Number(o.id) * 10 + i}`,
            measurement: {
              __typename: "InventoryItemMeasurement",
              weight: { __typename: "Weight", unit: it.weight?.unit ?? "KILOGRAMS", value: it.weight?.value ?? 0 },
            },
          }),
        })
      : null,
  }));
  const a = o.address;
  return needs(["read_orders"], {
    __typename: "Order",
    id: gid(o),
    legacyResourceId: o.id,
    name: o.number,
    createdAt: iso(o.createdAt),
    processedAt: iso(o.createdAt),
    updatedAt: iso(o.updatedAt),
    cancelledAt: o.status === "cancelled" ? iso(o.updatedAt) : null,
    cancelReason: o.status === "cancelled" ? "CUSTOMER" : null,
    closed: o.status === "shipped",
    displayFulfillmentStatus: fulfillmentOf(o),
    displayFinancialStatus: financialOf(o),
    currencyCode: o.currency,
    totalPriceSet: moneyBag(totalMinorOf(o)),
    customer: needs(["read_customers"], {
      __typename: "Customer",
      id: `gid://shopify/Customer/${Number(o.id) + 7000000000}`,
      displayName: `${o.customer.firstName} ${o.customer.lastName}`,
      firstName: o.customer.firstName,
      lastName: o.customer.lastName,
    }),
    shippingAddress: {
      __typename: "MailingAddress",
      name: a.name,
      firstName: o.customer.firstName,
      lastName: o.customer.lastName,
      address1: a.line1,
      address2: null,
      city: a.city,
      provinceCode: a.state,
      countryCodeV2: a.country,
      zip: a.postalCode,
      latitude: a.latitude,
      longitude: a.longitude,
      coordinatesValidated: a.latitude !== null,
    },
    lineItems: (args) => connection("LineItemConnection", items, args, (_, i) => String(i)),
  });
};

const connection = (
  typename: string,
  all: TObj[],
  args: Record<string, unknown>,
  cursorOf: (o: TObj, i: number) => string,
  hasNextPage?: boolean,
): TObj => {
  const first = Number(args.first ?? all.length);
  const nodes = all.slice(0, first);
  const cursors = nodes.map(cursorOf);
  return {
    __typename: typename,
    nodes,
    edges: nodes.map((node, i) => ({
      __typename: `${typename.replace("Connection", "")}Edge`,
      cursor: cursors[i],
      node,
    })),
    pageInfo: {
      __typename: "PageInfo",
      hasNextPage: hasNextPage ?? all.length > first,
      hasPreviousPage: false,
      startCursor: cursors[0] ?? null,
      endCursor: cursors[cursors.length - 1] ?? null,
    },
  };
};

/** An order as the REST (snake_case) shape webhooks carry. */
export const restOrder = (o: TEmuOrder) => {
  const local = (ms: number) => {
    const d = new Date(ms + SHOP_OFFSET_MINUTES * 60_000).toISOString().slice(0, 19);
    const h = String(Math.floor(SHOP_OFFSET_MINUTES / 60)).padStart(2, "0");
    return `${d}+${h}:${String(SHOP_OFFSET_MINUTES % 60).padStart(2, "0")}`;
  };
  const a = o.address;
  const grams = (w: TEmuOrder["items"][number]["weight"]) => gramsOf(w) ?? 0;
  return {
    id: Number(o.id),
    admin_graphql_api_id: gid(o),
    name: o.number,
    order_number: Number(o.number.replace(/\D/g, "")),
    email: `${o.customer.firstName}.${o.customer.lastName}@example.com`.toLowerCase().replace(/\s+/g, ""),
    created_at: local(o.createdAt),
    updated_at: local(o.updatedAt),
    processed_at: local(o.createdAt),
    cancelled_at: o.status === "cancelled" ? local(o.updatedAt) : null,
    cancel_reason: o.status === "cancelled" ? "customer" : null,
    currency: o.currency,
    presentment_currency: o.currency,
    total_price: decimal(totalMinorOf(o)),
    subtotal_price: decimal(totalMinorOf(o) - o.shippingMinor),
    total_weight: o.items.reduce((s, i) => s + i.quantity * grams(i.weight), 0),
    financial_status: financialOf(o).toLowerCase(),
    fulfillment_status: o.status === "partial" ? "partial" : o.status === "shipped" ? "fulfilled" : null,
    customer: {
      id: Number(o.id) + 7000000000,
      first_name: o.customer.firstName,
      last_name: o.customer.lastName,
    },
    shipping_address: {
      first_name: o.customer.firstName,
      last_name: o.customer.lastName,
      name: a.name,
      address1: a.line1,
      address2: null,
      city: a.city,
      province_code: a.state,
      country_code: a.country,
      zip: a.postalCode,
      latitude: a.latitude,
      longitude: a.longitude,
      phone: null,
      company: null,
    },
    line_items: o.items.map((it, i) => ({
      id: Number(o.id) * 10 + i,
      title: it.title,
      name: it.title,
      quantity: it.quantity,
      sku: it.sku,
      grams: it.sku ? grams(it.weight) : 0,
      price: decimal(it.unitPriceMinor),
      variant_id: it.sku ? Number(o.id) * 10 + i : null,
      fulfillment_status: o.status === "shipped" ? "fulfilled" : null,
    })),
  };
};

/** The headers and body of a webhook delivery, signed with `secret` (base64 HMAC-SHA256 over the raw body). */
export const signedWebhook = (topic: string, order: TEmuOrder, secret: string) => {
  const body = JSON.stringify(restOrder(order));
  const hmac = createHmac("sha256", secret).update(body, "utf8").digest("base64");
  return {
    body,
    headers: {
      "Content-Type": "application/json",
      "X-Shopify-Topic": topic,
      "X-Shopify-Hmac-Sha256": hmac,
      "X-Shopify-Shop-Domain": "sandbox.myshopify.com",
      "X-Shopify-API-Version": "2026-01",
      "X-Shopify-Webhook-Id": crypto.randomUUID(),
      "X-Shopify-Triggered-At": new Date().toISOString(),
      "X-Shopify-Event-Id": crypto.randomUUID(),
    },
  };
};

export type TShopifyControl = TStoreControl & {
  /** The Dev Dashboard app's access scopes: a token granted from now on carries these. */
  appScopes: string[];
  /** The legacy custom app's access scopes (its one token has them). */
  legacyScopes: string[];
  /** How long a token granted from now on lives. */
  tokenLifetimeSeconds: number;
  /** Points the bucket restores per second (50 on the Standard plan; reset() restores that). */
  restoreRate: number;
  /** Points in the cost bucket now. */
  available: () => number;
  /** Sets the points in the cost bucket (it keeps restoring from there). */
  setAvailable: (points: number) => void;
  /** POSTs a signed webhook (REST shape) for an order to a URL; returns the receiver's answer. */
  deliverWebhook: (url: string, topic: string, order: TEmuOrder, secret?: string) => Promise<Response>;
};

/**
 * `clientSecret`: installs a second Dev Dashboard app with this secret (client ID SHOPIFY_DEMO_CLIENT_ID) beside the
 * published one; its token grant checks it, and webhooks are signed with it unless another secret is given. Demo mode
 * passes the installation's own. The published app stays, so anyone can still try the Sandbox with "sandbox".
 */
export const createShopifyEmulator = (o: { clientSecret?: string } = {}) => {
  // The Dev Dashboard apps installed on the Sandbox shop: client ID → client secret, one secret each, as Shopify's.
  const apps = new Map<string, string>([[SHOPIFY_SANDBOX.clientId, SHOPIFY_SANDBOX.clientSecret]]);
  if (o.clientSecret) apps.set(SHOPIFY_DEMO_CLIENT_ID, o.clientSecret);
  const signingSecret = o.clientSecret ?? SHOPIFY_SANDBOX.clientSecret;
  const bucket = { available: SHOPIFY_BUCKET.maximumAvailable as number, at: Date.now() };
  const refill = () => {
    const now = Date.now();
    bucket.available = Math.min(
      SHOPIFY_BUCKET.maximumAvailable,
      bucket.available + ((now - bucket.at) / 1000) * control.restoreRate,
    );
    bucket.at = now;
    return bucket.available;
  };
  const state = createStoreState({
    platform: "shopify",
    tokenLifetimeSeconds: SHOPIFY_TOKEN_LIFETIME_SECONDS,
    outage: () => json({ errors: "Service Unavailable" }, 503),
    // The REST-style refusal Shopify sends when a client floods it regardless of cost.
    rateLimited: () =>
      json(
        { errors: "Exceeded 2 calls per second for api client. Reduce request rates to resume uninterrupted service." },
        429,
        {
          "Retry-After": "2.0",
        },
      ),
    onReset: () => {
      control.appScopes = [...SHOPIFY_SANDBOX_SCOPES];
      control.legacyScopes = [...SHOPIFY_SANDBOX_SCOPES];
      control.tokenLifetimeSeconds = SHOPIFY_TOKEN_LIFETIME_SECONDS;
      control.restoreRate = SHOPIFY_BUCKET.restoreRate;
      bucket.available = SHOPIFY_BUCKET.maximumAvailable;
      bucket.at = Date.now();
    },
  });
  const control: TShopifyControl = Object.assign(state.control, {
    appScopes: [...SHOPIFY_SANDBOX_SCOPES] as string[],
    legacyScopes: [...SHOPIFY_SANDBOX_SCOPES] as string[],
    tokenLifetimeSeconds: SHOPIFY_TOKEN_LIFETIME_SECONDS as number,
    restoreRate: SHOPIFY_BUCKET.restoreRate as number,
    available: () => Math.floor(refill()),
    setAvailable: (points: number) => {
      bucket.available = points;
      bucket.at = Date.now();
    },
    deliverWebhook: (url: string, topic: string, order: TEmuOrder, secret: string = signingSecret) => {
      const w = signedWebhook(topic, order, secret);
      return fetch(url, { method: "POST", headers: w.headers, body: w.body });
    },
  });

  const costExtension = (requested: number, actual: number | null) => ({
    cost: {
      requestedQueryCost: requested,
      actualQueryCost: actual,
      throttleStatus: {
        maximumAvailable: SHOPIFY_BUCKET.maximumAvailable,
        currentlyAvailable: Math.floor(bucket.available),
        restoreRate: control.restoreRate,
      },
    },
  });

  const ordersConnection = (args: Record<string, unknown>, granted: readonly string[]): TValue => {
    const sortKey = (String(args.sortKey ?? "ID").toUpperCase() as TSortKey) || "ID";
    const reverse = args.reverse === true;
    const search = searchFilter(typeof args.query === "string" ? args.query : null);
    // read_orders shows the last 60 days of orders; read_all_orders all of them.
    const since = grants(granted, "read_all_orders") ? 0 : Date.now() - 60 * DAY_MS;
    const filter = (o: TEmuOrder) => o.createdAt >= since && search(o);
    const sign = reverse ? -1 : 1;
    const cmp = (a: TEmuOrder, b: TEmuOrder) =>
      sign * (sortValue(a, sortKey) - sortValue(b, sortKey) || Number(a.id) - Number(b.id));
    let list = state.current().filter(filter).sort(cmp);
    const after = typeof args.after === "string" ? decodeCursor(args.after) : null;
    if (after) {
      list = list.filter((o) => sign * (sortValue(o, sortKey) - after.last_value || Number(o.id) - after.last_id) > 0);
    }
    const first = Number(args.first);
    const page = list.slice(0, first);
    const byId = new Map(page.map((o) => [gid(o), o]));
    return needs(
      ["read_orders"],
      connection(
        "OrderConnection",
        page.map(graphqlOrder),
        { first },
        (n) => encodeCursor(byId.get(String(n.id))!, sortKey),
        list.length > first,
      ),
    );
  };

  const root = (granted: readonly string[]): TObj => ({
    __typename: "QueryRoot",
    shop: {
      __typename: "Shop",
      name: SHOPIFY_SHOP_NAME,
      myshopifyDomain: "sandbox.myshopify.com",
      currencyCode: "USD",
      ianaTimezone: "Africa/Addis_Ababa",
    },
    orders: (args) => ordersConnection(args, granted),
    order: (args) => {
      const o = state.current().find((x) => gid(x) === args.id);
      return o ? graphqlOrder(o) : null;
    },
    currentAppInstallation: {
      __typename: "AppInstallation",
      accessScopes: granted.map((handle) => ({ __typename: "AccessScope", handle })),
    },
  });

  /** The scopes of the token a request presents; null when Shopify would not know it (or it expired). */
  const scopesOf = (req: Request): readonly string[] | null => {
    const presented = req.headers.get("x-shopify-access-token");
    if (presented === SHOPIFY_SANDBOX_LEGACY.accessToken) return control.legacyScopes;
    const t = state.check(presented);
    return t.state === "live" && t.kind === "access" ? (t.data as { scopes: string[] }).scopes : null;
  };

  /** The client-credentials grant: a token for the Dev Dashboard app, with the scopes it is configured with now. */
  const grant = async (req: Request): Promise<Response> => {
    const p = await readParams(req);
    if (p.grant_type !== "client_credentials")
      return json(
        { error: "unsupported_grant_type", error_description: "The grant type is not supported by this emulator" },
        400,
      );
    const secret = apps.get(p.client_id ?? "");
    if (secret === undefined || p.client_secret !== secret)
      return json({ error: "invalid_client", error_description: "Client authentication failed" }, 400);
    const scopes = [...control.appScopes];
    const t = state.issue("access", "shpat_", { scopes }, control.tokenLifetimeSeconds);
    return json({ access_token: t.token, scope: scopes.join(","), expires_in: t.expiresIn });
  };

  /** Checks the arguments a connection needs before anything is charged. */
  const argumentErrors = (fields: TGqlField[], vars: Record<string, unknown>, path: string[] = []): TGqlError[] =>
    fields.flatMap((f) => {
      const here = [...path, f.alias];
      const errs: TGqlError[] = [];
      if (f.name === "orders" || f.name === "lineItems") {
        const a = argsOf(f, vars);
        if (a.last !== undefined || a.before !== undefined)
          errs.push({ message: "This emulator pages forward only (first/after)", path: here });
        const first = Number(a.first);
        if (a.first === undefined || a.first === null)
          errs.push({ message: "you must provide one of first or last", path: here });
        else if (!Number.isInteger(first) || first < 0 || first > 250)
          errs.push({
            message: `The maximum number of records you can request is 250, you requested ${a.first}`,
            path: here,
            extensions: { code: "argumentLiteralsIncompatible" },
          });
        if (a.after !== undefined && a.after !== null && (typeof a.after !== "string" || !decodeCursor(a.after)))
          errs.push({ message: `Invalid cursor for current pagination sort.`, path: here });
      }
      return [...errs, ...argumentErrors(f.selections ?? [], vars, here)];
    });

  const graphql = async (req: Request, version: string): Promise<Response> => {
    const headers = { "X-Shopify-API-Version": version };
    const granted = scopesOf(req);
    if (!granted) return json({ errors: INVALID_TOKEN }, 401);
    let body: { query?: unknown; variables?: unknown };
    try {
      body = (await req.json()) as typeof body;
    } catch {
      return json({ errors: "Bad Request: the body is not JSON" }, 400);
    }
    if (typeof body.query !== "string")
      return json({ errors: { query: "Required parameter missing or invalid" } }, 400);
    const vars = (body.variables && typeof body.variables === "object" ? body.variables : {}) as Record<
      string,
      unknown
    >;
    let fields: TGqlField[];
    try {
      fields = parseQuery(body.query);
    } catch (err) {
      return json({ errors: [{ message: (err as Error).message, extensions: { code: "parseError" } }] }, 200, headers);
    }
    if (fields.some((f) => f.name === "orders" || f.name === "order")) control.orderCalls++;
    const argErrors = argumentErrors(fields, vars);
    if (argErrors.length) return json({ errors: argErrors }, 200, headers);
    const requested = requestedCost(fields, vars);
    refill();
    if (requested > SHOPIFY_BUCKET.maxQueryCost)
      return json(
        {
          errors: [
            {
              message: `Query cost is ${requested}, which exceeds the single query max cost limit (${SHOPIFY_BUCKET.maxQueryCost}).`,
              extensions: { code: "MAX_COST_EXCEEDED", cost: requested, maxCost: SHOPIFY_BUCKET.maxQueryCost },
            },
          ],
          extensions: costExtension(requested, null),
        },
        200,
        headers,
      );
    if (bucket.available < requested)
      return json(
        {
          errors: [
            {
              message: "Throttled",
              extensions: { code: "THROTTLED", documentation: "https://shopify.dev/api/usage/rate-limits" },
            },
          ],
          extensions: costExtension(requested, null),
        },
        200,
        headers,
      );
    const errors: TGqlError[] = [];
    const data = selectOn(root(granted), fields, { vars, errors, granted }, []);
    // A field the query may not have is refused outright; one the token may not read leaves a null beside the error.
    if (errors.some((e) => e.extensions?.code !== "ACCESS_DENIED")) return json({ errors }, 200, headers);
    const actual = actualCost(fields, data, vars);
    bucket.available -= actual;
    return json(
      { ...(errors.length ? { errors } : {}), data, extensions: costExtension(requested, actual) },
      200,
      headers,
    );
  };

  const handle = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    if (path === "/admin/oauth/access_token" && req.method === "POST") {
      const refused = await state.enter("token");
      return refused ?? grant(req);
    }
    const m = /^\/admin\/api\/([^/]+)\/graphql\.json$/.exec(path);
    if (m && req.method === "POST") {
      const refused = await state.enter("other");
      if (refused) return refused;
      if (!/^(\d{4}-(01|04|07|10)|unstable)$/.test(m[1])) return json({ errors: "Not Found" }, 404);
      return graphql(req, m[1]);
    }
    return json({ errors: "Not Found" }, 404);
  };
  return { handle, control };
};
