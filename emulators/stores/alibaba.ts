// Alibaba.com Open Platform (ICBU, "v2" gateway) emulator: the seller's order list and order detail, behind the
// gateway's request signing. UNCONFIRMED: Alibaba's own documentation was not readable; this follows the
// third-party guide ben-jackson1/alibaba-v2-api (on GitHub), and the
// error form `{"error_response": {type, code, msg, request_id}}` of Alibaba's open-platform gateways.
//
//   GET|POST /rest/alibaba/order/list   role=seller, start_page (0-based), page_size, modified_date_start (JSON)
//   GET|POST /rest/alibaba/order/get    e_trade_id
//
// Every call carries app_key, sign_method=sha256, timestamp (ms), access_token and sign, where
// sign = UPPER(HEX(HMAC-SHA256(app_secret, api_path + k1v1k2v2… over the other parameters sorted by name))) and
// api_path is the path after /rest. Credentials: every field "sandbox". A wrong app key, signature, stale timestamp or
// access token is refused with an error_response (HTTP 200, as the gateway answers), never with data.
import { createHmac } from "node:crypto";
import {
  createStoreState,
  decimal,
  json,
  readParams,
  type TEmuOrder,
  type TEmuStatus,
  type TStoreControl,
  totalMinorOf,
} from "./model";

export const ALIBABA_SANDBOX = { appKey: "sandbox", appSecret: "sandbox", accessToken: "sandbox" } as const;

/** The gateway's signature (see the note at the top). */
export const alibabaSignature = (apiPath: string, params: Record<string, string>, appSecret: string) => {
  const text =
    apiPath +
    Object.keys(params)
      .filter((k) => k !== "sign")
      .sort()
      .map((k) => `${k}${params[k]}`)
      .join("");
  return createHmac("sha256", appSecret).update(text, "utf8").digest("hex").toUpperCase();
};

const STATUS: Record<TEmuStatus, string> = {
  placed: "unpay",
  ready: "undeliver",
  partial: "delivering",
  shipped: "wait_confirm_receipt",
  cancelled: "trade_close",
};
const COUNTRY_NAMES: Record<string, string> = {
  ET: "Ethiopia",
  US: "United States of America",
  NL: "Netherlands",
  DE: "Germany",
  FR: "France",
  IT: "Italy",
  BE: "Belgium",
  ES: "Spain",
};
const MONTHS = ["Jan.", "Feb.", "Mar.", "Apr.", "May", "Jun.", "Jul.", "Aug.", "Sep.", "Oct.", "Nov.", "Dec."];
/** "Jul. 31, 2025, 21:09:36 UTC." and the epoch ms as a string, the way the gateway dates things. */
const dateOf = (ms: number) => {
  const d = new Date(ms);
  const time = d.toISOString().slice(11, 19);
  return {
    format_date: `${MONTHS[d.getUTCMonth()]} ${d.getUTCDate()}, ${d.getUTCFullYear()}, ${time} UTC.`,
    timestamp: String(ms),
  };
};

const requestId = () => crypto.randomUUID().replaceAll("-", "").slice(0, 26);
const refusal = (code: string, msg: string, status = 200, headers: Record<string, string> = {}, type = "ISV") =>
  json({ error_response: { type, code, msg, request_id: requestId() } }, status, headers);
const ok = (value: unknown) => json({ code: "0", value, request_id: requestId() });

/** The order-list entry: what the list gives (no address, no amounts). */
export const alibabaListEntry = (o: TEmuOrder) => ({
  trade_id: o.id,
  trade_status: STATUS[o.status],
  create_date: dateOf(o.createdAt),
  modify_date: dateOf(o.updatedAt),
});

/** The order detail. */
export const alibabaOrder = (o: TEmuOrder) => {
  const a = o.address;
  const money = (minor: number) => ({ amount: decimal(minor), currency: o.currency });
  return {
    ...alibabaListEntry(o),
    pay_step: "ADVANCE",
    shipping_address: {
      ...(a.postalCode ? { zip: a.postalCode } : {}),
      country: COUNTRY_NAMES[a.country] ?? a.country,
      country_code: a.country,
      ...(a.state ? { province: a.state } : {}),
      city: a.city,
      address: a.line1,
      contact_person: a.name,
    },
    order_products: o.items.map((it, i) => ({
      product_id: `16${o.id.slice(-9)}${i}`,
      ...(it.sku ? { sku_id: it.sku } : {}),
      name: it.title,
      quantity: it.quantity.toFixed(4),
      unit: "Pieces",
      unit_price: { amount: (it.unitPriceMinor / 100).toFixed(4), currency: o.currency },
    })),
    product_total_amount: money(totalMinorOf(o) - o.shippingMinor),
    shipment_fee: money(o.shippingMinor),
    total_amount: money(totalMinorOf(o)),
    buyer: { full_name: `${o.customer.firstName} ${o.customer.lastName}` },
  };
};

export type TAlibabaControl = TStoreControl & {
  /** Requests refused for their signature. */
  badSignatures: number;
};

const FIFTEEN_MINUTES = 15 * 60_000;

