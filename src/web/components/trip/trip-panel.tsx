import { Trans, useLingui } from "@lingui/react/macro";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { Check, Clock, FileDown, FileText, MessageSquare, Phone, Star } from "lucide-react";
import { useState } from "react";
import type { TBidTruck } from "../../../shared/schemas/answers/common";
import type { TRateConfirmationAnswer } from "../../../shared/schemas/answers/rate-confirmations";
import { useOnline } from "../../lib/online";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { errorInfo, trpc } from "../../lib/trpc";
import { Thread } from "../loads/messages-dialog";
import { BidTruckLine } from "../trucks/bid-truck";
import { Button } from "../ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../ui/card";
import { Dialog, DialogContent, DialogDescription, DialogHeader, DialogTitle, DialogTrigger } from "../ui/dialog";
import { LoadError } from "../ui/load-error";
import { TripDocuments } from "./trip-documents";
import { TripTimeline } from "./trip-timeline";

/** The other party's card: who they are, how they are rated, and ways to reach them. */
function OtherParty({ rc, title, truck }: { rc: TRateConfirmationAnswer; title: string; truck: TBidTruck | null }) {
  const { t } = useLingui();
  const { formatNumber } = usePreferences();
  const [open, setOpen] = useState(false);
  const other = rc.you === "shipper" ? rc.driver : rc.shipper;
  return (
    <div className="grid gap-2" data-testid="trip-other-party">
      <p className="text-sm text-muted-foreground">
        {other.role === "driver" ? (
          <Trans comment="Load page after the award: label above the awarded driver's name">Your driver</Trans>
        ) : (
          <Trans comment="Load page after the award: label above the load's shipper's name">Your shipper</Trans>
        )}
      </p>
      <p className="text-lg font-semibold" data-testid="trip-other-name">
        {other.name}
      </p>
      <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-muted-foreground">
        <span className="inline-flex items-center gap-1">
          <Star className="size-4" aria-hidden />
          {other.totalRatings > 0 ? (
            <Trans comment="Load page after the award: the other party's average rating and how many ratings it has">
              {formatNumber(other.rating, { maximumFractionDigits: 1 })} ({other.totalRatings} ratings)
            </Trans>
          ) : (
            <Trans comment="Load page after the award: the other party has no rating yet">No ratings yet</Trans>
          )}
        </span>
        <span data-testid="trip-other-trips">
          <Trans comment="Load page after the award: how many trips the other party completed on MyTess">
            {other.completedTrips} completed trips
          </Trans>
        </span>
      </p>
      {other.role === "driver" && <BidTruckLine truck={truck} className="text-sm" />}
      <div className="flex flex-wrap gap-2">
        {other.phone && (
          <Button asChild variant="outline" className="min-h-11 md:min-h-9">
            <a href={`tel:${other.phone}`} data-testid="trip-call">
              <Phone aria-hidden />
              {other.role === "driver" ? (
                <Trans comment="Button: phone the awarded driver">Call the driver</Trans>
              ) : (
                <Trans comment="Button: phone the load's shipper">Call the shipper</Trans>
              )}
            </a>
          </Button>
        )}
        <Dialog open={open} onOpenChange={setOpen}>
          <DialogTrigger asChild>
            <Button variant="outline" className="min-h-11 md:min-h-9" data-testid="trip-message">
              <MessageSquare aria-hidden />
              {other.role === "driver" ? (
                <Trans comment="Button on the load page after the award: write to the awarded driver">
                  Message the driver
                </Trans>
              ) : (
                <Trans comment="Button on the load page after the award: write to the load's shipper">
                  Message the shipper
                </Trans>
              )}
            </Button>
          </DialogTrigger>
          <DialogContent closeLabel={t`Close`}>
            <DialogHeader>
              <DialogTitle>
                <Trans>Messages</Trans>
              </DialogTitle>
              <DialogDescription>{title}</DialogDescription>
            </DialogHeader>
            {open && <Thread loadId={rc.loadId} driverId={rc.you === "shipper" ? rc.driver.id : undefined} />}
          </DialogContent>
        </Dialog>
      </div>
    </div>
  );
}

