import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZPositionsInput, ZPositionsResult, ZTrack } from "../../../shared/schemas/tracking";
import { authedProcedure, driverProcedure } from "../../trpc/init";
import { recordPositions, trackForParty } from "./positions";

const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

/** A trip's live position: the assigned driver's batches of points, and the track its two parties see. */
export const trackingRouter = {
  record: driverProcedure
    .input(ZLoadId.extend(ZPositionsInput.shape))
    .output(ZPositionsResult)
    .mutation(({ ctx, input }) => recordPositions(ctx.db, ctx.actor, input.loadId, input.positions)),
  track: authedProcedure
    .input(ZLoadId)
    .output(ZTrack)
    .query(({ ctx, input }) => trackForParty(ctx.db, ctx.actor, input.loadId)),
} satisfies TRPCRouterRecord;
