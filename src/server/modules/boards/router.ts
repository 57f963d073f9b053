import type { TRPCRouterRecord } from "@trpc/server";
import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import { marketplaceConfigs, users } from "../../../../db/tables";
import {
  ZCreateMarketplaceInput,
  ZMarketplaceSearchInput,
  ZUpdateMarketplaceInput,
} from "../../../shared/schemas/boards";
import { ZSavedLaneInput, ZUpdateSavedLaneInput } from "../../../shared/schemas/lanes";
import { authedProcedure, systemProcedure } from "../../trpc/init";
import { premium } from "../billing/middleware";
import {
  canSync,
  createMarketplace,
  deleteMarketplace,
  listMarketplaces,
  testMarketplace,
  toPublicMarketplace,
  updateMarketplace,
} from "./configs";
import { startConnect } from "./connect";
import { createLane, deleteLane, listLanes, toPublicLane, updateLane } from "./lanes";
import { searchMarketplace } from "./search";
import { runSync, startManualSync, syncHistory, syncStatus } from "./sync";

const ZId = z.object({
  id: z.number({ error: "id must be a number" }).int().positive("id must be a positive integer"),
});

/** The marketplace calls. Every configuration is its owner's: others get 404. */
export const boardsRouter = {
  list: authedProcedure.query(async ({ ctx }) =>
    (await listMarketplaces(ctx.db, ctx.actor.id)).map(toPublicMarketplace),
  ),

  create: authedProcedure
    .use(premium)
    .input(ZCreateMarketplaceInput)
    .mutation(async ({ ctx, input }) =>
      toPublicMarketplace(await createMarketplace(ctx.db, ctx.services.boards, ctx.actor, input)),
    ),

  update: authedProcedure
    .input(ZId.extend(ZUpdateMarketplaceInput.shape))
    .mutation(async ({ ctx, input: { id, ...changes } }) =>
      toPublicMarketplace(await updateMarketplace(ctx.db, ctx.services.boards, ctx.actor, id, changes)),
    ),

  delete: authedProcedure.input(ZId).mutation(({ ctx, input }) => deleteMarketplace(ctx.db, ctx.actor, input.id)),

  test: authedProcedure.input(ZId).mutation(async ({ ctx, input }) => {
    const r = await testMarketplace(ctx.db, ctx.services.boards, ctx.actor, input.id);
    return { ...r, message: "Successfully connected to the marketplace API." };
  }),

  /**
   * Connect 123Loadboard: the address of 123Loadboard's authorization page for this configuration (the browser goes
   * there; 123Loadboard sends it back to /api/marketplaces/123loadboard/callback).
   */
  connect: authedProcedure
    .input(ZId)
    .mutation(({ ctx, input }) =>
      startConnect(
        ctx.db,
        ctx.services.boards,
        ctx.actor,
        input.id,
        ctx.http?.origin ?? ctx.services.publicOrigin ?? "http://localhost:3000",
      ),
    ),

  search: authedProcedure
    .input(ZId.and(ZMarketplaceSearchInput))
    .mutation(({ ctx, input: { id, ...q } }) =>
      searchMarketplace(ctx.db, ctx.services.boards, ctx.actor, id, q as z.infer<typeof ZMarketplaceSearchInput>),
    ),

  /** Saved lanes: what sync searches besides the last location. Each is its owner's: others get 404. */
  lanes: authedProcedure.query(async ({ ctx }) => (await listLanes(ctx.db, ctx.actor.id)).map(toPublicLane)),

  // Adding a lane is premium, as connecting the boards it is searched on is; reading, changing and removing what one
  // set up stays open after premium ends, as it does for boards.
  createLane: authedProcedure
    .use(premium)
    .input(ZSavedLaneInput)
    .mutation(async ({ ctx, input }) => toPublicLane(await createLane(ctx.db, ctx.actor, input))),

  updateLane: authedProcedure
    .input(ZId.extend(ZUpdateSavedLaneInput.shape))
    .mutation(async ({ ctx, input: { id, ...changes } }) =>
      toPublicLane(await updateLane(ctx.db, ctx.actor, id, changes)),
    ),

  deleteLane: authedProcedure.input(ZId).mutation(({ ctx, input }) => deleteLane(ctx.db, ctx.actor, input.id)),

  /** Demo mode: the emulators' addresses (credentials "sandbox"), so a new user can connect a Sandbox board; else null. */
  sandbox: authedProcedure.query(({ ctx }) => ctx.services.boards.sandboxUrls),

  syncStatus: authedProcedure.query(({ ctx }) => syncStatus(ctx.db, ctx.actor)),

  syncManual: authedProcedure
    .input(z.object({ marketplaceId: z.number().int().positive().optional() }).default({}))
    .mutation(({ ctx, input }) => startManualSync(ctx.db, ctx.actor, input.marketplaceId)),

  history: authedProcedure
    .input(z.object({ marketplaceId: z.number().int().positive().optional() }).default({}))
    .query(({ ctx, input }) => syncHistory(ctx.db, ctx.actor, input.marketplaceId)),

  /** Operator view (CLI): every configuration, with its owner; credentials as set / not set only. */
  all: systemProcedure.query(async ({ ctx }) =>
    (
      await ctx.db
        .select({ c: marketplaceConfigs, email: users.email })
        .from(marketplaceConfigs)
        .innerJoin(users, eq(users.id, marketplaceConfigs.userId))
        .orderBy(desc(marketplaceConfigs.id))
    ).map(({ c, email }) => ({ ...toPublicMarketplace(c), owner: email })),
  ),

  /** Operator: sync one configuration now (or every active synced one), in this process; the runs it recorded. */
  syncNow: systemProcedure
    .input(z.object({ marketplaceId: z.number().int().positive().optional() }).default({}))
    .mutation(async ({ ctx, input }) => {
      const targets = (
        await ctx.db
          .select()
          .from(marketplaceConfigs)
          .where(input.marketplaceId ? eq(marketplaceConfigs.id, input.marketplaceId) : undefined)
      ).filter((c) => c.isActive && canSync(c.provider) && (input.marketplaceId || c.syncEnabled));
      const runs = [];
      for (const c of targets) runs.push(await runSync(ctx.db, ctx.services.boards, c.id, "manual"));
      return runs.filter((r) => r !== null);
    }),
} satisfies TRPCRouterRecord;
