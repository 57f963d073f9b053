// Alibaba.com Open Platform (ICBU, "v2" gateway) emulator: the seller's order list and order detail, behind the
// gateway's request signing, and the renewal of the seller's access token. UNCONFIRMED: Alibaba's own documentation was
// not readable; this follows a published third-party integration guide, and the error form
// `{"error_response": {type, code, msg, request_id}}` of Alibaba's open-platform gateways.
//
//   GET|POST /rest/alibaba/order/list     role=seller, start_page (0-based), page_size, modified_date_start (JSON)
//   GET|POST /rest/alibaba/order/get      e_trade_id
//   GET|POST /rest/auth/token/refresh     refresh_token (no access_token)
//     → {access_token, refresh_token, expires_in: "864000", refresh_expires_in: "5184000", code: "0", request_id}
//
// Every call carries app_key, sign_method=sha256, timestamp (ms), access_token (not the refresh) and sign, where
// sign = UPPER(HEX(HMAC-SHA256(app_secret, api_path + k1v1k2v2… over the other parameters sorted by name))) and
// api_path is the path after /rest. Credentials: every field "sandbox". A wrong app key, signature, stale timestamp or
// access token is refused with an error_response (HTTP 200, as the gateway answers), never with data.
//
// Tokens: the sandbox seller's access token "sandbox" and every one the refresh call issues live
// `accessTokenLifetimeSeconds` (10 days, reset() restores it); an expired one is refused like a wrong one. A refresh
// token lives 60 days and is used once (the call answers a new one), but for the seller's standing "sandbox", which
// every Sandbox integration shares.
//
// Dates: answers show times as the gateway does, US Pacific ("Jul. 31, 2025, 21:09:36 PDT.") beside the epoch ms. The
// list's date objects are read by date_timestamp (epoch ms); one that carries a date_str ("yyyy-MM-dd HH:mm:ss") is
// read by that, in America/Los_Angeles, as one copy of the docs has it: which of the two the gateway reads when both
// are given is not documented, and this is the reading under which a client that guesses another zone loses orders.
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

export const ALIBABA_SANDBOX = {
  appKey: "sandbox",
  appSecret: "sandbox",
  accessToken: "sandbox",
  refreshToken: "sandbox",
} as const;
/** Lifetimes of the access and refresh tokens, as the guide's example answer gives them. */
export const ALIBABA_TOKEN_LIFETIME_SECONDS = 864_000;
export const ALIBABA_REFRESH_LIFETIME_SECONDS = 5_184_000;

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
const PACIFIC = new Intl.DateTimeFormat("en-US", {
  timeZone: "America/Los_Angeles",
  hourCycle: "h23",
  year: "numeric",
  month: "numeric",
  day: "numeric",
  hour: "numeric",
  minute: "numeric",
  second: "numeric",
});

/** The wall-clock time in US Pacific time at an instant, as fields, and its offset from UTC in minutes (-420 or -480). */
export const pacificTime = (ms: number) => {
  const part = Object.fromEntries(PACIFIC.formatToParts(new Date(ms)).map((p) => [p.type, p.value]));
  const f = {
    year: Number(part.year),
    month: Number(part.month),
    day: Number(part.day),
    hour: Number(part.hour),
    minute: Number(part.minute),
    second: Number(part.second),
  };
  const asUtc = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return { ...f, offsetMinutes: Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000) };
};

/** The instant a "yyyy-MM-dd HH:mm:ss" names in US Pacific time; null when it is not one. */
export const fromPacific = (text: string): number | null => {
  const m = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})$/.exec(text.trim());
  if (!m) return null;
  const wall = Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]);
  // The offset at the guess, then at the result (right but for the hour a clock change skips or repeats).
  const guess = wall - pacificTime(wall).offsetMinutes * 60_000;
  return wall - pacificTime(guess).offsetMinutes * 60_000;
};

