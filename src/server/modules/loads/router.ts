import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZLoadAlertsInput } from "../../../shared/schemas/alerts";
import { ZBoardPage, ZLoad, ZLoadAlertSettings } from "../../../shared/schemas/answers/common";
import {
  ZLoadPointsAnswer,
  ZLoadsByIdAnswer,
  ZLoadsMineAnswer,
  ZLoadsPreviewAnswer,
  ZLoadsStatsAnswer,
} from "../../../shared/schemas/answers/loads";
import { LOAD_STATUSES, loadPatchSchema, ZCreateLoadInput, ZLoadSearchInput } from "../../../shared/schemas/loads";
import { zText } from "../../../shared/schemas/text";
import {
  authedProcedure,
  driverProcedure,
  publicProcedure,
  shipperProcedure,
  withoutOutputParse,
} from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { awardedTruckOf } from "../bids/bids";
import { premium } from "../billing/middleware";
import { restBoardPage } from "../boards/page-cache";
import { boardStatsWithLive, searchBoard, type TBoardPage } from "../boards/search";
import { actsAsShipper, dispatchesLoad, isTripParty } from "../companies/work";
import { SHIPPER_LOAD_SCOPES, shipperLoads, shipperLoadsPage } from "../dashboards/dashboards";
import { ratingsOf, trackOf } from "../trips/trip";
import { invitedLoadIds } from "../trucks/invitations";
import { shipperTrust } from "../trust/trust";
import { getLoadAlerts, saveLoadAlerts } from "./alerts";
import { updateLoad } from "./edit";
import { createLoad, getVisibleLoad, publicPreview } from "./loads";
import { loadPoints } from "./search";
import { toPublicLoad } from "./serialize";

const ZLoadId = z.object({ loadId: z.number({ error: "loadId must be a number" }).int().positive() });

