import { asc, gt, max } from "drizzle-orm";
import type { TDb } from "../../../db/client";
import { liveEvents } from "../../../db/tables";

export type TLiveMessage = { id: number; kind: string; payload: Record<string, unknown> };
type TListener = (m: TLiveMessage) => void;

/** How often a process reads the feed while anyone is connected to it. */
export const LIVE_TICK_MS = 500;
const BATCH = 500;

/**
 * This process's side of live updates. Changes are written to `live_events` by whichever process makes them (in the
 * change's transaction); every process tails the table with one query per tick, and only while someone is connected
 * to it, then hands each event to that user's connections here. So a browser connected to one machine hears about a
 * change made on another, and nothing runs while nobody listens.
 */
export const createLiveHub = (db: TDb, tickMs = LIVE_TICK_MS) => {
  const listeners = new Map<number, Set<TListener>>();
  const closers = new Set<() => void>();
  let lastSeen: number | null = null;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let running: Promise<void> | null = null;
  let count = 0;

  const tick = async () => {
    if (lastSeen === null) {
      const [row] = await db.select({ id: max(liveEvents.id) }).from(liveEvents);
      lastSeen = Number(row?.id ?? 0);
      return;
    }
    for (;;) {
      const rows = await db
        .select()
        .from(liveEvents)
        .where(gt(liveEvents.id, lastSeen))
        .orderBy(asc(liveEvents.id))
        .limit(BATCH);
      for (const r of rows) {
        lastSeen = r.id;
        const set = listeners.get(r.userId);
        if (!set) continue;
        let payload: Record<string, unknown> = {};
        try {
          payload = JSON.parse(r.payload);
        } catch {}
        for (const l of set) l({ id: r.id, kind: r.kind, payload });
      }
      if (rows.length < BATCH) return;
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
          // The next listener starts from the feed's end again: events in between went to nobody here.
          lastSeen = null;
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
