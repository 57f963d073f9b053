import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { LoadError } from "../ui/load-error";

type TItem = { key: string; at: string; text: string; note?: string };

/**
 * One timeline of the trip: the steps both parties took (award, rate confirmation, pickup, delivery, proof accepted or
 * disputed, completion) joined with the tracking's arrival and delay alerts, oldest first.
 */
export function TripTimeline({ loadId }: { loadId: number }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const timeline = useQuery(trpc.loads.timeline.queryOptions({ loadId }));
  // Alerts come with the track; a trip without one yet still shows its steps.
  const track = useQuery(trpc.tracking.track.queryOptions({ loadId }, { retry: false }));
  if (timeline.isPending)
    return (
      <p className="text-sm text-muted-foreground" role="status">
        <Trans comment="Shown while the trip's timeline is fetched">Loading the timeline...</Trans>
      </p>
    );
  if (timeline.isError)
    return (
      <LoadError
        title={<Trans>The timeline could not be loaded. Check your connection and try again.</Trans>}
        error={timeline.error}
        onRetry={timeline.refetch}
      />
    );
  const who = (a: { name: string } | null) => a?.name ?? "MyTess";
  const items: TItem[] = timeline.data.map((e) => {
    const key = `e${e.id}`;
    const detail = (e.detail ?? {}) as { reason?: string; automatic?: boolean };
    switch (e.kind) {
      case "awarded":
        return {
          key,
          at: e.at,
          text: t({ message: "Load awarded", comment: "Trip timeline step: the shipper gave the load to the driver" }),
        };
      case "rate_confirmation_accepted": {
        const name = who(e.actor);
        return {
          key,
          at: e.at,
          text: t({
            message: `Rate confirmation accepted by ${name}`,
            comment: "Trip timeline step: a party (named) accepted the rate confirmation",
          }),
        };
      }
      case "picked_up":
        return {
          key,
          at: e.at,
          text: t({ message: "Picked up", comment: "Trip timeline step: the driver loaded the freight" }),
        };
      case "delivered":
        return {
          key,
          at: e.at,
          text: t({ message: "Delivered", comment: "Trip timeline step: the driver delivered the load" }),
        };
      case "pod_accepted":
        return {
          key,
          at: e.at,
          text: t({
            message: "Proof of delivery accepted",
            comment: "Trip timeline step: the shipper accepted the proof of delivery",
          }),
        };
      case "disputed":
        return {
          key,
          at: e.at,
          text: t({ message: "Delivery disputed", comment: "Trip timeline step: the shipper disputed the delivery" }),
          note: detail.reason,
        };
      case "edited": {
        const name = who(e.actor);
        return {
          key,
          at: e.at,
          text: t({
            message: `Load details edited by ${name}`,
            comment: "Trip timeline step: the shipper (named) changed the load's details while it was posted",
          }),
        };
      }
      default:
        return {
          key,
          at: e.at,
          text: detail.automatic
            ? t({
                message: "Completed automatically after 48 hours",
                comment: "Trip timeline step: no answer from the shipper in 48 hours",
              })
            : t({ message: "Completed", comment: "Trip timeline step: the trip is over" }),
        };
    }
  });
  const alerts: TItem[] = [];
  for (const [i, a] of (track.data?.events ?? []).entries()) {
    const key = `a${i}`;
    if (a.kind === "arrived_pickup")
      alerts.push({
        key,
        at: a.at,
        text: t({ message: "Arrived at pickup", comment: "Trip timeline: the driver reached the pickup place" }),
      });
    else if (a.kind === "arrived_delivery")
      alerts.push({
        key,
        at: a.at,
        text: t({
          message: "Arrived at the delivery place",
          comment: "Trip timeline: the driver reached the delivery place",
        }),
      });
    else
      alerts.push({
        key,
        at: a.at,
        text: t({ message: "Running late", comment: "Trip timeline: the estimated arrival passed the delivery date" }),
        note: a.eta
          ? t({
              message: `Expected ${formatDate(a.eta, { dateStyle: "medium", timeStyle: "short" })}`,
              comment: "Trip timeline: the new estimated arrival after a delay",
            })
          : undefined,
      });
  }
  // Steps keep the order they were recorded in (two at once may carry swapped times); each alert goes before the first
  // step recorded after it.
  const ordered: TItem[] = [];
  const pending = alerts.sort((x, y) => Date.parse(x.at) - Date.parse(y.at));
  for (const step of items) {
    while (pending.length && Date.parse(pending[0]!.at) < Date.parse(step.at)) ordered.push(pending.shift()!);
    ordered.push(step);
  }
  ordered.push(...pending);
  return (
    <div className="grid gap-2">
      <h3 className="font-semibold">
        <Trans comment="Heading on the load page: the steps of the trip so far">Trip timeline</Trans>
      </h3>
      {ordered.length === 0 ? (
        <p className="text-sm text-muted-foreground">
          <Trans>Nothing has happened on this trip yet.</Trans>
        </p>
      ) : (
        <ol className="grid gap-2 border-l pl-4" data-testid="trip-timeline">
          {ordered.map((item) => (
            <li key={item.key} className="text-sm">
              <p className="font-medium">{item.text}</p>
              {item.note && <p className="text-muted-foreground">{item.note}</p>}
              <p className="text-xs text-muted-foreground">
                {formatDate(item.at, { dateStyle: "medium", timeStyle: "short" })}
              </p>
            </li>
          ))}
        </ol>
      )}
    </div>
  );
}
