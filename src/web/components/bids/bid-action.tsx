import { Trans, useLingui } from "@lingui/react/macro";
import type { ReactNode } from "react";
import { type TMyBid, useMyBid } from "../../lib/my-bids";
import { usePreferences } from "../../lib/preferences";
import type { TBidLoad } from "../loads/bid-dialog";
import { DeferredBidDialog } from "../loads/deferred-bid-dialog";
import { Button } from "../ui/button";

/** "Your bid: Br 9,800 · pending": the driver's own bid on the load, in its own currency and state. */
export function YourBid({ bid }: { bid: TMyBid }) {
  const { t } = useLingui();
  const { formatOriginal } = usePreferences();
  const amount = formatOriginal(bid.amount, bid.currency);
  const status =
    bid.status === "accepted"
      ? t({ message: "accepted", comment: "After “Your bid: Br 9,800 ·”: the shipper accepted the driver's bid" })
      : bid.status === "rejected"
        ? t({ message: "rejected", comment: "After “Your bid: Br 9,800 ·”: the shipper declined the driver's bid" })
        : t({ message: "pending", comment: "After “Your bid: Br 9,800 ·”: the bid waits for the shipper's answer" });
  return (
    <span className="text-sm font-medium text-brand" data-testid="your-bid" data-bid-status={bid.status}>
      <Trans comment="On a load the driver bid on: their bid's amount and its state, e.g. “Your bid: Br 9,800 · pending”">
        Your bid: {amount} · {status}
      </Trans>
    </span>
  );
}

type TActionLoad = TBidLoad & { status: string; source: { type: string } };

/**
 * What a load offers a driver, everywhere it is shown (board card and row, load page, dashboard): their own bid if
 * they made one, and the bid button, "Change your bid" while their bid is pending. An external load offers no bid
 * (its card shows the board's contact instead); a load no longer posted shows only the driver's bid. The dialog's code
 * is loaded when the button is first pressed, so the pages that show this (the board first) never wait for it.
 */
export function BidAction({
  load,
  isDriver,
  label,
  testId,
}: {
  load: TActionLoad;
  isDriver: boolean;
  /** The button's text before the driver has a pending bid on the load. */
  label: ReactNode;
  testId: string;
}) {
  const external = load.source.type === "external";
  const mine = useMyBid(load.id, isDriver && !external && load.id > 0);
  if (!isDriver || external) return null;
  const pending =
    mine?.status === "pending"
      ? { amount: mine.amount, currency: mine.currency, truckId: mine.truck?.id ?? null }
      : undefined;
  const trigger = (
    <Button size="sm" variant={pending ? "outline" : "default"} data-testid={testId}>
      {pending ? (
        <Trans comment="Button on a load the driver already bid on: open the form to change the amount">
          Change your bid
        </Trans>
      ) : (
        label
      )}
    </Button>
  );
  return (
    <>
      {mine && <YourBid bid={mine} />}
      {load.status === "posted" && <DeferredBidDialog load={load} existing={pending} trigger={trigger} />}
    </>
  );
}
