// Alibaba.com: the Alibaba.com (ICBU) Open Platform "v2" gateway, seller side.
//
// UNCONFIRMED. Alibaba's own documentation (openapi.alibaba.com) is partner-gated and was not readable; everything
// here follows a published third-party integration guide (written for the buyer side) and must be checked against
// Alibaba's documents before production use:
// - the gateway https://openapi-api.alibaba.com/rest{api_path} (sandbox openapi-api-sandbox.alibaba.com);
// - the system parameters app_key, sign_method=sha256, timestamp (epoch ms), access_token (the seller's session), sign;
// - sign = UPPER(HEX(HMAC-SHA256(app_secret, api_path + k1v1k2v2… over every other parameter sorted by name)));
// - POST /alibaba/order/list (role=seller, start_page from 0, page_size, modified_date_start as
//   {"date_timestamp": "<epoch ms>"}) → value.order_list[] of trade_id, trade_status, create_date/modify_date
//   {format_date, timestamp}, and value.total_count; whether seller-role access works so. The date object may also carry
//   a "yyyy-MM-dd HH:mm:ss" date_str, whose time zone is not documented (one copy of the docs says America/Los_Angeles,
//   and the answers' format_date are US Pacific time): we send only the timestamp, so no zone is guessed, and start
//   ALIBABA_OVERLAP_MS earlier than asked, so an order the gateway files a little late is not missed (an order read
//   twice changes nothing);
// - POST /auth/token/refresh (refresh_token; no access_token) → {access_token, refresh_token, expires_in (s, "864000"
//   = 10 days), refresh_expires_in (s; "0" = cannot be refreshed), code: "0"} at the top level. The access token is
//   renewed 30 minutes before it expires when we know when that is, and whenever the gateway refuses it; the new pair
//   is stored back (credentialStore), sealed like the rest;
// - POST /alibaba/order/get (e_trade_id) → value.shipping_address {contact_person, address, city, province, zip,
//   country_code}, total_amount {amount, currency}, order_products[] {name, quantity, sku_id}, buyer {full_name};
// - success is {code: "0", value}; a refusal is {error_response: {code, msg, sub_code, sub_msg}} (the form of
//   Alibaba's open-platform gateways) or {code: "<not 0>", message}; which codes mean what is our reading
//   (InvalidAppKey, IncompleteSignature, IllegalAccessToken → the credentials; ApiCallLimit → slow down).
// The list does not carry addresses or amounts, so each listed order is read in detail (four at a time).
//
// Status mapping (ours ← Alibaba): pending ← to_be_audited, unpay, paying, frozen; processing ← paid, captured,
// undeliver, delivering, wait_confirm_receipt, trade_success; cancelled ← trade_close, charge_back. The older
// TOP-style words (WAIT_BUYER_PAY, WAIT_SELLER_SEND_GOODS, TRADE_CLOSED…) map alike.
import { createHmac } from "node:crypto";
import { z } from "zod";
import {
  credentialsRefused,
  exchange,
  parseWire,
  readJson,
  serviceFailed,
  serviceLimiting,
  trimBase,
} from "../http/kit";
import { amountMinor, failOnStatus, isSandboxStoreUrl, num, parseStoreDate, text } from "./http";
import {
  STORE_NAMES,
  type TStoreAdapter,
  type TStoreOrder,
  type TStoreOrderStatus,
  type TStoreSettings,
} from "./types";

export const ALIBABA_GATEWAY = "https://openapi-api.alibaba.com/rest";
export const ALIBABA_SANDBOX_GATEWAY = "https://openapi-api-sandbox.alibaba.com/rest";
export const ALIBABA_ORDER_LIST = "/alibaba/order/list";
export const ALIBABA_ORDER_GET = "/alibaba/order/get";
export const ALIBABA_TOKEN_REFRESH = "/auth/token/refresh";
/** How much earlier than asked an order list starts. */
export const ALIBABA_OVERLAP_MS = 10 * 60_000;
/** How long before the access token's expiry it is renewed (the guide's advice). */
const RENEW_MARGIN_MS = 30 * 60_000;
/** Orders per list page at most (the guide recommends 20–50). */
export const ALIBABA_MAX_PAGE = 50;
/** Order details read at the same time. */
const DETAIL_CONCURRENCY = 4;

/** The gateway's signature over an API path and every parameter but `sign`. */
export const alibabaSign = (apiPath: string, params: Record<string, string>, appSecret: string) => {
  const canonical =
    apiPath +
    Object.keys(params)
      .filter((k) => k !== "sign")
      .sort()
      .map((k) => `${k}${params[k]}`)
      .join("");
  return createHmac("sha256", appSecret).update(canonical, "utf8").digest("hex").toUpperCase();
};

