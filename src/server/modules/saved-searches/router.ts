import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZRenameSavedSearchInput, ZSavedSearch, ZSavedSearchInput } from "../../../shared/schemas/saved-searches";
import { authedProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import {
  createSavedSearch,
  deleteSavedSearch,
  listSavedSearches,
  openSavedSearch,
  renameSavedSearch,
} from "./saved-searches";

const ZId = z.object({ id: z.number({ error: "id must be a number" }).int().positive() });
const params = { id: "id" } as const;

/** The board's saved searches (alerts of new matches, "N new"); each is its owner's, others get 404. */
export const savedSearchesRouter = {
  list: authedProcedure
    .meta(
      rest("GET", "/api/saved-searches", {
        summary: "Saved searches, with the loads new since each was opened",
        tags: ["Saved searches"],
        scope: "notifications:read",
      }),
    )
    .output(z.array(ZSavedSearch))
    .query(({ ctx }) => listSavedSearches(ctx.db, ctx.actor)),

  create: authedProcedure
    .meta(
      rest("POST", "/api/saved-searches", {
        summary: "Save a search (GET /api/loads's parameters) and be told of new loads matching it",
        tags: ["Saved searches"],
        scope: "notifications:write",
        status: 201,
      }),
    )
    .input(ZSavedSearchInput)
    .output(ZSavedSearch)
    .mutation(({ ctx, input }) => createSavedSearch(ctx.db, ctx.actor, input)),

  rename: authedProcedure
    .meta(
      rest("PUT", "/api/saved-searches/:id", {
        summary: "Rename a saved search",
        tags: ["Saved searches"],
        scope: "notifications:write",
        params,
      }),
    )
    .input(ZId.extend(ZRenameSavedSearchInput.shape))
    .output(ZSavedSearch)
    .mutation(({ ctx, input }) => renameSavedSearch(ctx.db, ctx.actor, input.id, input.name)),

  /** Opened on the board: its matches so far are no longer new. */
  open: authedProcedure
    .meta(
      rest("POST", "/api/saved-searches/:id/open", {
        summary: "Mark a saved search opened (its new loads are seen)",
        tags: ["Saved searches"],
        scope: "notifications:write",
        params,
      }),
    )
    .input(ZId)
    .output(ZSavedSearch)
    .mutation(({ ctx, input }) => openSavedSearch(ctx.db, ctx.actor, input.id)),

  delete: authedProcedure
    .meta(
      rest("DELETE", "/api/saved-searches/:id", {
        summary: "Delete a saved search",
        tags: ["Saved searches"],
        scope: "notifications:write",
        params,
      }),
    )
    .input(ZId)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteSavedSearch(ctx.db, ctx.actor, input.id)),
} satisfies TRPCRouterRecord;
