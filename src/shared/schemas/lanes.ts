import { z } from "zod";
import { DEFAULT_LANE_RADIUS, EQUIPMENT_TYPES, LANE_RADIUS_MAX, LANE_RADIUS_MIN } from "../constants";
import { zText } from "./text";

// Saved lanes: where a driver wants loads from (a place and a radius), optionally to where (a place and its radius), and
// with which equipment (none = any). Board sync searches each of them besides the user's last location. Fields are flat,
// as the answer gives them, so what GET answers can be sent back to PUT.

/** Empty text and null are "not given"; numeric text is read as a number (form fields and query-string habits). */
const blankToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const numeric = (v: unknown) => {
  const b = blankToUndefined(v);
  return typeof b === "string" && b.trim() !== "" && Number.isFinite(Number(b)) ? Number(b) : b;
};

const coordinate = (field: string, limit: number) =>
  z
    .number({ error: `${field} must be a number` })
    .min(-limit, `${field} must be between -${limit} and ${limit}`)
    .max(limit, `${field} must be between -${limit} and ${limit}`);

const radius = (field: string) =>
  z
    .number({ error: `${field} must be a number of miles` })
    .int(`${field} must be a whole number of miles`)
    .min(LANE_RADIUS_MIN, `${field} must be between ${LANE_RADIUS_MIN} and ${LANE_RADIUS_MAX} miles`)
    .max(LANE_RADIUS_MAX, `${field} must be between ${LANE_RADIUS_MIN} and ${LANE_RADIUS_MAX} miles`);

const placeName = (field: string) =>
  zText({ error: `${field} must be text` })
    .trim()
    .min(1, `${field} is required`)
    .max(120, `${field} must be at most 120 characters`);

const ZLaneName = zText({ error: "name must be text" })
  .trim()
  .max(80, "name must be at most 80 characters")
  .transform((v) => v || null);

const ZEquipmentTypes = z
  .array(z.enum(EQUIPMENT_TYPES, { error: `equipmentTypes must be among ${EQUIPMENT_TYPES.join(", ")}` }), {
    error: "equipmentTypes must be a list",
  })
  .max(EQUIPMENT_TYPES.length, `equipmentTypes must have at most ${EQUIPMENT_TYPES.length} entries`)
  // In the order of the list the app shows, each once.
  .transform((list) => EQUIPMENT_TYPES.filter((e) => list.includes(e)));

/** The fields of a lane, each checked on its own (the create and update schemas add the rules between them). */
const fields = {
  // Empty text or null: no name.
  name: ZLaneName.nullable().optional(),
  originName: z.preprocess(blankToUndefined, placeName("originName").optional()),
  originLatitude: z.preprocess(numeric, coordinate("originLatitude", 90).optional()),
  originLongitude: z.preprocess(numeric, coordinate("originLongitude", 180).optional()),
  originRadiusMiles: z.preprocess(numeric, radius("originRadiusMiles").optional()),
  destinationName: z.preprocess(blankToUndefined, placeName("destinationName").optional()),
  destinationLatitude: z.preprocess(numeric, coordinate("destinationLatitude", 90).optional()),
  destinationLongitude: z.preprocess(numeric, coordinate("destinationLongitude", 180).optional()),
  destinationRadiusMiles: z.preprocess(numeric, radius("destinationRadiusMiles").optional()),
  equipmentTypes: z.preprocess(blankToUndefined, ZEquipmentTypes.optional()),
};

type TLaneFields = z.output<z.ZodObject<typeof fields>>;

type TCtx = { addIssue: (issue: { code: "custom"; path: string[]; message: string }) => void };
const required = (ctx: TCtx, path: string, message = `${path} is required`) =>
  ctx.addIssue({ code: "custom", path: [path], message });

/** A whole lane: origin required, a destination complete or absent; radii default as the app does. */
const complete = (v: TLaneFields, ctx: TCtx) => {
  if (v.originName === undefined) required(ctx, "originName");
  if (v.originLatitude === undefined) required(ctx, "originLatitude");
  if (v.originLongitude === undefined) required(ctx, "originLongitude");
  const hasLat = v.destinationLatitude !== undefined;
  const hasLng = v.destinationLongitude !== undefined;
  if (hasLat !== hasLng)
    required(
      ctx,
      hasLat ? "destinationLongitude" : "destinationLatitude",
      "destinationLatitude and destinationLongitude go together",
    );
  else if (hasLat && v.destinationName === undefined) required(ctx, "destinationName");
  else if (!hasLat && v.destinationName !== undefined)
    required(ctx, "destinationLatitude", "destinationLatitude and destinationLongitude are required for a destination");
};

const toLane = (v: TLaneFields) => {
  const originRadiusMiles = v.originRadiusMiles ?? DEFAULT_LANE_RADIUS;
  const hasDestination = v.destinationLatitude !== undefined && v.destinationLongitude !== undefined;
  return {
    name: v.name ?? null,
    originName: v.originName!,
    originLatitude: v.originLatitude!,
    originLongitude: v.originLongitude!,
    originRadiusMiles,
    destinationName: hasDestination ? v.destinationName! : null,
    destinationLatitude: hasDestination ? v.destinationLatitude! : null,
    destinationLongitude: hasDestination ? v.destinationLongitude! : null,
    // A destination without its own radius takes the origin's (what the boards did before lanes had two).
    destinationRadiusMiles: hasDestination ? (v.destinationRadiusMiles ?? originRadiusMiles) : null,
    equipmentTypes: v.equipmentTypes ?? [],
  };
};

/** POST /api/marketplaces/lanes: a new lane. */
export const ZSavedLaneInput = z
  .object(fields, { error: "a lane must be an object" })
  // Also when a field failed its own check, so every missing field is named at once.
  .superRefine((v, ctx) => complete(v, ctx), { when: (p) => typeof p.value === "object" && p.value !== null })
  .transform(toLane);
export type TSavedLaneInput = z.output<typeof ZSavedLaneInput>;
export type TSavedLaneForm = z.input<typeof ZSavedLaneInput>;

/**
 * PUT /api/marketplaces/lanes/:id: the fields to change; the others stay. Each is checked here, the lane as a whole
 * once merged with what is saved. `null` removes an optional field: the name, or the destination (its name or a
 * coordinate null, and none of the three given a value).
 */
export const ZUpdateSavedLaneInput = z.object({
  name: fields.name,
  originName: fields.originName,
  originLatitude: fields.originLatitude,
  originLongitude: fields.originLongitude,
  originRadiusMiles: fields.originRadiusMiles,
  destinationName: z.union([z.null(), fields.destinationName]),
  destinationLatitude: z.union([z.null(), fields.destinationLatitude]),
  destinationLongitude: z.union([z.null(), fields.destinationLongitude]),
  destinationRadiusMiles: z.union([z.null(), fields.destinationRadiusMiles]),
  equipmentTypes: fields.equipmentTypes,
});
export type TUpdateSavedLaneInput = z.output<typeof ZUpdateSavedLaneInput>;
