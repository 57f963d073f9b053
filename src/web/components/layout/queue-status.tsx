import { plural } from "@lingui/core/macro";
import { Trans, useLingui } from "@lingui/react/macro";
import { useQueryClient } from "@tanstack/react-query";
import { CloudUpload, X } from "lucide-react";
import { useEffect, useState } from "react";
import {
  dismissRefused,
  replayQueue,
  type TQueuedRequest,
  type TQueueKind,
  useOfflineQueue,
} from "../../lib/offline-queue";
import { useOnline } from "../../lib/online";
import { toast } from "../../lib/toast";
import { sendPendingUploads } from "../../lib/upload-queue";

/** What a queued write was, in the user's words. */
export function QueuedLabel({ entry }: { entry: TQueuedRequest }) {
  const kinds: Record<TQueueKind, React.ReactNode> = {
    bid: <Trans>Bid on load #{String(entry.input.loadId)}</Trans>,
    load: (
      <Trans comment="Offline queue: a new load (the shipper's post) waiting to be sent, with its title">
        New load: {String(entry.input.title ?? "")}
      </Trans>
    ),
    message: <Trans>Message on load #{String(entry.input.loadId)}</Trans>,
    location: (
      <Trans comment="Offline queue: a change of the driver's location waiting to be sent">Location update</Trans>
    ),
    trip: <Trans>Trip step on load #{String(entry.input.loadId)}</Trans>,
    position: (
      <Trans comment="Offline queue: positions of the driver's trip recorded without a connection, waiting to be sent">
        Trip positions on load #{String(entry.input.loadId)}
      </Trans>
    ),
    rating: <Trans>Rating on load #{String(entry.input.loadId)}</Trans>,
  };
  return <>{kinds[entry.kind]}</>;
}

/**
 * Sends the offline queue when the connection returns (the `online` event, the service worker's background sync, or
 * this start), says what was sent and what the server refused, and shows what is still waiting.
 */
export function QueueStatus() {
  const { t } = useLingui();
  const online = useOnline();
  const { queued, refused } = useOfflineQueue();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);

  useEffect(() => {
    if (!online) return;
    const replay = async () => {
      const result = await replayQueue();
      if (result.sent.length) {
        const n = result.sent.length;
        toast({
          title: plural(n, { one: "# queued change sent", other: "# queued changes sent" }),
          variant: "success",
        });
      }
      for (const r of result.refused)
        toast({ title: t`A queued change was not accepted`, description: r.reason, variant: "destructive" });
      if (result.sent.length || result.refused.length) await queryClient.invalidateQueries();
    };
    void replay();
    // Files (and proofs of delivery) wait in their own store: photos are too big for the queue's local storage.
    sendPendingUploads()
      .then((r) => (r.sent || r.refused.length ? queryClient.invalidateQueries() : undefined))
      .catch(() => {});
    const onMessage = (e: MessageEvent) => {
      if (e.data?.type === "replay-queue") void replay();
    };
    navigator.serviceWorker?.addEventListener("message", onMessage);
    return () => navigator.serviceWorker?.removeEventListener("message", onMessage);
  }, [online, queryClient, t]);

  if (!queued.length && !refused.length) return null;
  const n = queued.length;
  return (
    <div className="fixed right-4 bottom-4 z-50 flex max-w-sm flex-col items-end gap-2" data-testid="queue-status">
      {open && (
        <div className="w-80 rounded-lg border bg-white p-3 text-sm shadow-lg" data-testid="queue-panel">
          {queued.length > 0 && (
            <>
              <div className="font-medium">
                <Trans>Waiting to send</Trans>
              </div>
              <ul className="mt-1 grid gap-1 text-muted-foreground">
                {queued.map((q) => (
                  <li key={q.id} data-testid="queued-item">
                    <QueuedLabel entry={q} />
                  </li>
                ))}
              </ul>
            </>
          )}
          {refused.length > 0 && (
            <>
              <div className="mt-2 font-medium text-destructive">
                <Trans comment="Offline queue: the server refused a change that was waiting to be sent">
                  Not accepted
                </Trans>
              </div>
              <ul className="mt-1 grid gap-2">
                {refused.map((r) => (
                  <li key={r.id} className="flex items-start justify-between gap-2" data-testid="refused-item">
                    <span>
                      <QueuedLabel entry={r} />
                      <span className="block text-xs text-muted-foreground">{r.reason}</span>
                    </span>
                    <button
                      type="button"
                      className="rounded p-1 hover:bg-muted"
                      aria-label={t({
                        message: "Dismiss",
                        comment: "Screen-reader label of the X button that hides the offline-queue notice",
                      })}
                      onClick={() => dismissRefused(r.id)}
                    >
                      <X className="size-4" />
                    </button>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      )}
      <button
        type="button"
        onClick={() => setOpen((o) => !o)}
        aria-expanded={open}
        className="flex items-center gap-2 rounded-full bg-amber-100 px-3 py-1.5 text-sm text-amber-900 shadow-lg"
        data-testid="queue-button"
      >
        <CloudUpload className="size-4" />
        {n > 0
          ? plural(n, { one: "# change waiting to send", other: "# changes waiting to send" })
          : t`Some changes were not accepted`}
      </button>
    </div>
  );
}
