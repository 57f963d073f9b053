// Web push in the browser: permission, the service worker's push subscription, and the server's copy of it. The
// helper returns false when it cannot subscribe (no support, permission denied, the subscription failed) and only logs
// why; the panel shows the toasts.

export type TPermission = "granted" | "denied" | "default";

export const isPushSupported = () =>
  typeof window !== "undefined" && "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;

export const pushPermission = (): TPermission => (isPushSupported() ? Notification.permission : "default");

/** The applicationServerKey as the bytes pushManager.subscribe wants. */
const keyBytes = (base64url: string) => {
  const b64 = base64url
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .padEnd(Math.ceil(base64url.length / 4) * 4, "=");
  return Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
};

const readyWorker = async (timeoutMs = 10_000) => {
  const timeout = new Promise<null>((resolve) => setTimeout(() => resolve(null), timeoutMs));
  const reg = await Promise.race([navigator.serviceWorker.ready, timeout]);
  if (!reg) throw new Error("Service Worker not ready");
  return reg;
};

/** The browser's current subscription, or null. */
export const currentSubscription = async () => {
  if (!isPushSupported()) return null;
  try {
    return await (await readyWorker(3000)).pushManager.getSubscription();
  } catch {
    return null;
  }
};

export type TSubscriptionJson = {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  expirationTime: number | null;
};
const toJson = (s: PushSubscription) => s.toJSON() as unknown as TSubscriptionJson;

/**
 * Asks for permission, subscribes through the service worker with the server's key and stores the subscription on the
 * server (`save`). When the server refuses this browser's existing subscription (it belongs to another account), the
 * browser makes a new one. Returns false, logging why, when it cannot.
 */
export const subscribeToPush = async (
  publicKey: string,
  save: (s: TSubscriptionJson) => Promise<unknown>,
): Promise<boolean> => {
  try {
    if (!isPushSupported()) throw new Error("Push notifications are not supported");
    const permission = await Notification.requestPermission();
    if (permission !== "granted") throw new Error("Notification permission denied");
    const reg = await readyWorker();
    const make = () => reg.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: keyBytes(publicKey) });
    const existing = await reg.pushManager.getSubscription();
    const sub = existing ?? (await make());
    try {
      await save(toJson(sub));
    } catch (err) {
      if (!existing) throw err;
      await existing.unsubscribe();
      await save(toJson(await make()));
    }
    return true;
  } catch (err) {
    console.warn("Push subscription failed", err);
    return false;
  }
};

/** Unsubscribes the browser and removes the server's copy (`remove`). */
export const unsubscribeFromPush = async (remove: (endpoint: string) => Promise<unknown>) => {
  const sub = await currentSubscription();
  if (!sub) return;
  await remove(sub.endpoint);
  await sub.unsubscribe();
};
