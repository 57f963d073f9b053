import { and, asc, gt, gte, inArray, lte, max } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { liveEvents } from "../../../db/tables";

export type TLiveMessage = { id: number; kind: string; payload: Record<string, unknown> };
type TListener = (m: TLiveMessage) => void;

/** How often a process reads the feed while anyone is connected to it. */
export const LIVE_TICK_MS = 500;
const BATCH = 500;
/**
 * A new connection is also sent its user's events of this long before it opened: a page fetches what it shows first
 * and opens the stream after, so a change made in between (or while a dropped stream was reconnecting) would
 * otherwise reach it never. An event told twice only refreshes the screen once more.
 */
export const LIVE_REPLAY_MS = 15_000;
/**
 * How long an id the tail skipped over is looked for again. On PostgreSQL ids are taken when a row is written, not
 * when its transaction commits, so a slow transaction's event can appear after the tail has read past its id; the
 * skipped ids are asked for again on each tick for this long (a rolled-back write leaves a gap that never fills).
 */
export const LIVE_GAP_MS = 30_000;
const MAX_GAPS = 1000;

/**
 * This process's side of live updates. Changes are written to `live_events` by whichever process makes them (in the
 * change's transaction); every process tails the table with one query per tick, and only while someone is connected
 * to it, then hands each event to that user's connections here. So a browser connected to one machine hears about a
 * change made on another, and nothing runs while nobody listens.
 */
export const createLiveHub = (db: TDb, tickMs = LIVE_TICK_MS) => {
  const listeners = new Map<number, Set<TListener>>();
  /** Connections opened since the last tick, still to be sent the events they may have missed. */
  let fresh: { userId: number; listener: TListener }[] = [];
  const closers = new Set<() => void>();
  let lastSeen: number | null = null;
  /** Ids the tail skipped over (not committed yet when it read past them), with when they were first missed. */
  const gaps = new Map<number, number>();
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let count = 0;

  const deliver = (r: typeof liveEvents.$inferSelect, to: Iterable<TListener>) => {
    let payload: Record<string, unknown> = {};
    try {
      payload = JSON.parse(r.payload);
    } catch {}
    for (const l of to) l({ id: r.id, kind: r.kind, payload });
  };

  /** The recent events (up to where the tail has read) of the users whose connections just opened. */
  const catchUp = async () => {
    const opened = fresh;
    fresh = [];
    if (!opened.length || lastSeen === null) return;
    const rows = await db
      .select()
      .from(liveEvents)
      .where(
        and(
          inArray(liveEvents.userId, [...new Set(opened.map((o) => o.userId))]),
          gte(liveEvents.createdAt, Date.now() - LIVE_REPLAY_MS),
          lte(liveEvents.id, lastSeen),
        ),
      )
      .orderBy(asc(liveEvents.id));
    for (const r of rows) {
      const still = listeners.get(r.userId);
      deliver(
        r,
        opened.filter((o) => o.userId === r.userId && still?.has(o.listener)).map((o) => o.listener),
      );
    }
  };

  const tick = async () => {
    if (lastSeen === null) {
      const [row] = await db.select({ id: max(liveEvents.id) }).from(liveEvents);
      lastSeen = Number(row?.id ?? 0);
    }
    // Everything up to lastSeen has been handed out (or was before this tail started); the new connections get their
    // share of it here, and the reads below hand out what comes after, to every connection alike.
    await catchUp();
    await fillGaps();
    for (;;) {
      const rows = await db
        .select()
        .from(liveEvents)
        .where(gt(liveEvents.id, lastSeen))
        .orderBy(asc(liveEvents.id))
        .limit(BATCH);
      const now = Date.now();
      for (const r of rows) {
        for (let missing = lastSeen + 1; missing < r.id && gaps.size < MAX_GAPS; missing++) gaps.set(missing, now);
        lastSeen = r.id;
        const set = listeners.get(r.userId);
        if (set) deliver(r, set);
      }
      if (rows.length < BATCH) return;
    }
  };

  /** Events whose ids the tail read past before they were committed, handed out now they are there. */
  const fillGaps = async () => {
    if (!gaps.size) return;
    const now = Date.now();
    for (const [id, since] of gaps) if (now - since > LIVE_GAP_MS) gaps.delete(id);
    if (!gaps.size) return;
    const rows = await db
      .select()
      .from(liveEvents)
      .where(inArray(liveEvents.id, [...gaps.keys()]))
      .orderBy(asc(liveEvents.id));
    for (const r of rows) {
      gaps.delete(r.id);
      const set = listeners.get(r.userId);
      if (set) deliver(r, set);
    }
  };

  const loop = () => {
    timer = null;
    running = tick()
      .catch(() => undefined)
      .finally(() => {
        running = null;
        if (count > 0) timer = setTimeout(loop, tickMs);
      });
  };

  return {
    /** Listens for one user's events until the returned function is called. */
    subscribe: (userId: number, listener: TListener, onStop?: () => void) => {
      if (onStop) closers.add(onStop);
      const set = listeners.get(userId) ?? new Set<TListener>();
      listeners.set(userId, set);
      set.add(listener);
      fresh.push({ userId, listener });
      count++;
      if (count === 1 && !timer && !running) loop();
      return () => {
        if (onStop) closers.delete(onStop);
        if (!set.delete(listener)) return;
        count--;
        if (!set.size) listeners.delete(userId);
        if (count === 0) {
          if (timer) clearTimeout(timer);
          timer = null;
          // The next listener starts from the feed's end again (and its own recent events): events in between went to
          // nobody here.
          lastSeen = null;
          fresh = [];
          gaps.clear();
        }
      };
    },
    connections: () => count,
    /** Ends every open stream and stops the tail (shutdown: open streams would hold a graceful stop forever). */
    stop: async () => {
      for (const c of [...closers]) c();
      closers.clear();
      for (const set of listeners.values()) set.clear();
      listeners.clear();
      fresh = [];
      gaps.clear();
      count = 0;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
    },
  };
};
export type TLiveHub = ReturnType<typeof createLiveHub>;

const encoder = new TextEncoder();
export const HEARTBEAT_MS = 25_000;

/**
 * GET /api/live for a signed-in user: a text/event-stream of their events (`event: <kind>`, JSON data with ids only),
 * a comment every 25 s so proxies keep it open, and a retry hint for the browser's reconnects.
 */
export const liveStream = (hub: TLiveHub, userId: number, signal: AbortSignal) => {
  let unsubscribe = () => {};
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  const close = () => {
    unsubscribe();
    if (heartbeat) clearInterval(heartbeat);
    heartbeat = null;
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (s: string) => {
        try {
          controller.enqueue(encoder.encode(s));
        } catch {
          close();
        }
      };
      send(`retry: 3000\n: connected\n\n`);
      unsubscribe = hub.subscribe(
        userId,
        (m) => send(`id: ${m.id}\nevent: ${m.kind}\ndata: ${JSON.stringify(m.payload)}\n\n`),
        () => {
          close();
          try {
            controller.close();
          } catch {}
        },
      );
      heartbeat = setInterval(() => send(": ping\n\n"), HEARTBEAT_MS);
      signal.addEventListener("abort", () => {
        close();
        try {
          controller.close();
        } catch {}
      });
    },
    cancel: close,
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      "Cache-Control": "no-store",
      Connection: "keep-alive",
      "X-Accel-Buffering": "no",
    },
  });
};
