import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { LANGUAGE_CODES } from "../../../shared/constants";
import { ZPlaceLabelsAnswer, ZPlacesSearchAnswer } from "../../../shared/schemas/answers/places";
import { zText } from "../../../shared/schemas/text";
import { authedProcedure, publicProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { nearestPlace, placeLabels, searchPlaces } from "./gazetteer";

export const placesRouter = {
  search: authedProcedure
    .meta(rest("GET", "/api/places", { summary: "Find a place by name", tags: ["Places"], scope: "loads:read" }))
    .input(
      z.object({
        // A query without text finds nothing rather than failing (the REST route may be called without `q`).
        q: zText().trim().max(80, "q must be at most 80 characters").default(""),
        limit: z.number().int().min(1).max(20).default(8),
      }),
    )
    .output(ZPlacesSearchAnswer)
    .query(({ input }) => searchPlaces(input.q, input.limit)),

  /** The map's place labels (capitals, large cities, Ethiopia's towns) in the language, where a name in it is known. */
  // Public: the maps of a shared load and a tracking link show them to visitors too; nothing in them is an account's.
  labels: publicProcedure
    .meta(
      rest("GET", "/api/places/labels", {
        summary: "Place names for the map",
        tags: ["Places"],
        scope: "public",
      }),
    )
    .input(
      z.object({
        language: z.preprocess(
          (v) => (v === "" ? undefined : v),
          z.enum(LANGUAGE_CODES, { error: `language must be one of ${LANGUAGE_CODES.join(", ")}` }).default("en"),
        ),
      }),
    )
    .output(ZPlaceLabelsAnswer)
    .query(({ input }) => placeLabels(input.language)),

  /** A position as people say it: the nearest known town, how far and which way. */
  near: authedProcedure
    .input(
      z.object({
        latitude: z
          .number({ error: "latitude must be a number" })
          .min(-90, "latitude must be between -90 and 90")
          .max(90, "latitude must be between -90 and 90"),
        longitude: z
          .number({ error: "longitude must be a number" })
          .min(-180, "longitude must be between -180 and 180")
          .max(180, "longitude must be between -180 and 180"),
      }),
    )
    .query(({ input }) => {
      const p = nearestPlace(input.latitude, input.longitude);
      return p && { town: p.town, country: p.country, distanceMiles: p.distanceMiles, direction: p.direction };
    }),
} satisfies TRPCRouterRecord;
