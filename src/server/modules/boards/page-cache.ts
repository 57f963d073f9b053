import type { TDb } from "../../../../db/client";
import type { User } from "../../../../db/tables";
import { URGENT_WITHIN_MS } from "../../../shared/constants";
import type { TLoadSearchInput } from "../../../shared/schemas/loads";
import type { TBoardServices } from "../../integrations/boards/services";
import { jsonBytes, RawJson } from "../../json-bytes";
import { addisDay } from "../verification/verification";
import { searchBoard, type TBoardPage, withShippers } from "./search";

// The REST board's page cache (GET /api/loads): an API client or a board left open asks the same page again and again,
// and between two writes the answer cannot change. A page is kept per database handle, by viewer and query, as its
// JSON text (the bytes the answer sends), and answered again while
// - the database's board version (every write to loads, board configurations, truck invitations and exchange rates:
//   the board_version migrations) and trust version (the shippers' signals) are what they were when it was read, or,
//   when they moved on, no change logged since touched the one-degree cells its search circle covers (the log the same
//   triggers write) and its shippers' signals read now are the ones it shows;
// - the day in Addis Ababa is the same (a verified badge lapses by the day);
// - no load on it has become urgent or stopped being urgent since (the one field that changes with time alone), and
//   it is at most BOARD_PAGE_MAX_AGE_MS old.
// The versions are read before the page, so a page kept under a version is at least as new as it. A page that asked a
// board live is never kept (those answers have their own minute-long cache, services.cached). Pages are let go oldest
// used first past `services.pageCacheBytes` of JSON per handle (BOARD_PAGE_CACHE_MB, default 128; 0 keeps none). The web app's board (tRPC) is not served from here.

/** The longest a kept page is answered again, even when nothing it shows has changed. */
export const BOARD_PAGE_MAX_AGE_MS = 60_000;

/** A board page as the REST answer takes it: its items as JSON text already written. */
export type TRestBoardPage = Omit<TBoardPage, "items"> & { items: RawJson };

type TEntry = {
  board: number;
  trust: number;
  day: string;
  expires: number;
  page: TRestBoardPage;
  /** The page's loads as its shippers' signals are found for them, and those signals as the page shows them. */
  stubs: { id: number; shipperId: number | null; shipperCompanyId: number | null; source: { type: string } }[];
  shippers: string;
};
type TCache = { entries: Map<string, TEntry>; bytes: number; hits: number; revalidated: number; misses: number };
const caches = new WeakMap<object, TCache>();

const DAY_MS = 24 * 60 * 60 * 1000;

/** The first moment after `now` at which a load on the page would change its urgency (toPublicLoad's isUrgent). */
const expiryOf = (page: TBoardPage, now: number) => {
  let at = now + BOARD_PAGE_MAX_AGE_MS;
  for (const l of page.items) {
    const pickup = Date.parse(l.pickupDate);
    // Urgent from pickup - URGENT_WITHIN_MS on, and no longer once the pickup is more than a day past.
    for (const flip of [pickup - URGENT_WITHIN_MS, pickup + DAY_MS + 1]) if (flip > now && flip < at) at = flip;
  }
  return at;
};

/** Whether the page was made from the database alone (no board asked live). */
const fromDatabaseOnly = (page: TBoardPage) =>
  page.boards.every((b) => b.state === "synced" || b.state === "no_location");

/** Miles per degree of latitude (and of longitude at the equator), a little less than the Earth gives: never too few cells. */
const MILES_PER_DEGREE = 68.5;

/**
 * The one-degree cells (latitude + 90, longitude + 180) a search circle can take loads from, or null when the search
 * has no circle (it may show any load). A circle near a pole or across the date line takes every longitude.
 */
export const cellsOf = (p: TLoadSearchInput) => {
  if (p.latitude === undefined || p.longitude === undefined) return null;
  const dLat = p.radius / MILES_PER_DEGREE + 0.01;
  const south = p.latitude - dLat;
  const north = p.latitude + dLat;
  const latFrom = Math.max(0, Math.floor(south + 90));
  const latTo = Math.min(180, Math.floor(north + 90));
  const widest = Math.max(Math.abs(south), Math.abs(north));
  if (widest >= 89) return { latFrom, latTo, lngFrom: 0, lngTo: 360 };
  const dLng = dLat / Math.cos((widest * Math.PI) / 180);
  const west = p.longitude - dLng;
  const east = p.longitude + dLng;
  if (west < -180 || east > 180) return { latFrom, latTo, lngFrom: 0, lngTo: 360 };
  return { latFrom, latTo, lngFrom: Math.floor(west + 180), lngTo: Math.floor(east + 180) };
};

