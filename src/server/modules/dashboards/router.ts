import type { TRPCRouterRecord } from "@trpc/server";
import { authedProcedure, shipperProcedure } from "../../trpc/init";
import { homeSummary, shipperStats } from "./dashboards";

export const dashboardRouter = {
  home: authedProcedure.query(({ ctx }) => homeSummary(ctx.db, ctx.actor)),
  shipperStats: shipperProcedure.query(({ ctx }) => shipperStats(ctx.db, ctx.actor)),
} satisfies TRPCRouterRecord;
