import type { TDb } from "../../../../db/client";
import type { Load, MarketplaceConfig, User } from "../../../../db/tables";
import { haversineMiles } from "../../../shared/geo";
import type { TBoardShipper } from "../../../shared/schemas/answers/common";
import type { TMarketplaceProvider, TMarketplaceSearchInput } from "../../../shared/schemas/boards";
import type { TLoadSearchInput } from "../../../shared/schemas/loads";
import { AppError } from "../../errors";
import { sourceText } from "../../i18n";
import { boardLabel } from "../../integrations/boards/http";
import type { TBoardServices } from "../../integrations/boards/services";
import { BOARD_NAMES, type TBoardLoad, type TBoardResult, type TBoardSearch } from "../../integrations/boards/types";
import { logger } from "../../logger";
import { boardStats, searchLoads, type TLoadPage } from "../loads/search";
import { toPublicLoad } from "../loads/serialize";
import { nearestPlace } from "../places/gazetteer";
import { loadRates, type TRates, toUsd } from "../platform/fx";
import { invitedLoadIds } from "../trucks/invitations";
import { shipperTrust } from "../trust/trust";
import { adapterOf, canSync, isSandboxBoardUrlOf, listMarketplaces, ownMarketplace, recordBoardError } from "./configs";
import { toLoadValues } from "./map";

// Live searches of a user's boards: the Search Loads tab (one board) and the load board (MyTess plus every connected
// board in one list). Boards with sync on are read from their synced copy; the others (DAT always) are asked live, each
// within a deadline: a slow or failing board is left out and named, never waited for.

/** Where to search from: the given point, else the user's last location; with the nearest town's name for boards that want one. */
export const originOf = (
  u: Pick<User, "latitude" | "longitude">,
  given: { latitude?: number; longitude?: number } | undefined,
): TBoardSearch["origin"] | null => {
  const latitude = given?.latitude ?? u.latitude;
  const longitude = given?.longitude ?? u.longitude;
  if (latitude == null || longitude == null) return null;
  const near = nearestPlace(latitude, longitude);
  return {
    latitude,
    longitude,
    city: near?.town ?? null,
    state: near?.state ?? null,
    country: near?.countryCode ?? null,
  };
};

/** A board's load as a Load row (not stored: id 0), so it is shown, filtered and sorted like every other load. */
const asLoad = (b: TBoardLoad, c: MarketplaceConfig, now: number): Load | null => {
  const v = toLoadValues(b, { provider: c.provider, configId: c.id, ownerId: c.userId }, now);
  if (!v) return null;
  return {
    ...v,
    id: 0,
    shipperId: null,
    shipperCompanyId: null,
    description: v.description ?? null,
    pickupState: v.pickupState ?? null,
    deliveryState: v.deliveryState ?? null,
    specialInstructions: null,
    status: "posted",
    sourceType: "external",
    sourceProvider: c.provider,
    sourceExternalId: b.externalId,
    sourceConfigId: c.id,
    sourceOwnerId: c.userId,
    sourceContact: v.sourceContact ?? null,
    sourceHash: v.sourceHash ?? null,
    sourceSeenAt: now,
    budgetCurrency: v.budgetCurrency ?? "USD",
    assignedDriverId: null,
    acceptedBidId: null,
    cancelledById: null,
    cancelReason: null,
    cancelledAt: null,
    pickedUpAt: null,
    deliveredAt: null,
    completedAt: null,
    createdAt: v.createdAt ?? now,
    updatedAt: now,
  } as Load;
};

/** A board's load whose places are not in the gazetteer: counted as unreadable, and logged for the operator. */
const unplaced = (c: MarketplaceConfig, b: TBoardLoad) =>
  logger.warn("board: a load's places could not be put on the map", {
    configId: c.id,
    provider: c.provider,
    externalId: b.externalId,
    pickup: `${b.pickup.city}, ${b.pickup.state ?? b.pickup.country}`,
    delivery: `${b.delivery.city}, ${b.delivery.state ?? b.delivery.country}`,
  });

export type TBoardAnswer = {
  configId: number;
  name: string;
  provider: TMarketplaceProvider;
  /**
   * ok: answered live; failed: answered with an error; timeout: did not answer within the deadline; synced: read from
   * its synced copy; no_location: a live board that needs a point to search around; outside_area: the board does not
   * search from there (Truckstop outside North America), so it was not asked.
   */
  state: "ok" | "failed" | "timeout" | "synced" | "no_location" | "outside_area";
  count: number;
  /** Loads the board answered that could not be read (each logged with the field at fault). */
  unreadable: number;
  error: string | null;
  sandbox: boolean;
};

/** Boards that keep no synced copy (sync off, or DAT): asked live for each board view. */
const searchedLive = (c: MarketplaceConfig) => !canSync(c.provider) || !c.syncEnabled;