/** "Jul. 31, 2025, 21:09:36 PDT." and the epoch ms as a string, the way the gateway dates things (US Pacific time). */
export const dateOf = (ms: number) => {
  const p = pacificTime(ms);
  const two = (n: number) => String(n).padStart(2, "0");
  const zone = p.offsetMinutes === -420 ? "PDT" : "PST";
  return {
    format_date: `${MONTHS[p.month - 1]} ${p.day}, ${p.year}, ${two(p.hour)}:${two(p.minute)}:${two(p.second)} ${zone}.`,
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
  /** How long an access token issued from now on lives (the sandbox one too, from reset()). */
  accessTokenLifetimeSeconds: number;
  /** Refresh calls answered with new tokens. */
  refreshes: number;
  /** The refresh tokens those calls presented, in order. */
  refreshedWith: string[];
  /** The date filters the last order list used, as the instants it read them as (epoch ms). */
  lastFilter: { modifiedFrom?: number; modifiedTo?: number; createdFrom?: number };
};

const FIFTEEN_MINUTES = 15 * 60_000;

export const createAlibabaEmulator = () => {
  // The sandbox seller's own access token expires like issued ones.
  let sandboxExpiresAt = Date.now() + ALIBABA_TOKEN_LIFETIME_SECONDS * 1000;
  const state = createStoreState({
    platform: "alibaba",
    tokenLifetimeSeconds: ALIBABA_TOKEN_LIFETIME_SECONDS,
    outage: () => refusal("ServiceUnavailable", "The service is temporarily unavailable", 503, {}, "SYSTEM"),
    rateLimited: () =>
      refusal("ApiCallLimit", "The request has failed due to api call limit", 429, { "Retry-After": "30" }),
    onReset: () => {
      control.badSignatures = 0;
      control.refreshes = 0;
      control.refreshedWith = [];
      control.lastFilter = {};
      control.accessTokenLifetimeSeconds = ALIBABA_TOKEN_LIFETIME_SECONDS;
      sandboxExpiresAt = Date.now() + ALIBABA_TOKEN_LIFETIME_SECONDS * 1000;
    },
  });
  const control: TAlibabaControl = Object.assign(state.control, {
    // Access tokens: the refresh tokens that renew them live on.
    expireTokens: () => {
      state.expire("access");
      sandboxExpiresAt = 0;
    },
    badSignatures: 0,
    accessTokenLifetimeSeconds: ALIBABA_TOKEN_LIFETIME_SECONDS as number,
    refreshes: 0,
    refreshedWith: [] as string[],
    lastFilter: {} as TAlibabaControl["lastFilter"],
  });

  const accessTokenLive = (token: string) => {
    if (token === ALIBABA_SANDBOX.accessToken) return Date.now() < sandboxExpiresAt;
    const t = state.check(token);
    return t.state === "live" && t.kind === "access";
  };

  /**
   * The gateway's checks, in its order: parameters, app key, sign method, timestamp, signature, access token (but for
   * the refresh call, which has none).
   */
  const gate = (apiPath: string, p: Record<string, string>): Response | null => {
    const needed = ["app_key", "sign_method", "timestamp", "sign"];
    if (apiPath !== "/auth/token/refresh") needed.push("access_token");
    for (const k of needed)
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
    if (apiPath !== "/auth/token/refresh" && !accessTokenLive(p.access_token))
      return refusal("IllegalAccessToken", "The specified access token is invalid or expired");
    return null;
  };

  /** New tokens for a live refresh token; an issued one is used up (the seller's standing "sandbox" is not). */
  const refresh = (p: Record<string, string>) => {
    if (!p.refresh_token)
      return refusal("MissingParameter", 'The input parameter "refresh_token" that is mandatory is not supplied.');
    const standing = p.refresh_token === ALIBABA_SANDBOX.refreshToken;
    const t = standing ? null : state.check(p.refresh_token);
    if (!standing && (t?.state !== "live" || t.kind !== "refresh"))
      return refusal("IllegalRefreshToken", "The specified refresh token is invalid or expired");
    if (!standing) state.revoke(p.refresh_token);
    const access = state.issue("access", "50000601", undefined, control.accessTokenLifetimeSeconds);
    const next = state.issue("refresh", "50001600", undefined, ALIBABA_REFRESH_LIFETIME_SECONDS);
    control.refreshes++;
    control.refreshedWith.push(p.refresh_token);
    return json({
      access_token: access.token,
      refresh_token: next.token,
      expires_in: String(access.expiresIn),
      refresh_expires_in: String(next.expiresIn),
      code: "0",
      request_id: requestId(),
    });
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
    // A date object's instant: its date_str read as US Pacific time when it has one, else its date_timestamp.
    const bound = (name: string): number | null | undefined => {
      if (p[name] === undefined) return undefined;
      try {
        const v = JSON.parse(p[name]) as { date_timestamp?: unknown; date_str?: unknown };
        if (typeof v.date_str === "string") return fromPacific(v.date_str);
        if (v.date_timestamp === undefined || v.date_timestamp === null || v.date_timestamp === "") return null;
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
    control.lastFilter = { modifiedFrom: from, modifiedTo: to, createdFrom };
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
    const orders = apiPath === "/alibaba/order/list" || apiPath === "/alibaba/order/get";
    const known = orders || apiPath === "/auth/token/refresh";
    const refused = await state.enter(orders ? "orders" : known ? "token" : "other");
    if (refused) return refused;
    if (!path.startsWith("/rest/") || !known)
      return refusal("InvalidApiPath", `The API path ${apiPath} does not exist`, 404);
    if (req.method !== "GET" && req.method !== "POST") return refusal("InvalidMethod", "Use GET or POST", 405);
    const p = await readParams(req);
    const refusedByGate = gate(apiPath, p);
    if (refusedByGate) return refusedByGate;
    if (apiPath === "/auth/token/refresh") return refresh(p);
    return apiPath === "/alibaba/order/list" ? orderList(p) : orderGet(p);
  };
  return { handle, control };
};
