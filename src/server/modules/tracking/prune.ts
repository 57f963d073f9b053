import { and, eq, isNull, lt, notInArray, or } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { loads, tripPoints } from "../../../../db/tables";
import { thinnedPoints } from "./positions";

/** How long after a trip ends its whole track is kept; after that only its outline stays. */
export const TRACK_KEEP_MS = 90 * 24 * 60 * 60_000;
/** The points a pruned trip keeps: evenly spread over the trip, its first and last among them. */
export const OUTLINE_POINTS = 100;
/** Trips pruned per housekeeping run, so one run stays short; the next run goes on where this one stopped. */
const PRUNE_BATCH = 200;

/**
 * Cuts the tracks of trips that ended (completed, or cancelled) more than 90 days ago down to their outline: the
 * trip keeps its summary (the route drawn from OUTLINE_POINTS points, the first and the last position) and drops the
 * rest. Each trip is marked once done, under the load's lock, so two workers never prune one trip twice.
 */
export const pruneOldTracks = async (db: TDb, now = Date.now()) => {
  const cutoff = now - TRACK_KEEP_MS;
  const due = await db
    .select({ id: loads.id })
    .from(loads)
    .where(
      and(
        isNull(loads.trackPrunedAt),
        or(
          and(eq(loads.status, "completed"), lt(loads.completedAt, cutoff)),
          and(eq(loads.status, "cancelled"), lt(loads.cancelledAt, cutoff)),
        ),
      ),
    )
    .limit(PRUNE_BATCH);
  let points = 0;
  let trips = 0;
  for (const { id } of due) {
    points += await db.transaction(async (tx) => {
      await db.q.lockKeys(tx, [`load:${id}`]);
      const [marked] = await tx
        .update(loads)
        .set({ trackPrunedAt: now })
        .where(and(eq(loads.id, id), isNull(loads.trackPrunedAt)))
        .returning({ id: loads.id });
      if (!marked) return 0;
      trips++;
      const keep = (await thinnedPoints(tx, id, OUTLINE_POINTS)).map((p) => p.recordedAt);
      if (!keep.length) return 0;
      const gone = await tx
        .delete(tripPoints)
        .where(and(eq(tripPoints.loadId, id), notInArray(tripPoints.recordedAt, keep)))
        .returning({ id: tripPoints.id });
      return gone.length;
    });
  }
  return { trips, points };
};
