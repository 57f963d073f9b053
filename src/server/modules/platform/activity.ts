import { and, desc, eq, inArray, lt } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type ActivityEvent, activityEvents, loads, users } from "../../../../db/tables";

type TKind = ActivityEvent["kind"];

/** Records one event in the feeds of each of `userIds` (inside the caller's transaction when given one). */
export const recordActivity = async (
  db: Pick<TDb, "insert">,
  userIds: (number | null | undefined)[],
  kind: TKind,
  loadId: number | null,
  actorId: number | null,
  now = Date.now(),
) => {
  const rows = [...new Set(userIds.filter((u): u is number => typeof u === "number"))].map((userId) => ({
    userId,
    kind,
    loadId,
    actorId,
    createdAt: now,
  }));
  if (rows.length) await db.insert(activityEvents).values(rows);
};

/** The newest events of a user's feed, with the load's title and route and the other party's name. */
export const listActivity = async (db: TDb, userId: number, limit = 20, before?: number) =>
  (
    await db
      .select({
        id: activityEvents.id,
        kind: activityEvents.kind,
        createdAt: activityEvents.createdAt,
        loadId: activityEvents.loadId,
        loadTitle: loads.title,
        pickupCity: loads.pickupCity,
        deliveryCity: loads.deliveryCity,
        actorFirstName: users.firstName,
        actorLastName: users.lastName,
      })
      .from(activityEvents)
      .leftJoin(loads, eq(loads.id, activityEvents.loadId))
      .leftJoin(users, eq(users.id, activityEvents.actorId))
      .where(and(eq(activityEvents.userId, userId), before ? lt(activityEvents.id, before) : undefined))
      .orderBy(desc(activityEvents.id))
      .limit(limit)
  ).map((e) => ({
    id: e.id,
    kind: e.kind,
    createdAt: new Date(e.createdAt).toISOString(),
    load: e.loadId
      ? { id: e.loadId, title: e.loadTitle, pickupCity: e.pickupCity, deliveryCity: e.deliveryCity }
      : null,
    actorName: e.actorFirstName ? `${e.actorFirstName} ${e.actorLastName}`.trim() : null,
  }));

export const activityFor = (db: TDb, userIds: number[]) =>
  db.select().from(activityEvents).where(inArray(activityEvents.userId, userIds));
