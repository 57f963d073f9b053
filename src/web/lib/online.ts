import { useSyncExternalStore } from "react";

// Whether the app can reach its server. `navigator.onLine` alone is not enough: a phone with signal but no data, a
// captive portal, or a page reloaded without a connection (where some browsers report online) all say "online" while
// every request fails. So a request to our server that gets no answer at all marks the connection as gone until an
// answer comes: from the next request, or from a probe of /api/health, sooner at first and then less often.

const PROBE_FIRST_MS = 2_000;
const PROBE_MAX_MS = 15_000;
const PROBE_TIMEOUT_MS = 10_000;

let unreachable = false;
let probeDelay = PROBE_FIRST_MS;
let probeTimer: ReturnType<typeof setTimeout> | null = null;
const listeners = new Set<() => void>();
const notify = () => {
  for (const l of listeners) l();
};

/** Whether the server can be reached, as far as the browser and our last request know. */
export const isOnline = () => navigator.onLine && !unreachable;

const probe = async () => {
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  try {
    // A patchy network may hold a request for minutes: a probe gives up after PROBE_TIMEOUT_MS and tries again later.
    // An answer marks the server reachable (watchedFetch).
    await watchedFetch("/api/health", {
      cache: "no-store",
      credentials: "omit",
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
  } catch {
    probeDelay = Math.min(probeDelay * 2, PROBE_MAX_MS);
    if (unreachable) probeTimer = setTimeout(probe, probeDelay);
  }
};

/** A request to our server got no answer at all (not even an error status). */
export const reportNoAnswer = () => {
  if (unreachable) return;
  unreachable = true;
  notify();
  // Only a page probes, not the render ahead of time (src/web/prerender), which has a stand-in window but no document.
  if (typeof document !== "undefined") probeTimer = setTimeout(probe, probeDelay);
};

/** Our server answered (any status): it can be reached. */
export const reportAnswer = () => {
  if (!unreachable) return;
  unreachable = false;
  if (probeTimer) clearTimeout(probeTimer);
  probeTimer = null;
  probeDelay = PROBE_FIRST_MS;
  notify();
};

/** fetch for calls to our own server that keeps the connection state: a network failure marks it gone. */
export const watchedFetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  try {
    const res = await fetch(input, init);
    reportAnswer();
    return res;
  } catch (err) {
    // An aborted request (the caller gave up) says nothing about the network.
    if ((err as Error)?.name !== "AbortError") reportNoAnswer();
    throw err;
  }
};

// The browser's own word that the connection is back is worth a fresh try at once.
if (typeof window !== "undefined")
  window.addEventListener("online", () => {
    if (unreachable) void probe();
  });

const subscribe = (cb: () => void) => {
  listeners.add(cb);
  window.addEventListener("online", cb);
  window.addEventListener("offline", cb);
  return () => {
    listeners.delete(cb);
    window.removeEventListener("online", cb);
    window.removeEventListener("offline", cb);
  };
};

// Rendered ahead of time (src/web/prerender), a page is drawn as online.
export const useOnline = () => useSyncExternalStore(subscribe, isOnline, () => true);

/** Asks the service worker for a background sync tagged "background-sync", where the browser supports it. */
export const requestBackgroundSync = async () => {
  if (!("serviceWorker" in navigator)) return;
  const reg = await navigator.serviceWorker.ready;
  const sync = (reg as ServiceWorkerRegistration & { sync?: { register: (tag: string) => Promise<void> } }).sync;
  await sync?.register("background-sync");
};