const answerOf = (c: MarketplaceConfig, state: TBoardAnswer["state"], error: string | null = null): TBoardAnswer => ({
  configId: c.id,
  name: c.name,
  provider: c.provider as TMarketplaceProvider,
  state,
  count: 0,
  unreadable: 0,
  error,
  sandbox: isSandboxBoardUrlOf(c),
});

/**
 * A load as the API shows it, with its board named when it came from one of the viewer's configurations. The load is
 * the caller's own fresh object and gets its `board` in place: copying its forty fields for every load of every board
 * answer cost more than building them.
 */
export const decorate = (
  l: ReturnType<typeof toPublicLoad>,
  configs: Map<number, MarketplaceConfig>,
  live: boolean,
) => {
  const c = l.source.type !== "external" || l.source.configId == null ? undefined : configs.get(l.source.configId);
  return Object.assign(l, {
    board: c
      ? {
          configId: c.id,
          name: c.name,
          provider: c.provider as TMarketplaceProvider,
          boardName: BOARD_NAMES[c.provider as TMarketplaceProvider],
          sandbox: isSandboxBoardUrlOf(c),
          live,
          /** DAT's terms: its results are shown "Powered by DAT". */
          poweredBy: c.provider === "dat" ? "DAT" : null,
        }
      : null,
  });
};
export type TBoardLoadItem = ReturnType<typeof decorate>;

const withDeadline = <T>(p: Promise<T>, ms: number) =>
  new Promise<{ ok: true; value: T } | { ok: false; timeout: boolean; error: unknown }>((resolve) => {
    const timer = setTimeout(() => resolve({ ok: false, timeout: true, error: null }), ms);
    p.then(
      (value) => {
        clearTimeout(timer);
        resolve({ ok: true, value });
      },
      (error) => {
        clearTimeout(timer);
        resolve({ ok: false, timeout: false, error });
      },
    );
  });

/** Whether a live load passes the board's filters (the database applies the same to stored loads). */
const passes = (l: Load, p: TLoadSearchInput, rates: TRates, point: { latitude: number; longitude: number } | null) => {
  if (p.equipmentType?.length && !(p.equipmentType as string[]).includes(l.equipmentType)) return false;
  if (p.loadSize && l.loadSize !== p.loadSize) return false;
  if (p.pickupFrom !== undefined && l.pickupDate < p.pickupFrom) return false;
  if (p.pickupTo !== undefined && l.pickupDate > p.pickupTo) return false;
  if (
    p.destinationLatitude !== undefined &&
    p.destinationLongitude !== undefined &&
    haversineMiles(p.destinationLatitude, p.destinationLongitude, l.deliveryLatitude, l.deliveryLongitude) >
      p.destinationRadius
  )
    return false;
  if (p.maxWeight !== undefined && l.weightLbs > p.maxWeight) return false;
  if (
    p.minRate !== undefined &&
    toUsd(rates, l.budgetMinor / 100, l.budgetCurrency) / Math.max(l.tripMiles, 1) < p.minRate
  )
    return false;
  if (p.location) {
    const q = p.location.toLowerCase();
    const fields = [l.pickupCity, l.pickupState, l.pickupCountry, l.deliveryCity, l.deliveryState, l.deliveryCountry];
    if (!fields.some((f) => f?.toLowerCase().includes(q))) return false;
  }
  if (point && haversineMiles(point.latitude, point.longitude, l.pickupLatitude, l.pickupLongitude) > p.radius)
    return false;
  return true;
};

/** The same order as the database's sorts: distance (nearest first), rate (USD per mile, highest first), date. */
const comparator = (p: TLoadSearchInput, rates: TRates) => {
  const perMile = (l: ReturnType<typeof toPublicLoad>) =>
    toUsd(rates, l.budgetAmount, l.budgetCurrency) / Math.max(l.tripMiles, 1);
  return (a: ReturnType<typeof toPublicLoad>, b: ReturnType<typeof toPublicLoad>) => {
    if (p.sort === "rate") return perMile(b) - perMile(a);
    if (p.sort === "date" || a.distance == null || b.distance == null)
      return Date.parse(a.pickupDate) - Date.parse(b.pickupDate);
    return a.distance - b.distance;
  };
};

/** How deep the merge reads the database: live answers are merged into at most this many first rows. */
const MERGE_DEPTH = 1000;

export type TBoardPage = Omit<TLoadPage, "items"> & {
  items: (TBoardLoadItem & { shipper: TBoardShipper | null; invited: boolean })[];
  boards: TBoardAnswer[];
};

/**
 * The load board for a signed-in user: MyTess loads and the user's synced external loads from the database, merged
 * with live results from the user's boards that are not synced, sorted and filtered the same way.
 */
