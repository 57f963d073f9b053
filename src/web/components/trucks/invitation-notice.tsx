import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { Send } from "lucide-react";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";
import { BidAction } from "../bids/bid-action";
import type { TBidLoad } from "../loads/bid-dialog";
import { Card } from "../ui/card";

/**
 * On a load's page, for a driver a shipper invited to bid on it (they found the driver's truck near the pickup): who
 * invited them and when, with the bid button right there. Nothing shows when there is no invitation.
 */
export function TruckInvitationNotice({ load }: { load: TBidLoad & { status: string; source: { type: string } } }) {
  const { formatDate } = usePreferences();
  const invitations = useQuery(trpc.trucks.invitations.queryOptions({ loadId: load.id }, { staleTime: 30_000 }));
  const invitation = invitations.data?.[0];
  if (!invitation) return null;
  const shipper = invitation.shipperName;
  const when = formatDate(invitation.createdAt, { dateStyle: "medium", timeStyle: "short" });
  return (
    <Card
      className="flex flex-wrap items-center justify-between gap-3 border-brand/40 bg-teal-50/60 p-4"
      data-testid="truck-invitation"
    >
      <div className="flex min-w-0 items-start gap-2">
        <Send className="mt-0.5 size-4 shrink-0 text-brand" aria-hidden />
        <div>
          <div className="font-medium">
            <Trans comment="On a load's page: a shipper found the driver's truck and asked them to bid; {shipper} is their name">
              {shipper} invited you to bid
            </Trans>
          </div>
          <div className="text-sm text-muted-foreground">{when}</div>
        </div>
      </div>
      {load.status === "posted" && (
        // A phone's touch target: the button is 44 px high whatever size it was made with.
        <div className="flex flex-wrap items-center gap-2 [&_button]:min-h-11">
          <BidAction
            load={load}
            isDriver
            testId="invitation-bid"
            label={<Trans comment="Button: the driver places a bid on the load they were invited to">Place Bid</Trans>}
          />
        </div>
      )}
    </Card>
  );
}
