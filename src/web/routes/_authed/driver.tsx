import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { createFileRoute, Link } from "@tanstack/react-router";
import { Banknote, ChevronDown, Gavel, LocateFixed, MapPin, Star, Truck } from "lucide-react";
import { useState } from "react";
import { DEFAULT_RADIUS } from "../../../shared/constants";
import { BidAction } from "../../components/bids/bid-action";
import { Negotiation } from "../../components/bids/negotiation";
import { WithdrawBidDialog } from "../../components/bids/withdraw-bid-dialog";
import { PageHeader } from "../../components/layout/page-header";
import { StatCard } from "../../components/layout/stat-card";
import { WrongRole } from "../../components/layout/wrong-role";
import { BidStatusBadge, LoadStatusBadge } from "../../components/loads/badges";
import { DEFAULT_FILTERS, filtersToInput, type TBoardFilters } from "../../components/loads/board-search";
import { LoadCard } from "../../components/loads/load-card";
import { LoadFilters } from "../../components/loads/load-filters";
import { DriverMessagesDialog } from "../../components/loads/messages-dialog";
import { PlaceName } from "../../components/loads/place-name";
import { RateDialog } from "../../components/loads/rate-dialog";
import { Amount } from "../../components/money/amount";
import { RatesNote } from "../../components/money/rates-note";
import { ArrivalPrompt } from "../../components/tracking/arrival-prompt";
import { TripSharing } from "../../components/tracking/trip-sharing";
import { PendingPod, PodDialog } from "../../components/trip/pod-dialog";
import { Badge } from "../../components/ui/badge";
import { Button } from "../../components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "../../components/ui/card";
import { Label } from "../../components/ui/input";
import { LoadError } from "../../components/ui/load-error";
import { Switch } from "../../components/ui/switch";
import { TOUCH_FORM } from "../../components/ui/touch";
import type { TRouterOutputs } from "../../lib/api-types";
import { currentPosition } from "../../lib/geolocation";
import { useOfflineQueue } from "../../lib/offline-queue";
import { usePreferences } from "../../lib/preferences";
import { toast } from "../../lib/toast";
import { isQueued, trpc } from "../../lib/trpc";
import { useUnauthorizedRedirect } from "../../lib/unauthorized";
import { isProof, usePendingUploads } from "../../lib/upload-queue";

/** One of the driver's trips, as the dashboard lists them. */
type TTrip = TRouterOutputs["drivers"]["trips"][number];

export const Route = createFileRoute("/_authed/driver")({ component: DriverDashboard });

function DriverDashboard() {
  const { me } = Route.useRouteContext();
  if (me.userType !== "driver") {
    return (
      <div>
        <PageHeader
          title={<Trans comment="Page title of the driver's home page (dashboard)">Driver Dashboard</Trans>}
          description={<Trans>Find loads near you, bid and run your trips.</Trans>}
        />
        <WrongRole dashboardFor="driver" />
      </div>
    );
  }
  return <DriverHome />;
}

