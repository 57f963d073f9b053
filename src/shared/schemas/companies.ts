import { z } from "zod";
import { ZEmail, ZPhone } from "./auth";
import { zText } from "./text";

// Companies: a carrier (fleet) or a shipper business whose members act for it, with one role each.

export const COMPANY_KINDS = ["carrier", "shipper"] as const;
export type TCompanyKind = (typeof COMPANY_KINDS)[number];
export const COMPANY_ROLES = ["owner", "dispatcher", "driver", "staff"] as const;
export type TCompanyRole = (typeof COMPANY_ROLES)[number];
/** The roles each kind of company has. */
export const ROLES_OF: Record<TCompanyKind, readonly TCompanyRole[]> = {
  carrier: ["owner", "dispatcher", "driver"],
  shipper: ["owner", "staff"],
};

const ZRole = z.enum(COMPANY_ROLES, { error: "role must be one of owner, dispatcher, driver, staff" });

export const ZCreateCompanyInput = z.object({
  kind: z.enum(COMPANY_KINDS, { error: 'kind must be "carrier" or "shipper"' }),
  name: zText({ error: "name is required" })
    .trim()
    .min(2, "name must be at least 2 characters")
    .max(100, "name must be at most 100 characters"),
  country: zText({ error: "country is required" })
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{2}$/, "country must be a two-letter country code such as ET or US"),
});
export type TCreateCompanyInput = z.infer<typeof ZCreateCompanyInput>;

const ZId = (field: string) =>
  z
    .number({ error: `${field} must be a number` })
    .int(`${field} must be a whole number`)
    .positive();
export const ZCompanyId = z.object({ id: ZId("id") });
export const ZCompanyMemberRef = z.object({ id: ZId("id"), userId: ZId("userId") });

const inviteFields = { email: ZEmail.optional(), phone: ZPhone.optional(), role: ZRole };
const oneContact = (v: { email?: string; phone?: string }, ctx: z.RefinementCtx) => {
  if (v.email === undefined && v.phone === undefined)
    ctx.addIssue({ code: "custom", path: ["email"], message: "email or phone is required" });
  if (v.email !== undefined && v.phone !== undefined)
    ctx.addIssue({ code: "custom", path: ["phone"], message: "give email or phone, not both" });
};
/** An invitation by email or by phone, one of the two. */
export const ZInviteInput = z.object(inviteFields).superRefine(oneContact);
/** The same, with the company's id (the route's input). */
export const ZInviteRequest = ZCompanyId.extend(inviteFields).superRefine(oneContact);
export type TInviteInput = z.infer<typeof ZInviteInput>;

/** POST /api/loads/:id/assign-driver {driverId}. */
export const ZAssignDriverInput = z.object({ loadId: ZId("loadId"), driverId: ZId("driverId") });

export const ZChangeRoleInput = z.object({ role: ZRole });

/** DELETE /api/companies/:id/invitations/:invitationId. */
export const ZCompanyInvitationRef = z.object({ id: ZId("id"), invitationId: ZId("invitationId") });

export const ZInvitationToken = z.object({
  token: zText({ error: "token is required" })
    .trim()
    .regex(/^[A-Za-z0-9_-]{20,100}$/, "token must be the code from the invitation link"),
});

export const ZCompany = z.object({
  id: z.number(),
  kind: z.enum(COMPANY_KINDS),
  name: z.string(),
  country: z.string(),
  createdAt: z.string(),
});
export type TCompany = z.infer<typeof ZCompany>;

export const ZCompanyMember = z.object({
  userId: z.number(),
  firstName: z.string(),
  lastName: z.string(),
  role: z.enum(COMPANY_ROLES),
  joinedAt: z.string(),
});
export type TCompanyMember = z.infer<typeof ZCompanyMember>;

export const ZCompanyInvitation = z.object({
  id: z.number(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  role: z.enum(COMPANY_ROLES),
  expiresAt: z.string(),
  createdAt: z.string(),
});
export type TCompanyInvitation = z.infer<typeof ZCompanyInvitation>;

/** The caller's company as its members see it; pending invitations for its owners only (empty for the rest). */
export const ZMyCompany = z.object({
  company: ZCompany,
  role: z.enum(COMPANY_ROLES),
  members: z.array(ZCompanyMember),
  invitations: z.array(ZCompanyInvitation),
});
export type TMyCompany = z.infer<typeof ZMyCompany>;

/**
 * What the holder of an invitation link may read before accepting: who invites, to which role, until when, and to
 * which contact it was sent (masked: enough to tell which account to use, not the whole address).
 */
export const ZInvitationPreview = z.object({
  company: z.object({ name: z.string(), kind: z.enum(COMPANY_KINDS), country: z.string() }),
  role: z.enum(COMPANY_ROLES),
  sentTo: z.enum(["email", "phone"]),
  contact: z.string(),
  expiresAt: z.string(),
});
export type TInvitationPreview = z.infer<typeof ZInvitationPreview>;
