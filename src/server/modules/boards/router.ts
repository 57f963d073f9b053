import type { TRPCRouterRecord } from "@trpc/server";
import { desc, eq } from "drizzle-orm";
import { z } from "zod";
import { marketplaceConfigs, users } from "../../../../db/tables";
import {
  ZBoardsConnectAnswer,
  ZBoardsHistoryAnswer,
  ZBoardsLanesAnswer,
  ZBoardsListAnswer,
  ZBoardsSearchAnswer,
  ZBoardsSyncManualAnswer,
  ZBoardsSyncStatusAnswer,
  ZBoardsTestAnswer,
} from "../../../shared/schemas/answers/boards";
import { ZBoardConfig, ZLane, ZSuccessAnswer } from "../../../shared/schemas/answers/common";
import {
  ZCreateMarketplaceInput,
  ZMarketplaceSearchInput,
  ZUpdateMarketplaceInput,
} from "../../../shared/schemas/boards";
import { ZSavedLaneInput, ZUpdateSavedLaneInput } from "../../../shared/schemas/lanes";
import { authedProcedure, systemProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
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
  list: authedProcedure
    .meta(
      rest("GET", "/api/marketplaces", { summary: "Connected load boards", tags: ["Boards"], scope: "boards:read" }),
    )
    .output(ZBoardsListAnswer)
    .query(async ({ ctx }) => (await listMarketplaces(ctx.db, ctx.actor.id)).map(toPublicMarketplace)),

  create: authedProcedure
    .meta(
      rest("POST", "/api/marketplaces", {
        summary: "Connect a load board",
        tags: ["Boards"],
        scope: "boards:write",
        status: 201,
      }),
    )
    .use(premium)
    .input(ZCreateMarketplaceInput)
    .output(ZBoardConfig)
    .mutation(async ({ ctx, input }) =>
      toPublicMarketplace(await createMarketplace(ctx.db, ctx.services.boards, ctx.actor, input)),
    ),

  update: authedProcedure
    .meta(
      rest("PUT", "/api/marketplaces/:id", {
        summary: "Change a board connection",
        tags: ["Boards"],
        scope: "boards:write",
      }),
    )
    .input(ZId.extend(ZUpdateMarketplaceInput.shape))
    .output(ZBoardConfig)
    .mutation(async ({ ctx, input: { id, ...changes } }) =>
      toPublicMarketplace(await updateMarketplace(ctx.db, ctx.services.boards, ctx.actor, id, changes)),
    ),

  delete: authedProcedure
    .meta(
      rest("DELETE", "/api/marketplaces/:id", {
        summary: "Remove a board connection",
        tags: ["Boards"],
        scope: "boards:write",
      }),
    )
    .input(ZId)
    .output(ZSuccessAnswer)
    .mutation(({ ctx, input }) => deleteMarketplace(ctx.db, ctx.actor, input.id)),

  test: authedProcedure
    .meta(
      rest("POST", "/api/marketplaces/:id/test", {
        summary: "Test a board connection",
        tags: ["Boards"],
        scope: "boards:write",
      }),
    )
    .input(ZId)
    .output(ZBoardsTestAnswer)
    .mutation(async ({ ctx, input }) => {
      const r = await testMarketplace(ctx.db, ctx.services.boards, ctx.actor, input.id);
      return { ...r, message: "Successfully connected to the marketplace API." };
    }),

  /**
   * Connect 123Loadboard: the address of 123Loadboard's authorization page for this configuration (the browser goes
   * there; 123Loadboard sends it back to /api/marketplaces/123loadboard/callback).
   */
  connect: authedProcedure
    .meta(
      rest("POST", "/api/marketplaces/:id/connect", {
        summary: "Start a board's authorization",
        tags: ["Boards"],
        scope: "boards:write",
      }),
    )
    .input(ZId)
    .output(ZBoardsConnectAnswer)
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
    .meta(
      rest("POST", "/api/marketplaces/:id/search", {
        summary: "Search one board live",
        tags: ["Boards"],
        scope: "boards:read",
        answer: { kind: "field", name: "results" },
      }),
    )
    .input(ZId.and(ZMarketplaceSearchInput))
    .output(ZBoardsSearchAnswer)
    .mutation(({ ctx, input: { id, ...q } }) =>
      searchMarketplace(ctx.db, ctx.services.boards, ctx.actor, id, q as z.infer<typeof ZMarketplaceSearchInput>),
    ),

  /** Saved lanes: what sync searches besides the last location. Each is its owner's: others get 404. */
  lanes: authedProcedure
    .meta(rest("GET", "/api/marketplaces/lanes", { summary: "Saved lanes", tags: ["Boards"], scope: "boards:read" }))
    .output(ZBoardsLanesAnswer)
    .query(async ({ ctx }) => (await listLanes(ctx.db, ctx.actor.id)).map(toPublicLane)),

  // Adding a lane is premium, as connecting the boards it is searched on is; reading, changing and removing what one
  // set up stays open after premium ends, as it does for boards.
  createLane: authedProcedure
    .meta(
      rest("POST", "/api/marketplaces/lanes", {
        summary: "Save a lane",
        tags: ["Boards"],
        scope: "boards:write",
        status: 201,
      }),
    )
    .use(premium)
    .input(ZSavedLaneInput)
    .output(ZLane)
    .mutation(async ({ ctx, input }) => toPublicLane(await createLane(ctx.db, ctx.actor, input))),

  updateLane: authedProcedure
    .meta(
      rest("PUT", "/api/marketplaces/lanes/:id", {
        summary: "Change a saved lane",
        tags: ["Boards"],
        scope: "boards:write",
      }),
    )
    .input(ZId.extend(ZUpdateSavedLaneInput.shape))
    .output(ZLane)
    .mutation(async ({ ctx, input: { id, ...changes } }) =>
      toPublicLane(await updateLane(ctx.db, ctx.actor, id, changes)),
    ),

  deleteLane: authedProcedure
    .meta(
      rest("DELETE", "/api/marketplaces/lanes/:id", {
        summary: "Delete a saved lane",
        tags: ["Boards"],
        scope: "boards:write",
      }),
    )
    .input(ZId)
    .output(ZSuccessAnswer)
    .mutation(({ ctx, input }) => deleteLane(ctx.db, ctx.actor, input.id)),

  /** Demo mode: the emulators' addresses (credentials "sandbox"), so a new user can connect a Sandbox board; else null. */
  sandbox: authedProcedure.query(({ ctx }) => ctx.services.boards.sandboxUrls),

  syncStatus: authedProcedure
    .meta(
      rest("GET", "/api/sync/status", { summary: "The boards' sync state", tags: ["Boards"], scope: "boards:read" }),
    )
    .output(ZBoardsSyncStatusAnswer)
    .query(({ ctx }) => syncStatus(ctx.db, ctx.actor)),

  syncManual: authedProcedure
    .meta(rest("POST", "/api/sync/manual", { summary: "Sync the boards now", tags: ["Boards"], scope: "boards:write" }))
    .input(z.object({ marketplaceId: z.number().int().positive().optional() }).default({}))
    .output(ZBoardsSyncManualAnswer)
    .mutation(({ ctx, input }) => startManualSync(ctx.db, ctx.actor, input.marketplaceId)),

  history: authedProcedure
    .meta(
      rest("GET", "/api/marketplaces/sync-runs", {
        summary: "Board sync runs",
        tags: ["Boards"],
        scope: "boards:read",
      }),
    )
    .input(z.object({ marketplaceId: z.number().int().positive().optional() }).default({}))
    .output(ZBoardsHistoryAnswer)
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
