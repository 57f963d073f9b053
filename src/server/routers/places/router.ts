import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { searchPlaces } from "../../domain/places/gazetteer";
import { authedProcedure } from "../../trpc/init";

export const placesRouter = {
  search: authedProcedure
    .input(
      z.object({
        q: z.string().trim().max(80, "q must be at most 80 characters"),
        limit: z.number().int().min(1).max(20).default(8),
      }),
    )
    .query(({ input }) => searchPlaces(input.q, input.limit)),
} satisfies TRPCRouterRecord;
