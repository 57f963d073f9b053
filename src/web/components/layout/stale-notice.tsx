import { Trans } from "@lingui/react/macro";
import { CloudOff } from "lucide-react";
import { useOnline } from "../../lib/online";
import { usePreferences } from "../../lib/preferences";

const isToday = (ms: number) => new Date(ms).toDateString() === new Date().toDateString();

/**
 * A quiet line above answers kept from earlier, shown while they cannot be refreshed: "Offline · as of 23:40" without a
 * connection, "Not refreshed · as of 23:40" when the server answered with an error. Nothing when the answers are fresh.
 */
export function StaleNotice({ updatedAt, failed, testId }: { updatedAt: number; failed: boolean; testId: string }) {
  const online = useOnline();
  const { formatDate } = usePreferences();
  if (online && !failed) return null;
  // The time alone today; the date too for anything older.
  const time = formatDate(
    updatedAt,
    isToday(updatedAt) ? { timeStyle: "short" } : { dateStyle: "medium", timeStyle: "short" },
  );
  return (
    <p
      role="status"
      data-testid={testId}
      className="flex items-center gap-2 rounded-md bg-slate-100 px-3 py-2 text-sm text-slate-700"
    >
      <CloudOff className="size-4 shrink-0" aria-hidden />
      {online ? (
        <Trans comment="Above a load or the load board when the server could not refresh them: {time} is when they were last loaded">
          Not refreshed · as of {time}
        </Trans>
      ) : (
        <Trans comment="Above a load or the load board shown from this device while offline: {time} is when they were last loaded">
          Offline · as of {time}
        </Trans>
      )}
    </p>
  );
}
