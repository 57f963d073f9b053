import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import {
  ZCreateTruckInput,
  ZTruck,
  ZTruckInvitation,
  ZTruckInvitationInput,
  ZTruckSearchInput,
  ZTruckSearchPage,
} from "../../../shared/schemas/trucks";
import { authedProcedure, driverProcedure, shipperProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { inviteToBid, myInvitations } from "./invitations";
import { createTruck, deleteTruck, listMyTrucks, searchTrucks } from "./trucks";

const ZId = z.object({ id: z.number({ error: "id must be a number" }).int().positive() });
const TAGS = ["Trucks"];

/** Trucks drivers post (theirs alone: another's id is 404), the shippers' search near a pickup, and invitations to bid. */
export const trucksRouter = {
  mine: driverProcedure
    .meta(rest("GET", "/api/trucks", { summary: "Your posted trucks, newest first", tags: TAGS, scope: "trucks:read" }))
    .output(z.array(ZTruck))
    .query(({ ctx }) => listMyTrucks(ctx.db, ctx.actor)),

  create: driverProcedure
    .meta(
      rest("POST", "/api/trucks", {
        summary: "Post a truck's availability",
        tags: TAGS,
        scope: "trucks:write",
        status: 201,
      }),
    )
    .input(ZCreateTruckInput)
    .output(ZTruck)
    .mutation(({ ctx, input }) => createTruck(ctx.db, ctx.actor, input)),

  delete: driverProcedure
    .meta(
      rest("DELETE", "/api/trucks/:id", {
        summary: "Delete one of your trucks",
        tags: TAGS,
        scope: "trucks:write",
        params: { id: "id" },
      }),
    )
    .input(ZId)
    .output(z.object({ deleted: z.literal(true) }))
    .mutation(({ ctx, input }) => deleteTruck(ctx.db, ctx.actor, input.id)),

  search: shipperProcedure
    .meta(
      rest("GET", "/api/trucks/search", {
        summary: "Trucks available near a pickup, nearest first",
        tags: TAGS,
        scope: "trucks:read",
      }),
    )
    .input(ZTruckSearchInput)
    .output(ZTruckSearchPage)
    .query(({ ctx, input }) => searchTrucks(ctx.db, ctx.actor, input)),

  invite: shipperProcedure
    .meta(
      rest("POST", "/api/trucks/:id/invitations", {
        summary: "Invite a truck's driver to bid on one of your open loads",
        tags: TAGS,
        scope: "trucks:write",
        status: 201,
        params: { id: "id" },
      }),
    )
    .input(ZId.extend(ZTruckInvitationInput.shape))
    .output(ZTruckInvitation)
    .mutation(({ ctx, input }) => inviteToBid(ctx.db, ctx.actor, input.id, input.loadId)),

  invitations: authedProcedure
    .meta(
      rest("GET", "/api/trucks/invitations", {
        summary: "Invitations to bid you received (driver) or sent (shipper), optionally about one load",
        tags: TAGS,
        scope: "trucks:read",
      }),
    )
    .input(
      z.object({
        loadId: z.preprocess(
          (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v === "" || v === null ? undefined : v),
          z
            .number({ error: "loadId must be a number" })
            .int("loadId must be a whole number")
            .positive("loadId must be a positive number")
            .optional(),
        ),
      }),
    )
    .output(z.array(ZTruckInvitation))
    .query(({ ctx, input }) => myInvitations(ctx.db, ctx.actor, input.loadId)),
} satisfies TRPCRouterRecord;
