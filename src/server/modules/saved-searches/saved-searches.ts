// Saved searches: a user names the board's filters, is told of new loads that match them (the notify fan-out: the
// bell, push, Telegram, WhatsApp, as the user set them up, quiet hours included) and sees how many matched since the
// search was last opened. A search is its owner's alone: another user's id answers 404, as if it did not exist.
import { and, asc, count, eq, gt, gte, inArray, isNull, lte, ne, or } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { loads, type SavedSearch, savedSearches, savedSearchMatches, type User } from "../../../../db/tables";
import { SAVED_SEARCHES_MAX } from "../../../shared/constants";
import { ZLoadSearchInput } from "../../../shared/schemas/loads";
import type { TSavedSearch, TSavedSearchInput } from "../../../shared/schemas/saved-searches";
import { AppError } from "../../errors";
import { enqueueMany } from "../../jobs/queue";
import { alertBox } from "../loads/alerts";
import { notifyJob } from "../notifications/jobs";

const NOT_FOUND = /*i18n*/ { id: "error.savedSearch.notFound", message: "Saved search not found" };

const paramsOf = (s: Pick<SavedSearch, "params">) => JSON.parse(s.params) as Record<string, string>;

/** The search as the API shows it, with its loads matched since it was last opened. */
const toPublic = (s: SavedSearch, newCount: number): TSavedSearch => ({
  id: s.id,
  name: s.name,
  search: paramsOf(s),
  originName: s.originName,
  destinationName: s.destinationName,
  newCount,
  lastOpenedAt: new Date(s.lastOpenedAt).toISOString(),
  createdAt: new Date(s.createdAt).toISOString(),
});

/** How many loads matched each search since it was last opened, in one query. */
const newCounts = async (db: TDb, list: SavedSearch[]) => {
  if (!list.length) return new Map<number, number>();
  const rows = await db
    .select({ id: savedSearchMatches.savedSearchId, n: count() })
    .from(savedSearchMatches)
    .innerJoin(savedSearches, eq(savedSearches.id, savedSearchMatches.savedSearchId))
    .where(
      and(
        inArray(
          savedSearchMatches.savedSearchId,
          list.map((s) => s.id),
        ),
        gt(savedSearchMatches.matchedAt, savedSearches.lastOpenedAt),
      ),
    )
    .groupBy(savedSearchMatches.savedSearchId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
};

/** The user's saved searches, oldest first (the order they were saved in). */
export const listSavedSearches = async (db: TDb, user: User) => {
  const list = await db
    .select()
    .from(savedSearches)
    .where(eq(savedSearches.userId, user.id))
    .orderBy(asc(savedSearches.id));
  const counts = await newCounts(db, list);
  return list.map((s) => toPublic(s, counts.get(s.id) ?? 0));
};

const own = async (db: Pick<TDb, "select">, user: User, id: number) => {
  const [s] = await db
    .select()
    .from(savedSearches)
    .where(and(eq(savedSearches.id, id), eq(savedSearches.userId, user.id)));
  if (!s) throw new AppError("NOT_FOUND", NOT_FOUND);
  return s;
};

/** The origin's box (the alert box around the point and radius), or none: a search without an origin takes any pickup. */
const originBox = (params: Record<string, string>) => {
  const p = ZLoadSearchInput.parse(params);
  if (p.latitude === undefined || p.longitude === undefined)
    return { minLat: null, maxLat: null, minLng: null, maxLng: null };
  return alertBox(p.latitude, p.longitude, p.radius);
};

export const createSavedSearch = async (db: TDb, user: User, input: TSavedSearchInput, now = Date.now()) =>
  db.transaction(async (tx) => {
    // Two requests at once must not both pass the count: on PostgreSQL they take turns on the user's key (SQLite's
    // transactions already do).
    await db.q.lockKeys(tx, [`saved-searches:${user.id}`]);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(savedSearches)
      .where(eq(savedSearches.userId, user.id));
    if (Number(n) >= SAVED_SEARCHES_MAX)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.savedSearch.limit",
          message: "You can save at most {max} searches: delete one you no longer use first",
          values: { max: SAVED_SEARCHES_MAX },
        },
      );
    const [row] = await tx
      .insert(savedSearches)
      .values({
        userId: user.id,
        name: input.name,
        params: JSON.stringify(input.search),
        originName: input.originName,
        destinationName: input.destinationName,
        ...originBox(input.search),
        lastOpenedAt: now,
        createdAt: now,
      })
      .returning();
    return toPublic(row!, 0);
  });