/** A call's parameters: the business ones, the system ones (access_token only when given), and the signature. */
export const alibabaSignedParams = (
  apiPath: string,
  business: Record<string, string>,
  creds: { appKey?: string; appSecret?: string; accessToken?: string },
  now = Date.now(),
): Record<string, string> => {
  const params: Record<string, string> = {
    ...business,
    app_key: creds.appKey ?? "",
    sign_method: "sha256",
    timestamp: String(now),
    ...(creds.accessToken !== undefined && { access_token: creds.accessToken }),
  };
  return { ...params, sign: alibabaSign(apiPath, params, creds.appSecret ?? "") };
};

const STATUS: Record<string, TStoreOrderStatus> = {
  to_be_audited: "pending",
  unpay: "pending",
  paying: "pending",
  frozen: "pending",
  paid: "processing",
  captured: "processing",
  undeliver: "processing",
  delivering: "processing",
  wait_confirm_receipt: "processing",
  trade_success: "processing",
  trade_close: "cancelled",
  charge_back: "cancelled",
  wait_buyer_pay: "pending",
  wait_seller_send_goods: "processing",
  seller_part_send_goods: "processing",
  wait_buyer_confirm_goods: "processing",
  trade_finished: "processing",
  trade_closed: "cancelled",
};

/** Our status for Alibaba's trade status. */
export const alibabaStatus = (word: string | null | undefined): TStoreOrderStatus =>
  STATUS[(word ?? "").trim().toLowerCase()] ?? "pending";

const CREDENTIAL_CODES = new Set([
  "InvalidAppKey",
  "AppKeyNotExist",
  "IncompleteSignature",
  "InvalidSignature",
  "IllegalAccessToken",
  "InvalidAccessToken",
  "AccessTokenExpired",
  "InsufficientPermission",
  // TOP-style numbers: missing/invalid session, invalid signature, invalid app key.
  "25",
  "26",
  "27",
  "29",
]);
const LIMIT_CODES = new Set(["ApiCallLimit", "AppCallLimited", "7"]);
/** Refusals of the access token itself (invalid or expired session), which a refresh may cure. */
const ACCESS_TOKEN_CODES = new Set(["IllegalAccessToken", "InvalidAccessToken", "AccessTokenExpired", "27"]);

const s = z.string().nullish();
const n = z.union([z.number(), z.string()]).nullish();
const ZDate = z.looseObject({ timestamp: n }).nullish();
const ZMoney = z.looseObject({ amount: n, currency: s }).nullish();
const ZRefreshed = z.looseObject({ access_token: z.string().min(1), refresh_token: s, expires_in: n });
const ZEnvelope = z.looseObject({
  code: z.union([z.string(), z.number()]).nullish(),
  message: s,
  msg: s,
  value: z.unknown().optional(),
  error_response: z
    .looseObject({ code: z.union([z.string(), z.number()]).nullish(), msg: s, message: s, sub_code: s, sub_msg: s })
    .nullish(),
});
const ZEntry = z.looseObject({
  trade_id: z.union([z.string(), z.number()]),
  trade_status: s,
  create_date: ZDate,
  modify_date: ZDate,
  shipping_address: z.unknown().optional(),
  total_amount: ZMoney,
});
const ZList = z.looseObject({ total_count: n, order_list: z.array(z.unknown()).nullish() });
const ZDetail = z.looseObject({
  trade_id: z.union([z.string(), z.number()]),
  trade_status: s,
  create_date: ZDate,
  modify_date: ZDate,
  shipping_address: z
    .looseObject({
      contact_person: s,
      address: s,
      city: s,
      province: s,
      zip: s,
      country_code: s,
    })
    .nullish(),
  order_products: z.array(z.looseObject({ name: s, quantity: n, sku_id: n })).nullish(),
  total_amount: ZMoney,
  buyer: z.looseObject({ full_name: s }).nullish(),
});