export const searchBoard = async (
  db: TDb,
  services: TBoardServices,
  p: TLoadSearchInput,
  viewer: User,
  now = Date.now(),
): Promise<TBoardPage> => {
  const configs = p.sourceType === "mytess" ? [] : (await listMarketplaces(db, viewer.id)).filter((c) => c.isActive);
  const byId = new Map(configs.map((c) => [c.id, c]));
  const point =
    p.latitude !== undefined && p.longitude !== undefined ? { latitude: p.latitude, longitude: p.longitude } : null;
  const liveConfigs = p.status === "posted" && point ? configs.filter(searchedLive) : [];
  const depth = p.page * p.pageSize;
  const stateOf = (c: MarketplaceConfig): TBoardAnswer["state"] =>
    !liveConfigs.length && searchedLive(c) ? "no_location" : "synced";
  if (!liveConfigs.length || depth > MERGE_DEPTH) {
    const page = await searchLoads(db, p, viewer.id, now);
    return {
      ...page,
      items: await withShippers(
        db,
        viewer.id,
        page.items.map((l) => decorate(l, byId, false)),
      ),
      boards: p.status === "posted" ? configs.map((c) => answerOf(c, stateOf(c))) : [],
    };
  }
  const [dbPage, rates, liveAnswer] = await Promise.all([
    searchLoads(db, { ...p, page: 1, pageSize: depth }, viewer.id, now),
    loadRates(db),
    askLiveBoards(db, services, p, viewer, liveConfigs, byId, point!, now),
  ]);
  const { live } = liveAnswer;
  const boards = [
    ...configs.filter((c) => !liveConfigs.includes(c)).map((c) => answerOf(c, "synced")),
    ...liveAnswer.boards,
  ];
  const merged = [...dbPage.items.map((l) => decorate(l, byId, false)), ...live].sort(comparator(p, rates));
  const start = (p.page - 1) * p.pageSize;
  return {
    items: await withShippers(db, viewer.id, merged.slice(start, start + p.pageSize)),
    page: p.page,
    pageSize: p.pageSize,
    hasMore: dbPage.hasMore || merged.length > depth,
    boards,
  };
};

/**
 * Each MyTess load with its shipper's trust signals (batched for the page), and whether the viewer was invited to bid
 * on it (their own invitations only); an outside board's load has its contact.
 */
export const withShippers = async <
  T extends { id: number; shipperId: number | null; shipperCompanyId: number | null; source: { type: string } },
>(
  db: TDb,
  viewerId: number,
  items: T[],
) => {
  const mytess = items.filter((l) => l.source.type === "mytess");
  const [shippers, invited] = await Promise.all([
    shipperTrust(
      db,
      mytess.map((l) => ({ shipperId: l.shipperId, shipperCompanyId: l.shipperCompanyId })),
    ),
    invitedLoadIds(
      db,
      viewerId,
      mytess.map((l) => l.id),
    ),
  ]);
  return items.map((l) => ({
    ...l,
    shipper: l.source.type === "mytess" ? shippers(l) : null,
    invited: l.source.type === "mytess" && invited.has(l.id),
  }));
};

/** Live results of the boards searched live, each within the deadline (answers kept a minute, so the list and its counters ask once). */
const askLiveBoards = async (
  db: TDb,
  services: TBoardServices,
  p: TLoadSearchInput,
  viewer: User,
  liveConfigs: MarketplaceConfig[],
  byId: Map<number, MarketplaceConfig>,
  point: { latitude: number; longitude: number },
  now: number,
) => {
  const origin = originOf(viewer, point)!;
  const query: TBoardSearch = {
    origin,
    radiusMiles: p.radius,
    // Several types are asked as any type; `passes` keeps the ones asked for, as it checks the lane and the window.
    equipmentType: p.equipmentType?.length === 1 ? p.equipmentType[0] : null,
    limit: 50,
  };
  if (p.destinationLatitude !== undefined && p.destinationLongitude !== undefined) {
    query.destination = { latitude: p.destinationLatitude, longitude: p.destinationLongitude };
    query.destinationRadiusMiles = p.destinationRadius;
  }
  const [rates, answers] = await Promise.all([
    loadRates(db),
    Promise.all(
      liveConfigs.map(async (c) => {
        const adapter = adapterOf(db, services, c);
        // A board that does not search from here is not asked: the answer says why.
        const outside = adapter.outsideArea?.(query) ?? null;
        if (outside) return { c, outside: sourceText(outside), r: null };
        const key = `${c.id}:${c.updatedAt}:${JSON.stringify(query)}`;
        const r = await withDeadline(
          services.cached(key, () => adapter.search(query)),
          services.deadlineMs,
        );
        return { c, outside: null, r };
      }),
    ),
  ]);
  const boards: TBoardAnswer[] = [];
  const live: TBoardLoadItem[] = [];
  for (const { c, outside, r } of answers) {
    if (!r) {
      boards.push(answerOf(c, "outside_area", outside));
      continue;
    }
    const answer = answerOf(
      c,
      r.ok ? "ok" : r.timeout ? "timeout" : "failed",
      r.ok || r.timeout ? null : r.error instanceof Error ? r.error.message : String(r.error),
    );
    if (!r.ok && !r.timeout) void recordBoardError(db, c.id, answer.error);
    if (r.ok) {
      answer.unreadable = r.value.skipped.length;
      for (const b of r.value.loads) {
        const l = asLoad(b, c, now);
        // A load whose places cannot be put on the map could not be read either.
        if (!l) {
          answer.unreadable++;
          unplaced(c, b);
        }
        if (!l || !passes(l, p, rates, point)) continue;
        live.push(decorate(toPublicLoad(l, point, now), byId, true));
        answer.count++;
      }
    }
    boards.push(answer);
  }
  return { live, boards };
};