/**
 * Whether a kept page whose versions are behind is still the answer: no change logged since its board version touched
 * its circle's cells, and its shippers' signals read now are the ones it shows.
 */
const stillGood = async (
  db: TDb,
  e: TEntry,
  versions: { board: number; trust: number },
  p: TLoadSearchInput,
  viewerId: number,
) => {
  if (e.board !== versions.board) {
    const cells = cellsOf(p);
    if (!cells || (await db.q.boardChangedSince(e.board, versions.board, cells))) return false;
  }
  if (e.trust !== versions.trust) {
    const now = await withShippers(db, viewerId, e.stubs);
    if (JSON.stringify(now.map((l) => l.shipper)) !== e.shippers) return false;
  }
  return true;
};

const forget = (cache: TCache, key: string, e: TEntry) => {
  cache.entries.delete(key);
  cache.bytes -= e.page.items.bytes.byteLength;
};

/** The board for a REST caller: the page kept for this viewer and query while it is still the answer, else read now. */
export const restBoardPage = async (
  db: TDb,
  services: TBoardServices,
  p: TLoadSearchInput,
  viewer: User,
  now = Date.now(),
): Promise<TRestBoardPage> => {
  const budget = services.pageCacheBytes;
  if (budget <= 0) {
    const page = await searchBoard(db, services, p, viewer, now);
    return { ...page, items: new RawJson(jsonBytes(page.items)) };
  }
  const versions = await db.q.cacheVersions();
  let cache = caches.get(db.q);
  if (!cache) {
    cache = { entries: new Map(), bytes: 0, hits: 0, revalidated: 0, misses: 0 };
    caches.set(db.q, cache);
  }
  const key = `${viewer.id}|${JSON.stringify(p)}`;
  const day = addisDay(now);
  const kept = cache.entries.get(key);
  if (kept) {
    forget(cache, key, kept);
    const same = kept.board === versions.board && kept.trust === versions.trust;
    if (kept.day === day && now < kept.expires && (same || (await stillGood(db, kept, versions, p, viewer.id)))) {
      kept.board = versions.board;
      kept.trust = versions.trust;
      // Used last: let go last (unless a miss of the same page was kept meanwhile).
      if (!cache.entries.has(key)) {
        cache.entries.set(key, kept);
        cache.bytes += kept.page.items.bytes.byteLength;
      }
      if (same) cache.hits += 1;
      else cache.revalidated += 1;
      return kept.page;
    }
  }
  cache.misses += 1;
  const page = await searchBoard(db, services, p, viewer, now);
  const answer: TRestBoardPage = { ...page, items: new RawJson(jsonBytes(page.items)) };
  if (!fromDatabaseOnly(page)) return answer;
  const size = answer.items.bytes.byteLength;
  if (size > budget) return answer;
  // Two misses of one page at once: the later one's is kept.
  const twin = cache.entries.get(key);
  if (twin) forget(cache, key, twin);
  cache.entries.set(key, {
    ...versions,
    day,
    expires: expiryOf(page, now),
    page: answer,
    stubs: page.items.map((l) => ({
      id: l.id,
      shipperId: l.shipperId,
      shipperCompanyId: l.shipperCompanyId,
      source: { type: l.source.type },
    })),
    shippers: JSON.stringify(page.items.map((l) => l.shipper)),
  });
  cache.bytes += size;
  for (const [k, e] of cache.entries) {
    if (cache.bytes <= budget) break;
    forget(cache, k, e);
  }
  return answer;
};

/** How many pages and bytes of JSON the handle's board cache holds (tests and benches). */
export const boardPageCacheSize = (db: TDb) => {
  const cache = caches.get(db.q);
  return { pages: cache?.entries.size ?? 0, bytes: cache?.bytes ?? 0 };
};

/**
 * How the handle's kept pages were used: answered with versions unchanged (hits), answered after checking that the
 * changes since did not touch them (revalidated), or read (misses).
 */
export const boardPageCacheUse = (db: TDb) => {
  const cache = caches.get(db.q);
  return { hits: cache?.hits ?? 0, revalidated: cache?.revalidated ?? 0, misses: cache?.misses ?? 0 };
};
