import { and, desc, eq, gte, inArray, isNotNull, isNull, like, notInArray, or, sql } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import {
  jobs,
  loadAlerts,
  loads,
  type MarketplaceConfig,
  marketplaceConfigs,
  type NewLoad,
  type SyncRun,
  syncRuns,
  type User,
  users,
} from "../../../../db/tables";
import type { TEquipmentType } from "../../../shared/constants";
import { DEFAULT_SEARCH_RADIUS, DEFAULT_SYNC_INTERVAL_MINUTES } from "../../../shared/schemas/boards";
import { AppError } from "../../errors";
import type { TBoardServices } from "../../integrations/boards/services";
import { BOARD_NAMES, type TBoardLoad, type TBoardSearch } from "../../integrations/boards/types";
import { enqueue } from "../../jobs/queue";
import { hasPremium, requirePremium } from "../billing/premium";
import { adapterOf, canSync, listMarketplaces, ownMarketplace } from "./configs";
import { boardSyncJob } from "./jobs";
import { listLanes } from "./lanes";
import { toLoadValues } from "./map";
import { originOf } from "./search";

// Sync (Truckstop, 123Loadboard, our feed; never DAT, whose terms allow only searches a user starts and no stored
// copies): each active configuration with sync on searches its owner's lanes (last location, saved lanes) every
// syncIntervalMinutes as a job. What the
// board lists is upserted by (configuration, external id); a row changes only when the board's load did; loads the
// board no longer lists are removed (expired). Re-runs and two workers at once never duplicate a load: the unique index
// decides, and the counts of each run are recorded for the Monitoring tab.

const MINUTE = 60_000;
/** How many loads one lane asks a board for. */
export const SYNC_LIMIT = 200;
const BATCH = 400;

export type TSyncCounts = { found: number; created: number; updated: number; expired: number; skipped: number };

/**
 * Writes a board's list for one configuration: new loads inserted, changed ones updated, the rest left alone, and the
 * configuration's loads missing from the list removed. Idempotent: the same list twice changes nothing the second time.
 */
export const upsertExternalLoads = async (
  db: TDb,
  cfg: { id: number; userId: number; provider: string },
  list: TBoardLoad[],
  now = Date.now(),
): Promise<TSyncCounts> => {
  const existing = new Map(
    (
      await db
        .select({ id: loads.id, ext: loads.sourceExternalId, hash: loads.sourceHash })
        .from(loads)
        .where(eq(loads.sourceConfigId, cfg.id))
    ).map((r) => [r.ext ?? "", r]),
  );
  const byId = new Map<string, NewLoad>();
  let skipped = 0;
  for (const b of list) {
    const v = toLoadValues(b, { provider: cfg.provider, configId: cfg.id, ownerId: cfg.userId }, now);
    if (v) byId.set(b.externalId, v);
    else skipped++;
  }
  let created = 0;
  let updated = 0;
  const write: NewLoad[] = [];
  for (const [ext, v] of byId) {
    const was = existing.get(ext);
    if (!was) created++;
    else if (was.hash !== v.sourceHash) updated++;
    else continue;
    write.push(v);
  }
  await db.q.upsertExternalLoads(write);
  const gone = [...existing.entries()].filter(([ext]) => !byId.has(ext)).map(([, r]) => r.id);
  for (let i = 0; i < gone.length; i += BATCH) {
    await db.delete(loads).where(and(eq(loads.sourceConfigId, cfg.id), inArray(loads.id, gone.slice(i, i + BATCH))));
  }
  return { found: byId.size + skipped, created, updated, expired: gone.length, skipped };
};

/**
 * The lanes a sync searches: the owner's last location with their load-alert radius and equipment (or any), then each
 * saved lane (its origin and radius, its destination and radius, one search per equipment type or one for any).
 * Searches asked twice (two saved lanes alike) are asked once; loads found by several lanes are kept once by the run.
 */
