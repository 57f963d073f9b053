import { z } from "zod";
import { ZPlace } from "./common";

export const ZPlacesSearchAnswer = z.array(ZPlace);

export const ZPlaceLabel = z.object({
  name: z.string(),
  latitude: z.number(),
  longitude: z.number(),
  /** How soon the label shows as the map zooms in: 1 from the whole world, 2 for a region, 3 for a country. */
  rank: z.union([z.literal(1), z.literal(2), z.literal(3)]),
});
export const ZPlaceLabelsAnswer = z.array(ZPlaceLabel);
export type TPlaceLabel = z.infer<typeof ZPlaceLabel>;
