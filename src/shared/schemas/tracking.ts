import { z } from "zod";
import { dateTime, LOAD_STATUSES } from "./loads";

/** The most points one call may carry: a phone's queue sends what it gathered offline in batches of this size. */
export const MAX_POSITIONS_PER_CALL = 100;

const number = (field: string) =>
  z.number({ error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be a number`) });

const between = (field: string, min: number, max: number) =>
  number(field)
    .min(min, `${field} must be between ${min} and ${max}`)
    .max(max, `${field} must be between ${min} and ${max}`);

const optionalAtLeast0 = (field: string, max: number) =>
  number(field)
    .min(0, `${field} must be between 0 and ${max}`)
    .max(max, `${field} must be between 0 and ${max}`)
    .nullish();

/** One fix as the device reported it, with its own time (a batch gathered offline carries each point's time). */
export const ZPosition = z.object({
  latitude: between("latitude", -90, 90),
  longitude: between("longitude", -180, 180),
  recordedAt: dateTime("recordedAt"),
  accuracy: optionalAtLeast0("accuracy", 100_000),
  speed: optionalAtLeast0("speed", 200),
  heading: optionalAtLeast0("heading", 360),
});
export type TPosition = z.infer<typeof ZPosition>;

export const ZPositionsInput = z.object({
  positions: z
    .array(ZPosition, { error: "positions must be a list" })
    .min(1, "positions must hold at least one point")
    .max(MAX_POSITIONS_PER_CALL, `positions must hold at most ${MAX_POSITIONS_PER_CALL} points`),
});
export type TPositionsInput = z.infer<typeof ZPositionsInput>;

export const ZTrackPoint = z.object({ latitude: z.number(), longitude: z.number(), recordedAt: z.string() });
export type TTrackPoint = z.infer<typeof ZTrackPoint>;

export const TRIP_ALERT_KINDS = ["arrived_pickup", "arrived_delivery", "delayed"] as const;
export const ZTripAlert = z.object({
  kind: z.enum(TRIP_ALERT_KINDS),
  at: z.string(),
  /** For a delay: the ETA the shipper was told. */
  eta: z.string().nullable(),
});
export type TTripAlert = z.infer<typeof ZTripAlert>;

/** A trip's track as its two parties see it (the consignee's page shows a subset). */
export const ZTrack = z.object({
  loadId: z.number(),
  status: z.enum(LOAD_STATUSES),
  positions: z.array(ZTrackPoint),
  lastPosition: ZTrackPoint.nullable(),
  /** Road miles left to the delivery point (through the pickup before pickup), estimated. */
  remainingMiles: z.number().nullable(),
  eta: z.string().nullable(),
  etaComputedAt: z.string(),
  pickup: z.object({ latitude: z.number(), longitude: z.number() }),
  delivery: z.object({ latitude: z.number(), longitude: z.number() }),
  events: z.array(ZTripAlert),
});
export type TTrack = z.infer<typeof ZTrack>;

export const ZPositionsResult = z.object({
  stored: z.number(),
  ignored: z.number(),
  lastPosition: ZTrackPoint.nullable(),
});
export type TPositionsResult = z.infer<typeof ZPositionsResult>;
