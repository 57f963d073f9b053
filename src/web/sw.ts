/// <reference lib="webworker" />
// The app shell's service worker: precaches the built files, answers navigations from the network with the cached
// shell as the offline fallback, and serves hashed assets from the cache. API calls always go to the network.
declare const self: ServiceWorkerGlobalScope;
declare const __PRECACHE__: string[];
declare const __VERSION__: string;

const CACHE = `mytess-shell-${__VERSION__}`;
const SHELL = "/index.html";

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll([SHELL, ...__PRECACHE__])));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(keys.filter((k) => k.startsWith("mytess-shell-") && k !== CACHE).map((k) => caches.delete(k))),
      )
      .then(() => self.clients.claim()),
  );
});

// Background sync (tagged "background-sync"): the queue lives in the page's local storage, which a service worker
// cannot read, so the open pages are asked to send it.
self.addEventListener("sync", (event) => {
  const e = event as ExtendableEvent & { tag?: string };
  if (e.tag !== "background-sync") return;
  e.waitUntil(
    self.clients.matchAll({ type: "window" }).then((clients) => {
      for (const c of clients) c.postMessage({ type: "replay-queue" });
    }),
  );
});

// Web push: the server sends JSON {title, body, url?, tag?} (src/server/integrations/notifiers/web-push.ts), already in
// the recipient's language. Every push shows a notification (userVisibleOnly).
self.addEventListener("push", (event) => {
  let data: { title?: string; body?: string; url?: string; tag?: string } = {};
  try {
    data = event.data?.json() ?? {};
  } catch {
    data = { body: event.data?.text() ?? "" };
  }
  event.waitUntil(
    self.registration.showNotification(data.title || "MyTess", {
      body: data.body ?? "",
      icon: "/icon-192.png",
      badge: "/icon-192.png",
      data: { url: data.url ?? "/" },
      ...(data.tag ? { tag: data.tag } : {}),
    }),
  );
});

// A click opens the load: an open MyTess tab goes there, otherwise a new window. Only our own origin is opened.
self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const raw = (event.notification.data as { url?: string } | null)?.url ?? "/";
  let target: URL;
  try {
    target = new URL(raw, self.location.origin);
  } catch {
    target = new URL("/", self.location.origin);
  }
  const url =
    target.origin === self.location.origin
      ? target.href
      : new URL(target.pathname + target.search, self.location.origin).href;
  event.waitUntil(
    self.clients.matchAll({ type: "window", includeUncontrolled: true }).then(async (clients) => {
      for (const c of clients) {
        if (new URL(c.url).origin === self.location.origin && "navigate" in c) {
          await (c as WindowClient).focus();
          await (c as WindowClient).navigate(url);
          return;
        }
      }
      await self.clients.openWindow(url);
    }),
  );
});

self.addEventListener("message", (event) => {
  if (event.data?.type === "SKIP_WAITING") void self.skipWaiting();
});

self.addEventListener("fetch", (event) => {
  const req = event.request;
  const url = new URL(req.url);
  if (req.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/api/") || url.pathname.startsWith("/trpc/") || url.pathname === "/sw.js") return;

  if (req.mode === "navigate") {
    event.respondWith(
      fetch(req).catch(async () => (await caches.match(SHELL, { cacheName: CACHE })) ?? Response.error()),
    );
    return;
  }
  event.respondWith(
    caches.match(req, { cacheName: CACHE }).then(
      (hit) =>
        hit ??
        fetch(req).then((res) => {
          if (res.ok && url.pathname.startsWith("/assets/")) {
            const copy = res.clone();
            void caches.open(CACHE).then((cache) => cache.put(req, copy));
          }
          return res;
        }),
    ),
  );
});