/** The rate confirmation: the PDF, and whether each side has accepted it; the caller's own accept button. */
function RateConfirmation({ rc }: { rc: TRateConfirmationAnswer }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const online = useOnline();
  const queryClient = useQueryClient();
  const accept = useMutation(
    trpc.rateConfirmations.accept.mutationOptions({
      onSuccess: (data) => {
        queryClient.setQueryData(trpc.rateConfirmations.get.queryKey({ loadId: rc.loadId }), data);
        void queryClient.invalidateQueries({ queryKey: trpc.loads.timeline.queryKey({ loadId: rc.loadId }) });
        toast({
          title: t({ message: "Rate confirmation accepted", comment: "Toast after accepting the rate confirmation" }),
          variant: "success",
        });
      },
      onError: (e) => toast({ title: errorInfo(e).message, variant: "destructive" }),
    }),
  );
  const mine = rc.accepted[rc.you];
  const row = (label: string, a: { at: string } | null, testId: string) => (
    <li className="flex items-center gap-2 text-sm" data-testid={testId}>
      {a ? (
        <Check className="size-4 text-emerald-600" aria-hidden />
      ) : (
        <Clock className="size-4 text-muted-foreground" aria-hidden />
      )}
      <span className="font-medium">{label}:</span>
      <span className={a ? "" : "text-muted-foreground"}>
        {a ? (
          <Trans comment="Rate confirmation on the load page: when a party accepted it">
            accepted {formatDate(a.at, { dateStyle: "medium", timeStyle: "short" })}
          </Trans>
        ) : (
          <Trans comment="Rate confirmation on the load page: the party has not accepted it yet">not yet</Trans>
        )}
      </span>
    </li>
  );
  return (
    <div className="grid gap-3" data-testid="rate-confirmation">
      <h3 className="flex items-center gap-2 font-semibold">
        <FileText className="size-4" aria-hidden />
        <Trans comment="Heading on the load page: the PDF with the agreed price and terms of the trip">
          Rate confirmation
        </Trans>
      </h3>
      <ul className="grid gap-1">
        {row(
          t({ message: "Shipper", comment: "Rate confirmation: the load's shipper" }),
          rc.accepted.shipper,
          "rc-shipper",
        )}
        {row(
          t({ message: "Driver", comment: "Rate confirmation: the awarded driver" }),
          rc.accepted.driver,
          "rc-driver",
        )}
      </ul>
      <div className="flex flex-wrap gap-2">
        <Button asChild variant="outline" className="min-h-11 md:min-h-9">
          <a href={rc.pdfUrl} download data-testid="rc-download">
            <FileDown aria-hidden />
            <Trans comment="Button: download the rate confirmation as a PDF file">Download PDF</Trans>
          </a>
        </Button>
        {!mine && rc.status !== "cancelled" && (
          <Button
            className="min-h-11 md:min-h-9"
            data-testid="rc-accept"
            disabled={accept.isPending || !online}
            onClick={() => accept.mutate({ loadId: rc.loadId })}
          >
            <Check aria-hidden />
            {accept.isPending ? (
              <Trans comment="Button while the acceptance is being sent">Accepting...</Trans>
            ) : (
              <Trans comment="Button: accept the rate confirmation (the agreed price and terms)">
                Accept the rate confirmation
              </Trans>
            )}
          </Button>
        )}
      </div>
      {!mine && !online && (
        <p className="text-sm text-muted-foreground" role="status">
          <Trans>You're offline. You can accept the rate confirmation once you're back online.</Trans>
        </p>
      )}
    </div>
  );
}

/**
 * The load's page after the award, for both parties: the agreed price, the other party and how to reach them, the
 * rate confirmation, the documents and one timeline of the trip.
 */
export function TripPanel({
  loadId,
  title,
  truck,
}: {
  loadId: number;
  title: string;
  /** The truck the accepted bid offered, shown on the driver's card to the shipper. */
  truck: TBidTruck | null;
}) {
  const { formatOriginal } = usePreferences();
  const q = useQuery(trpc.rateConfirmations.get.queryOptions({ loadId }, { retry: false }));
  if (q.isPending)
    return (
      <Card className="p-5">
        <p className="text-sm text-muted-foreground" role="status">
          <Trans comment="Load page: shown while the trip's details after the award are fetched">
            Loading the trip...
          </Trans>
        </p>
      </Card>
    );
  if (q.isError)
    return (
      <Card className="p-5">
        {errorInfo(q.error).code === "CONFLICT" ? (
          <p className="text-sm text-destructive" role="alert" data-testid="trip-panel-error">
            <Trans>This load is not awarded yet.</Trans>
          </p>
        ) : (
          <LoadError
            testId="trip-panel-error"
            title={<Trans>The trip's details could not be loaded. Check your connection and try again.</Trans>}
            error={q.error}
            onRetry={q.refetch}
          />
        )}
      </Card>
    );
  const rc = q.data;
  return (
    <Card data-testid="trip-panel">
      <CardHeader>
        <CardTitle className="text-lg">
          <Trans comment="Load page heading after the award: the trip between shipper and driver">Your trip</Trans>
        </CardTitle>
      </CardHeader>
      <CardContent className="grid gap-5">
        <div>
          <p className="text-sm text-muted-foreground">
            <Trans comment="Load page after the award: label above the price shipper and driver agreed on">
              Agreed price
            </Trans>
          </p>
          <p className="text-2xl font-bold" data-testid="trip-agreed-price">
            {formatOriginal(rc.agreed.amount, rc.agreed.currency)}
          </p>
        </div>
        <OtherParty rc={rc} title={title} truck={truck} />
        <RateConfirmation rc={rc} />
        <TripDocuments rc={rc} />
        <TripTimeline loadId={loadId} />
      </CardContent>
    </Card>
  );
}
