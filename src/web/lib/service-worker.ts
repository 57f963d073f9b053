import { useEffect, useRef, useState } from "react";

/**
 * Registers /sw.js and reports a waiting update. Accepting it tells the waiting worker to take over, and the page
 * reloads once it has. Only an accepted update reloads: a first visit's worker taking control (no update asked for)
 * leaves the page as it is, whereas a page that had no worker when it opened still reloads for an update accepted later.
 */
export const useServiceWorkerUpdate = () => {
  const [waiting, setWaiting] = useState<ServiceWorker | null>(null);
  const accepted = useRef(false);
  const reloading = useRef(false);

  useEffect(() => {
    if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
    const onControllerChange = () => {
      if (!accepted.current || reloading.current) return;
      reloading.current = true;
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
      if (!waiting) return window.location.reload();
      accepted.current = true;
      // Whichever comes first: the new worker taking control of this page, or it being active (a page it does not
      // control yet gets no controllerchange).
      waiting.addEventListener("statechange", () => {
        if (waiting.state !== "activated" || reloading.current) return;
        reloading.current = true;
        window.location.reload();
      });
      waiting.postMessage({ type: "SKIP_WAITING" });
    },
    dismiss: () => setWaiting(null),
  };
};