function DriverHome() {
  const { t } = useLingui();
  const { formatNumber, formatOriginal, formatDate, units } = usePreferences();
  const queryClient = useQueryClient();
  const onUnauthorized = useUnauthorizedRedirect();
  const [filters, setFilters] = useState<TBoardFilters>({ ...DEFAULT_FILTERS, radius: DEFAULT_RADIUS });
  const [locating, setLocating] = useState(false);
  const [positionFailed, setPositionFailed] = useState(false);
  const stats = useQuery(trpc.drivers.stats.queryOptions(undefined, { staleTime: 30_000 }));
  const location = stats.data?.location;
  // Without a saved position, "near you" is where the driver's first saved lane starts: the place they said they work
  // from. The lanes are only asked for when they are needed.
  const lanes = useQuery({
    ...trpc.boards.lanes.queryOptions(undefined, { staleTime: 60_000 }),
    enabled: stats.isSuccess && !location,
  });
  const lane = location ? undefined : lanes.data?.[0];
  const centre = location ?? (lane ? { latitude: lane.originLatitude, longitude: lane.originLongitude } : undefined);
  const nearby = useQuery({
    ...trpc.loads.search.queryOptions(
      {
        ...filtersToInput(filters, units),
        latitude: centre?.latitude,
        longitude: centre?.longitude,
        sort: "distance",
        pageSize: 20,
      },
      { placeholderData: keepPreviousData, staleTime: 30_000 },
    ),
    enabled: Boolean(centre),
  });
  // Still finding out where "near" is: the figures, then (without a position) the lanes.
  const findingCentre = stats.isPending || (!location && stats.isSuccess && lanes.isPending);
  const bids = useQuery(trpc.bids.mine.queryOptions(undefined, { staleTime: 30_000 }));
  const trips = useQuery(trpc.drivers.trips.queryOptions(undefined, { staleTime: 30_000 }));
  const refresh = () => queryClient.invalidateQueries();
  const locationQueued = useOfflineQueue().queued.some((q) => q.kind === "location");

  const saveLocation = useMutation(
    trpc.drivers.updateLocation.mutationOptions({
      onSuccess: async () => {
        toast({
          title: t({ message: "Location Updated", comment: "Notice title after the driver's position was saved" }),
          description: t`Your current location has been updated successfully.`,
          variant: "success",
        });
        await refresh();
      },
      onError: (err) => {
        if (!isQueued(err) && !onUnauthorized(err))
          toast({
            title: t({ message: "Location Error", comment: "Notice title: the driver's position could not be found" }),
            description: t`Failed to get your current location.`,
            variant: "destructive",
          });
      },
    }),
  );
  const updateLocation = async () => {
    setLocating(true);
    try {
      saveLocation.mutate(await currentPosition());
      setPositionFailed(false);
    } catch {
      setPositionFailed(true);
      toast({ title: t`Location Error`, description: t`Failed to get your current location.`, variant: "destructive" });
    } finally {
      setLocating(false);
    }
  };
  const availability = useMutation(trpc.drivers.setAvailability.mutationOptions({ onSuccess: () => refresh() }));
  const withdraw = useMutation(
    trpc.bids.withdraw.mutationOptions({
      onSuccess: async () => {
        toast({
          title: t({ message: "Bid withdrawn", comment: "Notice title after a driver took back their bid" }),
          variant: "success",
        });
        await refresh();
      },
      onError: () =>
        toast({
          title: t`Error`,
          description: t`Could not withdraw the bid. Please try again.`,
          variant: "destructive",
        }),
    }),
  );
  // The trip whose proof-of-delivery dialog is open (its button, or the arrival prompt's "Yes, delivered").
  const [podFor, setPodFor] = useState<number | null>(null);
  const pickup = useMutation(
    trpc.loads.pickup.mutationOptions({
      onSuccess: async () => {
        toast({ title: t`Marked as picked up`, variant: "success" });
        await refresh();
      },
      onError: (err) => {
        if (!isQueued(err))
          toast({
            title: t`Error`,
            description: t`The trip could not be updated. Please try again.`,
            variant: "destructive",
          });
      },
    }),
  );
  const pods = usePendingUploads().filter(isProof);
  // Completed trips fold away under "Completed trips (N)", so the trips still to run come first; one the driver has
  // not rated yet keeps its Rate button there.
  const [showDone, setShowDone] = useState(false);
  const isDone = (l: TTrip) => l.status === "completed";
  const openTrips = trips.data?.filter((l) => !isDone(l)) ?? [];
  const doneTrips = trips.data?.filter(isDone) ?? [];
  const tripCard = (l: TTrip) => (
    <Card
      key={l.id}
      className="flex flex-wrap items-center justify-between gap-3 p-4"
      data-testid="trip-row"
      data-load-id={l.id}
    >
      <div>
        <div className="flex items-center gap-2 font-medium">
          {l.title} <LoadStatusBadge status={l.status} />
        </div>
        <div className="text-sm text-muted-foreground">
          {l.pickupLocation} → {l.deliveryLocation}
        </div>
      </div>
      <div className="flex flex-wrap gap-2">
        {l.status === "assigned" && (
          <Button size="sm" disabled={pickup.isPending} onClick={() => pickup.mutate({ loadId: l.id })}>
            <Trans>Mark picked up</Trans>
          </Button>
        )}
        {l.status === "in_transit" && !pods.some((p) => p.loadId === l.id && !p.refused) && (
          <PodDialog
            loadId={l.id}
            title={l.title}
            open={podFor === l.id}
            onOpenChange={(o) => setPodFor(o ? l.id : null)}
          />
        )}
        {l.status === "completed" && !l.hasRated && <RateDialog loadId={l.id} whom="shipper" />}
        <DriverMessagesDialog loadId={l.id} title={l.title} />
      </div>
      <ArrivalPrompt
        trip={l}
        busy={pickup.isPending}
        onPickedUp={() => pickup.mutate({ loadId: l.id })}
        onDelivered={() => setPodFor(l.id)}
      />
      <PendingPod loadId={l.id} />
      <TripSharing loadId={l.id} status={l.status} />
    </Card>
  );

  const s = stats.data;
  return (
    <div className={`grid gap-6 ${TOUCH_FORM}`}>
      <PageHeader
        title={<Trans>Driver Dashboard</Trans>}
        description={<Trans>Find loads near you, bid and run your trips.</Trans>}
        actions={
          <Button
            onClick={() => void updateLocation()}
            disabled={locating || saveLocation.isPending}
            data-testid="update-location"
          >
            <LocateFixed />
            {locating || saveLocation.isPending ? (
              <Trans comment="Update Location button while saving">Updating...</Trans>
            ) : (
              <Trans comment="Driver dashboard button: save the phone's current position">Update Location</Trans>
            )}
          </Button>
        }
      />
      <div className="grid grid-cols-2 gap-3 lg:grid-cols-4">
        <StatCard
          icon={Star}
          label={<Trans comment="Dashboard figure: the user's average star rating from others">Rating</Trans>}
          value={s ? formatNumber(s.rating, { maximumFractionDigits: 1 }) : "…"}
          hint={
            s ? (
              <Trans comment="Driver dashboard, under the rating: how many ratings it is based on">
                {s.totalRatings} ratings
              </Trans>
            ) : undefined
          }
          testId="stat-rating"
        />
        <StatCard
          icon={Truck}
          label={<Trans comment="Dashboard figure: the number of trips the driver completed">Total trips</Trans>}
          value={s ? formatNumber(s.totalTrips) : "…"}
          testId="stat-trips"
        />
        <StatCard
          icon={Banknote}
          label={<Trans>This month's earnings</Trans>}
          value={s ? <Amount amount={s.monthlyEarnings.amount} currency={s.monthlyEarnings.currency} /> : "…"}
          testId="stat-earnings"
          hint={<RatesNote />}
        />
        <StatCard
          icon={Gavel}
          label={<Trans comment="Dashboard figure: the driver's bids still waiting for an answer">Active bids</Trans>}
          value={s ? formatNumber(s.activeBids) : "…"}
          testId="stat-active-bids"
        />
      </div>

      <Card>
        <CardHeader>
          <CardTitle className="flex items-center gap-2">
            <MapPin className="size-5 text-brand" />
            <Trans>Current location</Trans>
            {s &&
              (s.isAvailable ? (
                <Badge variant="success" data-testid="available-badge">
                  {t({ message: "Available", comment: "Driver dashboard badge: the driver is free to take loads" })}
                </Badge>
              ) : (
                <Badge variant="secondary" data-testid="available-badge">{t`Not available`}</Badge>
              ))}
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-wrap items-center justify-between gap-4">
          <div className="text-sm" data-testid="coordinates">
            {locationQueued && (
              <Badge variant="warning" className="mb-1" data-testid="pending-location">
                <Trans>New location waiting to send</Trans>
              </Badge>
            )}
            {location ? (
              <>
                <div className="font-medium">
                  <PlaceName latitude={location.latitude} longitude={location.longitude} />
                </div>
                <div className="font-mono text-xs text-muted-foreground">
                  {location.latitude.toFixed(5)}, {location.longitude.toFixed(5)}
                </div>
                {location.updatedAt && (
                  <div className="text-muted-foreground">
                    <Trans comment="Driver dashboard, current location card: when the position was last saved">
                      Updated {formatDate(location.updatedAt, { dateStyle: "medium", timeStyle: "short" })}
                    </Trans>
                  </div>
                )}
              </>
            ) : (
              <span className="text-muted-foreground">
                <Trans>No location yet. Press Update Location to see loads near you.</Trans>
              </span>
            )}
          </div>
          {s && (
            <div className="flex min-h-11 items-center gap-2 text-sm">
              <Switch
                id="available-switch"
                checked={s.isAvailable}
                onCheckedChange={(v) => availability.mutate({ isAvailable: v })}
              />
              <Label htmlFor="available-switch" className="flex min-h-11 cursor-pointer items-center">
                <Trans>Available for loads</Trans>
              </Label>
            </div>
          )}
        </CardContent>
      </Card>

      <section className="grid gap-3" aria-labelledby="nearby-title">
        <h2 id="nearby-title" className="text-lg font-semibold">
          <Trans>Loads near you</Trans>
        </h2>
        {lane && (
          <div
            className="flex flex-wrap items-center justify-between gap-2 rounded-md border bg-muted/40 p-3 text-sm"
            data-testid="nearby-origin"
          >
            <span>
              <Trans comment="Driver dashboard: without a saved position, loads are listed near where the driver's first saved lane starts ({0})">
                Near your saved lane from {lane.originName}. Share your position to see loads near where you are now.
              </Trans>
            </span>
            <Button
              size="sm"
              variant="outline"
              className="min-h-11"
              onClick={() => void updateLocation()}
              disabled={locating}
            >
              <LocateFixed aria-hidden />
              <Trans>Use my location</Trans>
            </Button>
          </div>
        )}
        <LoadFilters value={filters} onChange={setFilters} />
        {stats.isError ? (
          <LoadError
            card
            testId="position-error"
            title={<Trans>Your position could not be loaded.</Trans>}
            error={stats.error}
            onRetry={stats.refetch}
          />
        ) : findingCentre || (centre && nearby.isPending) ? (
          <Card className="p-6 text-center text-muted-foreground" role="status">
            <Trans comment="Shown while the list of loads is fetched from the server (fetching data, not putting cargo on a truck)">
              Loading loads...
            </Trans>
          </Card>
        ) : !centre ? (
          <Card className="grid justify-items-center gap-3 p-6 text-center" data-testid="nearby-ask">
            <p className="font-medium">
              <Trans>Share your location to see loads near you.</Trans>
            </p>
            <p className="max-w-md text-sm text-muted-foreground">
              {positionFailed ? (
                <Trans>
                  Your position could not be read. Allow location access for MyTess in your browser and try again, or
                  save a lane you run and we will show loads near where it starts.
                </Trans>
              ) : (
                <Trans>
                  MyTess uses it only to list the closest loads first, and keeps the last one you send. You can also
                  save a lane you run instead.
                </Trans>
              )}
            </p>
            <div className="flex flex-wrap justify-center gap-2">
              <Button
                className="min-h-11"
                onClick={() => void updateLocation()}
                disabled={locating || saveLocation.isPending}
              >
                <LocateFixed aria-hidden />
                <Trans>Use my location</Trans>
              </Button>
              <Button variant="outline" className="min-h-11" asChild>
                <Link to="/marketplaces">
                  <Trans comment="Button: save a new lane (a route the driver often runs)">Add lane</Trans>
                </Link>
              </Button>
            </div>
          </Card>
        ) : nearby.isError ? (
          <LoadError
            card
            testId="nearby-error"
            title={<Trans>Loads near you could not be loaded.</Trans>}
            error={nearby.error}
            onRetry={nearby.refetch}
          />
        ) : nearby.data?.items.length === 0 ? (
          <Card className="p-6 text-center text-muted-foreground" data-testid="no-nearby">
            <Trans>No posted loads within this radius right now.</Trans>
          </Card>
        ) : null}
        <div className="grid gap-3" data-testid="nearby-loads">
          {centre &&
            !nearby.isError &&
            nearby.data?.items.map((l) => (
              <LoadCard
                key={l.id}
                load={l}
                actions={
                  <BidAction
                    load={l}
                    isDriver
                    testId="bid-button"
                    label={
                      <Trans comment="Button on a load in the driver's list: open the form to offer a price (place a bid) on it">
                        Bid
                      </Trans>
                    }
                  />
                }
              />
            ))}
        </div>
      </section>

      <section className="grid gap-3" aria-labelledby="trips-title">
        <h2 id="trips-title" className="text-lg font-semibold">
          <Trans comment="Driver dashboard heading: loads awarded to the driver and their trips">My trips</Trans>
        </h2>
        {trips.isPending ? (
          <Card className="p-6 text-center text-muted-foreground" role="status">
            <Trans>Loading your trips…</Trans>
          </Card>
        ) : trips.isError ? (
          <LoadError
            card
            testId="trips-error"
            title={<Trans>Your trips could not be loaded.</Trans>}
            error={trips.error}
            onRetry={trips.refetch}
          />
        ) : (
          openTrips.length === 0 && (
            <Card className="p-6 text-center text-muted-foreground" data-testid="no-trips">
              <Trans>Loads you win appear here, with what to do next.</Trans>
            </Card>
          )
        )}
        {openTrips.map(tripCard)}
        {doneTrips.length > 0 && (
          <div className="grid gap-3" data-testid="completed-trips">
            <Button
              variant="ghost"
              className="min-h-11 justify-between"
              aria-expanded={showDone}
              aria-controls="completed-trips-list"
              onClick={() => setShowDone((v) => !v)}
              data-testid="completed-trips-toggle"
            >
              <Trans comment="Driver dashboard: a folded section of finished trips; {0} is how many">
                Completed trips ({doneTrips.length})
              </Trans>
              <ChevronDown
                className={showDone ? "rotate-180 transition-transform" : "transition-transform"}
                aria-hidden
              />
            </Button>
            {showDone && (
              <div id="completed-trips-list" className="grid gap-3">
                {doneTrips.map(tripCard)}
              </div>
            )}
          </div>
        )}
      </section>

      <section className="grid gap-3">
        <h2 className="text-lg font-semibold">
          <Trans comment="Driver dashboard heading: the driver's own price offers (bids)">My Bids</Trans>
        </h2>
        {bids.data?.length === 0 && (
          <Card className="p-6 text-center text-muted-foreground" data-testid="no-bids">
            <Trans>You have not bid on any load yet.</Trans>
          </Card>
        )}
        {bids.data?.map((b) => (
          <Card key={b.id} className="flex flex-wrap items-center justify-between gap-3 p-4" data-testid="my-bid">
            <div>
              <div className="font-medium">{b.load.title}</div>
              <div className="text-sm text-muted-foreground">
                {b.load.pickupLocation} → {b.load.deliveryLocation}
              </div>
            </div>
            <div className="flex flex-wrap items-center gap-2">
              <span className="font-semibold">{formatOriginal(b.amount, b.currency)}</span>
              <BidStatusBadge status={b.status} />
              {b.status === "pending" && (
                <WithdrawBidDialog
                  amount={formatOriginal(b.amount, b.currency)}
                  title={b.load.title}
                  pending={withdraw.isPending}
                  onConfirm={() => withdraw.mutate({ bidId: b.id })}
                />
              )}
              {b.status !== "withdrawn" && <DriverMessagesDialog loadId={b.loadId} title={b.load.title} />}
            </div>
            <Negotiation
              bidId={b.id}
              side="driver"
              bidPending={b.status === "pending"}
              openCounter={b.openCounter}
              counters={b.counters}
              currency={b.currency}
            />
          </Card>
        ))}
      </section>
    </div>
  );
}
