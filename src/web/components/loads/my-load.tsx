import { Trans } from "@lingui/react/macro";
import { Link } from "@tanstack/react-router";
import type { inferRouterOutputs } from "@trpc/server";
import { Truck } from "lucide-react";
import type { AppRouter } from "../../../server/trpc/root";
import { usePreferences } from "../../lib/preferences";
import { Amount } from "../money/amount";
import { PodReviewDialog } from "../trip/pod-review";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { LoadStatusBadge } from "./badges";
import { BidsDialog } from "./bids-dialog";
import { BudgetAmount } from "./budget-amount";
import { CancelLoadDialog } from "./cancel-dialog";
import { LoadTitleLink } from "./load-cells";
import { ShipperMessagesDialog } from "./messages-dialog";
import { PendingBadge } from "./pending-badge";
import { PlaceName } from "./place-name";
import { RateDialog } from "./rate-dialog";

// One of the shipper's loads in My Loads: the parts its phone card and its desktop table row share.

export type TMyLoad = inferRouterOutputs<AppRouter>["loads"]["minePage"]["items"][number];

/** What the shipper can do with the load now: bids, messages, review the proof of delivery, rate the driver, cancel. */
export function MyLoadActions({ load }: { load: TMyLoad }) {
  return (
    <>
      <BidsDialog loadId={load.id} title={load.title} pending={load.pendingBids} canAward={load.status === "posted"} />
      <ShipperMessagesDialog loadId={load.id} title={load.title} unread={load.unreadMessages} />
      {load.status === "posted" && load.source.type === "mytess" && <FindTrucksLink load={load} />}
      {(load.status === "delivered" || load.status === "disputed") && (
        <PodReviewDialog loadId={load.id} status={load.status} />
      )}
      {load.status === "completed" && !load.hasRated && <RateDialog loadId={load.id} whom="driver" />}
      {(load.status === "posted" || load.status === "assigned") && (
        <CancelLoadDialog loadId={load.id} assigned={load.status === "assigned"} />
      )}
    </>
  );
}

/** The search of trucks near the load's pickup, prefilled with its lane, equipment and pickup day. */
function FindTrucksLink({ load }: { load: TMyLoad }) {
  const day = load.pickupDate.slice(0, 10);
  return (
    <Button asChild size="sm" variant="outline">
      <Link
        to="/find-trucks"
        search={{
          load: load.id,
          origin: load.pickupLocation,
          latitude: load.pickupLatitude,
          longitude: load.pickupLongitude,
          destination: load.deliveryLocation,
          destinationLatitude: load.deliveryLatitude,
          destinationLongitude: load.deliveryLongitude,
          equipmentType: load.equipmentType,
          from: day,
          to: day,
        }}
        data-testid="find-trucks-for-load"
      >
        <Truck aria-hidden />
        <Trans comment="Button on a shipper's open load: search trucks free near its pickup">
          Find trucks for this load
        </Trans>
      </Link>
    </Button>
  );
}

/** Who posted it (a company colleague's load), the driver, the truck's last position and why it was cancelled. */
export function MyLoadFacts({ load }: { load: TMyLoad }) {
  const { formatDate } = usePreferences();
  const postedBy = load.postedBy && !load.postedBy.isMe ? (load.postedBy.name ?? "—") : null;
  return (
    <>
      {postedBy && (
        <div className="text-sm text-muted-foreground" data-testid="posted-by">
          <Trans comment="Shipper's load card: a load of the shipper's company posted by a colleague, with their name">
            Posted by {postedBy}
          </Trans>
        </div>
      )}
      {load.assignedDriverName && (
        <div className="text-sm">
          <Trans comment="Shipper's load card: the driver the load was given to">
            Driver: {load.assignedDriverName}
          </Trans>
        </div>
      )}
      {load.lastPosition && (
        <div className="text-sm text-muted-foreground" data-testid="last-position">
          <Trans comment="Shipper's load card: the driver's last position (place name), then its date and time">
            Last position: <PlaceName latitude={load.lastPosition.latitude} longitude={load.lastPosition.longitude} />,{" "}
            {formatDate(load.lastPosition.recordedAt, { dateStyle: "short", timeStyle: "short" })}
          </Trans>
        </div>
      )}
      {load.cancelReason && (
        <div className="text-sm text-muted-foreground">
          <Trans comment="Shipper's load card: cancelled, with the reason given">Cancelled: {load.cancelReason}</Trans>
        </div>
      )}
    </>
  );
}

/**
 * The lowest bid waiting, in the viewer's currency (and the bid's own beneath when they differ); after the award, the
 * agreed price instead.
 */
export function BestBid({ bid, agreed }: { bid: TMyLoad["bestBid"]; agreed?: TMyLoad["agreedPrice"] }) {
  if (agreed)
    return (
      <div data-testid="agreed-price">
        <BudgetAmount amount={agreed.amount} currency={agreed.currency} className="text-sm" />
        <div className="text-xs text-muted-foreground">
          <Trans comment="Under a price in the shipper's load table: the price agreed with the driver at the award">
            agreed
          </Trans>
        </div>
      </div>
    );
  if (!bid) return <span className="text-muted-foreground">—</span>;
  return <BudgetAmount amount={bid.amount} currency={bid.currency} className="text-sm" testId="best-bid" />;
}

/** A load of My Loads as a card (phones and tablets). */
export function MyLoadCard({ load }: { load: TMyLoad }) {
  const { formatDate } = usePreferences();
  const best = load.bestBid && <Amount amount={load.bestBid.amount} currency={load.bestBid.currency} />;
  return (
    <Card className="grid gap-3 p-4" data-testid="my-load" data-load-id={load.id}>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <div className="flex flex-wrap items-center gap-2 font-medium">
            <LoadTitleLink load={load} />
            <LoadStatusBadge status={load.status} />
            <PendingBadge loadId={load.id} />
          </div>
          <div className="text-sm text-muted-foreground">
            {load.pickupLocation} → {load.deliveryLocation} · {formatDate(load.pickupDate, { dateStyle: "medium" })}
          </div>
          <MyLoadFacts load={load} />
        </div>
        <div className="text-right">
          <BudgetAmount amount={load.budgetAmount} currency={load.budgetCurrency} />
          {load.agreedPrice && (
            <div className="mt-1 text-xs text-muted-foreground" data-testid="agreed-price">
              <Trans comment="Shipper's load card: the price agreed with the driver at the award">
                Agreed price: <Amount amount={load.agreedPrice.amount} currency={load.agreedPrice.currency} />
              </Trans>
            </div>
          )}
          {best && (
            <div className="mt-1 text-xs text-muted-foreground" data-testid="best-bid">
              <Trans comment="Shipper's load card: the best price offer (bid) so far">Best bid: {best}</Trans>
            </div>
          )}
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        <MyLoadActions load={load} />
      </div>
    </Card>
  );
}
