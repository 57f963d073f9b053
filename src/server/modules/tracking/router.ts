import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZPositionsInput, ZPositionsResult, ZTrack } from "../../../shared/schemas/tracking";
import { authedProcedure, driverProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { recordPositions, trackForParty } from "./positions";

const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

/** A trip's live position: the assigned driver's batches of points, and the track its two parties see. */
export const trackingRouter = {
  record: driverProcedure
    .meta(
      rest("POST", "/api/loads/:id/positions", {
        summary: "Add the assigned driver's positions to a load's track",
        tags: ["Trips"],
        scope: "tracking:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId.extend(ZPositionsInput.shape))
    .output(ZPositionsResult)
    .mutation(({ ctx, input }) => recordPositions(ctx.db, ctx.actor, input.loadId, input.positions)),
  track: authedProcedure
    .meta(
      rest("GET", "/api/loads/:id/track", {
        summary: "A load's track, miles left and ETA",
        tags: ["Trips"],
        scope: "tracking:read",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZTrack)
    .query(({ ctx, input }) => trackForParty(ctx.db, ctx.actor, input.loadId)),
} satisfies TRPCRouterRecord;
