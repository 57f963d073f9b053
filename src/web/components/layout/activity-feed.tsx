import { Trans, useLingui } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type { TActivityEvent } from "../../lib/api-types";
import { usePreferences } from "../../lib/preferences";

type TEvent = TActivityEvent;

export function ActivityFeed({ events }: { events: TEvent[] }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  if (!events.length) {
    return (
      <p className="text-sm text-muted-foreground" data-testid="activity-empty">
        <Trans>Nothing yet. Your bids, loads and trips will show up here.</Trans>
      </p>
    );
  }
  const sentence = (e: TEvent) => {
    const who = e.actorName ?? "";
    const what = e.load?.title ?? "";
    switch (e.kind) {
      case "load_posted":
        return t({
          message: `You posted ${what}`,
          comment: "Activity feed on the home page: you published the load {what}",
        });
      case "bid_placed":
        return t`You bid on ${what}`;
      case "bid_received":
        return t({
          message: `${who} bid on ${what}`,
          comment: "Activity feed on the home page: a driver ({who}) placed a price offer (bid) on the load {what}",
        });
      case "bid_accepted":
        return t`The bid on ${what} was accepted`;
      case "bid_rejected":
        return t`The bid on ${what} was declined`;
      case "bid_withdrawn":
        return t`${who} withdrew a bid on ${what}`;
      case "load_picked_up":
        return t`${what} was picked up`;
      case "load_delivered":
        return t({
          message: `${what} was delivered`,
          comment: "Activity feed on the home page: the load named {what} arrived at its delivery place",
        });
      case "load_completed":
        return t({
          message: `${what} was completed`,
          comment: "Activity feed on the home page: the load named {what} was completed",
        });
      case "load_cancelled":
        return t({
          message: `${what} was cancelled`,
          comment: "Activity feed on the home page: the load named {what} was cancelled",
        });
      case "rated":
        return t`${who} rated you for ${what}`;
      default:
        return what;
    }
  };
  return (
    <ul className="divide-y" data-testid="activity-feed">
      {events.map((e) => (
        <li key={e.id} className="flex items-start justify-between gap-3 py-2 text-sm" data-kind={e.kind}>
          <span>
            {e.load ? (
              <Link to="/loads/$id" params={{ id: String(e.load.id) }} className="hover:underline">
                {sentence(e)}
              </Link>
            ) : (
              sentence(e)
            )}
          </span>
          <span className="shrink-0 text-xs text-muted-foreground">
            {formatDate(e.createdAt, { dateStyle: "short", timeStyle: "short" })}
          </span>
        </li>
      ))}
    </ul>
  );
}
