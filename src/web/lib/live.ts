import { useEffect } from "react";
import { LOCAL_NOTIFICATION_MS } from "../../shared/constants";
import { currentSubscription } from "./push";
import { queryClient, trpc } from "./trpc";

type TLivePayload = { loadId?: number; notificationId?: number };

/**
 * Shows a notification the page itself makes (it closes after 5 seconds) while the tab is hidden, for devices
 * that have no push subscription (those get the push instead, so nothing is shown twice).
 */
const showLocal = async (notificationId: number) => {
  if (!document.hidden || typeof Notification === "undefined" || Notification.permission !== "granted") return;
  if (await currentSubscription().catch(() => null)) return;
  const list = await queryClient.fetchQuery(trpc.notifications.list.queryOptions({ page: 1, pageSize: 20 }));
  const n = list.items.find((i) => i.id === notificationId);
  if (!n) return;
  const shown = new Notification(n.title, { body: n.body, tag: `mytess-${n.id}`, icon: "/icon-192.png" });
  shown.onclick = () => {
    window.focus();
    if (n.url) window.location.assign(n.url);
  };
  setTimeout(() => shown.close(), LOCAL_NOTIFICATION_MS);
};

/** What a change may show on the current screen: only queries someone is looking at are fetched again. */
const refresh = () => queryClient.invalidateQueries({ refetchType: "active" });

/**
 * Live updates for the signed-in user: one EventSource per tab on /api/live. Each event refreshes what is on screen
 * (the bell, the conversation, dashboards, bids, loads) instead of polling; after the connection drops and comes back,
 * everything on screen is refreshed once, so nothing said meanwhile is missed.
 */
export const useLiveUpdates = (enabled: boolean) => {
  useEffect(() => {
    if (!enabled || typeof EventSource === "undefined") return;
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | null = null;
    let dropped = false;
    const open = () => {
      source = new EventSource("/api/live");
      source.onopen = () => {
        if (dropped) void refresh();
        dropped = false;
      };
      source.onerror = () => {
        dropped = true;
        // A refusal (signed out, 401) closes the stream for good: the browser does not retry it, so try later.
        if (source?.readyState === EventSource.CLOSED) {
          source = null;
          retry = setTimeout(open, 15_000);
        }
      };
      const onEvent = (e: MessageEvent<string>) => {
        let data: TLivePayload = {};
        try {
          data = JSON.parse(e.data);
        } catch {}
        void refresh();
        if (e.type === "notification" && data.notificationId) void showLocal(data.notificationId);
      };
      for (const kind of ["notification", "message", "bid", "load"]) source.addEventListener(kind, onEvent);
    };
    open();
    return () => {
      if (retry) clearTimeout(retry);
      source?.close();
    };
  }, [enabled]);
};
