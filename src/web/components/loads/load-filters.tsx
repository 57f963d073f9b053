import { Trans, useLingui } from "@lingui/react/macro";
import type { Ref } from "react";
import { z } from "zod";
import { BOARD_DEFAULT_RADIUS } from "../../../shared/board";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS, type TEquipmentType } from "../../../shared/constants";
import { LOAD_SORTS } from "../../../shared/schemas/loads";
import { rateToPerMile, type TUnits, weightToPounds } from "../../../shared/units";
import type { TPlace } from "../../lib/api-types";
import { usePreferences } from "../../lib/preferences";
import { cn } from "../../lib/utils";
import { Card } from "../ui/card";
import { Input, Label } from "../ui/input";
import { NativeSelect } from "../ui/textarea";
import { useEquipmentLabel } from "./equipment-label";
import { PlaceInput } from "./place-input";

export type TBoardFilters = {
  location: string;
  radius: number;
  sourceType: "all" | "mytess" | "external";
  /** Comma-separated equipment types, or "all". */
  equipmentType: string;
  maxWeight: string;
  minRate: string;
  /** The origin picked from the gazetteer (its name and point); no name with a point is "my position". */
  origin: string;
  latitude?: number;
  longitude?: number;
  /** The destination picked from the gazetteer; none is "anywhere". */
  destination: string;
  destinationLatitude?: number;
  destinationLongitude?: number;
  destinationRadius: number;
  /** The pickup window's first and last days (YYYY-MM-DD, as a date input gives them), or blank. */
  pickupFrom: string;
  pickupTo: string;
  loadSize: "all" | "full" | "partial";
};

export const DEFAULT_FILTERS: TBoardFilters = {
  location: "",
  radius: BOARD_DEFAULT_RADIUS,
  sourceType: "all",
  equipmentType: "all",
  maxWeight: "",
  minRate: "",
  origin: "",
  destination: "",
  destinationRadius: 100,
  pickupFrom: "",
  pickupTo: "",
  loadSize: "all",
};

const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;
const num = z.coerce.number().finite().optional().catch(undefined);
const oneOf = <T extends readonly [string, ...string[]]>(values: T) => z.enum(values).optional().catch(undefined);

/**
 * The board's URL: every filter, the sort and the page, so a reload, a shared link and the back button keep them. A
 * value the URL cannot hold (edited by hand, an old link) falls back to its default instead of failing the page.
 */
export const ZBoardSearch = z.object({
  highlight: z.coerce.number().int().positive().optional().catch(undefined),
  location: z.string().max(100).optional().catch(undefined),
  origin: z.string().max(200).optional().catch(undefined),
  latitude: num.pipe(z.number().min(-90).max(90).optional()).catch(undefined),
  longitude: num.pipe(z.number().min(-180).max(180).optional()).catch(undefined),
  radius: num
    .pipe(
      z
        .number()
        .refine((v) => (RADIUS_OPTIONS as readonly number[]).includes(v))
        .optional(),
    )
    .catch(undefined),
  destination: z.string().max(200).optional().catch(undefined),
  destinationLatitude: num.pipe(z.number().min(-90).max(90).optional()).catch(undefined),
  destinationLongitude: num.pipe(z.number().min(-180).max(180).optional()).catch(undefined),
  destinationRadius: num
    .pipe(
      z
        .number()
        .refine((v) => (RADIUS_OPTIONS as readonly number[]).includes(v))
        .optional(),
    )
    .catch(undefined),
  pickupFrom: z.string().regex(DAY_RE).optional().catch(undefined),
  pickupTo: z.string().regex(DAY_RE).optional().catch(undefined),
  equipmentType: z
    .string()
    .refine((v) => v.split(",").every((e) => (EQUIPMENT_TYPES as readonly string[]).includes(e)))
    .optional()
    .catch(undefined),
  loadSize: oneOf(["full", "partial"] as const),
  sourceType: oneOf(["mytess", "external"] as const),
  maxWeight: num.pipe(z.number().gt(0).optional()).catch(undefined),
  minRate: num.pipe(z.number().min(0).optional()).catch(undefined),
  sort: oneOf(LOAD_SORTS),
  page: z.coerce.number().int().min(1).optional().catch(undefined),
});
export type TBoardSearch = z.infer<typeof ZBoardSearch>;

