import { useEffect, useState } from "react";

/**
 * Registers /sw.js and reports a waiting update. Accepting it tells the waiting worker to take over; the page reloads
 * when a new worker takes control.
 */
export const useServiceWorkerUpdate = () => {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);

  useEffect(() => {
    if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
    let reloading = false;
    const hadController = Boolean(navigator.serviceWorker.controller);
    const onControllerChange = () => {
      if (!hadController || reloading) return;
      reloading = true;
      window.location.reload();
    };
    navigator.serviceWorker.addEventListener("controllerchange", onControllerChange);
    navigator.serviceWorker
      .register("/sw.js")
      .then((reg) => {
        if (reg.waiting && navigator.serviceWorker.controller) setWaiting(reg.waiting);
        reg.addEventListener("updatefound", () => {
          const next = reg.installing;
          next?.addEventListener("statechange", () => {
            if (next.state === "installed" && navigator.serviceWorker.controller) setWaiting(next);
          });
        });
      })
      .catch((err) => console.warn("Service worker registration failed", err));
    return () => navigator.serviceWorker.removeEventListener("controllerchange", onControllerChange);
  }, []);

  return {
    waiting,
    update: () => {
      if (waiting) waiting.postMessage({ type: "SKIP_WAITING" });
      else window.location.reload();
    },
    dismiss: () => setWaiting(null),
  };
};
