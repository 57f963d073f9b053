import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZFxOverrideInput, ZFxRateInUse } from "../../../shared/schemas/fx";
import { systemProcedure } from "../../trpc/init";
import { ratesInUse, setOverride, syncRates } from "./rates";

/** The operator's exchange rates (`mytess fx`): reachable from the CLI only. */
export const fxRouter = {
  list: systemProcedure.output(z.array(ZFxRateInUse)).query(({ ctx }) => ratesInUse(ctx.db)),

  /** An override of one currency's rate (units per US dollar), from today through `until` or until replaced. */
  set: systemProcedure
    .input(ZFxOverrideInput)
    .output(ZFxRateInUse)
    .mutation(({ ctx, input }) => setOverride(ctx.db, input)),

  /** Fetches the days the history lacks now, as the hourly job does; answers the days that brought rates. */
  sync: systemProcedure
    .output(z.object({ days: z.array(z.string()), source: z.string() }))
    .mutation(async ({ ctx }) => ({ days: await syncRates(ctx.db, ctx.services.fx), source: ctx.services.fx.name })),
} satisfies TRPCRouterRecord;
