import { and, count, desc, eq, inArray, sql } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import {
  type EcommerceIntegration,
  type EcommerceOrder,
  ecommerceIntegrations,
  ecommerceOrders,
  ecommerceWebhooks,
  type User,
} from "../../../../db/tables";
import { fromMinor } from "../../../shared/money";
import type { TOrderListInput, TOrderStatus } from "../../../shared/schemas/stores";
import { AppError } from "../../errors";
import type { TStoreServices } from "../../integrations/stores/services";
import type { TStoreOrder } from "../../integrations/stores/types";
import { userHasPremium } from "../billing/premium";
import { settingsOf, storeAdapterOf } from "./integrations";

// Store orders: one row per (integration, external order id), written by sync and by
// webhooks alike, so neither re-runs nor the two ways in ever duplicate an order. The status mirrors the store's
// (pending, processing, cancelled) until the order becomes a load ("converted", which stays).

export const toPublicOrder = (o: EcommerceOrder, integrationName?: string) => ({
  id: o.id,
  integrationId: o.integrationId,
  integrationName: integrationName ?? null,
  orderNumber: o.orderNumber,
  externalOrderId: o.externalOrderId,
  orderDate: new Date(o.orderDate).toISOString(),
  customerName: o.customerName,
  shippingCity: o.shippingCity,
  shippingState: o.shippingState,
  shippingCountry: o.shippingCountry,
  shippingPostalCode: o.shippingPostalCode,
  currency: o.currency,
  totalAmount: fromMinor(o.totalMinor, o.currency),
  status: o.status as TOrderStatus,
  storeStatus: o.storeStatus,
  items: o.items,
  isConvertedToLoad: o.loadId != null || o.status === "converted",
  loadId: o.loadId,
});
export type TPublicOrder = ReturnType<typeof toPublicOrder>;

const valuesOf = (i: EcommerceIntegration, o: TStoreOrder, now: number) => ({
  integrationId: i.id,
  userId: i.userId,
  externalOrderId: o.externalOrderId,
  orderNumber: o.orderNumber,
  orderDate: o.orderDate,
  storeUpdatedAt: o.updatedAt,
  customerName: o.customerName,
  status: o.status as TOrderStatus,
  storeStatus: o.storeStatus,
  currency: o.currency,
  totalMinor: o.totalMinor,
  shippingName: o.shipping.name,
  shippingLine1: o.shipping.line1,
  shippingCity: o.shipping.city,
  shippingState: o.shipping.state,
  shippingCountry: o.shipping.country,
  shippingPostalCode: o.shipping.postalCode,
  shippingLatitude: o.shipping.latitude,
  shippingLongitude: o.shipping.longitude,
  items: o.items,
  createdAt: now,
  updatedAt: now,
});

/**
 * Writes orders from the store: new ones (of the statuses the integration imports) are added, known ones follow the
 * store's changes (a converted order keeps its status and load), unchanged ones are left alone.
 */
export const upsertOrders = async (db: TDb, i: EcommerceIntegration, list: TStoreOrder[], now = Date.now()) => {
  const wanted = new Set<string>(settingsOf(i).importStatuses ?? ["pending", "processing"]);
  const ids = [...new Set(list.map((o) => o.externalOrderId))];
  const known = new Map<string, EcommerceOrder>();
  for (let k = 0; k < ids.length; k += 500) {
    const rows = await db
      .select()
      .from(ecommerceOrders)
      .where(
        and(eq(ecommerceOrders.integrationId, i.id), inArray(ecommerceOrders.externalOrderId, ids.slice(k, k + 500))),
      );
    for (const r of rows) known.set(r.externalOrderId, r);
  }
  let created = 0;
  let updated = 0;
  for (const o of list) {
    const was = known.get(o.externalOrderId);
    if (!was && !wanted.has(o.status)) continue;
    if (was && was.storeUpdatedAt >= o.updatedAt) continue;
    const v = valuesOf(i, o, now);
    const [row] = await db
      .insert(ecommerceOrders)
      .values(v)
      .onConflictDoUpdate({
        target: [ecommerceOrders.integrationId, ecommerceOrders.externalOrderId],
        set: {
          orderNumber: v.orderNumber,
          storeUpdatedAt: v.storeUpdatedAt,
          customerName: v.customerName,
          // A converted order stays converted: its load exists whatever the store says next.
          status: sql`CASE WHEN ${ecommerceOrders.status} = 'converted' THEN 'converted' ELSE ${v.status} END`,
          storeStatus: v.storeStatus,
          currency: v.currency,
          totalMinor: v.totalMinor,
          shippingName: v.shippingName,
          shippingLine1: v.shippingLine1,
          shippingCity: v.shippingCity,
          shippingState: v.shippingState,
          shippingCountry: v.shippingCountry,
          shippingPostalCode: v.shippingPostalCode,
          shippingLatitude: v.shippingLatitude,
          shippingLongitude: v.shippingLongitude,
          items: v.items,
          updatedAt: now,
        },
        setWhere: sql`${ecommerceOrders.storeUpdatedAt} < ${v.storeUpdatedAt}`,
      })
      .returning({ id: ecommerceOrders.id, createdAt: ecommerceOrders.createdAt });
    if (!row) continue;
    if (was) updated++;
    else created++;
    known.set(o.externalOrderId, { ...(was ?? ({} as EcommerceOrder)), storeUpdatedAt: o.updatedAt });
  }
  if (created)
    await db
      .update(ecommerceIntegrations)
      .set({ totalOrdersSynced: sql`${ecommerceIntegrations.totalOrdersSynced} + ${created}` })
      .where(eq(ecommerceIntegrations.id, i.id));
  return { created, updated };
};

