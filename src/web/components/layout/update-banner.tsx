import { Trans } from "@lingui/react/macro";
import { useEffect } from "react";
import { UPDATE_BANNER_MS } from "../../../shared/constants";
import { useServiceWorkerUpdate } from "../../lib/service-worker";
import { Button } from "../ui/button";

/** Shown when a new version is waiting; dismissed by Later or after 30 seconds. */
export function UpdateBanner() {
  const { waiting, update, dismiss } = useServiceWorkerUpdate();
  useEffect(() => {
    if (!waiting) return;
    const timer = setTimeout(dismiss, UPDATE_BANNER_MS);
    return () => clearTimeout(timer);
  }, [waiting, dismiss]);
  if (!waiting) return null;
  return (
    <div
      role="alert"
      className="fixed inset-x-4 bottom-4 z-50 mx-auto flex max-w-lg items-center gap-3 rounded-lg bg-slate-900 p-4 text-white shadow-xl"
    >
      <span className="flex-1 text-sm">
        <Trans>A new version of MyTess is ready.</Trans>
      </span>
      <Button size="sm" onClick={update}>
        <Trans comment="Button on the “new version” banner: reload MyTess with the new version now">Update Now</Trans>
      </Button>
      <Button size="sm" variant="ghostInverse" onClick={dismiss}>
        <Trans comment="Button on the “new version” banner: update later, not now">Later</Trans>
      </Button>
    </div>
  );
}
