import { Trans, useLingui } from "@lingui/react/macro";
import type { Ref } from "react";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS } from "../../../shared/constants";
import type { TPlace } from "../../lib/api-types";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { Card } from "../ui/card";
import { Input, Label } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import type { TBoardFilters } from "./board-search";
import { useEquipmentLabel } from "./equipment-label";
import { PlaceInput } from "./place-input";

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
  const set = <K extends keyof TBoardFilters>(k: K, v: TBoardFilters[K]) => onChange({ ...value, [k]: v });
  return (
    <Card
      ref={ref}
      id={id}
      className={cn(
        folded ? "hidden sm:grid" : "grid",
        "gap-3 sm:grid-cols-2",
        // Compact on a desktop: smaller labels and fields, so the board's table keeps fifteen rows on the first screen.
        compact
          ? "p-4 lg:grid-cols-7 lg:gap-x-2 lg:gap-y-1.5 lg:px-3 lg:py-2 lg:[&_.grid]:gap-0.5 lg:[&_input]:h-8 lg:[&_label]:text-xs lg:[&_select]:h-8 lg:[&_summary]:h-8 lg:[&_#f-equipment-label]:text-xs"
          : "p-4 lg:grid-cols-6",
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
      <div className="grid gap-1.5 lg:col-span-2">
        <Label htmlFor="f-origin">
          <Trans comment="Label of the starting place of a lane or search">Origin</Trans>
        </Label>
        <PlaceInput
          id="f-origin"
          value={value.origin}
          onChange={(v) =>
            onChange({ ...value, origin: v, ...(v.trim() ? {} : { latitude: undefined, longitude: undefined }) })
          }
          onPick={(p) => onChange({ ...value, origin: placeName(p), latitude: p.latitude, longitude: p.longitude })}
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
      <div className="grid gap-1.5 lg:col-span-2">
        <Label htmlFor="f-destination">
          <Trans comment="Load board filter label: where the loads go (empty: anywhere)">Destination</Trans>
        </Label>
        <PlaceInput
          id="f-destination"
          value={value.destination}
          onChange={(v) =>
            onChange({ ...value, destination: v, destinationLatitude: undefined, destinationLongitude: undefined })
          }
          onPick={(p) =>
            onChange({
              ...value,
              destination: placeName(p),
              destinationLatitude: p.latitude,
              destinationLongitude: p.longitude,
            })
          }
        />
      </div>
      {value.destinationLatitude !== undefined && (
        <div className="grid gap-1.5">
          <Label htmlFor="f-destination-radius">
            <Trans comment="Load board filter label: how far around the destination to search for loads">
              Destination radius
            </Trans>
          </Label>
          <NativeSelect
            id="f-destination-radius"
            value={value.destinationRadius}
            onChange={(e) => set("destinationRadius", Number(e.target.value))}
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
      <EquipmentChoice value={value.equipmentType} onChange={(v) => set("equipmentType", v)} />
      <div className="grid gap-1.5">
        <Label htmlFor="f-size">
          <Trans comment="Load board filter label: full truckload or partial (LTL, sharing the trailer)">
            Load size
          </Trans>
        </Label>
        <NativeSelect
          id="f-size"
          value={value.loadSize}
          onChange={(e) => set("loadSize", e.target.value as TBoardFilters["loadSize"])}
        >
          <option value="all">
            {t({
              message: "Full and partial",
              comment: "Load size filter choice: both full truckloads and partial loads",
            })}
          </option>
          <option value="full">
            {t({ message: "Full truckload", comment: "Load size: the load fills the truck (FTL)" })}
          </option>
          <option value="partial">
            {t({
              message: "Partial (LTL)",
              comment: "Load size: the load shares the truck with others (less than truckload)",
            })}
          </option>
        </NativeSelect>
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-pickup-from">
          <Trans comment="Load board filter label: the first pickup day wanted">Pickup from</Trans>
        </Label>
        <Input
          id="f-pickup-from"
          type="date"
          value={value.pickupFrom}
          max={value.pickupTo || undefined}
          onChange={(e) => set("pickupFrom", e.target.value)}
        />
      </div>
      <div className="grid gap-1.5">
        <Label htmlFor="f-pickup-to">
          <Trans comment="Load board filter label: the last pickup day wanted">Pickup until</Trans>
        </Label>
        <Input
          id="f-pickup-to"
          type="date"
          value={value.pickupTo}
          min={value.pickupFrom || undefined}
          onChange={(e) => set("pickupTo", e.target.value)}
        />
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

const placeName = (p: TPlace) => [p.city, p.state, p.country].filter(Boolean).join(", ");

/** Several equipment types at once: ticked boxes in a fold that says what is chosen ("All equipment" when none). */
export function EquipmentChoice({ value, onChange }: { value: string; onChange: (v: string) => void }) {
  const { t } = useLingui();
  const equipmentLabel = useEquipmentLabel();
  const chosen = value.split(",").filter((e) => (EQUIPMENT_TYPES as readonly string[]).includes(e));
  const toggle = (e: string, on: boolean) => {
    const next = EQUIPMENT_TYPES.filter((x) => (x === e ? on : chosen.includes(x)));
    onChange(next.length ? next.join(",") : "all");
  };
  return (
    <div className="grid gap-1.5">
      <span className="text-sm font-medium" id="f-equipment-label">
        <Trans>Equipment</Trans>
      </span>
      <details className="relative" data-testid="equipment-choice">
        <summary
          aria-labelledby="f-equipment-label f-equipment-summary"
          className="flex h-11 cursor-pointer list-none items-center rounded-md border bg-white px-3 text-sm sm:h-9"
        >
          <span id="f-equipment-summary" className="truncate">
            {chosen.length
              ? chosen.map((e) => equipmentLabel(e)).join(", ")
              : t({
                  message: "All equipment",
                  comment: "Load board filter choice: any truck type (equipment = type of truck or trailer)",
                })}
          </span>
        </summary>
        <fieldset className="absolute z-40 mt-1 grid w-56 gap-1 rounded-md border bg-white p-2 shadow-md">
          {EQUIPMENT_TYPES.map((e) => (
            <label key={e} className="flex min-h-11 items-center gap-2 text-sm sm:min-h-8">
              <input type="checkbox" checked={chosen.includes(e)} onChange={(ev) => toggle(e, ev.target.checked)} />
              {equipmentLabel(e)}
            </label>
          ))}
        </fieldset>
      </details>
    </div>
  );
}