/** An order detail (or a list entry that carries one) as a store order; null without an id or a creation date. */
export const mapAlibabaOrder = (raw: unknown, fallback?: { updatedAt?: number | null }): TStoreOrder | null => {
  const r = ZDetail.safeParse(raw);
  if (!r.success) return null;
  const o = r.data;
  const orderDate = parseStoreDate(o.create_date?.timestamp);
  if (orderDate === null) return null;
  const currency = text(o.total_amount?.currency)?.toUpperCase() ?? "USD";
  const a = o.shipping_address;
  const storeStatus = text(o.trade_status) ?? "";
  return {
    externalOrderId: String(o.trade_id),
    orderNumber: String(o.trade_id),
    orderDate,
    updatedAt: parseStoreDate(o.modify_date?.timestamp) ?? fallback?.updatedAt ?? orderDate,
    customerName: text(o.buyer?.full_name) ?? text(a?.contact_person),
    status: alibabaStatus(storeStatus),
    storeStatus,
    currency,
    totalMinor: amountMinor(o.total_amount?.amount, currency) ?? 0,
    shipping: {
      name: text(a?.contact_person),
      line1: text(a?.address),
      city: text(a?.city),
      state: text(a?.province),
      country: text(a?.country_code)?.toUpperCase().replace(/^UK$/, "GB") ?? null,
      postalCode: text(a?.zip),
      latitude: null,
      longitude: null,
    },
    items: (o.order_products ?? []).map((p) => ({
      title: text(p.name) ?? "",
      quantity: num(p.quantity) ?? 0,
      sku: text(p.sku_id),
      unitWeightGrams: null,
    })),
  };
};

/** The date object the order list filters by: epoch ms only (a date_str would need a time zone nobody documents). */
export const alibabaDate = (ms: number) => JSON.stringify({ date_timestamp: String(ms) });

const mapLimit = async <T, R>(list: T[], limit: number, f: (t: T) => Promise<R>): Promise<R[]> => {
  const out: R[] = new Array(list.length);
  let next = 0;
  const worker = async () => {
    while (next < list.length) {
      const i = next++;
      out[i] = await f(list[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, list.length) }, worker));
  return out;
};

type TSent = { ok: true; body: z.output<typeof ZEnvelope> } | { ok: false; code: string | null; reason: string };

/**
 * Alibaba.com (unconfirmed, see the note at the top): signed order list, then each order's detail; the seller's access
 * token renewed with the refresh token and stored back.
 */
