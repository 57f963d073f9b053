import { Trans, useLingui } from "@lingui/react/macro";
import type { Ref } from "react";
import { BOARD_DEFAULT_RADIUS } from "../../../shared/board";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS } from "../../../shared/constants";
import { rateToPerMile, type TUnits, weightToPounds } from "../../../shared/units";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { Card } from "../ui/card";
import { Input, Label } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { useEquipmentLabel } from "./equipment-label";

export type TBoardFilters = {
  location: string;
  radius: number;
  sourceType: "all" | "mytess" | "external";
  equipmentType: string;
  maxWeight: string;
  minRate: string;
};

export const DEFAULT_FILTERS: TBoardFilters = {
  location: "",
  radius: BOARD_DEFAULT_RADIUS,
  sourceType: "all",
  equipmentType: "all",
  maxWeight: "",
  minRate: "",
};

/**
 * The filters as search input: blanks left out, numbers as numbers. Weight and rate are typed in the reader's units
 * (kilograms and per kilometre for metric readers) and asked for in the API's pounds and per mile.
 */
export const filtersToInput = (f: TBoardFilters, units: TUnits = "imperial") => ({
  location: f.location.trim() || undefined,
  radius: f.radius,
  sourceType: f.sourceType,
  equipmentType: f.equipmentType === "all" ? undefined : (f.equipmentType as (typeof EQUIPMENT_TYPES)[number]),
  maxWeight: f.maxWeight && Number(f.maxWeight) > 0 ? weightToPounds(Number(f.maxWeight), units) : undefined,
  minRate: f.minRate && Number(f.minRate) >= 0 ? rateToPerMile(Number(f.minRate), units) : undefined,
});

/** How many filters differ from the defaults (the phone's Filters button shows it while the filters are folded). */
export const activeFilterCount = (f: TBoardFilters) =>
  (Object.keys(DEFAULT_FILTERS) as (keyof TBoardFilters)[]).filter(
    (k) => String(f[k]).trim() !== String(DEFAULT_FILTERS[k]),
  ).length;

/**
 * The board's filters. `compact` lays them out on one row at desktop widths (the board keeps them stuck to the top);
 * `folded` hides them below the `sm` width until the phone's Filters button opens them.
 */
export function LoadFilters({
  value,
  onChange,
  showRadius = true,
  compact,
  folded,
  className,
  ref,
  id,
}: {
  value: TBoardFilters;
  onChange: (v: TBoardFilters) => void;
  showRadius?: boolean;
  compact?: boolean;
  folded?: boolean;
  className?: string;
  ref?: Ref<HTMLDivElement>;
  id?: string;
}) {
  const { t } = useLingui();
  const { formatDistance, distanceUnit, weightUnit } = usePreferences();
  const equipmentLabel = useEquipmentLabel();
  const set = <K extends keyof TBoardFilters>(k: K, v: TBoardFilters[K]) => onChange({ ...value, [k]: v });
  return (
    <Card
      ref={ref}
      id={id}
      className={cn(
        folded ? "hidden sm:grid" : "grid",
        "gap-3 sm:grid-cols-2",
        compact ? "p-4 lg:grid-cols-7 lg:gap-2 lg:p-3" : "p-4 lg:grid-cols-6",
        className,
      )}
      data-testid="load-filters"
    >
      <div className="grid gap-1.5 lg:col-span-2">
        <Label htmlFor="f-location">
          <Trans comment="Load board filter label: where to search from (the driver's position or a town)">
            Location
          </Trans>
        </Label>
        <Input
          id="f-location"
          value={value.location}
          placeholder={t`City, state or country`}
          onChange={(e) => set("location", e.target.value)}
        />
      </div>
      {showRadius && (
        <div className="grid gap-1.5">
          <Label htmlFor="f-radius">
            <Trans comment="Label: how far from the starting point to search for loads">Radius</Trans>
          </Label>
          <NativeSelect id="f-radius" value={value.radius} onChange={(e) => set("radius", Number(e.target.value))}>
            {RADIUS_OPTIONS.map((r) => (
              <option key={r} value={r}>
                {formatDistance(r, 0)}
              </option>
            ))}
          </NativeSelect>
        </div>
      )}
      <div className="grid gap-1.5">
        <Label htmlFor="f-source">
          <Trans comment="Load board filter and column header: where the load comes from (MyTess or an outside board)">
            Source
          </Trans>
        </Label>
        <NativeSelect
          id="f-source"
          value={value.sourceType}
          onChange={(e) => set("sourceType", e.target.value as TBoardFilters["sourceType"])}
        >
          <option value="all">
            {t({
              message: "All sources",
              comment: "Load board filter choice: loads from MyTess and from outside boards",
            })}
          </option>
          <option value="mytess">MyTess</option>
          <option value="external">
            {t({
              message: "External boards",
              comment: "Load board source choice: loads from outside boards (DAT, Truckstop…)",
            })}
          </option>
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-equipment">
          <Trans>Equipment</Trans>
        </Label>
        <NativeSelect
          id="f-equipment"
          value={value.equipmentType}
          onChange={(e) => set("equipmentType", e.target.value)}
        >
          <option value="all">
            {t({
              message: "All equipment",
              comment: "Load board filter choice: any truck type (equipment = type of truck or trailer)",
            })}
          </option>
          {EQUIPMENT_TYPES.map((e) => (
            <option key={e} value={e}>
              {equipmentLabel(e)}
            </option>
          ))}
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-weight">
          {t({
            message: `Max weight (${weightUnit})`,
            comment: "Load board filter: heaviest load to show; {weightUnit} is kg or lb",
          })}
        </Label>
        <Input
          id="f-weight"
          type="number"
          inputMode="numeric"
          min="0"
          value={value.maxWeight}
          onChange={(e) => set("maxWeight", e.target.value)}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-rate">
          {t({
            message: `Min rate (USD/${distanceUnit})`,
            comment: "Load board filter: lowest price per distance to show; {distanceUnit} is km or mi",
          })}
        </Label>
        <Input
          id="f-rate"
          type="number"
          inputMode="decimal"
          min="0"
          step="0.1"
          value={value.minRate}
          onChange={(e) => set("minRate", e.target.value)}
        />
      </div>
    </Card>
  );
}
