import { plural } from "@lingui/core/macro";
import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { SYNC_STATUS_REFETCH_MS } from "../../../shared/schemas/boards";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { Badge } from "../ui/badge";
import { Card } from "../ui/card";
import { LoadError } from "../ui/load-error";
import { type TSyncRun, useProviderLabel } from "./shared";

function TriggerLabel({ trigger }: { trigger: string }) {
  if (trigger === "manual") return <Trans comment="Board sync history: the sync was started by hand">Manual</Trans>;
  if (trigger === "schedule")
    return <Trans comment="Board sync history: the sync ran on its schedule">Scheduled</Trans>;
  return <>{trigger}</>;
}

/** On a phone each run is a small block of labelled figures; from sm up, a table row. */
const CELL = "sm:table-cell sm:py-2 sm:pr-3";
const NUMBER_CELL = `${CELL} tabular-nums sm:text-right`;

function PhoneLabel({ children }: { children: ReactNode }) {
  return <span className="text-xs text-muted-foreground sm:hidden">{children} </span>;
}

function RunRow({ run }: { run: TSyncRun }) {
  const { formatDate, formatNumber } = usePreferences();
  const providerLabel = useProviderLabel();
  const seconds = run.durationMs == null ? null : formatNumber(run.durationMs / 1000, { maximumFractionDigits: 1 });
  const board = providerLabel(run.provider, true);
  return (
    <tr
      className="grid grid-cols-2 gap-x-3 gap-y-1 border-t py-3 align-top sm:table-row sm:py-0"
      data-testid="sync-run"
    >
      <td className={`${CELL} sm:whitespace-nowrap`}>
        <time dateTime={run.startedAt}>{formatDate(run.startedAt, { dateStyle: "medium", timeStyle: "short" })}</time>
      </td>
      <td className={CELL}>
        <div className="font-medium">{run.name}</div>
        <div className="text-xs text-muted-foreground">{providerLabel(run.provider)}</div>
      </td>
      <td className={CELL}>
        <PhoneLabel>
          <Trans comment="Board sync history column: what started the sync (schedule or by hand)">Trigger</Trans>
        </PhoneLabel>
        <TriggerLabel trigger={run.trigger} />
      </td>
      <td className={NUMBER_CELL} data-testid="sync-run-found">
        <PhoneLabel>
          <Trans comment="Board sync history column: loads found in a sync">Found</Trans>
        </PhoneLabel>
        {formatNumber(run.found)}
      </td>
      <td className={NUMBER_CELL}>
        <PhoneLabel>
          <Trans comment="Board sync history column: loads found for the first time">New</Trans>
        </PhoneLabel>
        {formatNumber(run.created)}
      </td>
      <td className={NUMBER_CELL}>
        <PhoneLabel>
          <Trans comment="Board sync history column: loads changed in a sync">Updated</Trans>
        </PhoneLabel>
        {formatNumber(run.updated)}
      </td>
      <td className={NUMBER_CELL}>
        <PhoneLabel>
          <Trans comment="Board sync history column: loads removed because they are no longer on the board">
            Expired
          </Trans>
        </PhoneLabel>
        {formatNumber(run.expired)}
      </td>
      <td className={NUMBER_CELL}>
        <PhoneLabel>
          <Trans comment="Board sync history: how long a sync took">Duration</Trans>
        </PhoneLabel>
        {seconds == null ? (
          "–"
        ) : (
          <Trans comment="Board sync history: how long a sync took, in seconds (s)">{seconds} s</Trans>
        )}
      </td>
      <td className="col-span-2 sm:table-cell sm:min-w-40 sm:py-2" data-testid="sync-run-result">
        {run.error ? (
          <span className="break-words text-destructive" data-testid="sync-run-error">
            {run.error}
          </span>
        ) : run.finishedAt == null ? (
          <Badge variant="warning">
            <Trans comment="Sync status badge: a sync is running now">Running</Trans>
          </Badge>
        ) : (
          <Badge variant="success">
            <Trans comment="Board sync history badge: the sync worked">OK</Trans>
          </Badge>
        )}
        {run.unreadable > 0 && (
          <div className="mt-1 text-xs text-yellow-800" data-testid="sync-run-unreadable">
            {plural(run.unreadable, {
              one: `# load from ${board} could not be read`,
              other: `# loads from ${board} could not be read`,
            })}
          </div>
        )}
        {run.lanesOutside > 0 && (
          <div className="mt-1 text-xs text-muted-foreground" data-testid="sync-run-outside">
            {plural(run.lanesOutside, {
              one: `# lane not searched: ${board} searches North America only`,
              other: `# lanes not searched: ${board} searches North America only`,
            })}
          </div>
        )}
      </td>
    </tr>
  );
}

/** The user's recent sync runs, newest first, refreshed every 30 seconds. */
export function MonitoringTab() {
  const history = useQuery(trpc.boards.history.queryOptions({}, { refetchInterval: SYNC_STATUS_REFETCH_MS }));
  if (history.isPending)
    return (
      <p className="text-sm text-muted-foreground" role="status">
        <Trans>Loading sync history…</Trans>
      </p>
    );
  if (history.isError)
    return (
      <LoadError
        title={<Trans>The sync history could not be loaded.</Trans>}
        error={history.error}
        onRetry={history.refetch}
      />
    );
  if (history.data.length === 0)
    return (
      <Card className="p-8 text-center text-sm text-muted-foreground" data-testid="no-sync-runs">
        <Trans>No sync has run yet.</Trans>
      </Card>
    );
  return (
    <Card className="p-0">
      <div className="overflow-x-auto px-4 pb-1 sm:py-3">
        <table className="block w-full text-sm sm:table" data-testid="sync-runs">
          <thead className="hidden text-left text-xs text-muted-foreground sm:table-header-group">
            <tr>
              <th scope="col" className="pb-2 pr-3 font-medium">
                <Trans comment="Board sync history column: when the sync ran">When</Trans>
              </th>
              <th scope="col" className="pb-2 pr-3 font-medium">
                <Trans comment="Column header in the board sync history: the outside load board">Board</Trans>
              </th>
              <th scope="col" className="pb-2 pr-3 font-medium">
                <Trans>Trigger</Trans>
              </th>
              <th scope="col" className="pb-2 pr-3 text-right font-medium">
                <Trans>Found</Trans>
              </th>
              <th scope="col" className="pb-2 pr-3 text-right font-medium">
                <Trans>New</Trans>
              </th>
              <th scope="col" className="pb-2 pr-3 text-right font-medium">
                <Trans>Updated</Trans>
              </th>
              <th scope="col" className="pb-2 pr-3 text-right font-medium">
                <Trans>Expired</Trans>
              </th>
              <th scope="col" className="pb-2 pr-3 text-right font-medium">
                <Trans>Duration</Trans>
              </th>
              <th scope="col" className="pb-2 font-medium">
                <Trans comment="Board sync history column: whether the sync worked">Result</Trans>
              </th>
            </tr>
          </thead>
          <tbody className="block sm:table-row-group">
            {history.data.map((run) => (
              <RunRow key={run.id} run={run} />
            ))}
          </tbody>
        </table>
      </div>
    </Card>
  );
}
