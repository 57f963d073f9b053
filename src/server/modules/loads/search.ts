import type { TDb } from "../../../../db/client";
import type { TLoadSearchInput } from "../../../shared/schemas/loads";
import { toPublicLoad } from "./serialize";

// The board's search. How loads are found (near me through an index, other filters, the sort) is the engine's own
// query (`db.q.searchLoads`, in db/<dialect>/queries.ts); a load that is no longer posted is found only by its parties.

export type TLoadPage = { items: ReturnType<typeof toPublicLoad>[]; page: number; pageSize: number; hasMore: boolean };

export const searchLoads = async (
  db: TDb,
  p: TLoadSearchInput,
  viewerId: number | null = null,
  now = Date.now(),
): Promise<TLoadPage> => {
  const { rows, hasMore } = await db.q.searchLoads(p, viewerId);
  const point =
    p.latitude !== undefined && p.longitude !== undefined ? { latitude: p.latitude, longitude: p.longitude } : null;
  return { items: rows.map((l) => toPublicLoad(l, point, now)), page: p.page, pageSize: p.pageSize, hasMore };
};

/** Figures for the board's stat cards over everything the filters match (not only the page shown). */
export const boardStats = async (db: TDb, p: TLoadSearchInput, viewerId: number | null = null, now = Date.now()) => {
  const row = await db.q.boardStats(p, viewerId, now);
  return {
    total: row?.total ?? 0,
    urgent: row?.urgent ?? 0,
    external: row?.external ?? 0,
    avgRatePerMileUsd: row?.avgUsdPerMile == null ? null : Math.round(row.avgUsdPerMile * 100) / 100,
  };
};

/** The most loads a map of the board gets: enough for a region's clusters, few enough to read and send at once. */
export const MAX_MAP_POINTS = 1000;

/**
 * Every load the board's filters match (not only one page), as ids and pickup points for the map's clusters: the same
 * search and visibility as the board (`db.q.searchLoads`), in the board's order, at most MAX_MAP_POINTS of them.
 */
export const loadPoints = async (db: TDb, p: TLoadSearchInput, viewerId: number) => {
  const { rows, hasMore } = await db.q.searchLoads({ ...p, page: 1, pageSize: MAX_MAP_POINTS }, viewerId);
  return {
    points: rows.map((l) => ({
      id: l.id,
      latitude: l.pickupLatitude,
      longitude: l.pickupLongitude,
      external: l.sourceType === "external",
    })),
    truncated: hasMore,
    limit: MAX_MAP_POINTS,
  };
};
