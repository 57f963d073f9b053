import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZPlatformStatsAnswer } from "../../../shared/schemas/answers/platform";
import { ZFxRate } from "../../../shared/schemas/fx";
import { zText } from "../../../shared/schemas/text";
import { publicProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { receivedBidsDemo } from "./bids-demo";
import { latestPostedLoads, listFxRates, platformStats } from "./stats";

export const platformRouter = {
  stats: publicProcedure
    .meta(
      rest("GET", "/api/platform-stats", { summary: "The marketplace's figures", tags: ["Platform"], scope: "public" }),
    )
    .output(ZPlatformStatsAnswer)
    .query(({ ctx }) => platformStats(ctx.db)),

  /** The landing's loads; `region` (the visitor's country code) puts loads picked up there first. */
  sampleLoads: publicProcedure
    .input(
      z
        .object({
          limit: z.number().int().min(1).max(20).default(6),
          region: zText()
            .regex(/^[A-Za-z]{2}$/)
            .optional(),
        })
        .default({ limit: 6 }),
    )
    .query(({ ctx, input }) => latestPostedLoads(ctx.db, input.limit, input.region)),

  /** The landing page's received-bids demo: real pending bids on a posted load, drivers as initials only. */
  bidsDemo: publicProcedure.query(({ ctx }) => receivedBidsDemo(ctx.db)),

  fxRates: publicProcedure
    .meta(rest("GET", "/api/fx-rates", { summary: "Exchange rates", tags: ["Platform"], scope: "public" }))
    .output(z.array(ZFxRate))
    .query(async ({ ctx }) =>
      (await listFxRates(ctx.db)).map((r) => ({
        code: r.currency,
        name: r.name,
        symbol: r.symbol,
        exchangeRate: r.ratePerUsd,
        locale: r.locale,
        rateDate: r.rateDate,
        source: r.source,
      })),
    ),
} satisfies TRPCRouterRecord;
