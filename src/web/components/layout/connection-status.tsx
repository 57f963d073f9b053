import { Trans, useLingui } from "@lingui/react/macro";
import { WifiOff } from "lucide-react";
import { useEffect, useRef } from "react";
import { STATUS_TOAST_MS } from "../../../shared/constants";
import { requestBackgroundSync, useOnline } from "../../lib/online";
import { toast } from "../../lib/toast";

/** A toast on each change of connection, and a badge while offline. */
export function ConnectionStatus() {
  const { t } = useLingui();
  const online = useOnline();
  const previous = useRef(online);

  useEffect(() => {
    if (previous.current === online) return;
    previous.current = online;
    if (online) {
      toast({ title: t`You're back online!`, variant: "success", duration: STATUS_TOAST_MS });
      requestBackgroundSync().catch((err) => console.warn("Background sync was not registered", err));
    } else {
      toast({
        title: t`You're now offline. Some features may be limited.`,
        variant: "warning",
        duration: STATUS_TOAST_MS,
      });
    }
  }, [online, t]);

  if (online) return null;
  return (
    <div
      role="status"
      data-testid="offline-badge"
      className="fixed bottom-4 left-4 z-50 flex items-center gap-2 rounded-full bg-slate-900 px-3 py-1.5 text-sm text-white shadow-lg"
    >
      <WifiOff className="size-4" />
      <Trans comment="Banner when the phone has no connection to MyTess">You're offline</Trans>
    </div>
  );
}
