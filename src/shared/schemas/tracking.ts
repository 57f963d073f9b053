import { z } from "zod";
import { dateTime, LOAD_STATUSES } from "./loads";
import { zText } from "./text";

/** Within this distance of the pickup or delivery point the driver has arrived there (500 m). */
export const ARRIVAL_MILES = 500 / 1609.344;

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

/** A new tracking link, shown once (only its hash is kept): open-ended (`expiresAt` null) until the delivery. */
export const ZTrackingLink = z.object({ url: z.string(), token: z.string(), expiresAt: z.string().nullable() });
export type TTrackingLink = z.infer<typeof ZTrackingLink>;

/** Whether a load has a live tracking link, for its shipper (the link itself cannot be shown again). */
export const ZTrackingLinkState = z.object({
  link: z.object({ createdAt: z.string(), expiresAt: z.string().nullable() }).nullable(),
});
export type TTrackingLinkState = z.infer<typeof ZTrackingLinkState>;

export const ZRevokeTrackingLinkResult = z.object({ revoked: z.boolean() });

/** A tracking link's token: 32 random bytes in base64url. */
export const ZTrackingToken = z.object({
  token: zText({ error: "token is required" }).regex(/^[A-Za-z0-9_-]{43}$/, "token is not a tracking link's token"),
});

/** What the consignee's link shows: the trip's stage, not the load's business (a dispute reads as delivered). */
export const SHARED_TRIP_STAGES = ["awaiting_pickup", "in_transit", "delivered"] as const;
export type TSharedTripStage = (typeof SHARED_TRIP_STAGES)[number];

const ZSharedPlace = z.object({ label: z.string(), latitude: z.number(), longitude: z.number() });

/** The consignee's view of a trip: places, track, ETA and stage, and nothing of the parties, the price or the ids. */
export const ZSharedTrack = z.object({
  stage: z.enum(SHARED_TRIP_STAGES),
  pickup: ZSharedPlace,
  delivery: ZSharedPlace,
  positions: z.array(ZTrackPoint),
  lastPosition: ZTrackPoint.nullable(),
  remainingMiles: z.number().nullable(),
  eta: z.string().nullable(),
  etaComputedAt: z.string(),
  deliveredAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
});
export type TSharedTrack = z.infer<typeof ZSharedTrack>;

/** One point of a live location a chat app (Telegram) relays for the driver. */
export const ZLiveLocationInput = ZPosition;

/** Which trip a live location feeds, and what became of the point. */
export const ZLiveLocationResult = z.object({
  loadId: z.number(),
  from: z.string(),
  to: z.string(),
  stored: z.number(),
});
