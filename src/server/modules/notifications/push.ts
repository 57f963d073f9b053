import { and, count, desc, eq, gte, inArray, ne } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { notifications, type PushSubscription, pushPreferences, pushSubscriptions } from "../../../../db/tables";
import {
  DEFAULT_PUSH_PREFERENCES,
  type TPushPreferences,
  type TPushSubscribeInput,
  type TPushType,
} from "../../../shared/schemas/push";
import { AppError } from "../../errors";
import type { TNotifierRegistry } from "../../integrations/notifiers/registry";
import type { TNotification, TPushAddress, TSendResult } from "../../integrations/notifiers/types";

export const addressOf = (s: PushSubscription): TPushAddress => ({
  endpoint: s.endpoint,
  keys: { p256dh: s.p256dh, auth: s.auth },
});

/** At most this many subscriptions per account (browsers and devices); a new one beyond it replaces the oldest. */
export const MAX_PUSH_SUBSCRIPTIONS = 10;
/** Test sends per account and hour (each reaches every subscription of the account). */
export const PUSH_TESTS_PER_HOUR = 5;

/**
 * Stores the browser's subscription for the user. The endpoint must be at a push service we send to (the browsers'
 * push services, or the operator's Sandbox): nothing else is ever stored, so a subscription cannot point the server at
 * another host. The endpoint is the key: the same browser subscribing again updates its keys; an endpoint that belongs
 * to another account is never changed (the browser must unsubscribe and make a new one), so nobody can take over
 * someone else's notifications. An account keeps its MAX_PUSH_SUBSCRIPTIONS newest subscriptions.
 */
export const subscribe = (
  db: TDb,
  notifiers: Pick<TNotifierRegistry, "acceptsPushEndpoint">,
  userId: number,
  input: TPushSubscribeInput,
  now = Date.now(),
) => {
  if (!notifiers.acceptsPushEndpoint(input.endpoint)) {
    const message = /*i18n*/ {
      id: "error.push.endpointHost",
      message: "endpoint must be an address of a browser push service (Google, Mozilla, Apple or Microsoft)",
    };
    throw new AppError("BAD_REQUEST", message, { issues: [{ path: "endpoint", message }] });
  }
  return db.transaction(async (tx) => {
    // Two subscribes at once must not both keep an eleventh: on PostgreSQL they take turns on the account's key.
    await db.q.lockKeys(tx, [`push-subscriptions:${userId}`]);
    const values = {
      p256dh: input.keys.p256dh,
      auth: input.keys.auth,
      expirationTime: input.expirationTime ?? null,
    };
    const [inserted] = await tx
      .insert(pushSubscriptions)
      .values({ ...values, userId, endpoint: input.endpoint, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: pushSubscriptions.id });
    if (inserted) {
      const mine = await tx
        .select({ id: pushSubscriptions.id })
        .from(pushSubscriptions)
        .where(eq(pushSubscriptions.userId, userId))
        .orderBy(desc(pushSubscriptions.createdAt), desc(pushSubscriptions.id));
      const beyond = mine.slice(MAX_PUSH_SUBSCRIPTIONS).map((r) => r.id);
      if (beyond.length) await tx.delete(pushSubscriptions).where(inArray(pushSubscriptions.id, beyond));
      return { subscribed: true, created: true };
    }
    const [updated] = await tx
      .update(pushSubscriptions)
      .set(values)
      .where(and(eq(pushSubscriptions.endpoint, input.endpoint), eq(pushSubscriptions.userId, userId)))
      .returning({ id: pushSubscriptions.id });
    if (!updated)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.push.otherAccount",
          message: "This push subscription belongs to another account",
        },
      );
    return { subscribed: true, created: false };
  });
};

/** Removes one of the user's own subscriptions; another user's endpoint is left alone (404). */
export const unsubscribe = async (db: TDb, userId: number, endpoint: string) => {
  const removed = await db
    .delete(pushSubscriptions)
    .where(and(eq(pushSubscriptions.endpoint, endpoint), eq(pushSubscriptions.userId, userId)))
    .returning({ id: pushSubscriptions.id });
  if (!removed.length)
    throw new AppError("NOT_FOUND", /*i18n*/ { id: "error.push.notFound", message: "Push subscription not found" });
  return { unsubscribed: true };
};

export const subscriptionsOf = (db: TDb, userId: number) =>
  db.select().from(pushSubscriptions).where(eq(pushSubscriptions.userId, userId)).orderBy(pushSubscriptions.id);

/** The user's preferences, the product's defaults when never saved. */
export const preferencesOf = async (db: TDb, userId: number): Promise<TPushPreferences> => {
  const [p] = await db.select().from(pushPreferences).where(eq(pushPreferences.userId, userId));
  if (!p) return DEFAULT_PUSH_PREFERENCES;
  return {
    enabled: p.enabled,
    notificationTypes: {
      loadAssigned: p.loadAssigned,
      loadUpdates: p.loadUpdates,
      paymentReceived: p.paymentReceived,
      systemAlerts: p.systemAlerts,
      marketing: p.marketing,
    },
    quietHours: {
      enabled: p.quietHoursEnabled,
      start: p.quietHoursStart,
      end: p.quietHoursEnd,
      timezone: p.quietHoursTimezone,
    },
  };
};

