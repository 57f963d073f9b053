import { sql } from "drizzle-orm";
import { type TDb, txStatement } from "../../../db/client";
import { liveEvents } from "../../../db/tables";

/** What changed, for the browsers of the users it concerns: they refetch what shows it. */
export type TLiveKind = "notification" | "message" | "bid" | "load";
export type TLivePayload = { loadId?: number; bidId?: number; notificationId?: number; messageId?: number };

type TWriter = Pick<TDb, "insert">;

/**
 * Writes one live event per user, in the transaction of the change (so a rolled-back change tells nobody). Every
 * server process tails `live_events` and forwards each event to that user's open connections.
 */
export const publishLive = async (
  tx: TWriter,
  userIds: (number | null | undefined)[],
  kind: TLiveKind,
  payload: TLivePayload = {},
  now = Date.now(),
) => {
  const ids = [...new Set(userIds.filter((u): u is number => typeof u === "number"))];
  if (!ids.length) return;
  await tx
    .insert(liveEvents)
    .values(ids.map((userId) => ({ userId, kind, payload: JSON.stringify(payload), createdAt: now })));
};

// One user's live event, built once per handle (txStatement): a hot path's (each position batch tells the shipper).
const oneLiveEvent = txStatement((on) =>
  on
    .insert(liveEvents)
    .values({
      userId: sql.placeholder("userId"),
      kind: sql.placeholder("kind"),
      payload: sql.placeholder("payload"),
      createdAt: sql.placeholder("createdAt"),
    } as never)
    .returning({ id: liveEvents.id }),
);

/** publishLive for a hot path inside a transaction on `db`: the same rows, through a statement prepared once. */
export const publishLiveOn = async (
  db: TDb,
  tx: Pick<TDb, "select" | "insert" | "update" | "delete">,
  userIds: (number | null | undefined)[],
  kind: TLiveKind,
  payload: TLivePayload = {},
  now = Date.now(),
) => {
  const ids = [...new Set(userIds.filter((u): u is number => typeof u === "number"))];
  const text = JSON.stringify(payload);
  for (const userId of ids) await oneLiveEvent(db, tx, { userId, kind, payload: text, createdAt: now });
};
