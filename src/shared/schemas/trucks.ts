import { z } from "zod";
import { EQUIPMENT_TYPES, RADIUS_OPTIONS } from "../constants";
import { zText } from "./text";

// Trucks: a driver's availability (where and when the truck is free, where it would go, its equipment and capacity),
// and the shippers' search of trucks near a pickup. Weights are pounds and lengths feet, as a load's weight is stored;
// the web app shows them in the reader's units.

const number = (field: string) =>
  z.number({ error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be a number`) });

const latitude = (field: string) =>
  number(field).min(-90, `${field} must be between -90 and 90`).max(90, `${field} must be between -90 and 90`);
const longitude = (field: string) =>
  number(field).min(-180, `${field} must be between -180 and 180`).max(180, `${field} must be between -180 and 180`);

const radius = (field: string) =>
  z
    .number({ error: `${field} must be one of ${RADIUS_OPTIONS.join(", ")}` })
    .refine(
      (v) => (RADIUS_OPTIONS as readonly number[]).includes(v),
      `${field} must be one of ${RADIUS_OPTIONS.join(", ")}`,
    );

const optionalText = (field: string, max: number) =>
  z.preprocess(
    (v) => (v === "" ? null : v),
    zText({ error: `${field} must be text` })
      .trim()
      .max(max, `${field} must be at most ${max} characters`)
      .nullish()
      .transform((v) => v || null),
  );

/**
 * A day or a moment: a date-time, or a date (YYYY-MM-DD, UTC) taken from its first millisecond (`start`) or to its
 * last (`end`), so "free from the 3rd to the 5th" holds all of the 5th.
 */
const dayOrMoment = (field: string, side: "start" | "end") =>
  zText({ error: `${field} must be a date or a date and time` })
    .trim()
    .min(1, `${field} must be a date or a date and time`)
    .refine((v) => !Number.isNaN(Date.parse(v)), `${field} must be a date or a date and time`)
    .transform((v) => (side === "end" && /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(v) + 86_399_999 : Date.parse(v)));

const ZEquipment = z.enum(EQUIPMENT_TYPES, { error: `equipmentType must be one of ${EQUIPMENT_TYPES.join(", ")}` });

export const TRUCK_CAPACITY_MAX_LBS = 250_000;

export const ZCreateTruckInput = z
  .object({
    originName: zText({ error: "originName is required" })
      .trim()
      .min(1, "originName is required")
      .max(120, "originName must be at most 120 characters"),
    originLatitude: latitude("originLatitude"),
    originLongitude: longitude("originLongitude"),
    availableFrom: dayOrMoment("availableFrom", "start"),
    availableTo: dayOrMoment("availableTo", "end"),
    /** Where the truck would go: a place and a radius, or anywhere when no point is given. */
    destinationName: optionalText("destinationName", 120),
    destinationLatitude: latitude("destinationLatitude").nullish(),
    destinationLongitude: longitude("destinationLongitude").nullish(),
    destinationRadius: radius("destinationRadius").default(100),
    equipmentType: ZEquipment,
    capacityLbs: number("capacityLbs")
      .gt(0, "capacityLbs must be greater than 0")
      .lte(TRUCK_CAPACITY_MAX_LBS, `capacityLbs must be at most ${TRUCK_CAPACITY_MAX_LBS}`),
    lengthFt: number("lengthFt")
      .gt(0, "lengthFt must be greater than 0")
      .lte(100, "lengthFt must be at most 100")
      .nullish(),
    plate: optionalText("plate", 20),
    note: optionalText("note", 500),
  })
  .refine((v) => (v.destinationLatitude == null) === (v.destinationLongitude == null), {
    message: "destinationLatitude and destinationLongitude go together",
    path: ["destinationLongitude"],
  })
  .refine((v) => v.availableTo > v.availableFrom, {
    message: "availableTo must be after availableFrom",
    path: ["availableTo"],
  });
export type TCreateTruckInput = z.infer<typeof ZCreateTruckInput>;
export type TCreateTruckForm = z.input<typeof ZCreateTruckInput>;

const blank = (v: unknown) => (v === "" || v === null ? undefined : v);
/** A number from a query string (text) or from tRPC (a number); a blank is absent. */
const queryNumber = (field: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : blank(v)),
    z
      .number({ error: `${field} must be a number` })
      .finite(`${field} must be a number`)
      .optional(),
  );

export const ZTruckSearchInput = z
  .object({
    latitude: queryNumber("latitude").pipe(
      z
        .number({ error: "latitude is required" })
        .min(-90, "latitude must be between -90 and 90")
        .max(90, "latitude must be between -90 and 90"),
    ),
    longitude: queryNumber("longitude").pipe(
      z
        .number({ error: "longitude is required" })
        .min(-180, "longitude must be between -180 and 180")
        .max(180, "longitude must be between -180 and 180"),
    ),
    radius: queryNumber("radius")
      .pipe(radius("radius").optional())
      .transform((v) => v ?? 100),
    destinationLatitude: queryNumber("destinationLatitude").pipe(
      z.number().min(-90).max(90, "destinationLatitude must be between -90 and 90").optional(),
    ),
    destinationLongitude: queryNumber("destinationLongitude").pipe(
      z.number().min(-180).max(180, "destinationLongitude must be between -180 and 180").optional(),
    ),
    destinationRadius: queryNumber("destinationRadius")
      .pipe(radius("destinationRadius").optional())
      .transform((v) => v ?? 100),
    availableFrom: z.preprocess(blank, dayOrMoment("availableFrom", "start").optional()),
    availableTo: z.preprocess(blank, dayOrMoment("availableTo", "end").optional()),
    // Several types: a list in tRPC, comma-separated in a query string ("dry_van,flatbed").
    equipmentType: z.preprocess(
      (v) => {
        const list = (Array.isArray(v) ? v : typeof v === "string" ? v.split(",") : v === null ? [] : v) as unknown;
        if (!Array.isArray(list)) return list;
        const named = list.map((t) => (typeof t === "string" ? t.trim() : t)).filter((t) => t !== "" && t !== "all");
        return named.length ? [...new Set(named)] : undefined;
      },
      z
        .array(z.enum(EQUIPMENT_TYPES, { error: `equipmentType must be among ${EQUIPMENT_TYPES.join(", ")}` }), {
          error: "equipmentType must be a list",
        })
        .optional(),
    ),
    minCapacityLbs: queryNumber("minCapacityLbs").pipe(
      z.number().gt(0, "minCapacityLbs must be greater than 0").optional(),
    ),
    page: queryNumber("page")
      .pipe(z.number().int("page must be a whole number").min(1, "page must be 1 or more").optional())
      .transform((v) => v ?? 1),
    pageSize: queryNumber("pageSize")
      .pipe(
        z
          .number()
          .int("pageSize must be a whole number")
          .min(1, "pageSize must be 1 or more")
          .max(100, "pageSize must be at most 100")
          .optional(),
      )
      .transform((v) => v ?? 20),
  })
  .refine((v) => (v.destinationLatitude === undefined) === (v.destinationLongitude === undefined), {
    message: "destinationLatitude and destinationLongitude go together",
    path: ["destinationLongitude"],
  })
  .refine((v) => v.availableFrom === undefined || v.availableTo === undefined || v.availableFrom <= v.availableTo, {
    message: "availableTo must not be before availableFrom",
    path: ["availableTo"],
  });
export type TTruckSearchInput = z.infer<typeof ZTruckSearchInput>;

export const ZTruckInvitationInput = z.object({
  loadId: z
    .number({ error: "loadId must be a number" })
    .int("loadId must be a whole number")
    .positive("loadId must be a positive number"),
});

// ---- Answers ------------------------------------------------------------------------------------------------------

const ZPoint = z.object({ name: z.string().nullable(), latitude: z.number(), longitude: z.number() });

/** A truck as its driver sees it. */
export const ZTruck = z.object({
  id: z.number().int(),
  origin: ZPoint,
  availableFrom: z.string(),
  availableTo: z.string(),
  /** Where it would go, or null for anywhere. */
  destination: ZPoint.extend({ radiusMiles: z.number().int() }).nullable(),
  equipmentType: z.enum(EQUIPMENT_TYPES),
  capacityLbs: z.number(),
  lengthFt: z.number().nullable(),
  plate: z.string().nullable(),
  note: z.string().nullable(),
  /** Past its available-to date: hidden from search, removed by housekeeping later. */
  expired: z.boolean(),
  createdAt: z.string(),
});
export type TTruck = z.infer<typeof ZTruck>;

/** The driver as a shipper sees them in a search: nothing that reaches the person. */
export const ZTruckDriver = z.object({
  name: z.string(),
  rating: z.number().nullable(),
  ratings: z.number().int(),
  trips: z.number().int(),
  verified: z.boolean(),
});

/** A truck found near a pickup, with the searching shipper's loads this truck's driver was already invited to. */
export const ZTruckSearchResult = ZTruck.omit({ plate: true, expired: true }).extend({
  distanceMiles: z.number(),
  driver: ZTruckDriver,
  invitedLoadIds: z.array(z.number().int()),
});
export type TTruckSearchResult = z.infer<typeof ZTruckSearchResult>;

export const ZTruckSearchPage = z.object({
  items: z.array(ZTruckSearchResult),
  page: z.number().int(),
  pageSize: z.number().int(),
  hasMore: z.boolean(),
});
export type TTruckSearchPage = z.infer<typeof ZTruckSearchPage>;

export const ZTruckInvitation = z.object({
  id: z.number().int(),
  truckId: z.number().int(),
  loadId: z.number().int(),
  /** The shipper's display name (first name and the initial of the last). */
  shipperName: z.string(),
  /** The load's route, origin → destination. */
  route: z.string(),
  loadTitle: z.string(),
  createdAt: z.string(),
});
export type TTruckInvitation = z.infer<typeof ZTruckInvitation>;
