import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Negotiation } from "../bids/negotiation";
import { BidTruckLine } from "../trucks/bid-truck";
import { CarrierTrustLine } from "../trust/trust";
import { Badge } from "../ui/badge";
import { Button } from "../ui/button";
import { Card } from "../ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "../ui/dialog";
import { BidStatusBadge } from "./badges";
import { DriverBidFigures, DriverBidRow } from "./driver-bid-row";

/** The bids on one of the shipper's loads, cheapest first, with accept and reject. */
export function BidsDialog({
  loadId,
  title,
  pending,
  canAward,
}: {
  loadId: number;
  title: string;
  pending: number;
  canAward: boolean;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  // Awarding cannot be undone: the Accept button first asks, saying what will happen.
  const [confirming, setConfirming] = useState<number | null>(null);
  const { formatOriginal } = usePreferences();
  const queryClient = useQueryClient();
  const bids = useQuery({ ...trpc.bids.forLoad.queryOptions({ loadId }), enabled: open, staleTime: 0 });
  const onError = (err: unknown) =>
    toast({
      title: t`Error`,
      description:
        errorInfo(err).status === 409 ? t`This load or bid has changed. The list is refreshed.` : t`Please try again.`,
      variant: "destructive",
    });
  const accept = useMutation(
    trpc.bids.accept.mutationOptions({
      onSuccess: async () => {
        setConfirming(null);
        toast({
          title: t({ message: "Bid accepted", comment: "Notice title after the shipper accepted a bid" }),
          description: t`The load is assigned to the driver.`,
          variant: "success",
        });
        await queryClient.invalidateQueries();
      },
      onError: async (err) => {
        onError(err);
        await queryClient.invalidateQueries();
      },
    }),
  );
  const reject = useMutation(
    trpc.bids.reject.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries(),
      onError,
    }),
  );
  const othersPending = (bidId: number) =>
    bids.data?.filter((x) => x.status === "pending" && x.id !== bidId).length ?? 0;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) setConfirming(null);
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="outline" data-testid="view-bids">
          <Trans comment="Button on the shipper's load: see the price offers (bids) drivers made">View Bids</Trans>
          {pending > 0 && <Badge variant="default">{pending}</Badge>}
        </Button>
      </DialogTrigger>
      <DialogContent closeLabel={t`Close`} width="lg">
        <DialogHeader>
          <DialogTitle>
            <Trans comment="Dialog title and column header: the price offers (bids) drivers made on a load">Bids</Trans>
          </DialogTitle>
          <DialogDescription>{title}</DialogDescription>
        </DialogHeader>
        {bids.isPending && (
          <p className="text-sm text-muted-foreground">
            <Trans comment="Shown while a screen's data is fetched from the server (not loading cargo)">
              Loading...
            </Trans>
          </p>
        )}
        {bids.data?.length === 0 && (
          <p className="text-sm text-muted-foreground" data-testid="no-bids-yet">
            <Trans>No bids yet. Drivers near the pickup see this load on their dashboard.</Trans>
          </p>
        )}
        <div className="grid gap-2">
          {bids.data?.map((b) => (
            <Card key={b.id} className="flex flex-wrap items-center justify-between gap-3 p-3" data-testid="bid-row">
              {confirming === b.id && (
                <div
                  className="basis-full rounded-md border border-brand/40 bg-teal-50 p-3 text-sm"
                  role="alertdialog"
                  aria-labelledby={`confirm-award-${b.id}`}
                  data-testid="confirm-award"
                >
                  <p id={`confirm-award-${b.id}`} className="font-medium">
                    <Trans>
                      Award this load to {b.driverName} for {formatOriginal(b.amountInViewerCurrency, b.viewerCurrency)}
                      ?
                    </Trans>
                  </p>
                  <p className="mt-1 text-muted-foreground">
                    {othersPending(b.id) > 0 ? (
                      <Trans>
                        The load is assigned to this driver and the other {othersPending(b.id)} pending bids are
                        declined. This cannot be undone.
                      </Trans>
                    ) : (
                      <Trans>The load is assigned to this driver. This cannot be undone.</Trans>
                    )}
                  </p>
                  <div className="mt-2 flex gap-2">
                    <Button
                      size="sm"
                      disabled={accept.isPending}
                      onClick={() => accept.mutate({ bidId: b.id })}
                      data-testid="confirm-accept-bid"
                    >
                      {accept.isPending ? (
                        <Trans comment="Confirm-award button while the bid is being accepted">Accepting...</Trans>
                      ) : (
                        <Trans>Yes, award the load</Trans>
                      )}
                    </Button>
                    <Button size="sm" variant="ghost" onClick={() => setConfirming(null)}>
                      <Trans comment="Button: go back one step in a dialog">Back</Trans>
                    </Button>
                  </div>
                </div>
              )}
              <DriverBidRow initials={b.initials}>
                <div>
                  <div className="flex items-center gap-2 font-medium">
                    {b.driverName}
                    {b.isClosest && (
                      <Badge variant="success">
                        {t({ message: "Closest", comment: "Badge on the bid of the driver nearest to the pickup" })}
                      </Badge>
                    )}
                  </div>
                  <CarrierTrustLine carrier={b.carrier} />
                  <BidTruckLine truck={b.truck} />
                  <DriverBidFigures bid={b} className="text-xs" />
                  {b.notes && <div className="mt-1 text-sm">{b.notes}</div>}
                </div>
              </DriverBidRow>
              <div className="flex flex-wrap items-center gap-2">
                <div className="text-right">
                  <div className="font-bold" data-testid="bid-amount">
                    {formatOriginal(b.amountInViewerCurrency, b.viewerCurrency)}
                  </div>
                  {b.currency !== b.viewerCurrency && (
                    <div className="text-xs text-muted-foreground">{formatOriginal(b.amount, b.currency)}</div>
                  )}
                </div>
                <BidStatusBadge status={b.status} />
                {canAward && b.status === "pending" && (
                  <>
                    <Button
                      size="sm"
                      disabled={accept.isPending || confirming === b.id}
                      onClick={() => setConfirming(b.id)}
                      data-testid="accept-bid"
                    >
                      <Trans comment="Button beside a bid on the shipper's bid list: accept this bid (give the load to this driver)">
                        Accept
                      </Trans>
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      disabled={reject.isPending}
                      onClick={() => reject.mutate({ bidId: b.id })}
                    >
                      <Trans comment="Button beside a bid on the shipper's bid list: decline this bid">Reject</Trans>
                    </Button>
                  </>
                )}
              </div>
              {/* The offers stay readable after the award; answering them only while the load can be awarded. */}
              <Negotiation
                bidId={b.id}
                side="shipper"
                bidPending={canAward && b.status === "pending"}
                openCounter={canAward ? b.openCounter : null}
                counters={b.counters}
                currency={b.currency}
              />
            </Card>
          ))}
        </div>
      </DialogContent>
    </Dialog>
  );
}
