import type { TRPCRouterRecord } from "@trpc/server";
import { homeSummary, shipperStats } from "../../domain/loads/dashboards";
import { authedProcedure, shipperProcedure } from "../../trpc/init";

export const dashboardRouter = {
  home: authedProcedure.query(({ ctx }) => homeSummary(ctx.db, ctx.actor)),
  shipperStats: shipperProcedure.query(({ ctx }) => shipperStats(ctx.db, ctx.actor)),
} satisfies TRPCRouterRecord;
