import type { TRPCRouterRecord } from "@trpc/server";
import { ZDashboardHomeAnswer } from "../../../shared/schemas/answers/dashboards";
import { authedProcedure, shipperProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { homeSummary, shipperStats } from "./dashboards";

export const dashboardRouter = {
  home: authedProcedure
    .meta(rest("GET", "/api/dashboard", { summary: "The home summary", tags: ["Dashboard"], scope: "loads:read" }))
    .output(ZDashboardHomeAnswer)
    .query(({ ctx }) => homeSummary(ctx.db, ctx.actor)),
  shipperStats: shipperProcedure.query(({ ctx }) => shipperStats(ctx.db, ctx.actor)),
} satisfies TRPCRouterRecord;
