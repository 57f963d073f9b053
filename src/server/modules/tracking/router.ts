import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import {
  ZLiveLocationInput,
  ZLiveLocationResult,
  ZPositionsInput,
  ZPositionsResult,
  ZRevokeTrackingLinkResult,
  ZSharedTrack,
  ZTrack,
  ZTrackingLink,
  ZTrackingLinkState,
  ZTrackingToken,
} from "../../../shared/schemas/tracking";
import { authedProcedure, driverProcedure, publicProcedure, shipperProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { createTrackingLink, revokeTrackingLink, sharedTrack, trackingLinkState } from "./links";
import { recordLiveLocation } from "./live-location";
import { recordPositions, trackForParty } from "./positions";

const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

/**
 * A trip's live position: the assigned driver's batches of points, the track its two parties see, and the consignee's
 * tracking link (made and revoked by the shipper, opened by anyone holding it).
 */
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
  /** A point of the driver's live location relayed by a chat bot (Telegram): it joins their current trip. */
  liveLocation: driverProcedure
    .input(ZLiveLocationInput)
    .output(ZLiveLocationResult)
    .mutation(({ ctx, input }) => recordLiveLocation(ctx.db, ctx.actor, input)),
  createLink: shipperProcedure
    .meta(
      rest("POST", "/api/loads/:id/tracking-link", {
        summary: "A new tracking link for the consignee, replacing the load's old one",
        tags: ["Trips"],
        scope: "tracking:write",
        status: 201,
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZTrackingLink)
    .mutation(({ ctx, input }) =>
      createTrackingLink(
        ctx.db,
        ctx.actor,
        input.loadId,
        ctx.http?.origin ?? ctx.services.publicOrigin ?? "http://localhost:3000",
      ),
    ),
  link: shipperProcedure
    .meta(
      rest("GET", "/api/loads/:id/tracking-link", {
        summary: "Whether a load has a live tracking link",
        tags: ["Trips"],
        scope: "tracking:read",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZTrackingLinkState)
    .query(({ ctx, input }) => trackingLinkState(ctx.db, ctx.actor, input.loadId)),
  revokeLink: shipperProcedure
    .meta(
      rest("DELETE", "/api/loads/:id/tracking-link", {
        summary: "Turn a load's tracking link off",
        tags: ["Trips"],
        scope: "tracking:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZRevokeTrackingLinkResult)
    .mutation(({ ctx, input }) => revokeTrackingLink(ctx.db, ctx.actor, input.loadId)),
  shared: publicProcedure
    .meta(
      rest("GET", "/api/track/:token", {
        summary: "A trip as its tracking link shows it (places, track, ETA, stage)",
        tags: ["Trips"],
        scope: "public",
        params: { token: { input: "token", type: "text" } },
      }),
    )
    .input(ZTrackingToken)
    .output(ZSharedTrack)
    .query(({ ctx, input }) => sharedTrack(ctx.db, input.token, ctx.http?.ip ?? ctx.channel)),
} satisfies TRPCRouterRecord;
