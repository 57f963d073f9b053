// Events become push notifications in two steps: the domain change enqueues one `notify` job per recipient in its own
// transaction (the outbox), and the job worker renders the text in the recipient's language and sends it to each of
// their subscriptions, honouring their preferences and quiet hours.
import { eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type Job, loads, notifications, users } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import type { TPushType } from "../../../shared/schemas/push";
import { i18n, isLanguage } from "../../i18n";
import type { TNotifierRegistry } from "../../integrations/notify/registry";
import { enqueue, JobDeferred, JobRetry } from "../../jobs/queue";
import { preferencesOf, quietUntil, recordNotification, sendToSubscriptions, subscriptionsOf } from "./push";

export const NOTIFY_EVENTS = [
  "bid_received",
  "bid_accepted",
  "bid_rejected",
  "load_picked_up",
  "load_delivered",
  "load_completed",
  "load_cancelled",
] as const;
export type TNotifyEvent = (typeof NOTIFY_EVENTS)[number];

/** SPEC §3's notification type each event belongs to: an award is loadAssigned, everything else loadUpdates. */
export const TYPE_OF: Record<TNotifyEvent, TPushType> = {
  bid_received: "loadUpdates",
  bid_accepted: "loadAssigned",
  bid_rejected: "loadUpdates",
  load_picked_up: "loadUpdates",
  load_delivered: "loadUpdates",
  load_completed: "loadUpdates",
  load_cancelled: "loadUpdates",
};

export type TNotifyPayload = {
  userId: number;
  event: TNotifyEvent;
  loadId: number;
  /** Who caused it, for names in the text. */
  actorId?: number | null;
  /** Subscriptions that already have it, so a retried job does not send twice. */
  sent?: number[];
  /** The notifications row written when quiet hours held it. */
  heldId?: number;
};

type TWriter = Parameters<typeof enqueue>[0];

/**
 * One `notify` job per recipient, inside the transaction of the change. `ref` names the occurrence (a bid's id and
 * time, a load's transition): enqueueing the same occurrence twice adds nothing.
 */
export const enqueueNotify = async (
  tx: TWriter,
  recipients: (number | null | undefined)[],
  e: { event: TNotifyEvent; loadId: number; actorId?: number | null; ref?: string | number },
  now = Date.now(),
) => {
  for (const userId of new Set(recipients.filter((r): r is number => typeof r === "number"))) {
    if (userId === e.actorId) continue;
    await enqueue(
      tx,
      {
        kind: "notify",
        payload: { userId, event: e.event, loadId: e.loadId, actorId: e.actorId ?? null } satisfies TNotifyPayload,
        uniqueKey: `notify:${e.event}:${e.loadId}:${e.ref ?? ""}:${userId}`,
        maxAttempts: 8,
      },
      now,
    );
  }
};

/** The notification's title and body in `locale`. */
export const renderNotification = (
  locale: TLanguage,
  event: TNotifyEvent,
  v: { load: string; name: string },
): { title: string; body: string } => {
  i18n.activate(locale);
  switch (event) {
    case "bid_received":
      return {
        title: i18n._({ id: "notify.bidReceived.title", message: "New bid on your load" }),
        body: i18n._({ id: "notify.bidReceived.body", message: "{name} placed a bid on {load}.", values: v }),
      };
    case "bid_accepted":
      return {
        title: i18n._({ id: "notify.bidAccepted.title", message: "Your bid was accepted" }),
        body: i18n._({ id: "notify.bidAccepted.body", message: "{load} is now assigned to you.", values: v }),
      };
    case "bid_rejected":
      return {
        title: i18n._({ id: "notify.bidRejected.title", message: "Your bid was not accepted" }),
        body: i18n._({ id: "notify.bidRejected.body", message: "The shipper declined your bid on {load}.", values: v }),
      };
    case "load_picked_up":
      return {
        title: i18n._({ id: "notify.loadPickedUp.title", message: "Load picked up" }),
        body: i18n._({
          id: "notify.loadPickedUp.body",
          message: "{load} has been picked up and is on its way.",
          values: v,
        }),
      };
    case "load_delivered":
      return {
        title: i18n._({ id: "notify.loadDelivered.title", message: "Load delivered" }),
        body: i18n._({ id: "notify.loadDelivered.body", message: "{load} has been delivered.", values: v }),
      };
    case "load_completed":
      return {
        title: i18n._({ id: "notify.loadCompleted.title", message: "Load completed" }),
        body: i18n._({ id: "notify.loadCompleted.body", message: "{load} is marked as completed.", values: v }),
      };
    case "load_cancelled":
      return {
        title: i18n._({ id: "notify.loadCancelled.title", message: "Load cancelled" }),
        body: i18n._({ id: "notify.loadCancelled.body", message: "{load} was cancelled by the shipper.", values: v }),
      };
  }
};

/** The worker's `notify` handler. `baseUrl` is the public origin links point at. */
export const notifyHandler =
  (deps: { notifiers: TNotifierRegistry; baseUrl: string }) =>
  async (raw: Record<string, unknown>, { db }: { db: TDb; job: Job }) => {
    const p = raw as TNotifyPayload;
    const now = Date.now();
    const [user] = await db.select().from(users).where(eq(users.id, p.userId));
    if (!user) return { skipped: "no user" };
    const type = TYPE_OF[p.event];
    const prefs = await preferencesOf(db, user.id);
    if (!prefs.enabled || !prefs.notificationTypes[type]) return { skipped: "turned off" };
    const sent = new Set(p.sent ?? []);
    const subs = (await subscriptionsOf(db, user.id)).filter((s) => !sent.has(s.id));
    if (!subs.length && !sent.size) return { skipped: "no subscription" };

    const [load] = await db.select({ id: loads.id, title: loads.title }).from(loads).where(eq(loads.id, p.loadId));
    const [actor] = p.actorId
      ? await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, p.actorId))
      : [];
    const locale = isLanguage(user.language) ? user.language : "en";
    const text = renderNotification(locale, p.event, {
      load: load?.title ?? `#${p.loadId}`,
      name: actor?.firstName ?? "",
    });
    const url = `${deps.baseUrl.replace(/\/+$/, "")}/loads/${p.loadId}`;

    const until = quietUntil(prefs.quietHours, now);
    if (until !== null) {
      const heldId =
        p.heldId ?? (await recordNotification(db, { userId: user.id, type, ...text, url, status: "held" }, now))[0]?.id;
      throw new JobDeferred(until, { ...p, heldId });
    }

    const results = await sendToSubscriptions(db, deps.notifiers, subs, {
      ...text,
      url,
      urgency: p.event === "bid_received" || p.event === "bid_accepted" ? "high" : "normal",
    });
    for (const r of results) if (r.result.status === "delivered") sent.add(r.sub.id);
    const retry = results.find((r) => r.result.status === "retry");
    if (retry && retry.result.status === "retry") {
      throw new JobRetry(retry.result.reason, { ...p, sent: [...sent] });
    }
    const status = sent.size ? ("sent" as const) : ("failed" as const);
    if (p.heldId) {
      await db.update(notifications).set({ status, createdAt: now }).where(eq(notifications.id, p.heldId));
    } else {
      await recordNotification(db, { userId: user.id, type, ...text, url, status }, now);
    }
    return { sent: sent.size, results: results.map((r) => r.result.status) };
  };
