import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import type { ReactNode } from "react";
import type { TLoadSort } from "../../../shared/schemas/loads";
import type { TBoardLoadItem, TPublicLoad } from "../../lib/api-types";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { Amount } from "../money/amount";
import { CompanyMark, TrustName, VerifiedMark } from "../trust/trust";
import { rowLinkProps, SortableHead, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";
import { DistanceBadge, InvitedBadge, LoadStatusBadge, SourceBadge } from "./badges";
import { EquipmentLabel } from "./equipment-label";
import { BoardBadges, shareContentFor } from "./load-card";
import { LoadAge, LoadTitleLink, PosterCallLink, WeightLbs } from "./load-cells";
import { PendingBadge } from "./pending-badge";
import { ShareMenu } from "./share-menu";

export type TTableLoad = TPublicLoad & {
  board?: TBoardLoadItem["board"];
  shipper?: TBoardLoadItem["shipper"];
  invited?: boolean;
};

/** Which way each of the API's sorts runs (LOAD_SORTS): nearest, soonest and best paid first. */
const SORT_DIRECTION: Record<TLoadSort, "ascending" | "descending"> = {
  distance: "ascending",
  date: "ascending",
  rate: "descending",
};

// Fixed widths: long words (Afaan Oromo) wrap inside their header instead of pushing the actions out, and every cell
// keeps to one line (truncated, the whole text in its tooltip) so a 1440×900 screen shows fifteen loads or more.
const COLUMN_WIDTHS = [
  ["age", "5%"],
  ["pickup", "7%"],
  ["load", "11%"],
  ["lane", "14%"],
  ["distance", "7%"],
  ["trip", "5%"],
  ["equipment", "7%"],
  ["weight", "7%"],
  ["rate", "7%"],
  ["per-distance", "7%"],
  ["shipper", "8%"],
  ["source", "6%"],
  ["actions", "9%"],
] as const;

const ONE_LINE = "truncate whitespace-nowrap";

export const loadKey = (l: TTableLoad) => (l.id > 0 ? String(l.id) : `${l.source.configId}:${l.source.externalId}`);

/**
 * The load board as a dense table (desktop widths): one line per load, the columns a dispatcher scans (age, pickup
 * date, lane, distance to pickup, trip, equipment, weight, rate and rate per mile or km, shipper and rating, source), the
 * sorts the API offers on their column headers, and the card's actions. A row opens its load (click or Enter) when it
 * has a page. `stickyTop` is where the header row sticks: below the page's own sticky header and filters.
 */
export function LoadTable({
  loads,
  sort,
  onSort,
  canSortByDistance,
  actions,
  stickyTop,
}: {
  loads: TTableLoad[];
  sort: TLoadSort;
  onSort: (sort: TLoadSort) => void;
  /** Distances are known only from a point: without one the distance column is not a sort. */
  canSortByDistance: boolean;
  actions: (load: TTableLoad) => ReactNode;
  stickyTop: number;
}) {
  const { t } = useLingui();
  const navigate = useNavigate();
  const { units, formatDate, formatDistance, formatRatePerDistance } = usePreferences();
  const sorted = (s: TLoadSort) => (sort === s ? SORT_DIRECTION[s] : false);
  return (
    // overflow-clip, not hidden: hidden would make the box a scroll container and unstick the header row.
    <div className="overflow-clip rounded-xl border bg-white">
      <Table
        aria-label={t({ message: "Loads", comment: "Screen-reader name of the load board table" })}
        data-testid="load-table"
        className="table-fixed [&_th]:[overflow-wrap:anywhere]"
      >
        <colgroup>
          {COLUMN_WIDTHS.map(([name, width]) => (
            <col key={name} style={{ width }} />
          ))}
        </colgroup>
        <TableHeader className="sticky z-20" style={{ top: stickyTop }}>
          <tr>
            <TableHead className="pl-3">
              <Trans comment="Column header on the load board: how long ago the load was posted">Age</Trans>
            </TableHead>
            <SortableHead sorted={sorted("date")} onSort={() => onSort("date")} testId="sort-by-date">
              <Trans comment="Column header and form section: the pickup place (where the load is put on the truck)">
                Pickup
              </Trans>
            </SortableHead>
            <TableHead>
              <Trans comment="Column header in load tables: the load (freight offer), its title and route">Load</Trans>
            </TableHead>
            <TableHead>
              <Trans comment="Column header on the load board: where the load goes from and to (origin → destination)">
                Lane
              </Trans>
            </TableHead>
            {canSortByDistance ? (
              <SortableHead sorted={sorted("distance")} onSort={() => onSort("distance")} testId="sort-by-distance">
                <Trans comment="Column header: distance from the driver to the pickup">Distance</Trans>
              </SortableHead>
            ) : (
              <TableHead>
                <Trans>Distance</Trans>
              </TableHead>
            )}
            <TableHead end>
              <Trans comment="Column header on the load board: the trip's length from pickup to delivery">Trip</Trans>
            </TableHead>
            <TableHead>
              <Trans>Equipment</Trans>
            </TableHead>
            <TableHead end>
              <Trans comment="Column header on the load board: the load's weight (each cell gives its unit)">
                Weight
              </Trans>
            </TableHead>
            <SortableHead sorted={sorted("rate")} onSort={() => onSort("rate")} testId="sort-by-rate" end>
              <Trans comment="Column header on the load board: the price offered for the load (not a rating)">
                Rate
              </Trans>
            </SortableHead>
            <TableHead end>
              {units === "metric" ? (
                <Trans comment="Column header on the load board: the rate divided by the trip's kilometres">
                  Per km
                </Trans>
              ) : (
                <Trans comment="Column header on the load board: the rate divided by the trip's miles">Per mile</Trans>
              )}
            </TableHead>
            <TableHead>
              <Trans comment="Column header on the load board: who posted the load, with their rating">Shipper</Trans>
            </TableHead>
            <TableHead>
              <Trans>Source</Trans>
            </TableHead>
            <TableHead end className="pr-3">
              <span className="sr-only">
                <Trans comment="Screen-reader header of the load table's last column (buttons)">Actions</Trans>
              </span>
            </TableHead>
          </tr>
        </TableHeader>
        <TableBody>
          {loads.map((l) => {
            const external = l.source.type === "external";
            const open: Partial<ReturnType<typeof rowLinkProps>> =
              l.id > 0 ? rowLinkProps(() => navigate({ to: "/loads/$id", params: { id: String(l.id) } })) : {};
            const lane = `${l.pickupLocation} → ${l.deliveryLocation}`;
            const when = formatDate(l.pickupDate, { dateStyle: "medium", timeStyle: "short" });
            const poster = external
              ? [l.source.contact?.company, l.source.contact?.name].filter(Boolean).join(" · ")
              : null;
            return (
              <TableRow
                key={loadKey(l)}
                data-testid="load-row"
                data-load-id={l.id}
                {...open}
                className={cn(
                  open.className,
                  "align-middle [&>td]:py-1 [&_[data-testid=call-poster]]:h-7 [&_button]:h-7",
                )}
              >
                <TableCell className="pl-3 whitespace-nowrap">
                  {l.status === "posted" ? (
                    <LoadAge iso={l.createdAt} compact />
                  ) : (
                    <LoadStatusBadge status={l.status} />
                  )}
                </TableCell>
                <TableCell className={ONE_LINE} title={when}>
                  {l.isUrgent && (
                    <span
                      className="mr-1 inline-block size-2 rounded-full bg-destructive align-middle"
                      title={t`Urgent`}
                      data-testid="urgent-mark"
                    >
                      <span className="sr-only">
                        <Trans>Urgent</Trans>
                      </span>
                    </span>
                  )}
                  <span className="tabular-nums">{formatDate(l.pickupDate, { dateStyle: "medium" })}</span>
                </TableCell>
                <TableCell className={ONE_LINE} title={l.title}>
                  {l.invited ? (
                    <div className="flex min-w-0 items-center gap-1">
                      <InvitedBadge invited compact />
                      <LoadTitleLink load={l} className="truncate font-semibold" />
                    </div>
                  ) : (
                    <LoadTitleLink load={l} className="font-semibold" />
                  )}
                </TableCell>
                <TableCell className={ONE_LINE} title={lane} data-testid="lane-cell">
                  <span className="font-medium">{l.pickupCity}</span>
                  <span aria-hidden className="px-1 text-muted-foreground">
                    →
                  </span>
                  <span className="sr-only">
                    <Trans comment="Screen-reader word between a load's origin and destination">to</Trans>
                  </span>
                  <span>{l.deliveryCity}</span>
                </TableCell>
                <TableCell className="whitespace-nowrap">
                  <DistanceBadge miles={l.distance} compact />
                </TableCell>
                <TableCell end className="whitespace-nowrap tabular-nums text-muted-foreground">
                  {formatDistance(l.tripMiles, 0)}
                </TableCell>
                <TableCell className={ONE_LINE}>
                  <EquipmentLabel type={l.equipmentType} />
                </TableCell>
                <TableCell end className="whitespace-nowrap tabular-nums">
                  <WeightLbs lbs={l.weight} />
                </TableCell>
                <TableCell end className="whitespace-nowrap" data-testid="rate-cell">
                  <LoadRateLine load={l} />
                </TableCell>
                <TableCell
                  end
                  className="truncate whitespace-nowrap tabular-nums text-muted-foreground"
                  data-testid="rate-per-distance-cell"
                >
                  {external && l.budgetAmount === 0 ? null : (
                    <span data-testid="load-rate-per-distance">
                      {formatRatePerDistance(l.ratePerMile, l.budgetCurrency)}
                    </span>
                  )}
                </TableCell>
                <TableCell className={ONE_LINE} data-testid="shipper-cell">
                  {l.shipper ? (
                    <ShipperWithRating shipper={l.shipper} />
                  ) : poster ? (
                    <span title={poster}>{poster}</span>
                  ) : null}
                </TableCell>
                <TableCell className="overflow-hidden">
                  <div className="flex flex-wrap items-center gap-1 text-[11px] [&_[data-slot=badge]]:px-1.5 [&_[data-slot=badge]]:py-0">
                    {l.board ? (
                      <>
                        {/* The board's name says where the load is from; the word stays for screen readers. */}
                        <span className="sr-only" data-testid="source-badge">
                          EXTERNAL
                        </span>
                        <BoardBadges board={l.board} />
                      </>
                    ) : (
                      <SourceBadge type={l.source.type} />
                    )}
                  </div>
                </TableCell>
                <TableCell className="pr-3">
                  <div className="flex items-center justify-end gap-1 whitespace-nowrap">
                    <PendingBadge loadId={l.id} />
                    {!external && <ShareMenu content={shareContentFor(l)} iconOnly />}
                    {external && l.source.contact && <PosterCallLink contact={l.source.contact} />}
                    {actions(l)}
                  </div>
                </TableCell>
              </TableRow>
            );
          })}
        </TableBody>
      </Table>
    </div>
  );
}

/** A shipper's name and average rating ("Hana A. ★ 4.7 (3)"), or "new" before any rating. */
export function ShipperWithRating({ shipper }: { shipper: NonNullable<TTableLoad["shipper"]> }) {
  const { t } = useLingui();
  const { formatNumber } = usePreferences();
  const rating = shipper.rating;
  const label =
    rating == null
      ? t({ message: "No ratings yet", comment: "Tooltip of a shipper on the load board who has not been rated" })
      : t({
          message: `Rated ${rating} of 5 by ${shipper.ratings}`,
          comment: "Tooltip of a shipper's rating on the load board: the average (out of 5) and how many rated",
        });
  return (
    <span className="inline-flex min-w-0 items-center gap-1" title={`${shipper.name} · ${label}`}>
      {shipper.kind === "company" && <CompanyMark kind="shipper" />}
      <TrustName name={shipper.name} companyId={shipper.companyId} className="truncate" />
      <VerifiedMark badge={shipper.verified} />
      {rating != null && (
        <span className="shrink-0 text-amber-700" data-testid="shipper-rating">
          <span aria-hidden>★</span>
          <span className="sr-only">{label}</span>
          <span aria-hidden>{formatNumber(rating)}</span>
        </span>
      )}
    </span>
  );
}

/**
 * The rate on one line in the reader's currency. Converted from the load's own currency it carries "≈" and says in its
 * tooltip that it is an estimate and the amount posted (the board's rates note gives the day of the rates).
 */
function LoadRateLine({ load }: { load: TTableLoad }) {
  if (load.source.type === "external" && load.budgetAmount === 0)
    return (
      <span className="text-xs text-muted-foreground" data-testid="load-budget">
        <Trans>Rate not posted</Trans>
      </span>
    );
  return (
    <Amount
      amount={load.budgetAmount}
      currency={load.budgetCurrency}
      original
      className="font-bold text-brand tabular-nums"
      testId="load-budget"
    />
  );
}