/** Posting loads, the board and its figures, one load, a shipper's own loads. The trip's steps are trips/router.ts. */
export const loadsRouter = {
  create: shipperProcedure
    .meta(rest("POST", "/api/loads", { summary: "Post a load", tags: ["Loads"], scope: "loads:write", status: 201 }))
    .use(premium)
    .input(ZCreateLoadInput)
    .output(ZLoad)
    .mutation(async ({ ctx, input }) => toPublicLoad(await createLoad(ctx.db, ctx.actor, input))),

  /** Edits a posted load: posting's fields, each optional; its shipper side only, while it is posted (loads/edit.ts). */
  update: shipperProcedure
    .meta(
      rest("PATCH", "/api/loads/:id", {
        summary: "Edit a posted load",
        tags: ["Loads"],
        scope: "loads:write",
        params: { id: "loadId" },
      }),
    )
    .input(loadPatchSchema(ZLoadId.shape))
    .output(ZLoad)
    .mutation(async ({ ctx, input }) => {
      const { loadId, ...patch } = input;
      return toPublicLoad(await updateLoad(ctx.db, ctx.actor, loadId, patch));
    }),

  /** The board: MyTess loads, the caller's synced board loads, and live results of the caller's other boards. */
  // The hottest read: its answer is built field by field in ZBoardPage's shape, so tRPC does not parse it again on each
  // call (withoutOutputParse); board-answer-shape.test.ts parses real pages against the schema and finds them unchanged.
  search: withoutOutputParse(
    authedProcedure
      .meta(
        rest("GET", "/api/loads", {
          summary: "Search the load board",
          tags: ["Loads"],
          scope: "loads:read",
          answer: { kind: "field", name: "items" },
        }),
      )
      .input(ZLoadSearchInput)
      .output(ZBoardPage)
      // A REST caller gets the page as JSON text, kept while nothing on it can have changed (boards/page-cache.ts); the
      // REST answer is its items, which the REST writer sends as they are. Other doors get the page as objects.
      .query(({ ctx, input }) =>
        ctx.channel === "rest"
          ? (restBoardPage(ctx.db, ctx.services.boards, input, ctx.actor) as unknown as Promise<TBoardPage>)
          : searchBoard(ctx.db, ctx.services.boards, input, ctx.actor),
      ),
  ),

  /** Every load the board's filters match as points for the map (the page's filters, page and size ignored). */
  points: authedProcedure
    .meta(
      rest("GET", "/api/loads/points", {
        summary: "The board's matching loads as map points",
        tags: ["Loads"],
        scope: "loads:read",
      }),
    )
    .input(ZLoadSearchInput)
    .output(ZLoadPointsAnswer)
    .query(({ ctx, input }) => loadPoints(ctx.db, input, ctx.actor.id)),

  /** The board's figures, live boards' loads included (their answers are shared with the list for a minute). */
  stats: authedProcedure
    .meta(rest("GET", "/api/loads/stats", { summary: "The board's figures", tags: ["Loads"], scope: "loads:read" }))
    .input(ZLoadSearchInput)
    .output(ZLoadsStatsAnswer)
    .query(({ ctx, input }) => boardStatsWithLive(ctx.db, ctx.services.boards, input, ctx.actor)),

  /** One load in full, for a signed-in viewer who may see it; the two parties also get its track and ratings. */
  byId: authedProcedure
    .meta(
      rest("GET", "/api/loads/:id", {
        summary: "One load",
        tags: ["Loads"],
        scope: "loads:read",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZLoadsByIdAnswer)
    .query(async ({ ctx, input }) => {
      const load = await getVisibleLoad(ctx.db, input.loadId, ctx.actor);
      const from =
        ctx.actor.latitude != null && ctx.actor.longitude != null
          ? { latitude: ctx.actor.latitude, longitude: ctx.actor.longitude }
          : null;
      const isParty = await isTripParty(ctx.db, load, ctx.actor);
      const shipper = load.sourceType === "mytess" ? (await shipperTrust(ctx.db, [load]))(load) : null;
      return {
        ...toPublicLoad(load, from),
        isMine: load.sourceType === "mytess" && (await actsAsShipper(ctx.db, load, ctx.actor)),
        isAssignedToMe: load.assignedDriverId === ctx.actor.id,
        dispatchedByMe: await dispatchesLoad(ctx.db, load, ctx.actor),
        track: isParty ? await trackOf(ctx.db, load.id) : null,
        cancelReason: isParty ? load.cancelReason : null,
        ratedBy: isParty ? (await ratingsOf(ctx.db, load.id)).map((r) => r.raterId) : [],
        shipper,
        truck: isParty ? await awardedTruckOf(ctx.db, load) : null,
        invited: load.sourceType === "mytess" && (await invitedLoadIds(ctx.db, ctx.actor.id, [load.id])).has(load.id),
      };
    }),

  /** A shared load as a signed-out visitor sees it. */
  preview: publicProcedure
    .meta(
      rest("GET", "/api/loads/:id/preview", {
        summary: "A shared load as a visitor sees it",
        tags: ["Loads"],
        scope: "public",
        params: { id: "loadId" },
      }),
    )
    .input(ZLoadId)
    .output(ZLoadsPreviewAnswer)
    .query(({ ctx, input }) => publicPreview(ctx.db, input.loadId)),

  mine: shipperProcedure
    .meta(rest("GET", "/api/loads/shipper", { summary: "The shipper's loads", tags: ["Loads"], scope: "loads:read" }))
    .output(ZLoadsMineAnswer)
    .query(({ ctx }) => shipperLoads(ctx.db, ctx.actor)),

  /** My Loads with paging, a status filter, a search in titles and places, and mine / the company's / both. */
  minePage: shipperProcedure
    .input(
      z.object({
        status: z.enum(LOAD_STATUSES, { error: `status must be one of ${LOAD_STATUSES.join(", ")}` }).optional(),
        q: zText().trim().max(80, "q must be at most 80 characters").optional(),
        scope: z
          .enum(SHIPPER_LOAD_SCOPES, { error: `scope must be one of ${SHIPPER_LOAD_SCOPES.join(", ")}` })
          .optional(),
        page: z.number().int().min(1, "page must be 1 or more").default(1),
        pageSize: z
          .number()
          .int()
          .min(1, "pageSize must be 1 or more")
          .max(100, "pageSize must be at most 100")
          .default(20),
      }),
    )
    .query(({ ctx, input }) => shipperLoadsPage(ctx.db, ctx.actor, input)),
} satisfies TRPCRouterRecord;

export const loadAlertsRouter = {
  /** The caller's alerts for new loads near them, and the position they use. */
  get: driverProcedure
    .meta(
      rest("GET", "/api/messaging/load-alerts", {
        summary: "The driver's load alerts",
        tags: ["Load alerts"],
        scope: "notifications:read",
      }),
    )
    .output(ZLoadAlertSettings)
    .query(({ ctx }) => getLoadAlerts(ctx.db, ctx.actor)),
  save: driverProcedure
    .meta(
      rest("PUT", "/api/messaging/load-alerts", {
        summary: "Save the driver's load alerts",
        tags: ["Load alerts"],
        scope: "notifications:write",
      }),
    )
    .input(ZLoadAlertsInput)
    .output(ZLoadAlertSettings)
    .mutation(({ ctx, input }) => saveLoadAlerts(ctx.db, ctx.actor, input)),
} satisfies TRPCRouterRecord;
