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
import { ZCounterAcceptResult, ZCounterOfferInput, ZCounterResult } from "../../../shared/schemas/bids";
import { ZPlaceBidInput } from "../../../shared/schemas/loads";
import { authedProcedure, driverProcedure, shipperProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { premium } from "../billing/middleware";
import { acceptBid, listDriverBidsWithOffers, listLoadBids, placeBid, rejectBid, withdrawBid } from "./bids";
import { acceptCounter, counterBid, declineCounter } from "./counters";

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
    .query(({ ctx }) => listDriverBidsWithOffers(ctx.db, ctx.actor)),
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
  // Counter-offers: the load's shipper, or the bidder answering the shipper's offer, proposes an amount; the other
  // side accepts (the load is awarded at it) or declines. Anyone else gets the bid's 404.
  counter: authedProcedure
    .meta(
      rest("POST", "/api/bids/:id/counter", {
        summary: "Make a counter-offer on a bid",
        tags: ["Bids"],
        scope: "bids:write",
        status: 201,
        params: { id: "bidId" },
      }),
    )
    .input(ZBidId.extend(ZCounterOfferInput.shape))
    .output(ZCounterResult)
    .mutation(({ ctx, input }) => {
      const { bidId, ...offer } = input;
      return counterBid(ctx.db, ctx.actor, bidId, offer);
    }),
  acceptCounter: authedProcedure
    .meta(
      rest("POST", "/api/bids/:id/counter/accept", {
        summary: "Accept the open counter-offer (awards the load at its amount)",
        tags: ["Bids"],
        scope: "bids:write",
        params: { id: "bidId" },
      }),
    )
    .input(ZBidId)
    .output(ZCounterAcceptResult)
    .mutation(({ ctx, input }) => acceptCounter(ctx.db, ctx.actor, input.bidId)),
  declineCounter: authedProcedure
    .meta(
      rest("POST", "/api/bids/:id/counter/decline", {
        summary: "Decline the open counter-offer",
        tags: ["Bids"],
        scope: "bids:write",
        params: { id: "bidId" },
      }),
    )
    .input(ZBidId)
    .output(ZCounterResult)
    .mutation(({ ctx, input }) => declineCounter(ctx.db, ctx.actor, input.bidId)),
} satisfies TRPCRouterRecord;
