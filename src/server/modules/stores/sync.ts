import { and, eq, sql } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { ecommerceIntegrations, type User, users } from "../../../../db/tables";
import { AppError } from "../../errors";
import type { TStoreServices } from "../../integrations/stores/services";
import { enqueue } from "../../jobs/queue";
import { hasPremium, userHasPremium } from "../billing/premium";
import { ownIntegration, recordStoreError, settingsOf, storeAdapterOf } from "./integrations";
import { storeSyncJob } from "./jobs";
import { upsertOrders } from "./orders";

// Order sync: pages of the orders the store changed since the integration's cursor (less a minute, so an order changed
// while the last run read is not missed), written by (integration, external order id); the cursor only moves forward.
// Manual sync answers with what it did; the schedule runs each integration's interval as a job keyed by its slot.

const MINUTE = 60_000;
const PAGE_SIZE = 50;
/** At most this many pages a run; the next run goes on from the cursor. */
const MAX_PAGES = 40;

/** Why an account without premium imports no orders (the manual sync's 402, the scheduled run's recorded error). */
export const STORE_SYNC_NEEDS_PREMIUM = /*i18n*/ {
  id: "error.ecommerce.needsPremium",
  message:
    "Importing store orders needs MyTess Premium, and this account's free period has ended: the orders already imported stay",
};

export type TStoreSyncResult = {
  created: number;
  updated: number;
  pages: number;
  /** The store limited requests part-way: what was read is kept, the rest comes with the next sync. */
  partial: boolean;
  message: string;
};

export const runStoreSync = async (
  db: TDb,
  services: TStoreServices,
  integrationId: number,
  onPage?: (p: { page: number; created: number; updated: number }) => void,
  now = Date.now(),
): Promise<TStoreSyncResult> => {
  const [i] = await db.select().from(ecommerceIntegrations).where(eq(ecommerceIntegrations.id, integrationId));
  if (!i)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ { id: "error.ecommerce.notFound", message: "E-commerce integration not found" },
    );
  if (!i.isActive)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.ecommerce.inactive",
        message: "{name} is inactive; activate it to sync",
        values: { name: i.name },
      },
    );
  if (!(await userHasPremium(db, i.userId, now))) throw new AppError("SUBSCRIPTION_REQUIRED", STORE_SYNC_NEEDS_PREMIUM);
  const adapter = storeAdapterOf(db, services, i);
  const since = Math.max(0, i.syncCursor - MINUTE);
  let cursor: string | null = null;
  let created = 0;
  let updated = 0;
  let pages = 0;
  let newest = i.syncCursor;
  let partial = false;
  try {
    do {
      const page = await adapter.listOrders({ updatedSince: since, cursor, pageSize: PAGE_SIZE });
      const counts = await upsertOrders(db, i, page.orders, now);
      created += counts.created;
      updated += counts.updated;
      for (const o of page.orders) newest = Math.max(newest, o.updatedAt);
      cursor = page.cursor;
      pages++;
      onPage?.({ page: pages, created, updated });
    } while (cursor && pages < MAX_PAGES);
  } catch (err) {
    await db
      .update(ecommerceIntegrations)
      .set({ lastSyncAt: now, lastError: err instanceof Error ? err.message : String(err) })
      .where(eq(ecommerceIntegrations.id, i.id));
    // Throttled after some pages: keep what was read (the cursor stays, so the next run reads on from it).
    if (!(err instanceof AppError && err.code === "TOO_MANY_REQUESTS" && pages > 0)) throw err;
    partial = true;
  }
  if (partial)
    return {
      created,
      updated,
      pages,
      partial,
      message: `${created} new orders, ${updated} updated; ${i.name} is limiting requests, the rest comes with the next sync`,
    };
  await db
    .update(ecommerceIntegrations)
    .set({
      lastSyncAt: now,
      lastError: null,
      syncCursor: sql`CASE WHEN ${ecommerceIntegrations.syncCursor} < ${newest} THEN ${newest} ELSE ${ecommerceIntegrations.syncCursor} END`,
    })
    .where(eq(ecommerceIntegrations.id, i.id));
  return { created, updated, pages, partial, message: `${created} new orders, ${updated} updated` };
};

/**
 * Manual sync of the caller's integration, answered with what it did (the web app's Sync Successful toast shows the
 * message).
 */
export const syncIntegration = async (db: TDb, services: TStoreServices, user: User, id: number) => {
  const i = await ownIntegration(db, user, id);
  return runStoreSync(db, services, i.id);
};

/**
 * Scheduled every minute: a sync job for each active integration whose interval has passed, once per slot. An owner
 * without premium gets one more run, which records why; after that none until premium is back.
 */
export const enqueueDueStoreSyncs = async (db: TDb, now = Date.now()) => {
  const active = await db
    .select({ i: ecommerceIntegrations, owner: users })
    .from(ecommerceIntegrations)
    .innerJoin(users, eq(users.id, ecommerceIntegrations.userId))
    .where(eq(ecommerceIntegrations.isActive, true));
  let queued = 0;
  for (const { i, owner } of active) {
    if (!hasPremium(owner, now) && i.lastError === STORE_SYNC_NEEDS_PREMIUM.message) continue;
    const every = (settingsOf(i).syncIntervalMinutes ?? 30) * MINUTE;
    if (i.lastSyncAt != null && i.lastSyncAt + every > now) continue;
    const id = await enqueue(
      db,
      storeSyncJob,
      { integrationId: i.id },
      { uniqueKey: `store_sync:${i.id}:${Math.floor(now / every)}` },
      now,
    );
    if (id) queued++;
  }
  return { queued };
};

/** The job: a scheduled sync; a failing store is recorded on the integration (lastError), not retried until the next slot. */
export const runStoreSyncJob = async (db: TDb, services: TStoreServices, integrationId: number) => {
  try {
    return await runStoreSync(db, services, integrationId);
  } catch (err) {
    if (err instanceof AppError && err.code === "NOT_FOUND") return null;
    await recordStoreError(db, integrationId, err instanceof Error ? err.message : String(err));
    return null;
  }
};

export const activeIntegrations = (db: TDb) =>
  db
    .select()
    .from(ecommerceIntegrations)
    .where(and(eq(ecommerceIntegrations.isActive, true)));
