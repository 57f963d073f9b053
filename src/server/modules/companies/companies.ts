// Companies: a carrier (fleet) or a shipper business with members who act for it. A person belongs to at most one
// company (the members' unique user) and keeps using the app alone besides. Who may do what is decided here, so every
// door (REST, tRPC, bots, CLI) gets the same answer: a company the caller is not a member of is not found (404, ids
// cannot be probed); a member without the role a change needs is refused (403).
import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import {
  type Company,
  type CompanyInvitation,
  type CompanyMember,
  companies,
  companyInvitations,
  companyMembers,
  type User,
  users,
} from "../../../../db/tables";
import {
  ROLES_OF,
  type TCompany,
  type TCompanyInvitation,
  type TCompanyKind,
  type TCompanyRole,
  type TCreateCompanyInput,
  type TMyCompany,
} from "../../../shared/schemas/companies";
import { AppError } from "../../errors";

type TReader = Pick<TDb, "select">;

export const COMPANY_NOT_FOUND = /*i18n*/ { id: "error.company.notFound", message: "Company not found" };
export const MEMBER_NOT_FOUND = /*i18n*/ {
  id: "error.company.memberNotFound",
  message: "This person is not a member of the company",
};
const OWNER_ONLY = /*i18n*/ {
  id: "error.company.ownerOnly",
  message: "Only an owner of the company can do this",
};
export const ALREADY_MEMBER = /*i18n*/ {
  id: "error.company.alreadyMember",
  message: "You already belong to a company. Leave it first.",
};
const LAST_OWNER = /*i18n*/ {
  id: "error.company.lastOwner",
  message: "A company needs an owner: make another member an owner first.",
};
export const roleNotInKind = (kind: TCompanyKind) =>
  kind === "carrier"
    ? /*i18n*/ { id: "error.company.carrierRole", message: "A carrier's members are owners, dispatchers or drivers" }
    : /*i18n*/ { id: "error.company.shipperRole", message: "A shipper's members are owners or staff" };

/** The account type a company's members have: carriers' are driver accounts, shippers' shipper accounts. */
export const userTypeFor = (kind: TCompanyKind) => (kind === "carrier" ? "driver" : "shipper");

export const assertRoleFits = (kind: TCompanyKind, role: TCompanyRole) => {
  if (!ROLES_OF[kind].includes(role))
    throw new AppError("BAD_REQUEST", roleNotInKind(kind), {
      issues: [{ path: "role", message: roleNotInKind(kind) }],
    });
};

export const toPublicCompany = (c: Company): TCompany => ({
  id: c.id,
  kind: c.kind,
  name: c.name,
  country: c.country,
  createdAt: new Date(c.createdAt).toISOString(),
});

export const toPublicInvitation = (i: CompanyInvitation): TCompanyInvitation => ({
  id: i.id,
  email: i.email,
  phone: i.phone,
  role: i.role,
  expiresAt: new Date(i.expiresAt).toISOString(),
  createdAt: new Date(i.createdAt).toISOString(),
});

/** The user's company and role in it, or null. */
export const membershipOf = async (db: TReader, userId: number) =>
  first(
    await db
      .select({ company: companies, member: companyMembers })
      .from(companyMembers)
      .innerJoin(companies, eq(companies.id, companyMembers.companyId))
      .where(eq(companyMembers.userId, userId))
      .limit(1),
  ) ?? null;

/**
 * The company `companyId` as the user acts for it: the user must be one of its members (404 otherwise) and, when
 * roles are given, hold one of them (403 otherwise, the company being known to them).
 */
export const actingFor = async (
  db: TReader,
  user: Pick<User, "id">,
  companyId: number,
  roles?: readonly TCompanyRole[],
  refusal = OWNER_ONLY,
): Promise<{ company: Company; member: CompanyMember }> => {
  const m = await membershipOf(db, user.id);
  if (!m || m.company.id !== companyId) throw new AppError("NOT_FOUND", COMPANY_NOT_FOUND);
  if (roles && !roles.includes(m.member.role)) throw new AppError("FORBIDDEN", refusal);
  return m;
};

/** The company view for one of its members. */
export const companyView = async (db: TReader, company: Company, role: TCompanyRole, now = Date.now()) => {
  const members = await db
    .select({
      userId: companyMembers.userId,
      role: companyMembers.role,
      createdAt: companyMembers.createdAt,
      firstName: users.firstName,
      lastName: users.lastName,
    })
    .from(companyMembers)
    .innerJoin(users, eq(users.id, companyMembers.userId))
    .where(eq(companyMembers.companyId, company.id))
    .orderBy(asc(companyMembers.createdAt), asc(companyMembers.userId));
  const invitations =
    role === "owner"
      ? await db
          .select()
          .from(companyInvitations)
          .where(
            and(
              eq(companyInvitations.companyId, company.id),
              isNull(companyInvitations.usedAt),
              isNull(companyInvitations.revokedAt),
              gt(companyInvitations.expiresAt, now),
            ),
          )
          .orderBy(asc(companyInvitations.id))
      : [];
  return {
    company: toPublicCompany(company),
    role,
    members: members.map((m) => ({
      userId: m.userId,
      firstName: m.firstName,
      lastName: m.lastName,
      role: m.role,
      joinedAt: new Date(m.createdAt).toISOString(),
    })),
    invitations: invitations.map(toPublicInvitation),
  } satisfies TMyCompany;
};

