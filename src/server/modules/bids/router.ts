import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZPlaceBidInput } from "../../../shared/schemas/loads";
import { driverProcedure, shipperProcedure } from "../../trpc/init";
import { premium } from "../billing/middleware";
import { acceptBid, listDriverBids, listLoadBids, placeBid, rejectBid, withdrawBid } from "./bids";

const ZBidId = z.object({ bidId: z.number({ error: "bidId must be a number" }).int().positive() });
const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

export const bidsRouter = {
  place: driverProcedure
    .use(premium)
    .input(ZLoadId.extend(ZPlaceBidInput.shape))
    .mutation(({ ctx, input }) => {
      const { loadId, ...bid } = input;
      return placeBid(ctx.db, ctx.actor, loadId, bid);
    }),
  mine: driverProcedure.query(({ ctx }) => listDriverBids(ctx.db, ctx.actor)),
  forLoad: shipperProcedure.input(ZLoadId).query(({ ctx, input }) => listLoadBids(ctx.db, ctx.actor, input.loadId)),
  accept: shipperProcedure.input(ZBidId).mutation(({ ctx, input }) => acceptBid(ctx.db, ctx.actor, input.bidId)),
  reject: shipperProcedure.input(ZBidId).mutation(({ ctx, input }) => rejectBid(ctx.db, ctx.actor, input.bidId)),
  withdraw: driverProcedure.input(ZBidId).mutation(({ ctx, input }) => withdrawBid(ctx.db, ctx.actor, input.bidId)),
} satisfies TRPCRouterRecord;
