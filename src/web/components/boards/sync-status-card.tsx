import { plural } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { RefreshCw } from "lucide-react";
import { SYNC_STATUS_REFETCH_MS } from "../../../shared/schemas/boards";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { LoadError } from "../ui/load-error";

/** Whether a sync is running, how often boards sync, when the next one is due and when each board last synced. */
export function SyncStatusCard() {
  const { formatDate } = usePreferences();
  const status = useQuery(trpc.boards.syncStatus.queryOptions(undefined, { refetchInterval: SYNC_STATUS_REFETCH_MS }));
  const list = useQuery(trpc.boards.list.queryOptions(undefined, { refetchInterval: SYNC_STATUS_REFETCH_MS }));
  const s = status.data;
  const syncable = (list.data ?? []).filter((c) => c.canSync && c.isActive);

  return (
    <Card data-testid="sync-status">
      <CardHeader>
        <div className="flex flex-wrap items-center justify-between gap-2">
          <CardTitle className="flex items-center gap-2">
            <RefreshCw className="size-4 text-brand" aria-hidden />
            <Trans comment="Card title: state of the scheduled board syncs">Synchronization status</Trans>
          </CardTitle>
          {s &&
            (s.isRunning ? (
              <Badge variant="success" data-testid="sync-state">
                <Trans>Running</Trans>
              </Badge>
            ) : (
              <Badge variant="secondary" data-testid="sync-state">
                <Trans comment="Sync status badge: syncing is switched off">Stopped</Trans>
              </Badge>
            ))}
        </div>
      </CardHeader>
      <CardContent>
        {status.isPending ? (
          <p className="text-sm text-muted-foreground" role="status">
            <Trans>Loading…</Trans>
          </p>
        ) : status.isError || !s ? (
          <LoadError
            title={<Trans>The sync status could not be loaded.</Trans>}
            error={status.error}
            onRetry={status.refetch}
          />
        ) : (
          <div className="grid gap-3 text-sm">
            <dl className="grid gap-2 sm:grid-cols-2">
              <div>
                <dt className="text-muted-foreground">
                  <Trans comment="Sync status card: time between two syncs">Interval</Trans>
                </dt>
                <dd data-testid="sync-interval">
                  {plural(s.intervalMinutes, { one: "Every # minute", other: "Every # minutes" })}
                </dd>
              </div>
              <div>
                <dt className="text-muted-foreground">
                  <Trans comment="Sync status card: when the next sync runs">Next sync</Trans>
                </dt>
                <dd data-testid="next-sync">
                  {s.nextSyncInMinutes == null ? (
                    <Trans>No board syncs on a schedule</Trans>
                  ) : s.nextSyncInMinutes === 0 ? (
                    <Trans comment="Sync status: the next sync starts now">Due now</Trans>
                  ) : (
                    plural(s.nextSyncInMinutes, { one: "In # minute", other: "In # minutes" })
                  )}
                </dd>
              </div>
            </dl>
            {syncable.length > 0 && (
              <div>
                <div className="mb-1 text-muted-foreground">
                  <Trans>Last sync</Trans>
                </div>
                <ul className="grid gap-1 sm:max-w-lg" data-testid="last-sync-times">
                  {syncable.map((c) => {
                    const at = s.lastSyncTimes[String(c.id)];
                    return (
                      <li key={c.id} className="flex flex-wrap justify-between gap-x-3" data-testid="last-sync-time">
                        <span className="font-medium">{c.name}</span>
                        {at ? (
                          <time dateTime={at} className="text-muted-foreground">
                            {formatDate(at, { dateStyle: "medium", timeStyle: "short" })}
                          </time>
                        ) : (
                          <span className="text-muted-foreground">
                            <Trans>Not synced yet</Trans>
                          </span>
                        )}
                      </li>
                    );
                  })}
                </ul>
              </div>
            )}
          </div>
        )}
      </CardContent>
    </Card>
  );
}
