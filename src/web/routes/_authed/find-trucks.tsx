import { Trans, useLingui } from "@lingui/react/macro";
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import { createFileRoute } from "@tanstack/react-router";
import { BadgeCheck, Star } from "lucide-react";
import { RADIUS_OPTIONS, type TEquipmentType } from "../../../shared/constants";
import type { TTruckSearchResult } from "../../../shared/schemas/trucks";
import { PageHeader } from "../../components/layout/page-header";
import { WrongRole } from "../../components/layout/wrong-role";
import { DistanceBadge } from "../../components/loads/badges";
import { EquipmentLabel } from "../../components/loads/equipment-label";
import { EquipmentChoice } from "../../components/loads/load-filters";
import { PlaceInput } from "../../components/loads/place-input";
import { InviteToBid } from "../../components/trucks/invite-dialog";
import { parseFindTrucksSearch, type TFindTrucksSearch } from "../../components/trucks/truck-search";
import { Button } from "../../components/ui/button";
import { Card } from "../../components/ui/card";
import { Input, Label } from "../../components/ui/input";
import { LoadError } from "../../components/ui/load-error";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../../components/ui/table";
import { NativeSelect } from "../../components/ui/textarea";
import type { TPlace } from "../../lib/api-types";
import { useDesktop } from "../../lib/media";
import { usePreferences } from "../../lib/preferences";
import { trpc } from "../../lib/trpc";

const PAGE_SIZE = 25;

export const Route = createFileRoute("/_authed/find-trucks")({
  validateSearch: parseFindTrucksSearch,
  component: FindTrucksPage,
});

const placeName = (p: TPlace) => [p.city, p.state, p.country].filter(Boolean).join(", ");

function FindTrucksPage() {
  const { me } = Route.useRouteContext();
  const title = (
    <Trans comment="Header link and page title: a shipper searches trucks available near their pickup">
      Find trucks
    </Trans>
  );
  const description = <Trans>Trucks free near your pickup. Invite a driver to bid on your load.</Trans>;
  if (me.userType !== "shipper")
    return (
      <div>
        <PageHeader title={title} description={description} />
        <WrongRole dashboardFor="shipper" />
      </div>
    );
  // One column no wider than the screen: a phone's result rows keep their one-line texts (cut with an ellipsis) within it
  // instead of widening the column to the longest of them, which made the whole page scroll sideways.
  return (
    <div className="grid grid-cols-[minmax(0,1fr)] gap-3">
      <PageHeader title={title} description={description} />
      <TruckFinder />
    </div>
  );
}

function TruckFinder() {
  const search = Route.useSearch();
  const navigate = Route.useNavigate();
  // A new question starts again at its first page; typing in a place field replaces the address instead of adding a
  // step per key.
  const set = (next: Partial<TFindTrucksSearch>, replace = false) =>
    void navigate({ search: (prev) => ({ ...prev, ...next, page: undefined }), replace });
  const hasOrigin = search.latitude !== undefined && search.longitude !== undefined;
  const hasDestination = search.destinationLatitude !== undefined && search.destinationLongitude !== undefined;
  const page = search.page ?? 1;
  const equipment = search.equipmentType?.split(",") as TEquipmentType[] | undefined;
  const results = useQuery({
    ...trpc.trucks.search.queryOptions(
      {
        latitude: search.latitude ?? 0,
        longitude: search.longitude ?? 0,
        radius: search.radius ?? 100,
        ...(hasDestination
          ? {
              destinationLatitude: search.destinationLatitude,
              destinationLongitude: search.destinationLongitude,
              destinationRadius: search.destinationRadius ?? 100,
            }
          : {}),
        availableFrom: search.from,
        availableTo: search.to,
        equipmentType: equipment,
        page,
        pageSize: PAGE_SIZE,
      },
      { placeholderData: keepPreviousData, staleTime: 30_000 },
    ),
    enabled: hasOrigin,
  });
  return (
    <>
      <TruckFilters search={search} set={set} />
      {!hasOrigin ? (
        <Card className="p-6 text-center text-muted-foreground" data-testid="trucks-pick-origin">
          <Trans>Pick the place your load starts from to see the trucks free near it.</Trans>
        </Card>
      ) : results.isPending ? (
        <Card className="p-6 text-center text-muted-foreground" data-testid="trucks-loading">
          <Trans comment="Shown while the trucks near the shipper's pickup are fetched">Looking for trucks...</Trans>
        </Card>
      ) : results.isError && !results.data ? (
        <LoadError
          card
          testId="trucks-error"
          title={<Trans>The trucks could not be loaded.</Trans>}
          error={results.error}
          onRetry={results.refetch}
        />
      ) : results.data?.items.length === 0 ? (
        <Card className="p-6 text-center text-muted-foreground" data-testid="no-trucks-found">
          <Trans>No trucks match. Try a wider radius, other dates or any equipment.</Trans>
        </Card>
      ) : (
        results.data && (
          <>
            <TruckResults items={results.data.items} fromLoadId={search.load} />
            {(page > 1 || results.data.hasMore) && (
              <div className="flex items-center justify-between gap-2" data-testid="trucks-paging">
                <Button
                  size="sm"
                  variant="outline"
                  disabled={page <= 1}
                  onClick={() => void navigate({ search: (prev) => ({ ...prev, page: page - 1 }) })}
                >
                  <Trans>Previous</Trans>
                </Button>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={!results.data.hasMore}
                  onClick={() => void navigate({ search: (prev) => ({ ...prev, page: page + 1 }) })}
                >
                  <Trans>Next</Trans>
                </Button>
              </div>
            )}
          </>
        )
      )}
    </>
  );
}

