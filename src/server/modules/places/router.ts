import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZPlacesSearchAnswer } from "../../../shared/schemas/answers/places";
import { zText } from "../../../shared/schemas/text";
import { authedProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { nearestPlace, searchPlaces } from "./gazetteer";

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
