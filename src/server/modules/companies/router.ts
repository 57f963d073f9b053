import type { TRPCRouterRecord } from "@trpc/server";
import { z } from "zod";
import { ZLoad } from "../../../shared/schemas/answers/common";
import {
  ZAssignDriverInput,
  ZChangeRoleInput,
  ZCompanyInvitation,
  ZCompanyInvitationRef,
  ZCompanyMemberRef,
  ZCreateCompanyInput,
  ZInvitationPreview,
  ZInvitationToken,
  ZInviteRequest,
  ZMyCompany,
} from "../../../shared/schemas/companies";
import { authedProcedure, publicProcedure } from "../../trpc/init";
import { rest } from "../../trpc/rest-meta";
import { toPublicLoad } from "../loads/serialize";
import { changeMemberRole, createCompany, myCompany, removeMember } from "./companies";
import { acceptInvitation, inviteToCompany, previewInvitation, withdrawInvitation } from "./invitations";
import { assignDriver } from "./work";

const tags = ["Companies"];
const member = { id: "id", userId: "userId" } as const;

/** Companies: members and roles, invitations. Roles are checked in the domain; another company's ids answer 404. */
export const companiesRouter = {
  create: authedProcedure
    .meta(
      rest("POST", "/api/companies", {
        summary: "Make a company (a carrier from a driver account, a shipper from a shipper account); you own it",
        tags,
        scope: "account:write",
        status: 201,
      }),
    )
    .input(ZCreateCompanyInput)
    .output(ZMyCompany)
    .mutation(({ ctx, input }) => createCompany(ctx.db, ctx.actor, input)),

  mine: authedProcedure
    .meta(
      rest("GET", "/api/companies/mine", {
        summary: "Your company, its members and (for owners) its pending invitations: { membership }, null for none",
        tags,
        scope: "account:read",
        answer: { kind: "wrap", name: "membership", nullIsUnauthorized: false },
      }),
    )
    .output(ZMyCompany.nullable())
    .query(({ ctx }) => myCompany(ctx.db, ctx.actor)),

  invite: authedProcedure
    .meta(
      rest("POST", "/api/companies/:id/invitations", {
        summary: "Invite someone by email or phone to a role (owners only); the link is sent by mail or SMS",
        tags,
        scope: "account:write",
        status: 201,
        params: { id: "id" },
      }),
    )
    .input(ZInviteRequest)
    .output(ZCompanyInvitation)
    .mutation(({ ctx, input }) =>
      inviteToCompany(ctx.db, ctx.services.secrets, ctx.actor, input.id, input, ctx.locale),
    ),

  withdrawInvitation: authedProcedure
    .meta(
      rest("DELETE", "/api/companies/:id/invitations/:invitationId", {
        summary: "Withdraw a pending invitation (owners only); its link stops working",
        tags,
        scope: "account:write",
        params: { id: "id", invitationId: "invitationId" },
      }),
    )
    .input(ZCompanyInvitationRef)
    .output(z.object({ withdrawn: z.literal(true) }))
    .mutation(({ ctx, input }) => withdrawInvitation(ctx.db, ctx.actor, input.id, input.invitationId)),

  preview: publicProcedure
    .meta(
      rest("GET", "/api/invitations/:token", {
        summary: "Who invites to which role, for the invitation link's page (signed in or not)",
        tags,
        scope: "public",
        params: { token: { input: "token", type: "text" } },
      }),
    )
    .input(ZInvitationToken)
    .output(ZInvitationPreview)
    .query(({ ctx, input }) => previewInvitation(ctx.db, input.token)),

  accept: authedProcedure
    .meta(
      rest("POST", "/api/invitations/:token/accept", {
        summary: "Accept an invitation with the account it was sent to",
        tags,
        scope: "account:write",
        params: { token: { input: "token", type: "text" } },
      }),
    )
    .input(ZInvitationToken)
    .output(ZMyCompany)
    .mutation(({ ctx, input }) => acceptInvitation(ctx.db, ctx.actor, input.token)),

  setRole: authedProcedure
    .meta(
      rest("PUT", "/api/companies/:id/members/:userId", {
        summary: "Change a member's role (owners only)",
        tags,
        scope: "account:write",
        params: member,
      }),
    )
    .input(ZCompanyMemberRef.extend(ZChangeRoleInput.shape))
    .output(ZMyCompany)
    .mutation(({ ctx, input }) => changeMemberRole(ctx.db, ctx.actor, input.id, input.userId, input.role)),

  removeMember: authedProcedure
    .meta(
      rest("DELETE", "/api/companies/:id/members/:userId", {
        summary: "Remove a member (owners), or leave the company (yourself); the last owner cannot leave",
        tags,
        scope: "account:write",
        params: member,
      }),
    )
    .input(ZCompanyMemberRef)
    .output(z.object({ removed: z.literal(true) }))
    .mutation(({ ctx, input }) => removeMember(ctx.db, ctx.actor, input.id, input.userId)),

  assignDriver: authedProcedure
    .meta(
      rest("POST", "/api/loads/:id/assign-driver", {
        summary: "Give a load awarded to your carrier company to one of its drivers (owners and dispatchers)",
        tags,
        scope: "loads:write",
        params: { id: "loadId" },
      }),
    )
    .input(ZAssignDriverInput)
    .output(ZLoad)
    .mutation(async ({ ctx, input }) =>
      toPublicLoad(await assignDriver(ctx.db, ctx.actor, input.loadId, input.driverId)),
    ),
} satisfies TRPCRouterRecord;