/** The lane: origin and its radius, destination (none: anywhere) and its radius, the days, the equipment. */
function TruckFilters({
  search,
  set,
}: {
  search: TFindTrucksSearch;
  set: (next: Partial<TFindTrucksSearch>, replace?: boolean) => void;
}) {
  const { formatDistance } = usePreferences();
  return (
    // A phone's fields are a finger's 44 px high; a desktop's keep the form's usual 36.
    <Card
      className="grid gap-3 p-4 sm:grid-cols-2 lg:grid-cols-8 [&_input]:h-11 [&_select]:h-11 sm:[&_input]:h-9 sm:[&_select]:h-9"
      data-testid="truck-filters"
    >
      <div className="grid gap-1.5 lg:col-span-2">
        <Label htmlFor="t-origin">
          <Trans comment="Label of the starting place of a lane or search">Origin</Trans>
        </Label>
        <PlaceInput
          id="t-origin"
          value={search.origin ?? ""}
          onChange={(v) => set({ origin: v || undefined, latitude: undefined, longitude: undefined }, true)}
          onPick={(p) => set({ origin: placeName(p), latitude: p.latitude, longitude: p.longitude })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="t-radius">
          <Trans comment="Label: how far around the pickup to search for trucks">Radius</Trans>
        </Label>
        <NativeSelect
          id="t-radius"
          value={search.radius ?? 100}
          onChange={(e) => set({ radius: Number(e.target.value) })}
        >
          {RADIUS_OPTIONS.map((r) => (
            <option key={r} value={r}>
              {formatDistance(r, 0)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5 lg:col-span-2">
        <Label htmlFor="t-destination">
          <Trans comment="Truck search label: where the load goes (empty: anywhere)">Destination</Trans>
        </Label>
        <PlaceInput
          id="t-destination"
          value={search.destination ?? ""}
          onChange={(v) =>
            set({ destination: v || undefined, destinationLatitude: undefined, destinationLongitude: undefined }, true)
          }
          onPick={(p) =>
            set({ destination: placeName(p), destinationLatitude: p.latitude, destinationLongitude: p.longitude })
          }
        />
      </div>
      {search.destinationLatitude !== undefined && (
        <div className="grid gap-1.5">
          <Label htmlFor="t-destination-radius">
            <Trans comment="Load board filter label: how far around the destination to search for loads">
              Destination radius
            </Trans>
          </Label>
          <NativeSelect
            id="t-destination-radius"
            value={search.destinationRadius ?? 100}
            onChange={(e) => set({ destinationRadius: Number(e.target.value) })}
          >
            {RADIUS_OPTIONS.map((r) => (
              <option key={r} value={r}>
                {formatDistance(r, 0)}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor="t-from">
          <Trans comment="Truck search label: the first day the truck should be free">Free from</Trans>
        </Label>
        <Input
          id="t-from"
          type="date"
          value={search.from ?? ""}
          max={search.to || undefined}
          onChange={(e) => set({ from: e.target.value || undefined })}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="t-to">
          <Trans comment="Truck search label: the last day the truck should be free">Free until</Trans>
        </Label>
        <Input
          id="t-to"
          type="date"
          value={search.to ?? ""}
          min={search.from || undefined}
          onChange={(e) => set({ to: e.target.value || undefined })}
        />
      </div>
      <EquipmentChoice
        value={search.equipmentType ?? "all"}
        onChange={(v) => set({ equipmentType: v === "all" ? undefined : v })}
      />
    </Card>
  );
}

/** The results: a dense table on a desktop, two-line rows on a phone; both with the invitation at the end. */
function TruckResults({ items, fromLoadId }: { items: TTruckSearchResult[]; fromLoadId?: number }) {
  const { t } = useLingui();
  const desktop = useDesktop();
  const { formatDate, formatWeight } = usePreferences();
  const when = (r: TTruckSearchResult) =>
    `${formatDate(r.availableFrom, { dateStyle: "medium" })} – ${formatDate(r.availableTo, { dateStyle: "medium" })}`;
  const goes = (r: TTruckSearchResult) =>
    r.destination?.name ?? t({ message: "Anywhere", comment: "A truck's destination: it would go anywhere" });
  if (!desktop)
    return (
      <ul className="divide-y rounded-xl border bg-white" data-testid="truck-results">
        {items.map((r) => (
          <li
            key={r.id}
            className="flex items-center gap-2 px-3 py-1.5"
            data-testid="truck-result"
            data-truck-id={r.id}
          >
            <div className="min-w-0 flex-1">
              <div className="flex min-w-0 items-center gap-1.5 font-semibold">
                <span className="truncate" data-testid="truck-lane">
                  {r.origin.name} <span aria-hidden>→</span>
                  <span className="sr-only">
                    <Trans comment="Screen-reader word between a load's origin and destination">to</Trans>
                  </span>{" "}
                  {goes(r)}
                </span>
              </div>
              <div className="flex min-w-0 items-center gap-1.5 text-xs text-muted-foreground">
                <DistanceBadge miles={r.distanceMiles} compact />
                <span className="truncate">
                  {when(r)} · <EquipmentLabel type={r.equipmentType} /> · {formatWeight(r.capacityLbs)}
                </span>
              </div>
              <DriverFacts truck={r} className="text-xs" />
            </div>
            <div className="flex shrink-0 items-center [&_button]:min-h-11">
              <InviteToBid truck={r} fromLoadId={fromLoadId} />
            </div>
          </li>
        ))}
      </ul>
    );
  return (
    <div className="overflow-clip rounded-xl border bg-white">
      <Table
        aria-label={t({ message: "Trucks found", comment: "Name of the table of trucks found near the pickup" })}
        data-testid="truck-results"
      >
        <TableHeader>
          <tr>
            <TableHead className="pl-4">
              <Trans comment="Column header: how far the truck is from the pickup">Distance</Trans>
            </TableHead>
            <TableHead>
              <Trans comment="Column header: where the truck is free and where it would go">Where</Trans>
            </TableHead>
            <TableHead>
              <Trans comment="Column header: the days the truck is free">Free</Trans>
            </TableHead>
            <TableHead>
              <Trans>Equipment</Trans>
            </TableHead>
            <TableHead end>
              <Trans comment="Column header: how much weight the truck carries">Capacity</Trans>
            </TableHead>
            <TableHead>
              <Trans>Driver</Trans>
            </TableHead>
            <TableHead end className="pr-4">
              <span className="sr-only">
                <Trans>Actions</Trans>
              </span>
            </TableHead>
          </tr>
        </TableHeader>
        <TableBody>
          {items.map((r) => (
            <TableRow key={r.id} data-testid="truck-result" data-truck-id={r.id}>
              <TableCell className="pl-4">
                <DistanceBadge miles={r.distanceMiles} />
              </TableCell>
              <TableCell className="font-medium" data-testid="truck-lane">
                {r.origin.name} → {goes(r)}
              </TableCell>
              <TableCell>{when(r)}</TableCell>
              <TableCell>
                <EquipmentLabel type={r.equipmentType} />
              </TableCell>
              <TableCell end className="tabular-nums">
                {formatWeight(r.capacityLbs)}
              </TableCell>
              <TableCell>
                <DriverFacts truck={r} />
              </TableCell>
              <TableCell end className="pr-4">
                <InviteToBid truck={r} fromLoadId={fromLoadId} />
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </div>
  );
}

/** The driver as a shipper weighs them: name, rating (or "New"), trips, and whether MyTess verified them. */
function DriverFacts({ truck, className }: { truck: TTruckSearchResult; className?: string }) {
  const { t } = useLingui();
  const { formatNumber } = usePreferences();
  const d = truck.driver;
  const verified = t({ message: "Verified", comment: "Mark on a driver whose documents MyTess checked" });
  return (
    <div className={`flex min-w-0 items-center gap-1.5 ${className ?? ""}`} data-testid="truck-driver">
      <span className="truncate">{d.name}</span>
      {d.verified && (
        <span className="inline-flex shrink-0 text-emerald-700" title={verified} data-testid="driver-verified">
          <BadgeCheck className="size-3.5" aria-hidden />
          <span className="sr-only">{verified}</span>
        </span>
      )}
      {d.rating == null ? (
        <span className="text-muted-foreground">
          {t({ message: "New", comment: "A driver without any rating yet" })}
        </span>
      ) : (
        <span className="inline-flex items-center gap-0.5 tabular-nums">
          <Star className="size-3 fill-amber-400 text-amber-400" aria-hidden />
          <span className="sr-only">
            {t({ message: "Rating", comment: "Screen-reader label before a driver's star rating" })}
          </span>
          {formatNumber(d.rating, { maximumFractionDigits: 1 })} ({formatNumber(d.ratings)})
        </span>
      )}
    </div>
  );
}