/** The caller's orders (their integrations only), newest first, by integration and status, a page at a time. */
export const listOrders = async (db: TDb, user: User, q: TOrderListInput) => {
  const where = and(
    eq(ecommerceOrders.userId, user.id),
    q.integrationId ? eq(ecommerceOrders.integrationId, q.integrationId) : undefined,
    q.status ? eq(ecommerceOrders.status, q.status) : undefined,
  );
  const [total] = await db.select({ n: count() }).from(ecommerceOrders).where(where);
  const rows = await db
    .select({ o: ecommerceOrders, name: ecommerceIntegrations.name })
    .from(ecommerceOrders)
    .innerJoin(ecommerceIntegrations, eq(ecommerceIntegrations.id, ecommerceOrders.integrationId))
    .where(where)
    .orderBy(desc(ecommerceOrders.orderDate), desc(ecommerceOrders.id))
    .limit(q.pageSize)
    .offset((q.page - 1) * q.pageSize);
  return {
    items: rows.map((r) => toPublicOrder(r.o, r.name)),
    total: Number(total?.n ?? 0),
    page: q.page,
    pageSize: q.pageSize,
  };
};

const WEBHOOK_REFUSED = /*i18n*/ {
  id: "error.ecommerce.webhookRefused",
  comment: "Error answer to an online store's webhook call that could not be accepted",
  message: "Webhook refused",
};
const WEBHOOK_UNREADABLE = /*i18n*/ {
  id: "error.ecommerce.webhookUnreadable",
  message: "The webhook is not an order that can be read",
};

/**
 * A store's webhook for one integration (Shopify orders/create and orders/updated): the signature is checked over the
 * raw body, a delivery id seen before changes nothing, and the order is written as a sync would write it. Anyone can
 * call the address, so every refusal is the same 401 "Webhook refused" whatever the reason (no such integration, one
 * switched off, a platform without webhooks, no secret set, credentials that cannot be opened, a missing or wrong
 * signature): the answer names no integration, store or account, and does not tell an id that exists from one that
 * does not. A correctly signed body that is not an order is a 400 that names nothing either.
 */
export const receiveWebhook = async (
  db: TDb,
  services: TStoreServices,
  integrationId: number,
  raw: string,
  headers: Headers,
  now = Date.now(),
) => {
  const [i] = await db.select().from(ecommerceIntegrations).where(eq(ecommerceIntegrations.id, integrationId));
  if (!i?.isActive) throw new AppError("UNAUTHORIZED", WEBHOOK_REFUSED);
  let verified: ReturnType<NonNullable<ReturnType<typeof storeAdapterOf>["verifyWebhook"]>>;
  try {
    const adapter = storeAdapterOf(db, services, i);
    if (!adapter.verifyWebhook) throw new AppError("UNAUTHORIZED", WEBHOOK_REFUSED);
    verified = adapter.verifyWebhook(raw, headers);
  } catch (err) {
    if (!(err instanceof AppError)) throw err;
    // The adapters' own messages name the store ("Shopify (<name>): …"); none of them leaves this function.
    throw err.code === "BAD_REQUEST"
      ? new AppError("BAD_REQUEST", WEBHOOK_UNREADABLE)
      : new AppError("UNAUTHORIZED", WEBHOOK_REFUSED);
  }
  const { webhookId, order, topic } = verified;
  // Importing orders is premium: without it the store is answered (so it does not retry) and nothing is written; the
  // first sync after premium returns reads the orders from the cursor on.
  if (!(await userHasPremium(db, i.userId, now)))
    return { accepted: true as const, replayed: false, topic, created: 0, updated: 0 };
  if (webhookId) {
    const [fresh] = await db
      .insert(ecommerceWebhooks)
      .values({ webhookId: `${i.id}:${webhookId}`, integrationId: i.id, receivedAt: now })
      .onConflictDoNothing()
      .returning({ id: ecommerceWebhooks.webhookId });
    if (!fresh) return { accepted: true as const, replayed: true, topic, created: 0, updated: 0 };
  }
  const counts = await upsertOrders(db, i, [order], now);
  return { accepted: true as const, replayed: false, topic, ...counts };
};