export const renameSavedSearch = async (db: TDb, user: User, id: number, name: string) => {
  const s = await own(db, user, id);
  await db.update(savedSearches).set({ name }).where(eq(savedSearches.id, s.id));
  const counts = await newCounts(db, [s]);
  return toPublic({ ...s, name }, counts.get(s.id) ?? 0);
};

/** Opening a search on the board: what matched so far is no longer new. */
export const openSavedSearch = async (db: TDb, user: User, id: number, now = Date.now()) => {
  const s = await own(db, user, id);
  await db.update(savedSearches).set({ lastOpenedAt: now }).where(eq(savedSearches.id, s.id));
  return toPublic({ ...s, lastOpenedAt: now }, 0);
};

export const deleteSavedSearch = async (db: TDb, user: User, id: number) => {
  const s = await own(db, user, id);
  await db.delete(savedSearches).where(eq(savedSearches.id, s.id));
  return { deleted: true as const };
};

/**
 * The `saved_search_alerts` job of a new load: the searches whose origin box holds the pickup (or that have no origin)
 * are candidates (an index over the boxes' latitudes), each checked by the search's own conditions on the one load
 * (`db.q.matchesLoad`, as the board would find it for that user). Each match is recorded once (its key is the search and
 * the load), and each user is told once per load however many of their searches it matched.
 */
export const matchSavedSearches = async (db: TDb, loadId: number, now = Date.now()) => {
  const [load] = await db.select().from(loads).where(eq(loads.id, loadId));
  // MyTess loads: a synced board load is its owner's own board, which the owner's board search already shows.
  if (load?.status !== "posted" || load.sourceType !== "mytess") return { matched: 0 };
  const lat = load.pickupLatitude;
  const lng = load.pickupLongitude;
  const candidates = await db
    .select()
    .from(savedSearches)
    .where(
      and(
        ne(savedSearches.userId, load.shipperId ?? -1),
        or(
          isNull(savedSearches.minLat),
          and(
            lte(savedSearches.minLat, lat),
            gte(savedSearches.maxLat, lat),
            lte(savedSearches.minLng, lng),
            gte(savedSearches.maxLng, lng),
          ),
        ),
      ),
    )
    .orderBy(asc(savedSearches.id));
  const matched: SavedSearch[] = [];
  for (const s of candidates) {
    const parsed = ZLoadSearchInput.safeParse(paramsOf(s));
    // Kept parameters are checked when saved; one a newer schema refuses matches nothing rather than failing the job.
    if (!parsed.success) continue;
    if (await db.q.matchesLoad(parsed.data, s.userId, load.id)) matched.push(s);
  }
  if (!matched.length) return { matched: 0 };
  await db.transaction(async (tx) => {
    await tx
      .insert(savedSearchMatches)
      .values(matched.map((s) => ({ savedSearchId: s.id, loadId: load.id, matchedAt: now })))
      .onConflictDoNothing();
    const byUser = new Map<number, SavedSearch>();
    for (const s of matched) if (!byUser.has(s.userId)) byUser.set(s.userId, s);
    await enqueueMany(
      tx,
      notifyJob,
      [...byUser.values()].map((s) => ({
        payload: {
          userId: s.userId,
          event: "saved_search_match" as const,
          loadId: load.id,
          actorId: load.shipperId,
          searchName: s.name,
        },
        uniqueKey: `notify:saved_search_match:${load.id}::${s.userId}`,
      })),
      now,
    );
  });
  return { matched: matched.length };
};
