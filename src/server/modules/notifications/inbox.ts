// The bell: a user's in-app notifications (one `in_app` row per event, written with the change that caused it).
import { and, count, desc, eq, inArray, isNull } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { notifications } from "../../../../db/tables";
import { publishLive } from "../../live/publish";

const mine = (userId: number) => and(eq(notifications.userId, userId), eq(notifications.channel, "in_app"));

/** Newest first, a page at a time, the caller's own only. */
export const listInbox = async (db: TDb, userId: number, p: { page: number; pageSize: number }) => {
  const rows = await db
    .select()
    .from(notifications)
    .where(mine(userId))
    .orderBy(desc(notifications.id))
    .limit(p.pageSize + 1)
    .offset((p.page - 1) * p.pageSize);
  return {
    items: rows.slice(0, p.pageSize).map((n) => ({
      id: n.id,
      type: n.type,
      title: n.title,
      body: n.body,
      url: n.url,
      loadId: n.loadId,
      read: n.readAt !== null,
      createdAt: new Date(n.createdAt).toISOString(),
    })),
    page: p.page,
    hasMore: rows.length > p.pageSize,
    unread: await unreadCount(db, userId),
  };
};

export const unreadCount = async (db: TDb, userId: number) => {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(mine(userId), isNull(notifications.readAt)));
  return Number(row?.n ?? 0);
};

/**
 * Marks the caller's own notifications read (ids of anyone else's are ignored); the user's other tabs and devices
 * hear of it and update their bell.
 */
export const markRead = (db: TDb, userId: number, ids: number[] | "all", now = Date.now()) =>
  db.transaction(async (tx) => {
    const changed = await tx
      .update(notifications)
      .set({ readAt: now })
      .where(
        and(mine(userId), isNull(notifications.readAt), ids === "all" ? undefined : inArray(notifications.id, ids)),
      )
      .returning({ id: notifications.id });
    if (changed.length) await publishLive(tx, [userId], "notification", {}, now);
    return { marked: changed.length };
  });
