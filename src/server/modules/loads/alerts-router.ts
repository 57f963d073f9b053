import type { TRPCRouterRecord } from "@trpc/server";
import { ZLoadAlertsInput } from "../../../shared/schemas/alerts";
import { driverProcedure } from "../../trpc/init";
import { getLoadAlerts, saveLoadAlerts } from "./alerts";

export const loadAlertsRouter = {
  /** The caller's alerts for new loads near them, and the position they use. */
  get: driverProcedure.query(({ ctx }) => getLoadAlerts(ctx.db, ctx.actor)),
  save: driverProcedure.input(ZLoadAlertsInput).mutation(({ ctx, input }) => saveLoadAlerts(ctx.db, ctx.actor, input)),
} satisfies TRPCRouterRecord;
