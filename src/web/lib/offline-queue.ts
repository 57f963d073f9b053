// Writes made without a connection (local storage `queuedRequests`, each with url, options and
// timestamp) are kept, shown as pending, and sent when the connection returns: on the `online` event, at the next
// start, or when the service worker's background sync fires. Each carries the Idempotency-Key it was first sent with,
// so a write whose answer was lost is not done twice. A write the server then refuses is kept in a list of refusals with
// its reason until the user dismisses it.
import { useSyncExternalStore } from "react";
import { STORAGE_KEYS } from "../../shared/constants";
import { watchedFetch } from "./online";

/** The writes that can wait for a connection, by tRPC procedure. */
export const QUEUEABLE = {
  "bids.place": "bid",
  "loads.create": "load",
  "messages.send": "message",
  "drivers.updateLocation": "location",
  "tracking.record": "position",
  "loads.pickup": "trip",
  "loads.deliver": "trip",
  "loads.complete": "trip",
  "loads.rate": "rating",
} as const;
export type TQueueKind = (typeof QUEUEABLE)[keyof typeof QUEUEABLE];

export type TQueuedRequest = {
  url: string;
  options: { method: "POST"; headers: Record<string, string>; body: string };
  timestamp: number;
  /** The Idempotency-Key, also the entry's id. */
  id: string;
  kind: TQueueKind;
  /** The procedure's input, for pending markers (load id, message text, bid amount…). */
  input: Record<string, unknown>;
};
export type TRefusedRequest = TQueuedRequest & { reason: string; refusedAt: number };

const REFUSED_KEY = "queuedRequestsRefused";

const readList = <T>(key: string): T[] => {
  try {
    const v = JSON.parse(localStorage.getItem(key) ?? "[]");
    return Array.isArray(v) ? (v as T[]) : [];
  } catch {
    return [];
  }
};

type TState = { queued: TQueuedRequest[]; refused: TRefusedRequest[] };
let state: TState = { queued: [], refused: [] };
const load = () => {
  state = { queued: readList(STORAGE_KEYS.queuedRequests), refused: readList(REFUSED_KEY) };
};
load();
const listeners = new Set<() => void>();
const save = (next: TState) => {
  localStorage.setItem(STORAGE_KEYS.queuedRequests, JSON.stringify(next.queued));
  localStorage.setItem(REFUSED_KEY, JSON.stringify(next.refused));
  state = next;
  for (const l of listeners) l();
};
// Another tab's queue changes show here too.
window.addEventListener("storage", (e) => {
  if (e.key === STORAGE_KEYS.queuedRequests || e.key === REFUSED_KEY) {
    load();
    for (const l of listeners) l();
  }
});

export const useOfflineQueue = () =>
  useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => state,
    () => state,
  );

/** The writes waiting now, as every tab last saved them. */
export const readQueued = () => readList<TQueuedRequest>(STORAGE_KEYS.queuedRequests);

export const newIdempotencyKey = () => `q-${crypto.randomUUID()}`;

/** Keeps a write for later (once per key). */
export const enqueue = (procedure: keyof typeof QUEUEABLE, input: unknown, key: string) => {
  if (state.queued.some((q) => q.id === key)) return;
  const entry: TQueuedRequest = {
    url: `/trpc/${procedure}`,
    options: {
      method: "POST",
      headers: { "Content-Type": "application/json", "Idempotency-Key": key },
      body: JSON.stringify(input ?? null),
    },
    timestamp: Date.now(),
    id: key,
    kind: QUEUEABLE[procedure],
    input: (input ?? {}) as Record<string, unknown>,
  };
  save({ ...state, queued: [...state.queued, entry] });
};

export const dismissRefused = (id: string) => save({ ...state, refused: state.refused.filter((r) => r.id !== id) });

export type TReplayResult = { sent: TQueuedRequest[]; refused: TRefusedRequest[]; remaining: number };

const replayOnce = async (): Promise<TReplayResult> => {
  load();
  const sent: TQueuedRequest[] = [];
  const refused: TRefusedRequest[] = [];
  for (const entry of [...state.queued]) {
    let res: Response;
    try {
      res = await watchedFetch(entry.url, { ...entry.options, credentials: "include" });
    } catch {
      break; // still offline: the rest waits, in order
    }
    // Signed out meanwhile, or the server failing: keep it and try again later.
    if (res.status === 401 || res.status >= 500 || res.status === 429) break;
    const rest = state.queued.filter((q) => q.id !== entry.id);
    if (res.ok) {
      sent.push(entry);
      save({ ...state, queued: rest });
    } else {
      const body = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
      const r = { ...entry, reason: body?.error?.message ?? `HTTP ${res.status}`, refusedAt: Date.now() };
      refused.push(r);
      save({ queued: rest, refused: [...state.refused, r] });
    }
  }
  return { sent, refused, remaining: state.queued.length };
};

let running: Promise<TReplayResult> | null = null;
/** Sends the queued writes in order; one replay at a time across tabs (Web Locks where the browser has them). */
export const replayQueue = (): Promise<TReplayResult> => {
  if (!state.queued.length && !readList(STORAGE_KEYS.queuedRequests).length)
    return Promise.resolve({ sent: [], refused: [], remaining: 0 });
  if (!running) {
    const locks = (navigator as Navigator & { locks?: LockManager }).locks;
    const run = (): Promise<TReplayResult> =>
      locks ? locks.request("mytess-queue", () => replayOnce()).then((r) => r) : replayOnce();
    const current = run().finally(() => {
      running = null;
    });
    running = current;
    return current;
  }
  return running;
};

/** The error a queued write fails with, so screens can tell it from a refusal. */
export const QUEUED_MESSAGE = "Offline - request queued for later";