export const createAlibabaEmulator = () => {
  let expired = false;
  const state = createStoreState({
    platform: "alibaba",
    tokenLifetimeSeconds: 864_000,
    outage: () => refusal("ServiceUnavailable", "The service is temporarily unavailable", 503, {}, "SYSTEM"),
    rateLimited: () =>
      refusal("ApiCallLimit", "The request has failed due to api call limit", 429, { "Retry-After": "30" }),
    onReset: () => {
      expired = false;
      control.badSignatures = 0;
    },
  });
  const control: TAlibabaControl = Object.assign(state.control, {
    expireTokens: () => {
      expired = true;
    },
    badSignatures: 0,
  });

  /** The gateway's checks, in its order: parameters, app key, sign method, timestamp, signature, access token. */
  const gate = (apiPath: string, p: Record<string, string>): Response | null => {
    for (const k of ["app_key", "sign_method", "timestamp", "sign", "access_token"])
      if (!p[k])
        return refusal(
          "MissingParameter",
          `The input parameter "${k}" that is mandatory for processing this request is not supplied.`,
        );
    if (p.app_key !== ALIBABA_SANDBOX.appKey)
      return refusal("InvalidAppKey", `The app key ${p.app_key} does not exist`);
    if (p.sign_method.toLowerCase() !== "sha256")
      return refusal("InvalidSignMethod", `The sign method ${p.sign_method} is not supported`);
    const ts = Number(p.timestamp);
    if (!Number.isFinite(ts) || Math.abs(Date.now() - ts) > FIFTEEN_MINUTES)
      return refusal("InvalidTimestamp", "The specified timestamp is out of range");
    if (p.sign !== alibabaSignature(apiPath, p, ALIBABA_SANDBOX.appSecret)) {
      control.badSignatures++;
      return refusal("IncompleteSignature", "The request signature does not conform to platform standards");
    }
    if (p.access_token !== ALIBABA_SANDBOX.accessToken || expired)
      return refusal("IllegalAccessToken", "The specified access token is invalid or expired");
    return null;
  };

  const orderList = (p: Record<string, string>) => {
    if (p.role !== "seller" && p.role !== "buyer") return refusal("InvalidParameter", "role must be buyer or seller");
    // The sandbox account only sells.
    const mine = p.role === "seller" ? state.current() : [];
    const start = p.start_page === undefined ? 0 : Number(p.start_page);
    const size = p.page_size === undefined ? 10 : Number(p.page_size);
    if (!Number.isInteger(start) || start < 0) return refusal("InvalidParameter", "start_page must be 0 or more");
    if (!Number.isInteger(size) || size < 1 || size > 100)
      return refusal("InvalidParameter", "page_size must be between 1 and 100");
    const bound = (name: string): number | null | undefined => {
      if (p[name] === undefined) return undefined;
      try {
        const v = JSON.parse(p[name]) as { date_timestamp?: unknown };
        const ms = Number(v.date_timestamp);
        return Number.isFinite(ms) ? ms : null;
      } catch {
        return null;
      }
    };
    const from = bound("modified_date_start");
    const to = bound("modified_date_end");
    const createdFrom = bound("create_date_start");
    if (from === null || to === null || createdFrom === null)
      return refusal("InvalidParameter", 'date parameters must be JSON like {"date_timestamp":"1733821832000"}');
    const matching = [...mine]
      .filter(
        (o) =>
          (from === undefined || o.updatedAt >= from) &&
          (to === undefined || o.updatedAt <= to) &&
          (createdFrom === undefined || o.createdAt >= createdFrom) &&
          (!p.status || STATUS[o.status] === p.status),
      )
      .sort((a, b) => a.updatedAt - b.updatedAt || a.id.localeCompare(b.id));
    return ok({
      total_count: String(matching.length),
      order_list: matching.slice(start * size, start * size + size).map(alibabaListEntry),
    });
  };

  const orderGet = (p: Record<string, string>) => {
    if (!p.e_trade_id) return refusal("MissingParameter", 'The input parameter "e_trade_id" is not supplied.');
    const o = state.current().find((x) => x.id === p.e_trade_id);
    if (!o) return refusal("ORDER_NOT_FOUND", `Order ${p.e_trade_id} does not exist or is not yours`);
    return ok(alibabaOrder(o));
  };

  const handle = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const apiPath = path.replace(/^\/rest/, "");
    const known = apiPath === "/alibaba/order/list" || apiPath === "/alibaba/order/get";
    const refused = await state.enter(known ? "orders" : "other");
    if (refused) return refused;
    if (!path.startsWith("/rest/") || !known)
      return refusal("InvalidApiPath", `The API path ${apiPath} does not exist`, 404);
    if (req.method !== "GET" && req.method !== "POST") return refusal("InvalidMethod", "Use GET or POST", 405);
    const p = await readParams(req);
    const refusedByGate = gate(apiPath, p);
    if (refusedByGate) return refusedByGate;
    return apiPath === "/alibaba/order/list" ? orderList(p) : orderGet(p);
  };
  return { handle, control };
};