/** The preferences and the user's subscriptions (endpoints only; keys stay on the server). */
export const preferencesView = async (db: TDb, userId: number) => ({
  ...(await preferencesOf(db, userId)),
  subscriptions: (await subscriptionsOf(db, userId)).map((s) => ({
    endpoint: s.endpoint,
    expirationTime: s.expirationTime,
    createdAt: new Date(s.createdAt).toISOString(),
  })),
});

export const savePreferences = async (db: TDb, userId: number, p: TPushPreferences, now = Date.now()) => {
  const values = {
    enabled: p.enabled,
    ...p.notificationTypes,
    quietHoursEnabled: p.quietHours.enabled,
    quietHoursStart: p.quietHours.start,
    quietHoursEnd: p.quietHours.end,
    quietHoursTimezone: p.quietHours.timezone,
    updatedAt: now,
  };
  await db
    .insert(pushPreferences)
    .values({ userId, ...values })
    .onConflictDoUpdate({ target: pushPreferences.userId, set: values });
  return preferencesView(db, userId);
};

const minutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/**
 * When quiet hours are on and `now` falls inside them (in the user's time zone), the time they end (epoch ms);
 * otherwise null. Start after end spans midnight (22:00–08:00); equal start and end means no quiet time.
 */
export const quietUntil = (q: TPushPreferences["quietHours"], now = Date.now()): number | null => {
  if (!q.enabled) return null;
  const start = minutes(q.start);
  const end = minutes(q.end);
  if (start === end) return null;
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone: q.timezone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(now));
  const local =
    Number(parts.find((p) => p.type === "hour")?.value) * 60 + Number(parts.find((p) => p.type === "minute")?.value);
  const quiet = start < end ? local >= start && local < end : local >= start || local < end;
  if (!quiet) return null;
  const wait = (end - local + 1440) % 1440;
  return Math.floor(now / 60_000) * 60_000 + wait * 60_000;
};

export const recordNotification = (
  db: Pick<TDb, "insert">,
  n: {
    userId: number;
    type: TPushType | "test";
    title: string;
    body: string;
    url: string | null;
    status: "sent" | "held" | "failed";
  },
  now = Date.now(),
) =>
  db
    .insert(notifications)
    .values({ ...n, channel: "web_push", createdAt: now })
    .returning({ id: notifications.id });

/** What was sent to the user on push, Telegram and WhatsApp (the bell's in-app rows apart), newest first. */
export const listNotifications = (db: TDb, userId: number, limit = 50) =>
  db
    .select()
    .from(notifications)
    .where(and(eq(notifications.userId, userId), ne(notifications.channel, "in_app")))
    .orderBy(desc(notifications.id))
    .limit(limit);

/**
 * Sends to each subscription in turn; a subscription the push service calls gone is deleted. Returns each outcome.
 */
export const sendToSubscriptions = async (
  db: TDb,
  notifiers: TNotifierRegistry,
  subs: PushSubscription[],
  n: TNotification,
) => {
  const push = notifiers.get("web_push");
  const results: { sub: PushSubscription; result: TSendResult }[] = [];
  for (const sub of subs) {
    const result: TSendResult = push
      ? await push.send(addressOf(sub), n)
      : { status: "failed", reason: "Web push is not configured" };
    if (result.status === "gone") await db.delete(pushSubscriptions).where(eq(pushSubscriptions.id, sub.id));
    results.push({ sub, result });
  }
  return results;
};

/**
 * POST /api/push/test: the caller's own subscriptions only, at most PUSH_TESTS_PER_HOUR times an hour. The try is
 * counted before anything is sent (a `failed` history row, made `sent` once a subscription took it), under the
 * account's lock, so sends at once cannot pass the count together.
 */
export const sendTest = async (
  db: TDb,
  notifiers: TNotifierRegistry,
  userId: number,
  input: { title: string; message: string },
  url: string | null,
  now = Date.now(),
) => {
  const subs = await subscriptionsOf(db, userId);
  if (!subs.length)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ {
        id: "error.push.none",
        message: "No push subscription for this account; enable notifications first",
      },
    );
  const reserved = await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`push-test:${userId}`]);
    const [{ n } = { n: 0 }] = await tx
      .select({ n: count() })
      .from(notifications)
      .where(
        and(
          eq(notifications.userId, userId),
          eq(notifications.channel, "web_push"),
          eq(notifications.type, "test"),
          gte(notifications.createdAt, now - 3600_000),
        ),
      );
    if (Number(n) >= PUSH_TESTS_PER_HOUR)
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.push.testLimit",
          message: "You have sent {limit} test notifications in the last hour; try again later",
          values: { limit: PUSH_TESTS_PER_HOUR },
        },
        { retryAfterSeconds: 3600 },
      );
    const [row] = await recordNotification(
      tx,
      { userId, type: "test", title: input.title, body: input.message, url, status: "failed" },
      now,
    );
    return row!.id;
  });
  const results = await sendToSubscriptions(db, notifiers, subs, {
    title: input.title,
    body: input.message,
    ...(url ? { url } : {}),
    ttlSeconds: 600,
  });
  const delivered = results.filter((r) => r.result.status === "delivered").length;
  if (delivered) await db.update(notifications).set({ status: "sent" }).where(eq(notifications.id, reserved));
  return {
    sent: delivered,
    total: results.length,
    removed: results.filter((r) => r.result.status === "gone").length,
  };
};