/** GET /api/companies/mine: the caller's company, or null when they belong to none. */
export const myCompany = async (db: TDb, user: User, now = Date.now()) => {
  const m = await membershipOf(db, user.id);
  return m ? companyView(db, m.company, m.member.role, now) : null;
};

/**
 * POST /api/companies: a carrier for a driver account, a shipper for a shipper account; the maker is its first owner.
 * Counted under the user's membership lock, so two at once make one company.
 */
export const createCompany = async (db: TDb, user: User, input: TCreateCompanyInput, now = Date.now()) => {
  if (userTypeFor(input.kind) !== user.userType) {
    const wrongKind = /*i18n*/ {
      id: "error.company.kindForAccount",
      message: "A carrier company is made from a driver account, a shipper company from a shipper account",
    };
    throw new AppError("BAD_REQUEST", wrongKind, { issues: [{ path: "kind", message: wrongKind }] });
  }
  const company = await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`company-member:${user.id}`]);
    if (await membershipOf(tx, user.id)) throw new AppError("CONFLICT", ALREADY_MEMBER);
    const [made] = await tx
      .insert(companies)
      .values({ kind: input.kind, name: input.name, country: input.country, createdById: user.id })
      .returning();
    await tx.insert(companyMembers).values({ companyId: made!.id, userId: user.id, role: "owner", createdAt: now });
    return made!;
  });
  return companyView(db, company, "owner", now);
};

/** How many owners the company has (read under the company's lock by whoever may lower it). */
const ownerCount = async (db: TReader, companyId: number) =>
  (
    await db
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.role, "owner")))
  ).length;

const memberOf = async (db: TReader, companyId: number, userId: number) =>
  first(
    await db
      .select()
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)))
      .limit(1),
  );

/** PUT /api/companies/:id/members/:userId {role}: owners only; the last owner cannot step down. */
export const changeMemberRole = async (
  db: TDb,
  user: User,
  companyId: number,
  userId: number,
  role: TCompanyRole,
  now = Date.now(),
) => {
  const { company } = await actingFor(db, user, companyId, ["owner"]);
  assertRoleFits(company.kind, role);
  await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`company:${companyId}`]);
    // Read again under the lock: the caller may have been removed or stepped down meanwhile.
    await actingFor(tx, user, companyId, ["owner"]);
    const target = await memberOf(tx, companyId, userId);
    if (!target) throw new AppError("NOT_FOUND", MEMBER_NOT_FOUND);
    if (target.role === "owner" && role !== "owner" && (await ownerCount(tx, companyId)) <= 1)
      throw new AppError("CONFLICT", LAST_OWNER);
    await tx
      .update(companyMembers)
      .set({ role })
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  });
  const mine = await actingFor(db, user, companyId);
  return companyView(db, company, mine.member.role, now);
};

/**
 * DELETE /api/companies/:id/members/:userId: an owner removes a member, or a member leaves. The last owner cannot
 * leave (nor be removed): the company would have nobody to manage it.
 */
export const removeMember = async (db: TDb, user: User, companyId: number, userId: number) => {
  const self = userId === user.id;
  await actingFor(db, user, companyId, self ? undefined : ["owner"]);
  await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`company:${companyId}`]);
    await actingFor(tx, user, companyId, self ? undefined : ["owner"]);
    const target = await memberOf(tx, companyId, userId);
    if (!target) throw new AppError("NOT_FOUND", MEMBER_NOT_FOUND);
    if (target.role === "owner" && (await ownerCount(tx, companyId)) <= 1) throw new AppError("CONFLICT", LAST_OWNER);
    await tx
      .delete(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), eq(companyMembers.userId, userId)));
  });
  return { removed: true as const };
};

/** The members of a company holding one of the roles (ids), for those who act on its behalf. */
export const membersWithRoles = async (db: TReader, companyId: number, roles: readonly TCompanyRole[]) =>
  (
    await db
      .select({ userId: companyMembers.userId })
      .from(companyMembers)
      .where(and(eq(companyMembers.companyId, companyId), inArray(companyMembers.role, [...roles])))
  ).map((r) => r.userId);
