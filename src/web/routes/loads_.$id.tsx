import { Trans, useLingui } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { ArrowRight, Calendar, MapPin, Truck, Weight } from "lucide-react";
import { lazy, Suspense } from "react";
import { BidAction } from "../components/bids/bid-action";
import { AssignDriverCard } from "../components/companies/assign-driver-card";
import { StaleNotice } from "../components/layout/stale-notice";
import { LoadStatusBadge } from "../components/loads/badges";
import { BudgetAmount } from "../components/loads/budget-amount";
import { EditLoadButton } from "../components/loads/edit-load-button";
import { EquipmentLabel } from "../components/loads/equipment-label";
import { LoadCard, shareContentFor } from "../components/loads/load-card";
import { PlaceName } from "../components/loads/place-name";
import { ShareMenu } from "../components/loads/share-menu";
import { LoadPayment } from "../components/payments/load-payment";
import { TrackSummary } from "../components/tracking/track-summary";
import { TrackingLinkControl } from "../components/tracking/tracking-link-control";
import { TripPanel } from "../components/trip/trip-panel";
import { TruckInvitationNotice } from "../components/trucks/invitation-notice";
import { ShipperTrustCard } from "../components/trust/trust";
import { Button } from "../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../components/ui/card";
import { loginHref } from "../lib/auth";
import { loadAppMessages } from "../lib/i18n";
import { useOnline } from "../lib/online";
import { usePreferences } from "../lib/preferences";
import { errorInfo, trpc } from "../lib/trpc";

/** A shared load: a public preview for visitors, the full load for signed-in users. */
const RouteMap = lazy(() => import("../components/map/route-map"));

export const Route = createFileRoute("/loads_/$id")({ beforeLoad: () => loadAppMessages(), component: SharedLoadPage });

function SharedLoadPage() {
  const { id } = Route.useParams();
  const { me } = Route.useRouteContext();
  const loadId = Number(id);
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      {!Number.isSafeInteger(loadId) || loadId <= 0 ? (
        <Missing />
      ) : me ? (
        <FullLoad loadId={loadId} isDriver={me.userType === "driver"} />
      ) : (
        <Preview loadId={loadId} />
      )}
    </div>
  );
}

function Missing() {
  return (
    <Card className="p-8 text-center" data-testid="load-missing">
      <h1 className="text-xl font-semibold">
        <Trans>This load is no longer available</Trans>
      </h1>
      <p className="mt-2 text-muted-foreground">
        <Trans>It may have been awarded, cancelled or removed.</Trans>
      </p>
    </Card>
  );
}

function Preview({ loadId }: { loadId: number }) {
  const { formatDate, formatWeight } = usePreferences();
  const q = useQuery(trpc.loads.preview.queryOptions({ loadId }, { retry: false }));
  if (q.isPending)
    return (
      <p className="text-muted-foreground">
        <Trans>Loading...</Trans>
      </p>
    );
  if (q.isError || !q.data) return <Missing />;
  const l = q.data;
  return (
    <Card data-testid="load-preview">
      <CardHeader>
        <CardTitle className="text-2xl">{l.title}</CardTitle>
        <div className="flex flex-wrap items-center gap-2 text-muted-foreground">
          <MapPin className="size-4" />
          {l.pickupLocation}
          <ArrowRight className="size-4" />
          {l.deliveryLocation}
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="flex flex-wrap gap-4 text-sm">
          <span className="flex items-center gap-1">
            <Calendar className="size-4" />
            {formatDate(l.pickupDate, { dateStyle: "medium", timeStyle: "short" })}
          </span>
          <span className="flex items-center gap-1">
            <Truck className="size-4" />
            <EquipmentLabel type={l.equipmentType} />
          </span>
          <span className="flex items-center gap-1">
            <Weight className="size-4" />
            {formatWeight(l.weight)}
          </span>
        </div>
        <div>
          <BudgetAmount amount={l.budgetAmount} currency={l.budgetCurrency} className="text-2xl" />
        </div>
        <div className="rounded-md bg-teal-50 p-4">
          <p className="text-sm">
            <Trans>Sign in to see the full details, the pickup address and to bid on this load.</Trans>
          </p>
          <Button asChild className="mt-3">
            <a href={loginHref(`/loads?highlight=${l.id}`)}>
              <Trans comment="Button for visitors on a load: sign in to offer a price (bid) on it">
                Sign in to bid
              </Trans>
            </a>
          </Button>
        </div>
      </CardContent>
    </Card>
  );
}

