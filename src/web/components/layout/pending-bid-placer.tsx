import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery, useQueryClient } from "@tanstack/react-query";
import { Link, useLocation } from "@tanstack/react-router";
import { useEffect, useRef, useState } from "react";
import type { TEquipmentType, TMoneyCurrency } from "../../../shared/constants";
import { useMe } from "../../lib/auth";
import { clearPendingBid, readPendingBid, type TPendingBid } from "../../lib/pending-bid";
import { toast } from "../../lib/toast";
import { errorInfo, trpc, trpcClient } from "../../lib/trpc";
import { Button } from "../ui/button";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle } from "../ui/dialog";

/** Loads like the one that was taken: same truck, near the same pickup. */
function SimilarLoads({ bid, onClose }: { bid: TPendingBid; onClose: () => void }) {
  const { t } = useLingui();
  const similar = useQuery(
    trpc.loads.search.queryOptions({
      latitude: bid.pickup.latitude,
      longitude: bid.pickup.longitude,
      radius: 100,
      sort: "distance",
      equipmentType: bid.equipmentType as TEquipmentType,
      pageSize: 5,
    }),
  );
  const items = similar.data?.items.filter((l) => l.id !== bid.loadId) ?? [];
  const title = bid.loadTitle;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent
        closeLabel={t({
          message: "Close",
          comment: "Screen-reader label of the X button that closes a dialog or notice",
        })}
        data-testid="load-taken"
      >
        <DialogHeader>
          <DialogTitle>
            <Trans>This load was taken meanwhile</Trans>
          </DialogTitle>
          <DialogDescription>
            <Trans>Your bid on “{title}” was not sent: the load went to another driver. These are like it:</Trans>
          </DialogDescription>
        </DialogHeader>
        {similar.isPending && (
          <p className="text-sm text-muted-foreground">
            <Trans comment="Shown while a screen's data is fetched from the server (not loading cargo)">
              Loading...
            </Trans>
          </p>
        )}
        {similar.data && items.length === 0 && (
          <p className="text-sm text-muted-foreground">
            <Trans>No similar loads right now. The load board has everything that is open.</Trans>
          </p>
        )}
        <ul className="grid gap-2">
          {items.map((l) => (
            <li key={l.id}>
              <Link
                to="/loads"
                search={{ highlight: l.id }}
                onClick={onClose}
                className="block rounded-md border p-3 text-sm hover:bg-muted"
              >
                <span className="font-medium">{l.title}</span>
                <span className="block text-muted-foreground">
                  {l.pickupLocation} → {l.deliveryLocation}
                </span>
              </Link>
            </li>
          ))}
        </ul>
        <Button asChild variant="outline">
          <Link to="/loads" onClick={onClose}>
            <Trans>Open the load board</Trans>
          </Link>
        </Button>
      </DialogContent>
    </Dialog>
  );
}

/**
 * Places the bid a visitor made on the landing page, once they are signed in as a driver: the 'Bid Placed' toast on
 * success; if the load was taken meanwhile, says so and shows similar loads.
 */
export function PendingBidPlacer() {
  const { t } = useLingui();
  const { data: me } = useMe();
  const queryClient = useQueryClient();
  const [taken, setTaken] = useState<TPendingBid | null>(null);
  const started = useRef(false);
  // The sign-in screen leaves for the page the user came for at once: the bid is placed there, where its toast shows.
  const onSignIn = useLocation({ select: (l) => l.pathname.startsWith("/signin") });

  useEffect(() => {
    const bid = readPendingBid();
    if (!me || !bid || started.current || onSignIn) return;
    started.current = true;
    if (me.userType !== "driver") {
      clearPendingBid();
      toast({
        title: t`Only drivers can bid`,
        description: t`Your bid from the start page was not sent: this is a shipper account.`,
        variant: "warning",
      });
      return;
    }
    trpcClient.bids.place
      .mutate({
        loadId: bid.loadId,
        amount: bid.amount,
        currency: bid.currency as TMoneyCurrency,
        proposedPickupDate: bid.proposedPickupDate,
        notes: bid.notes,
      })
      .then(async () => {
        clearPendingBid();
        toast({ title: t`Bid Placed`, description: t`Your bid has been submitted successfully.`, variant: "success" });
        await queryClient.invalidateQueries();
      })
      .catch((err) => {
        const { code } = errorInfo(err);
        if (code === "QUEUED") return clearPendingBid(); // offline: the queue sends it
        clearPendingBid();
        if (code === "CONFLICT" || code === "NOT_FOUND") setTaken(bid);
        else toast({ title: t`Error`, description: t`Failed to place bid. Please try again.`, variant: "destructive" });
      });
  }, [me, onSignIn, queryClient, t]);

  return taken ? <SimilarLoads bid={taken} onClose={() => setTaken(null)} /> : null;
}