/** The URL's values as the filters' fields (defaults where the URL says nothing). */
export const searchToFilters = (s: TBoardSearch): TBoardFilters => ({
  location: s.location ?? "",
  radius: s.radius ?? DEFAULT_FILTERS.radius,
  sourceType: s.sourceType ?? "all",
  equipmentType: s.equipmentType ?? "all",
  maxWeight: s.maxWeight === undefined ? "" : String(s.maxWeight),
  minRate: s.minRate === undefined ? "" : String(s.minRate),
  origin: s.origin ?? "",
  latitude: s.latitude !== undefined && s.longitude !== undefined ? s.latitude : undefined,
  longitude: s.latitude !== undefined && s.longitude !== undefined ? s.longitude : undefined,
  destination: s.destination ?? "",
  destinationLatitude:
    s.destinationLatitude !== undefined && s.destinationLongitude !== undefined ? s.destinationLatitude : undefined,
  destinationLongitude:
    s.destinationLatitude !== undefined && s.destinationLongitude !== undefined ? s.destinationLongitude : undefined,
  destinationRadius: s.destinationRadius ?? DEFAULT_FILTERS.destinationRadius,
  pickupFrom: s.pickupFrom ?? "",
  pickupTo: s.pickupTo ?? "",
  loadSize: s.loadSize ?? "all",
});

/** The filters as the URL holds them: defaults and blanks left out, so a plain board has a plain address. */
export const filtersToSearch = (f: TBoardFilters): TBoardSearch => {
  const i = filtersToInput(f);
  const hasDestination = i.destinationLatitude !== undefined;

  return {
    // Text as typed (a trailing space is the next word's start); the search itself trims it.
    location: f.location || undefined,
    origin: f.origin || undefined,
    latitude: i.latitude,
    longitude: i.longitude,
    radius: f.radius === DEFAULT_FILTERS.radius ? undefined : f.radius,
    destination: f.destination || undefined,
    destinationLatitude: i.destinationLatitude,
    destinationLongitude: i.destinationLongitude,
    destinationRadius:
      hasDestination && f.destinationRadius !== DEFAULT_FILTERS.destinationRadius ? f.destinationRadius : undefined,
    pickupFrom: i.pickupFrom,
    pickupTo: i.pickupTo,
    equipmentType: i.equipmentType?.join(","),
    loadSize: i.loadSize,
    sourceType: f.sourceType === "all" ? undefined : f.sourceType,
    maxWeight: i.maxWeight,
    minRate: i.minRate,
  };
};

/**
 * The filters as search input: blanks left out, numbers as numbers. Weight and rate are typed in the reader's units
 * (kilograms and per kilometre for metric readers) and asked for in the API's pounds and per mile; the URL keeps them
 * as typed (`filtersToSearch` reads them without a conversion).
 */
export const filtersToInput = (f: TBoardFilters, units: TUnits = "imperial") => {
  const equipment = f.equipmentType
    .split(",")
    .filter((e): e is TEquipmentType => (EQUIPMENT_TYPES as readonly string[]).includes(e));
  const hasOrigin = f.latitude !== undefined && f.longitude !== undefined;
  const hasDestination = f.destinationLatitude !== undefined && f.destinationLongitude !== undefined;
  return {
    location: f.location.trim() || undefined,
    radius: f.radius,
    sourceType: f.sourceType,
    equipmentType: equipment.length ? equipment : undefined,
    maxWeight: f.maxWeight && Number(f.maxWeight) > 0 ? weightToPounds(Number(f.maxWeight), units) : undefined,
    minRate: f.minRate && Number(f.minRate) >= 0 ? rateToPerMile(Number(f.minRate), units) : undefined,
    latitude: hasOrigin ? f.latitude : undefined,
    longitude: hasOrigin ? f.longitude : undefined,
    destinationLatitude: hasDestination ? f.destinationLatitude : undefined,
    destinationLongitude: hasDestination ? f.destinationLongitude : undefined,
    destinationRadius: hasDestination ? f.destinationRadius : undefined,
    pickupFrom: DAY_RE.test(f.pickupFrom) ? f.pickupFrom : undefined,
    pickupTo: DAY_RE.test(f.pickupTo) ? f.pickupTo : undefined,
    loadSize: f.loadSize === "all" ? undefined : f.loadSize,
  };
};

/** How many filters differ from the defaults (the phone's Filters button shows it while the filters are folded). */
export const activeFilterCount = (f: TBoardFilters) =>
  (Object.keys(DEFAULT_FILTERS) as (keyof TBoardFilters)[]).filter(
    (k) => k !== "origin" && String(f[k]).trim() !== String(DEFAULT_FILTERS[k]),
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
