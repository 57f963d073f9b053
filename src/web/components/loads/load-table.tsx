import { Trans, useLingui } from "@lingui/react/macro";
import { useNavigate } from "@tanstack/react-router";
import type { ReactNode } from "react";
import type { TLoadSort } from "../../../shared/schemas/loads";
import type { TBoardLoadItem, TPublicLoad } from "../../lib/api-types";
import { Badge } from "../ui/badge";
import { rowLinkProps, SortableHead, Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "../ui/table";
import { DistanceBadge, LoadStatusBadge, SourceBadge } from "./badges";
import { EquipmentLabel } from "./equipment-label";
import { BoardBadges, shareContentFor } from "./load-card";
import { LoadAge, LoadRate, LoadTitleLink, LoadWhen, PosterCallLink, TripMiles, WeightLbs } from "./load-cells";
import { PendingBadge } from "./pending-badge";
import { ShareMenu } from "./share-menu";

export type TTableLoad = TPublicLoad & { board?: TBoardLoadItem["board"] };

/** Which way each of the API's sorts runs (LOAD_SORTS): nearest, soonest and best paid first. */
const SORT_DIRECTION: Record<TLoadSort, "ascending" | "descending"> = {
  distance: "ascending",
  date: "ascending",
  rate: "descending",
};

const COLUMN_WIDTHS = [
  ["load", "11%"],
  ["pickup", "12%"],
  ["delivery", "11%"],
  ["distance", "9%"],
  ["equipment", "8%"],
  ["weight", "8%"],
  ["rate", "10%"],
  ["source", "8%"],
  ["status", "10%"],
  ["actions", "13%"],
] as const;

export const loadKey = (l: TTableLoad) => (l.id > 0 ? String(l.id) : `${l.source.configId}:${l.source.externalId}`);

/**
 * The load board as a dense table (desktop widths): one row per load with the card's facts in columns, the sorts the
 * API offers on their column headers, and the card's actions. A row opens its load (click or Enter) when it has a page.
 * `stickyTop` is where the header row sticks: below the page's own sticky header and filters.
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
  const sorted = (s: TLoadSort) => (sort === s ? SORT_DIRECTION[s] : false);
  return (
    // overflow-clip, not hidden: hidden would make the box a scroll container and unstick the header row.
    <div className="overflow-clip rounded-xl border bg-white">
      <Table
        aria-label={t({ message: "Loads", comment: "Screen-reader name of the load board table" })}
        data-testid="load-table"
        className="table-fixed"
      >
        {/* Fixed widths: long words (Afaan Oromo) wrap inside their column instead of pushing the actions out. */}
        <colgroup>
          {COLUMN_WIDTHS.map(([name, width]) => (
            <col key={name} style={{ width }} />
          ))}
        </colgroup>
        <TableHeader className="sticky z-20" style={{ top: stickyTop }}>
          <tr>
            <TableHead className="pl-4">
              <Trans comment="Column header in load tables: the load (freight offer), its title and route">Load</Trans>
            </TableHead>
            <SortableHead sorted={sorted("date")} onSort={() => onSort("date")} testId="sort-by-date">
              <Trans comment="Column header and form section: the pickup place (where the load is put on the truck)">
                Pickup
              </Trans>
            </SortableHead>
            <TableHead>
              <Trans comment="Column header and form section: the delivery place (where the load is unloaded)">
                Delivery
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
            <TableHead>
              <Trans>Source</Trans>
            </TableHead>
            <TableHead>
              <Trans>Status</Trans>
            </TableHead>
            <TableHead end className="pr-4">
              <span className="sr-only">
                <Trans comment="Screen-reader header of the load table's last column (buttons)">Actions</Trans>
              </span>
            </TableHead>
          </tr>
        </TableHeader>
        <TableBody>
          {loads.map((l) => {
            const external = l.source.type === "external";
            const open =
              l.id > 0 ? rowLinkProps(() => navigate({ to: "/loads/$id", params: { id: String(l.id) } })) : {};
            return (
              <TableRow key={loadKey(l)} data-testid="load-row" data-load-id={l.id} {...open}>
                <TableCell className="pl-4">
                  <LoadTitleLink load={l} className="line-clamp-2 font-semibold" />
                </TableCell>
                <TableCell>
                  <div className="font-medium">{l.pickupLocation}</div>
                  <LoadWhen iso={l.pickupDate} className="text-xs text-muted-foreground" />
                </TableCell>
                <TableCell>
                  <div>{l.deliveryLocation}</div>
                  <LoadWhen iso={l.deliveryDate} className="text-xs text-muted-foreground" />
                </TableCell>
                <TableCell>
                  <DistanceBadge miles={l.distance} compact />
                  <div className="mt-0.5 text-xs text-muted-foreground">
                    <TripMiles tripMiles={l.tripMiles} />
                  </div>
                </TableCell>
                <TableCell>
                  <EquipmentLabel type={l.equipmentType} />
                </TableCell>
                <TableCell end className="tabular-nums">
                  <WeightLbs lbs={l.weight} />
                </TableCell>
                <TableCell end data-testid="rate-cell">
                  <LoadRate load={l} className="text-base" />
                </TableCell>
                <TableCell>
                  <div className="flex flex-wrap items-center gap-1">
                    <SourceBadge type={l.source.type} />
                    {l.board && <BoardBadges board={l.board} />}
                  </div>
                </TableCell>
                <TableCell>
                  <div className="flex flex-col items-start gap-1">
                    {l.isUrgent && (
                      <Badge variant="destructive">
                        <Trans>Urgent</Trans>
                      </Badge>
                    )}
                    {l.status === "posted" ? <LoadAge iso={l.createdAt} /> : <LoadStatusBadge status={l.status} />}
                    <PendingBadge loadId={l.id} />
                  </div>
                </TableCell>
                <TableCell className="pr-4">
                  <div className="flex items-center justify-end gap-1 whitespace-nowrap">
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
