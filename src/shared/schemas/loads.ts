import { z } from "zod";
import { EQUIPMENT_TYPES, LOAD_SORTS, MONEY_CURRENCY_CODES, RADIUS_OPTIONS, type TLoadSort } from "../constants";
import { zText } from "./text";

const text = (field: string, max: number) =>
  zText({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);

const optionalText = (field: string, max: number) =>
  zText({ error: `${field} must be text` })
    .trim()
    .max(max, `${field} must be at most ${max} characters`)
    .nullish()
    .transform((v) => (v ? v : null));

const number = (field: string) =>
  z.number({ error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be a number`) });

const positive = (field: string, max: number) =>
  number(field).gt(0, `${field} must be greater than 0`).lte(max, `${field} must be at most ${max}`);

export const cents = (field: string, max: number) =>
  positive(field, max).refine(
    (v) => Math.abs(Math.round(v * 100) - v * 100) < 1e-6,
    `${field} must have at most 2 decimals`,
  );

const latitude = (field: string) =>
  number(field).min(-90, `${field} must be between -90 and 90`).max(90, `${field} must be between -90 and 90`);
const longitude = (field: string) =>
  number(field).min(-180, `${field} must be between -180 and 180`).max(180, `${field} must be between -180 and 180`);

/** An ISO-8601 date-time, as epoch milliseconds. */
export const dateTime = (field: string) =>
  zText({ error: `${field} is required` })
    .min(1, `${field} is required`)
    .refine((v) => !Number.isNaN(Date.parse(v)), `${field} must be a date and time`)
    .transform((v) => Date.parse(v));

export const ZMoneyCurrency = z.enum(MONEY_CURRENCY_CODES, {
  error: `currency must be one of ${MONEY_CURRENCY_CODES.join(", ")}`,
});

export const ZCreateLoadInput = z.object({
  title: text("title", 120),
  description: optionalText("description", 2000),
  equipmentType: z.enum(EQUIPMENT_TYPES, { error: `equipmentType must be one of ${EQUIPMENT_TYPES.join(", ")}` }),
  pickupAddress: text("pickupAddress", 200),
  pickupCity: text("pickupCity", 100),
  pickupState: optionalText("pickupState", 100),
  pickupCountry: text("pickupCountry", 100),
  pickupLatitude: latitude("pickupLatitude"),
  pickupLongitude: longitude("pickupLongitude"),
  deliveryAddress: text("deliveryAddress", 200),
  deliveryCity: text("deliveryCity", 100),
  deliveryState: optionalText("deliveryState", 100),
  deliveryCountry: text("deliveryCountry", 100),
  deliveryLatitude: latitude("deliveryLatitude"),
  deliveryLongitude: longitude("deliveryLongitude"),
  pickupDate: dateTime("pickupDate"),
  deliveryDate: dateTime("deliveryDate"),
  weight: positive("weight", 250_000),
  budgetAmount: cents("budgetAmount", 100_000_000),
  budgetCurrency: ZMoneyCurrency.default("USD"),
  loadSize: z.enum(["full", "partial"], { error: "loadSize must be one of full, partial" }).default("full"),
  specialInstructions: optionalText("specialInstructions", 1000),
});
export type TCreateLoadInput = z.infer<typeof ZCreateLoadInput>;
export type TCreateLoadForm = z.input<typeof ZCreateLoadInput>;

/** The fields a posted load's edit may change: those of posting, each optional, without posting's defaults. */
export const LOAD_EDIT_FIELDS = Object.keys(ZCreateLoadInput.shape) as (keyof TCreateLoadInput)[];

const LOAD_PATCH_SHAPE = {
  ...ZCreateLoadInput.partial().shape,
  budgetCurrency: ZMoneyCurrency.optional(),
  loadSize: z.enum(["full", "partial"], { error: "loadSize must be one of full, partial" }).optional(),
};

/**
 * PATCH /api/loads/:id: any of posting's fields with posting's checks; a field left out stays as it is, an optional
 * text field sent empty or null is cleared. An unknown field is refused by name, and so is an empty patch. `extra`
 * is what the door adds (the load's id from the path).
 */
export const loadPatchSchema = <S extends z.ZodRawShape>(extra: S) =>
  z
    .strictObject(
      { ...extra, ...LOAD_PATCH_SHAPE },
      { error: (i) => (i.code === "unrecognized_keys" ? `Unknown field: ${i.keys.join(", ")}` : undefined) },
    )
    .refine(
      (v) => Object.entries(v).some(([k, x]) => k in LOAD_PATCH_SHAPE && x !== undefined),
      `Give at least one field to change: ${LOAD_EDIT_FIELDS.join(", ")}`,
    );
export const ZUpdateLoadInput = loadPatchSchema({});
export type TUpdateLoadInput = z.infer<typeof ZUpdateLoadInput>;

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const queryNumber = (field: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : emptyToUndefined(v)),
    z
      .number({ error: `${field} must be a number` })
      .finite(`${field} must be a number`)
      .optional(),
  );

/** A pickup window's end: a date-time, or a date (YYYY-MM-DD, UTC) taken from its first or to its last millisecond. */
const windowEnd = (field: string, side: "start" | "end") =>
  zText({ error: `${field} must be a date or a date and time` })
    .trim()
    .refine((v) => !Number.isNaN(Date.parse(v)), `${field} must be a date or a date and time`)
    .transform((v) => (side === "end" && /^\d{4}-\d{2}-\d{2}$/.test(v) ? Date.parse(v) + 86_399_999 : Date.parse(v)));

export const LOAD_SIZES = ["full", "partial"] as const;
export type TLoadSize = (typeof LOAD_SIZES)[number];

export const LOAD_STATUSES = [
  "posted",
  "assigned",
  "in_transit",
  "delivered",
  "disputed",
  "completed",
  "cancelled",
] as const;
export type TLoadStatus = (typeof LOAD_STATUSES)[number];
export { LOAD_SORTS, type TLoadSort };

export const ZLoadSearchInput = z
  .object({
    latitude: queryNumber("latitude").pipe(
      z.number().min(-90).max(90, "latitude must be between -90 and 90").optional(),
    ),
    longitude: queryNumber("longitude").pipe(
      z.number().min(-180).max(180, "longitude must be between -180 and 180").optional(),
    ),
    radius: queryNumber("radius")
      .pipe(
        z
          .number()
          .refine(
            (v) => (RADIUS_OPTIONS as readonly number[]).includes(v),
            `radius must be one of ${RADIUS_OPTIONS.join(", ")}`,
          )
          .optional(),
      )
      .transform((v) => v ?? 50),
    sourceType: z.preprocess(
      emptyToUndefined,
      z.enum(["all", "mytess", "external"], { error: "sourceType must be all, mytess or external" }).default("all"),
    ),
    // Several types: repeated in tRPC as a list, comma-separated in a query string ("dry_van,flatbed").
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
    loadSize: z.preprocess(
      (v) => (v === "all" ? undefined : emptyToUndefined(v)),
      z.enum(LOAD_SIZES, { error: `loadSize must be one of ${LOAD_SIZES.join(", ")}` }).optional(),
    ),
    destinationLatitude: queryNumber("destinationLatitude").pipe(
      z.number().min(-90).max(90, "destinationLatitude must be between -90 and 90").optional(),
    ),
    destinationLongitude: queryNumber("destinationLongitude").pipe(
      z.number().min(-180).max(180, "destinationLongitude must be between -180 and 180").optional(),
    ),
    destinationRadius: queryNumber("destinationRadius")
      .pipe(
        z
          .number()
          .refine(
            (v) => (RADIUS_OPTIONS as readonly number[]).includes(v),
            `destinationRadius must be one of ${RADIUS_OPTIONS.join(", ")}`,
          )
          .optional(),
      )
      .transform((v) => v ?? 100),
    pickupFrom: z.preprocess(emptyToUndefined, windowEnd("pickupFrom", "start").optional()),
    pickupTo: z.preprocess(emptyToUndefined, windowEnd("pickupTo", "end").optional()),
    maxWeight: queryNumber("maxWeight").pipe(z.number().gt(0, "maxWeight must be greater than 0").optional()),
    minRate: queryNumber("minRate").pipe(z.number().min(0, "minRate must be 0 or more").optional()),
    location: z.preprocess(
      emptyToUndefined,
      zText().trim().max(100, "location must be at most 100 characters").optional(),
    ),
    status: z.preprocess(
      emptyToUndefined,
      z.enum(LOAD_STATUSES, { error: `status must be one of ${LOAD_STATUSES.join(", ")}` }).default("posted"),
    ),
    sort: z.preprocess(
      emptyToUndefined,
      z.enum(LOAD_SORTS, { error: "sort must be distance, rate or date" }).default("distance"),
    ),
    page: queryNumber("page")
      .pipe(z.number().int("page must be a whole number").min(1, "page must be 1 or more").optional())
      .transform((v) => v ?? 1),
    pageSize: queryNumber("pageSize")
      .pipe(
        z.number().int("pageSize must be a whole number").min(1).max(100, "pageSize must be at most 100").optional(),
      )
      .transform((v) => v ?? 50),
  })
  .refine((v) => (v.latitude === undefined) === (v.longitude === undefined), {
    message: "latitude and longitude go together",
    path: ["longitude"],
  })
  .refine((v) => (v.destinationLatitude === undefined) === (v.destinationLongitude === undefined), {
    message: "destinationLatitude and destinationLongitude go together",
    path: ["destinationLongitude"],
  })
  .refine((v) => v.pickupFrom === undefined || v.pickupTo === undefined || v.pickupFrom <= v.pickupTo, {
    message: "pickupTo must not be before pickupFrom",
    path: ["pickupTo"],
  });
export type TLoadSearchInput = z.infer<typeof ZLoadSearchInput>;
export type TLoadSearchForm = z.input<typeof ZLoadSearchInput>;

export const ZPlaceBidInput = z.object({
  amount: cents("amount", 100_000_000),
  currency: ZMoneyCurrency.default("USD"),
  proposedPickupDate: dateTime("proposedPickupDate").nullish(),
  notes: optionalText("notes", 1000),
  /** One of the bidder's own trucks, offered for the load (its type, capacity and plate show to the shipper). */
  truckId: number("truckId")
    .int("truckId must be a whole number")
    .positive("truckId must be a positive number")
    .nullish(),
});
export type TPlaceBidInput = z.infer<typeof ZPlaceBidInput>;

export const ZLocationInput = z.object({ latitude: latitude("latitude"), longitude: longitude("longitude") });

export const ZCancelLoadInput = z.object({ reason: optionalText("reason", 500) });
export const ZRatingInput = z.object({
  score: number("score")
    .int("score must be a whole number")
    .min(1, "score must be 1 to 5")
    .max(5, "score must be 1 to 5"),
});
export const ZMessageInput = z.object({
  body: text("body", 2000),
  /** The shipper names which driver's conversation; a driver writes in their own. */
  driverId: z.number().int().positive().optional(),
});