/** The board's figures with the live boards' loads counted in (total, urgent, external). */
export const boardStatsWithLive = async (
  db: TDb,
  services: TBoardServices,
  p: TLoadSearchInput,
  viewer: User,
  now = Date.now(),
) => {
  const stats = await boardStats(db, p, viewer.id, now);
  if (p.sourceType === "mytess" || p.status !== "posted" || p.latitude === undefined || p.longitude === undefined)
    return stats;
  const configs = (await listMarketplaces(db, viewer.id)).filter((c) => c.isActive);
  const liveConfigs = configs.filter(searchedLive);
  if (!liveConfigs.length) return stats;
  const byId = new Map(configs.map((c) => [c.id, c]));
  const { live } = await askLiveBoards(
    db,
    services,
    p,
    viewer,
    liveConfigs,
    byId,
    { latitude: p.latitude, longitude: p.longitude },
    now,
  );
  return {
    ...stats,
    total: stats.total + live.length,
    urgent: stats.urgent + live.filter((l) => l.isUrgent).length,
    external: stats.external + live.length,
  };
};

/** The Search Loads tab: one board, live (a search the user starts, which DAT's terms allow). */
export const searchMarketplace = async (
  db: TDb,
  services: TBoardServices,
  user: User,
  id: number,
  input: TMarketplaceSearchInput,
  now = Date.now(),
) => {
  const c = await ownMarketplace(db, user, id);
  if (!c.isActive)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.marketplace.inactive",
        message: "{name} is inactive; activate it to search",
        values: { name: boardLabel(BOARD_NAMES[c.provider as TMarketplaceProvider], c.name) },
      },
    );
  const given =
    input.originLatitude !== undefined && input.originLongitude !== undefined
      ? { latitude: input.originLatitude, longitude: input.originLongitude }
      : undefined;
  const origin = originOf(user, given);
  if (!origin) {
    const message = /*i18n*/ {
      id: "error.marketplace.originRequired",
      message: "originLatitude and originLongitude are required when your location is not known",
    };
    throw new AppError("BAD_REQUEST", message, { issues: [{ path: "originLatitude", message }] });
  }
  const destination =
    input.destinationLatitude !== undefined && input.destinationLongitude !== undefined
      ? { latitude: input.destinationLatitude, longitude: input.destinationLongitude }
      : null;
  const adapter = adapterOf(db, services, c);
  const query: TBoardSearch = {
    origin,
    radiusMiles: input.radiusMiles,
    destination,
    equipmentType: input.equipmentType ?? null,
    limit: input.limit,
  };
  // Not the board's failure: nothing is asked, and nothing is recorded against the configuration.
  const outside = adapter.outsideArea?.(query);
  if (outside) throw new AppError("BAD_REQUEST", outside);
  let found: TBoardResult;
  try {
    found = await adapter.search(query);
  } catch (err) {
    await recordBoardError(db, c.id, err instanceof Error ? err.message : String(err));
    throw err;
  }
  const byId = new Map([[c.id, c]]);
  const results = [];
  let unreadable = found.skipped.length;
  for (const b of found.loads.slice(0, input.limit)) {
    const l = asLoad(b, c, now);
    if (!l) {
      unreadable++;
      unplaced(c, b);
      continue;
    }
    const item = decorate(toPublicLoad(l, origin, now), byId, true);
    results.push({
      ...item,
      externalId: b.externalId,
      origin: { city: item.pickupCity, state: item.pickupState, country: item.pickupCountry },
      destination: { city: item.deliveryCity, state: item.deliveryState, country: item.deliveryCountry },
    });
  }
  /** unreadable: loads the board answered that could not be read (the page says how many). */
  return { results, searchedFrom: origin, unreadable };
};