export const syncLanes = async (db: TDb, userId: number): Promise<TBoardSearch[]> => {
  const [u] = await db.select().from(users).where(eq(users.id, userId));
  if (!u) return [];
  const searches: TBoardSearch[] = [];
  const origin = originOf(u, undefined);
  if (origin) {
    const [alert] = await db.select().from(loadAlerts).where(eq(loadAlerts.userId, userId));
    const radiusMiles = alert?.enabled ? alert.radiusMiles : Math.max(DEFAULT_SEARCH_RADIUS, 100);
    const equipment = alert?.enabled ? (JSON.parse(alert.equipmentTypes) as TBoardSearch["equipmentType"][]) : [];
    const base = { origin, radiusMiles, limit: SYNC_LIMIT };
    searches.push(...(equipment.length ? equipment.map((equipmentType) => ({ ...base, equipmentType })) : [base]));
  }
  for (const lane of await listLanes(db, userId)) {
    const from = originOf({ latitude: lane.originLatitude, longitude: lane.originLongitude }, undefined)!;
    const to =
      lane.destinationLatitude != null && lane.destinationLongitude != null
        ? originOf({ latitude: lane.destinationLatitude, longitude: lane.destinationLongitude }, undefined)
        : null;
    const base: TBoardSearch = {
      origin: from,
      radiusMiles: lane.originRadiusMiles,
      destination: to && { latitude: to.latitude, longitude: to.longitude, city: to.city, state: to.state },
      destinationRadiusMiles: to ? (lane.destinationRadiusMiles ?? lane.originRadiusMiles) : null,
      limit: SYNC_LIMIT,
    };
    const equipment = lane.equipmentTypes as TEquipmentType[];
    searches.push(...(equipment.length ? equipment.map((equipmentType) => ({ ...base, equipmentType })) : [base]));
  }
  const seen = new Set<string>();
  return searches.filter((q) => {
    const key = JSON.stringify([
      q.origin.latitude,
      q.origin.longitude,
      q.radiusMiles,
      q.destination?.latitude,
      q.destination?.longitude,
      q.destinationRadiusMiles,
      q.equipmentType ?? null,
    ]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
};

const allOutside = /*i18n*/ {
  id: "error.sync.allOutside",
  message:
    "{board} searches North America only, and neither your location nor any saved lane starts there: nothing was searched",
};

const NO_LANE = /*i18n*/ {
  id: "error.sync.noLane",
  message:
    "Sync needs your location or a saved lane: share your location on the load board, or save a lane on the Marketplaces page",
};

/** Why a run of an account without premium did nothing (kept as the run's and the configuration's error). */
export const SYNC_NEEDS_PREMIUM = /*i18n*/ {
  id: "error.sync.needsPremium",
  message:
    "Sync needs MyTess Premium, and this account's free period has ended: the synced loads are removed until premium is active again",
};

/** What a run says when the worker running it stopped before it finished. */
export const RUN_INTERRUPTED = "Interrupted: the worker running this sync stopped before it finished";

/**
 * Closes, as failed, the unfinished runs whose worker is gone: runs of `jobId` (an earlier attempt of the job that is
 * starting now) and runs whose job no worker holds any more (its lease lapsed, or it ended without finishing the run).
 * An operator's run in the CLI's own process has no job and is left alone.
 */
export const closeInterruptedRuns = async (db: TDb, now = Date.now(), jobId?: number) =>
  (
    await db
      .update(syncRuns)
      .set({ finishedAt: now, durationMs: sql`CAST(${now} AS BIGINT) - ${syncRuns.startedAt}`, error: RUN_INTERRUPTED })
      .where(
        and(
          isNull(syncRuns.finishedAt),
          isNotNull(syncRuns.jobId),
          or(
            jobId === undefined ? undefined : eq(syncRuns.jobId, jobId),
            notInArray(
              syncRuns.jobId,
              db
                .select({ id: jobs.id })
                .from(jobs)
                .where(and(eq(jobs.status, "running"), gte(jobs.lockedUntil, now))),
            ),
          ),
        ),
      )
      .returning({ id: syncRuns.id })
  ).length;

/**
 * One sync of one configuration, recorded as a run. A failing board is recorded, not thrown: the next slot tries again.
 * An owner without premium gets a run that says so, and the configuration's synced loads go. `jobId` is the job
 * running it: an unfinished run of an earlier attempt (its worker died) is closed as failed first.
 */
export const runSync = async (
  db: TDb,
  services: TBoardServices,
  configId: number,
  trigger: "schedule" | "manual",
  onProgress?: (p: { lane: number; lanes: number; found: number }) => void,
  jobId?: number,
): Promise<SyncRun | null> => {
  const [c] = await db.select().from(marketplaceConfigs).where(eq(marketplaceConfigs.id, configId));
  if (!c || !syncable(c)) return null;
  const startedAt = Date.now();
  await closeInterruptedRuns(db, startedAt, jobId);
  const [run] = await db
    .insert(syncRuns)
    .values({ configId: c.id, userId: c.userId, trigger, startedAt, jobId: jobId ?? null })
    .returning();
  let counts: TSyncCounts = { found: 0, created: 0, updated: 0, expired: 0, skipped: 0 };
  let error: string | null = null;
  // Loads the board listed that could not be read (by id, so a load found by two lanes counts once).
  const unreadable = new Set<string>();
  let lanesOutside = 0;
  try {
    const [owner] = await db.select().from(users).where(eq(users.id, c.userId));
    if (!owner || !hasPremium(owner)) {
      counts = await upsertExternalLoads(db, c, [], Date.now());
      throw new AppError("SUBSCRIPTION_REQUIRED", SYNC_NEEDS_PREMIUM);
    }
    const all = await syncLanes(db, c.userId);
    if (!all.length) {
      // Nothing left to search (the last saved lane deleted, say): what earlier runs found goes, and the run says why.
      counts = await upsertExternalLoads(db, c, [], Date.now());
      throw new AppError("BAD_REQUEST", NO_LANE);
    }
    const adapter = adapterOf(db, services, c);
    // Lanes the board does not search from (Truckstop outside North America) are left out, and the run says so.
    const lanes = all.filter((q) => !adapter.outsideArea?.(q));
    lanesOutside = all.length - lanes.length;
    if (!lanes.length) {
      counts = await upsertExternalLoads(db, c, [], Date.now());
      throw new AppError("BAD_REQUEST", {
        ...allOutside,
        values: { board: BOARD_NAMES[c.provider as keyof typeof BOARD_NAMES] },
      });
    }
    const found = new Map<string, TBoardLoad>();
    for (const [i, lane] of lanes.entries()) {
      const answer = await adapter.search(lane);
      for (const l of answer.loads) found.set(l.externalId, l);
      for (const [k, skip] of answer.skipped.entries()) unreadable.add(skip.id ?? `${i}:${k}`);
      onProgress?.({ lane: i + 1, lanes: lanes.length, found: found.size });
    }
    counts = await upsertExternalLoads(db, c, [...found.values()], Date.now());
  } catch (err) {
    error = err instanceof Error ? err.message : String(err);
  }
  const finishedAt = Date.now();
  const [done] = await db
    .update(syncRuns)
    .set({
      finishedAt,
      durationMs: finishedAt - startedAt,
      found: counts.found,
      created: counts.created,
      updated: counts.updated,
      expired: counts.expired,
      unreadable: unreadable.size + counts.skipped,
      lanesOutside,
      error,
    })
    .where(eq(syncRuns.id, run!.id))
    .returning();
  await db
    .update(marketplaceConfigs)
    .set({ lastSyncAt: finishedAt, lastError: error })
    .where(eq(marketplaceConfigs.id, c.id));
  return done!;
};

const syncable = (c: MarketplaceConfig) => c.isActive && canSync(c.provider);

/**
 * Scheduled every minute: a sync job for each configuration whose interval has passed, once per slot. An owner without
 * premium gets one more run, which records why and removes the synced loads; after that none until premium is back.
 * Runs whose worker died are closed here too, should their job never be taken over (it was on its last attempt).
 */
export const enqueueDueSyncs = async (db: TDb, now = Date.now()) => {
  await closeInterruptedRuns(db, now);
  const candidates = await db
    .select({ c: marketplaceConfigs, owner: users })
    .from(marketplaceConfigs)
    .innerJoin(users, eq(users.id, marketplaceConfigs.userId))
    .where(and(eq(marketplaceConfigs.isActive, true), eq(marketplaceConfigs.syncEnabled, true)));
  let queued = 0;
  for (const { c, owner } of candidates) {
    if (!syncable(c)) continue;
    if (!hasPremium(owner, now) && c.lastError === SYNC_NEEDS_PREMIUM.message) continue;
    const every = c.syncIntervalMinutes * MINUTE;
    if (c.lastSyncAt != null && c.lastSyncAt + every > now) continue;
    const id = await enqueue(
      db,
      boardSyncJob,
      { configId: c.id, trigger: "schedule" },
      { uniqueKey: `board_sync:${c.id}:${Math.floor(now / every)}` },
      now,
    );
    if (id) queued++;
  }
  return { queued };
};

/**
 * Manual Sync: a job now for each of the caller's active boards with sync on. Boards with sync off are searched live and
 * keep no copy, so there is nothing to sync for them. Sync is premium.
 */
export const startManualSync = async (db: TDb, user: User, configId?: number, now = Date.now()) => {
  requirePremium(user, now);
  const list = configId ? [await ownMarketplace(db, user, configId)] : await listMarketplaces(db, user.id);
  const targets = list.filter((c) => syncable(c) && c.syncEnabled);
  if (!targets.length)
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.sync.nothingToSync",
        message:
          "No board has sync switched on: switch it on for Truckstop, 123Loadboard or a load feed (DAT is searched live only)",
      },
    );
  for (const c of targets)
    await enqueue(
      db,
      boardSyncJob,
      { configId: c.id, trigger: "manual" },
      // A second click within ten seconds does not queue the same sync again.
      { uniqueKey: `board_sync:${c.id}:manual:${Math.floor(now / 10_000)}` },
      now,
    );
  return { message: "Manual synchronization has been started.", queued: targets.length };
};

/** The sync status (isRunning, intervalMinutes, lastSyncTimes, nextSyncInMinutes) of the caller's boards. */
export const syncStatus = async (db: TDb, user: User, now = Date.now()) => {
  const list = (await listMarketplaces(db, user.id)).filter(syncable);
  const scheduled = list.filter((c) => c.syncEnabled);
  const pending = list.length
    ? await db
        .select({ id: jobs.id })
        .from(jobs)
        .where(
          and(
            eq(jobs.kind, "board_sync"),
            inArray(jobs.status, ["pending", "running"]),
            or(...list.map((c) => like(jobs.uniqueKey, `board_sync:${c.id}:%`))),
          ),
        )
        .limit(1)
    : [];
  const next = scheduled.map((c) =>
    c.lastSyncAt == null ? 0 : Math.max(0, Math.ceil((c.lastSyncAt + c.syncIntervalMinutes * MINUTE - now) / MINUTE)),
  );
  return {
    isRunning: pending.length > 0,
    intervalMinutes: scheduled.length
      ? Math.min(...scheduled.map((c) => c.syncIntervalMinutes))
      : DEFAULT_SYNC_INTERVAL_MINUTES,
    lastSyncTimes: Object.fromEntries(
      list.filter((c) => c.lastSyncAt != null).map((c) => [String(c.id), new Date(c.lastSyncAt!).toISOString()]),
    ) as Record<string, string>,
    nextSyncInMinutes: next.length ? Math.min(...next) : null,
  };
};

/** The Monitoring tab: the caller's recent sync runs, newest first. */
export const syncHistory = async (db: TDb, user: User, configId?: number, limit = 50) => {
  const rows = await db
    .select({ run: syncRuns, name: marketplaceConfigs.name, provider: marketplaceConfigs.provider })
    .from(syncRuns)
    .innerJoin(marketplaceConfigs, eq(marketplaceConfigs.id, syncRuns.configId))
    .where(and(eq(syncRuns.userId, user.id), configId ? eq(syncRuns.configId, configId) : undefined))
    .orderBy(desc(syncRuns.id))
    .limit(limit);
  return rows.map(({ run, name, provider }) => ({
    id: run.id,
    configId: run.configId,
    name,
    provider,
    trigger: run.trigger,
    startedAt: new Date(run.startedAt).toISOString(),
    finishedAt: run.finishedAt == null ? null : new Date(run.finishedAt).toISOString(),
    found: run.found,
    created: run.created,
    updated: run.updated,
    expired: run.expired,
    /** Loads the board listed that could not be read. */
    unreadable: run.unreadable,
    /** Lanes left out because the board does not search from there. */
    lanesOutside: run.lanesOutside,
    durationMs: run.durationMs,
    error: run.error,
  }));
};
