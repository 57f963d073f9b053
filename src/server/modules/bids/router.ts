import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import {
  ZBidsAcceptAnswer,
  ZBidsForLoadAnswer,
  ZBidsMineAnswer,
  ZBidsPlaceAnswer,
  ZBidsRejectAnswer,
  ZBidsWithdrawAnswer,
} from "../../../shared/schemas/answers/bids";
import { ZPlaceBidInput } from "../../../shared/schemas/loads";
import { driverProcedure, shipperProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { premium } from "../billing/middleware";
import { acceptBid, listDriverBids, listLoadBids, placeBid, rejectBid, withdrawBid } from "./bids";

const ZBidId = z.object({ bidId: z.number({ error: "bidId must be a number" }).int().positive() });
const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

export const bidsRouter = {
  place: driverProcedure
    .meta(
      rest("POST", "/api/loads/:id/bids", {
        summary: "Bid on a load",
        tags: ["Bids"],
        scope: "bids:write",
        status: 201,
        params: { id: "loadId" },
      }),
    )
    .use(premium)
    .input(ZLoadId.extend(ZPlaceBidInput.shape))
    .output(ZBidsPlaceAnswer)
    .mutation(({ ctx, input }) => {
      const { loadId, ...bid } = input;
      return placeBid(ctx.db, ctx.actor, loadId, bid);
    }),
  mine: driverProcedure
    .meta(rest("GET", "/api/bids/driver", { summary: "The driver's bids", tags: ["Bids"], scope: "bids:read" }))
    .output(ZBidsMineAnswer)
    .query(({ ctx }) => listDriverBids(ctx.db, ctx.actor)),
  forLoad: shipperProcedure
    .meta(
      rest("GET", "/api/loads/:id/bids", {
        summary: "A load's bids",
        tags: ["Bids"],
        scope: "bids:read",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZBidsForLoadAnswer)
    .query(({ ctx, input }) => listLoadBids(ctx.db, ctx.actor, input.loadId)),
  accept: shipperProcedure
    .meta(
      rest("POST", "/api/bids/:id/accept", {
        summary: "Accept a bid",
        tags: ["Bids"],
        scope: "bids:write",
        params: { id: "bidId" },
      }),
    )
    .input(ZBidId)
    .output(ZBidsAcceptAnswer)
    .mutation(({ ctx, input }) => acceptBid(ctx.db, ctx.actor, input.bidId)),
  reject: shipperProcedure
    .meta(
      rest("POST", "/api/bids/:id/reject", {
        summary: "Reject a bid",
        tags: ["Bids"],
        scope: "bids:write",
        params: { id: "bidId" },
      }),
    )
    .input(ZBidId)
    .output(ZBidsRejectAnswer)
    .mutation(({ ctx, input }) => rejectBid(ctx.db, ctx.actor, input.bidId)),
  withdraw: driverProcedure
    .meta(
      rest("DELETE", "/api/bids/:id", {
        summary: "Withdraw a bid",
        tags: ["Bids"],
        scope: "bids:write",
        params: { id: "bidId" },
      }),
    )
    .input(ZBidId)
    .output(ZBidsWithdrawAnswer)
    .mutation(({ ctx, input }) => withdrawBid(ctx.db, ctx.actor, input.bidId)),
} satisfies TRPCRouterRecord;