export const createAlibabaAdapter = (s: TStoreSettings): TStoreAdapter => {
  const store = s.name || STORE_NAMES.alibaba;
  const creds = s.credentials;
  const base = trimBase(s.baseUrl || ALIBABA_GATEWAY);
  const app = { appKey: creds.appKey, appSecret: creds.appSecret };
  let tokens = {
    accessToken: creds.accessToken ?? "",
    refreshToken: creds.refreshToken ?? "",
    expiresAt: num(creds.accessTokenExpiresAt),
  };

  /** One signed request: the gateway's envelope, or its refusal (code and reason); HTTP failures throw. */
  const send = async (apiPath: string, params: Record<string, string>): Promise<TSent> => {
    const res = await exchange(
      store,
      `${base}${apiPath}`,
      {
        method: "POST",
        headers: { "Content-Type": "application/x-www-form-urlencoded;charset=utf-8", Accept: "application/json" },
        body: new URLSearchParams(params).toString(),
      },
      s.timeoutMs,
      { trusted: s.sandboxOrigins },
    );
    const body = ZEnvelope.safeParse(res.status >= 200 && res.status < 300 ? readJson(store, res) : safeJson(res.text));
    const er = body.success ? body.data.error_response : null;
    const code = er ? text(er.code) : body.success ? text(body.data.code) : null;
    const message = er
      ? (text(er.sub_msg) ?? text(er.msg) ?? text(er.message))
      : body.success
        ? (text(body.data.message) ?? text(body.data.msg))
        : null;
    const reason = code ? `${message ?? "error"} (${code})` : (message ?? undefined);
    failOnStatus(store, res, { reason });
    if (!body.success) throw serviceFailed(store, "the answer is not the gateway's JSON");
    if (er || (code !== null && code !== "0")) return { ok: false, code, reason: reason ?? "error" };
    return { ok: true, body: body.data };
  };

  const refused = (r: { code: string | null; reason: string }) => {
    if (r.code && CREDENTIAL_CODES.has(r.code)) return credentialsRefused(store, r.reason);
    if (r.code && LIMIT_CODES.has(r.code)) return serviceLimiting(store, undefined);
    return serviceFailed(store, r.reason);
  };

  /**
   * A new access token for the refused (or expiring) one `used`: the pair another process stored meanwhile if there is
   * one, else the refresh call's, stored back. One renewal at a time; calls that were waiting use its result.
   */
  let renewing: Promise<void> | null = null;
  const renew = (used: string): Promise<void> => {
    if (tokens.accessToken !== used) return Promise.resolve();
    renewing ??= (async () => {
      const stored = await s.credentialStore?.load();
      if (stored?.accessToken && stored.accessToken !== used) {
        tokens = {
          accessToken: stored.accessToken,
          refreshToken: stored.refreshToken ?? tokens.refreshToken,
          expiresAt: num(stored.accessTokenExpiresAt),
        };
        return;
      }
      const r = await send(
        ALIBABA_TOKEN_REFRESH,
        alibabaSignedParams(ALIBABA_TOKEN_REFRESH, { refresh_token: tokens.refreshToken }, app),
      );
      // The refresh token is the credential here: any refusal but a rate limit means it no longer serves.
      if (!r.ok) throw r.code && LIMIT_CODES.has(r.code) ? refused(r) : credentialsRefused(store, r.reason);
      const t = parseWire(store, ZRefreshed, r.body);
      const lifetimeMs = (num(t.expires_in) ?? 0) * 1000;
      tokens = {
        accessToken: t.access_token,
        refreshToken: text(t.refresh_token) ?? tokens.refreshToken,
        expiresAt: lifetimeMs > 0 ? Date.now() + lifetimeMs : null,
      };
      await s.credentialStore?.save({
        ...creds,
        accessToken: tokens.accessToken,
        refreshToken: tokens.refreshToken,
        ...(tokens.expiresAt !== null && { accessTokenExpiresAt: String(tokens.expiresAt) }),
      });
    })().finally(() => {
      renewing = null;
    });
    return renewing;
  };

  /** One signed call with the seller's token; the `value` of a success, or the AppError for the gateway's refusal. */
  const call = async (apiPath: string, business: Record<string, string>): Promise<unknown> => {
    // Renewed ahead of its expiry when we know it; should that fail, the token is tried as it is.
    if (tokens.expiresAt !== null && Date.now() >= tokens.expiresAt - RENEW_MARGIN_MS)
      await renew(tokens.accessToken).catch(() => undefined);
    for (let renewed = false; ; renewed = true) {
      const used = tokens.accessToken;
      const r = await send(apiPath, alibabaSignedParams(apiPath, business, { ...app, accessToken: used }));
      if (r.ok) return r.body.value;
      if (!renewed && r.code && ACCESS_TOKEN_CODES.has(r.code) && tokens.refreshToken) {
        await renew(used);
        continue;
      }
      throw refused(r);
    }
  };

  const detail = async (entry: unknown): Promise<TStoreOrder | null> => {
    const e = ZEntry.safeParse(entry);
    if (!e.success) return null;
    const listed = { updatedAt: parseStoreDate(e.data.modify_date?.timestamp) };
    // A list that already carries the address and the amount needs no second call.
    if (e.data.shipping_address && e.data.total_amount) return mapAlibabaOrder(entry, listed);
    return mapAlibabaOrder(await call(ALIBABA_ORDER_GET, { e_trade_id: String(e.data.trade_id) }), listed);
  };

  const list = async (updatedSince: number, pageSize: number, page: number) => {
    const size = Math.max(1, Math.min(ALIBABA_MAX_PAGE, Math.floor(pageSize) || 1));
    const value = parseWire(
      store,
      ZList,
      await call(ALIBABA_ORDER_LIST, {
        role: "seller",
        start_page: String(page),
        page_size: String(size),
        ...(updatedSince > 0
          ? { modified_date_start: alibabaDate(Math.max(0, updatedSince - ALIBABA_OVERLAP_MS)) }
          : {}),
      }),
    );
    const entries = value.order_list ?? [];
    const total = num(value.total_count);
    const more = entries.length === size && (total === null || (page + 1) * size < total);
    return { entries, cursor: more ? String(page + 1) : null };
  };

  return {
    platform: "alibaba",
    storeName: STORE_NAMES.alibaba,
    sandbox: isSandboxStoreUrl(base),
    async test() {
      await list(0, 1, 0);
    },
    async listOrders(q) {
      const page = q.cursor && /^\d+$/.test(q.cursor) ? Number(q.cursor) : 0;
      const { entries, cursor } = await list(q.updatedSince, q.pageSize, page);
      const orders = await mapLimit(entries, DETAIL_CONCURRENCY, detail);
      return { orders: orders.filter((o): o is TStoreOrder => o !== null), cursor };
    },
    verifyWebhook: null,
  };
};

const safeJson = (t: string): unknown => {
  try {
    return JSON.parse(t);
  } catch {
    return null;
  }
};
