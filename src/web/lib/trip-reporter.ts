// The driver's app reports the trip's position by itself while a trip is shared: fixes from the Geolocation API's
// watch are kept at most every 30 s or every 500 m (whichever comes first), held in local storage until the server
// has them, and sent in batches with each point's own time. Offline, a batch goes to the offline queue (it keeps its
// Idempotency-Key), so nothing is lost; the server stores a point once per load and time, so a batch sent twice adds
// nothing.
import { useSyncExternalStore } from "react";
import { haversineMiles } from "../../shared/geo";
import { MAX_POSITIONS_PER_CALL, type TPosition } from "../../shared/schemas/tracking";
import { readQueued, replayQueue } from "./offline-queue";
import { errorInfo, trpcClient } from "./trpc";

const queuedPositions = () => readQueued().some((q) => q.kind === "position");

export const MIN_INTERVAL_MS = 30_000;
export const MIN_DISTANCE_MILES = 500 / 1609.344;

type TWire = {
  latitude: number;
  longitude: number;
  recordedAt: string;
  accuracy?: number;
  speed?: number;
  heading?: number;
};
type TChoice = "on" | "paused";

const CHOICES_KEY = "mytess_trip_sharing";
const POINTS_KEY = "mytess_trip_points";

const read = <T>(key: string, fallback: T): T => {
  try {
    return (JSON.parse(localStorage.getItem(key) ?? "null") as T) ?? fallback;
  } catch {
    return fallback;
  }
};

/** The device's newest position while a trip is shared (not kept across reloads): the trip card asks about arrival. */
export type TFix = { latitude: number; longitude: number; at: number };

let choices: Record<string, TChoice> = read(CHOICES_KEY, {});
let points: Record<string, TWire[]> = read(POINTS_KEY, {});
let lastFix: TFix | null = null;
const listeners = new Set<() => void>();
const changed = () => {
  snapshot = { choices, points, lastFix };
  for (const l of listeners) l();
};
let snapshot: { choices: Record<string, TChoice>; points: Record<string, TWire[]>; lastFix: TFix | null } = {
  choices,
  points,
  lastFix,
};

const savePoints = (next: Record<string, TWire[]>) => {
  points = next;
  localStorage.setItem(POINTS_KEY, JSON.stringify(points));
  changed();
};

window.addEventListener("storage", (e) => {
  if (e.key === CHOICES_KEY) choices = read(CHOICES_KEY, {});
  else if (e.key === POINTS_KEY) points = read(POINTS_KEY, {});
  else return;
  changed();
});

export const useTripReporter = () =>
  useSyncExternalStore(
    (cb) => {
      listeners.add(cb);
      return () => listeners.delete(cb);
    },
    () => snapshot,
    () => snapshot,
  );

/**
 * Whether the trip is shared now: in transit unless the driver paused it; between award and pickup only when the
 * driver turned it on.
 */
export const isSharing = (loadId: number, status: string) => {
  const choice = choices[String(loadId)];
  if (status === "in_transit") return choice !== "paused";
  if (status === "assigned") return choice === "on";
  return false;
};

export const setSharing = (loadId: number, choice: TChoice) => {
  choices = { ...choices, [String(loadId)]: choice };
  localStorage.setItem(CHOICES_KEY, JSON.stringify(choices));
  changed();
};

/** Keeps a fix when it is the first, 30 s after the last kept one, or 500 m away from it. */
export const keepFix = (loadId: number, fix: TPosition) => {
  const held = points[String(loadId)] ?? [];
  const last = held.at(-1) ?? lastKept.get(loadId);
  if (last) {
    const elapsed = fix.recordedAt - Date.parse(last.recordedAt);
    const moved = haversineMiles(last.latitude, last.longitude, fix.latitude, fix.longitude);
    if (elapsed < MIN_INTERVAL_MS && moved < MIN_DISTANCE_MILES) return false;
  }
  const wire: TWire = {
    latitude: fix.latitude,
    longitude: fix.longitude,
    recordedAt: new Date(fix.recordedAt).toISOString(),
    ...(fix.accuracy != null ? { accuracy: fix.accuracy } : {}),
    ...(fix.speed != null ? { speed: fix.speed } : {}),
    ...(fix.heading != null ? { heading: fix.heading } : {}),
  };
  lastKept.set(loadId, wire);
  savePoints({ ...points, [String(loadId)]: [...held, wire] });
  return true;
};
const lastKept = new Map<number, TWire>();

/**
 * Online, each kept point leaves at once (with whatever an earlier failure left), so the shipper's map is live;
 * offline, points wait here until a full batch of 100 fills a queued request (the queue would otherwise hold a request
 * per point), and the rest leave when the connection returns.
 */
