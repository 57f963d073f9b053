// The board's filters as the form holds them, as the address holds them and as the search asks for them; no UI, so
// the route table (part of every first load) can read the address without the filter form's code.
import { BOARD_DEFAULT_RADIUS } from "../../../shared/board";
import {
  EQUIPMENT_TYPES,
  LOAD_SORTS,
  RADIUS_OPTIONS,
  type TEquipmentType,
  type TLoadSort,
} from "../../../shared/constants";
import { rateToPerMile, type TUnits, weightToPounds } from "../../../shared/units";

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

export const DAY_RE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * The board's URL: every filter, the sort and the page, so a reload, a shared link and the back button keep them. A
 * value the URL cannot hold (edited by hand, an old link) falls back to its default instead of failing the page.
 */
export type TBoardSearch = {
  highlight?: number;
  location?: string;
  origin?: string;
  latitude?: number;
  longitude?: number;
  radius?: number;
  destination?: string;
  destinationLatitude?: number;
  destinationLongitude?: number;
  destinationRadius?: number;
  pickupFrom?: string;
  pickupTo?: string;
  equipmentType?: string;
  loadSize?: "full" | "partial";
  sourceType?: "mytess" | "external";
  maxWeight?: number;
  minRate?: number;
  sort?: TLoadSort;
  page?: number;
};

// Written out by hand rather than as a zod schema: the route table checks the address on every page, so this code is
// part of the first load, and zod alone would be a sixth of the landing page's JavaScript budget.
// board-search.test.ts holds it to the schema it replaces.

/** A number as the address gives it (text or a number), or undefined when it is not one. */
export const toNumber = (v: unknown): number | undefined => {
  if (v === undefined) return undefined;
  let n: number;
  try {
    n = Number(v);
  } catch {
    return undefined;
  }
  return Number.isFinite(n) ? n : undefined;
};
export const numberIf = (v: unknown, ok: (n: number) => boolean) => {
  const n = toNumber(v);
  return n !== undefined && ok(n) ? n : undefined;
};
export const textIf = (v: unknown, ok: (s: string) => boolean) => (typeof v === "string" && ok(v) ? v : undefined);
export const oneOf = <T extends string>(values: readonly T[], v: unknown) =>
  typeof v === "string" && (values as readonly string[]).includes(v) ? (v as T) : undefined;
export const latitude = (n: number) => n >= -90 && n <= 90;
export const longitude = (n: number) => n >= -180 && n <= 180;
export const radius = (n: number) => (RADIUS_OPTIONS as readonly number[]).includes(n);
export const wholeNumber = (n: number) => Number.isSafeInteger(n);

const FIELDS: { [K in keyof TBoardSearch]-?: (v: unknown) => TBoardSearch[K] } = {
  highlight: (v) => numberIf(v, (n) => wholeNumber(n) && n > 0),
  location: (v) => textIf(v, (s) => s.length <= 100),
  origin: (v) => textIf(v, (s) => s.length <= 200),
  latitude: (v) => numberIf(v, latitude),
  longitude: (v) => numberIf(v, longitude),
  radius: (v) => numberIf(v, radius),
  destination: (v) => textIf(v, (s) => s.length <= 200),
  destinationLatitude: (v) => numberIf(v, latitude),
  destinationLongitude: (v) => numberIf(v, longitude),
  destinationRadius: (v) => numberIf(v, radius),
  pickupFrom: (v) => textIf(v, (s) => DAY_RE.test(s)),
  pickupTo: (v) => textIf(v, (s) => DAY_RE.test(s)),
  equipmentType: (v) => textIf(v, (s) => s.split(",").every((e) => (EQUIPMENT_TYPES as readonly string[]).includes(e))),
  loadSize: (v) => oneOf(["full", "partial"] as const, v),
  sourceType: (v) => oneOf(["mytess", "external"] as const, v),
  maxWeight: (v) => numberIf(v, (n) => n > 0),
  minRate: (v) => numberIf(v, (n) => n >= 0),
  sort: (v) => oneOf(LOAD_SORTS, v),
  page: (v) => numberIf(v, (n) => wholeNumber(n) && n >= 1),
};

/** The address's search values as the board reads them: unknown keys dropped, a value it cannot hold left out. */
export const parseBoardSearch = (raw: Record<string, unknown>): TBoardSearch => readSearch(FIELDS, raw);

/** An address's search values read field by field: unknown keys dropped, a value a field cannot hold left out. */
export const readSearch = <T>(fields: { [K in keyof T]-?: (v: unknown) => T[K] }, raw: Record<string, unknown>): T => {
  const out: Record<string, unknown> = {};
  for (const [key, read] of Object.entries(fields) as [string, (v: unknown) => unknown][])
    if (key in raw) out[key] = read(raw[key]);
  return out as T;
};

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