function FullLoad({ loadId, isDriver }: { loadId: number; isDriver: boolean }) {
  const { t } = useLingui();
  const { formatDate } = usePreferences();
  const online = useOnline();
  const q = useQuery(trpc.loads.byId.queryOptions({ loadId }, { retry: false }));
  // The same query as the invitation notice's (shared by its key): when the notice offers the bid, the load's card
  // does not offer a second one.
  const invitations = useQuery({
    ...trpc.trucks.invitations.queryOptions({ loadId }, { staleTime: 30_000 }),
    enabled: isDriver,
  });
  // A load opened before the connection went stays readable from this device's copy (kept across reloads).
  if (!q.data && !online)
    return (
      <Card className="p-8 text-center" data-testid="load-offline-missing">
        <p className="text-muted-foreground">
          <Trans>
            You're offline, and this load was not opened on this device before. It shows once you're back online.
          </Trans>
        </p>
      </Card>
    );
  if (q.isPending)
    return (
      <p className="text-muted-foreground">
        <Trans>Loading...</Trans>
      </p>
    );
  if (!q.data || (q.isError && errorInfo(q.error).code === "NOT_FOUND")) return <Missing />;
  const l = q.data;
  return (
    <div className="grid gap-4">
      <StaleNotice updatedAt={q.dataUpdatedAt} failed={q.isError} testId="load-stale" />
      <div className="flex items-center justify-between">
        <Button asChild variant="ghost" size="sm">
          <Link to="/loads" search={{ highlight: l.id }}>
            <Trans>Open on the load board</Trans>
          </Link>
        </Button>
        <div className="flex items-center gap-2">
          {l.isMine && l.status === "posted" && l.source.type === "mytess" && <EditLoadButton load={l} />}
          <LoadStatusBadge status={l.status} />
        </div>
      </div>
      {isDriver && !l.isAssignedToMe && <TruckInvitationNotice load={l} />}
      <LoadCard
        load={l}
        actions={
          isDriver && !l.isAssignedToMe && l.status === "posted" && invitations.data?.length ? undefined : (
            <BidAction load={l} isDriver={isDriver} testId="quick-bid" label={<Trans>Place Bid</Trans>} />
          )
        }
      />
      {l.shipper && <ShipperTrustCard shipper={l.shipper} />}
      <Suspense fallback={<div className="h-[260px] animate-pulse rounded-lg bg-muted md:h-[320px]" />}>
        <RouteMap
          pickup={{ lat: l.pickupLatitude, lng: l.pickupLongitude, label: l.pickupLocation }}
          delivery={{ lat: l.deliveryLatitude, lng: l.deliveryLongitude, label: l.deliveryLocation }}
          track={l.track?.points}
        />
      </Suspense>
      {l.dispatchedByMe && <AssignDriverCard loadId={l.id} status={l.status} assignedDriverId={l.assignedDriverId} />}
      {(l.isMine || l.isAssignedToMe) && l.assignedDriverId != null && (
        <TripPanel loadId={l.id} title={l.title} truck={l.truck} />
      )}
      {(l.isMine || l.isAssignedToMe) && ["assigned", "in_transit", "delivered"].includes(l.status) && (
        <TrackSummary loadId={l.id} />
      )}
      {(l.isMine || l.isAssignedToMe) && l.status !== "posted" && <LoadPayment loadId={l.id} />}
      {l.isMine && ["assigned", "in_transit", "delivered", "disputed", "completed"].includes(l.status) && (
        <TrackingLinkControl loadId={l.id} />
      )}
      <Card>
        <CardContent className="grid gap-2 pt-5 text-sm">
          <div>
            <span className="font-medium">
              {t({
                message: "Pickup address",
                comment: "Load page label: the address where the load is put on the truck",
              })}
              :{" "}
            </span>
            {l.pickupAddress}, {l.pickupLocation}
          </div>
          <div>
            <span className="font-medium">
              {t({ message: "Delivery address", comment: "Load page label: the address where the load is unloaded" })}:{" "}
            </span>
            {l.deliveryAddress}, {l.deliveryLocation}
          </div>
          <div>
            <span className="font-medium">
              {t({ message: "Delivery by", comment: "Load page label: the latest delivery date" })}:{" "}
            </span>
            {formatDate(l.deliveryDate, { dateStyle: "medium", timeStyle: "short" })}
          </div>
          {l.description && <p className="text-muted-foreground">{l.description}</p>}
          {l.specialInstructions && (
            <p>
              <span className="font-medium">
                {t({ message: "Special instructions", comment: "Load page label: instructions from the shipper" })}:{" "}
              </span>
              {l.specialInstructions}
            </p>
          )}
          {l.track?.lastPosition && (
            <p data-testid="last-position">
              <span className="font-medium">{t`Last position`}: </span>
              <PlaceName latitude={l.track.lastPosition.latitude} longitude={l.track.lastPosition.longitude} /> ·{" "}
              {formatDate(l.track.lastPosition.recordedAt, { dateStyle: "short", timeStyle: "short" })}
            </p>
          )}
          {l.cancelReason && (
            <p>
              <span className="font-medium">
                {t({
                  message: "Cancelled because",
                  comment: "Load page: label before the reason the shipper gave for cancelling",
                })}
                :{" "}
              </span>
              {l.cancelReason}
            </p>
          )}
        </CardContent>
      </Card>
      <div className="flex justify-end">
        <ShareMenu content={shareContentFor(l)} />
      </div>
    </div>
  );
}