const due = (held: TWire[]) => (navigator.onLine ? held.length > 0 : held.length >= MAX_POSITIONS_PER_CALL);

let flushing: Promise<void> | null = null;

const retryLater = (status: number) => status === 0 || status >= 500 || status === 429 || status === 401;

/**
 * One batch to the server (or, offline, to the queue). When the server names points it refuses (a phone clock far
 * ahead, say), the others go again without them, so one bad fix does not cost the batch.
 */
const send = async (loadId: number, batch: TWire[]): Promise<"done" | "keep"> => {
  try {
    await trpcClient.tracking.record.mutate({ loadId, positions: batch as never });
    return "done";
  } catch (err) {
    const info = errorInfo(err);
    if (info.code === "QUEUED") return "done";
    if (retryLater(info.status)) return "keep";
    const bad = new Set(
      info.issues
        .map((i) => /^positions\.(\d+)\./.exec(i.path)?.[1])
        .filter((n): n is string => n != null)
        .map(Number),
    );
    const rest = batch.filter((_, i) => !bad.has(i));
    if (info.status === 400 && bad.size && rest.length) return send(loadId, rest);
    return "done";
  }
};

/**
 * Sends what is held, a batch of at most 100 points at a time. A batch the server stored, or the offline queue took,
 * leaves local storage; one the server refused is dropped (it would be refused again); a server failure keeps it.
 */
export const flushPoints = (force = false): Promise<void> => {
  if (flushing !== null) return flushing;
  // Cleared in a `.finally`, which always runs after this assignment (a flush with nothing to send finishes at once).
  flushing = (async () => {
    for (const [id, held] of Object.entries(points)) {
      if (!held.length || (!force && !due(held))) continue;
      for (let i = 0; i < held.length; i += MAX_POSITIONS_PER_CALL) {
        const batch = held.slice(i, i + MAX_POSITIONS_PER_CALL);
        if (!force && !navigator.onLine && batch.length < MAX_POSITIONS_PER_CALL) break;
        const outcome = await send(Number(id), batch);
        // No answer, the server failing or limiting, or signed out: keep them for the next try.
        if (outcome === "keep") return;
        const sent = new Set(batch.map((p) => p.recordedAt));
        savePoints({ ...points, [id]: (points[id] ?? []).filter((p) => !sent.has(p.recordedAt)) });
      }
    }
  })().finally(() => {
    flushing = null;
  });
  return flushing;
};

export const heldCount = (loadId: number) => points[String(loadId)]?.length ?? 0;

/** Watches the device's position for these loads; returns the function that stops it. */
export const watchTrips = (
  loadIds: number[],
  onState: (state: "watching" | "denied" | "unavailable" | "unsupported") => void,
) => {
  if (!("geolocation" in navigator)) {
    onState("unsupported");
    return () => {};
  }
  // A fix the device already had when sharing began (a cached one) counts from that moment: the trip's track starts
  // where the phone is when it is shared, and the server refuses points from before the award.
  const startedAt = Date.now();
  const id = navigator.geolocation.watchPosition(
    (p) => {
      onState("watching");
      const fix: TPosition = {
        latitude: p.coords.latitude,
        longitude: p.coords.longitude,
        recordedAt: Math.max(p.timestamp, startedAt),
        accuracy: p.coords.accuracy ?? null,
        speed: p.coords.speed ?? null,
        heading: p.coords.heading == null || Number.isNaN(p.coords.heading) ? null : p.coords.heading,
      };
      lastFix = { latitude: fix.latitude, longitude: fix.longitude, at: fix.recordedAt };
      let kept = false;
      for (const loadId of loadIds) kept = keepFix(loadId, fix) || kept;
      if (!kept) changed();
      if (kept) flushPoints().catch(() => {});
    },
    (err) => onState(err.code === err.PERMISSION_DENIED ? "denied" : "unavailable"),
    { enableHighAccuracy: true, maximumAge: 10_000, timeout: 60_000 },
  );
  // What waits leaves even when no new fix comes (a truck standing still, a lost signal): points held here, and
  // batches the queue took when a request got no answer while the phone thought it was online (the queue's own
  // replay runs on the \`online\` event, which such a batch may have missed).
  const timer = setInterval(() => {
    flushPoints().catch(() => {});
    if (navigator.onLine && queuedPositions()) replayQueue().catch(() => {});
  }, 5_000);
  const onHide = () => {
    if (document.visibilityState === "hidden") flushPoints(true).catch(() => {});
  };
  const onOnline = () => flushPoints(true).catch(() => {});
  document.addEventListener("visibilitychange", onHide);
  window.addEventListener("online", onOnline);
  return () => {
    navigator.geolocation.clearWatch(id);
    clearInterval(timer);
    document.removeEventListener("visibilitychange", onHide);
    window.removeEventListener("online", onOnline);
  };
};
