// Invitations to a company, by email (the mail job) or by phone (an SMS), in the invitee's language, with a link
// `<APP_URL>/invitations/<token>`. The token is derived from the row's random job key with the server key, so a
// retried send carries the same link and no table or job payload holds it; the row keeps its SHA-256. Accepting
// takes the token and an account whose own proven contact is the one invited: the account's confirmed email for an
// email invitation, its proven phone number for a phone one (docs/security.md says why).
import { and, count, eq, gte, isNull, or } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import {
  type CompanyInvitation,
  companies,
  companyInvitations,
  companyMembers,
  type User,
  users,
} from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import type { TInvitationPreview, TInviteInput } from "../../../shared/schemas/companies";
import { AppError } from "../../errors";
import { isLanguage, translate } from "../../i18n";
import type { TMailer } from "../../integrations/mail/smtp";
import type { TSmsServices } from "../../integrations/sms/registry";
import { enqueue } from "../../jobs/queue";
import type { TLogger } from "../../logger";
import type { TSecretBox } from "../../secrets";
import { composeMail, messageIdFor } from "../mail/compose";
import { ALREADY_MEMBER, actingFor, assertRoleFits, companyView, membershipOf, userTypeFor } from "./companies";
import { COMPANY_INVITATION } from "./jobs";

/** How long an invitation link works. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60_000;
/** Invitations one company may send in 24 hours: each is a mail or a paid SMS. */
export const INVITATIONS_PER_DAY = 20;
const DAY_MS = 24 * 60 * 60_000;

export const INVITATION_INVALID = /*i18n*/ {
  id: "error.company.invitationInvalid",
  message: "This invitation is invalid, used or expired. Ask for a new one.",
};

const tokenFor = (secrets: TSecretBox, jobKey: string) =>
  Buffer.from(secrets.mac(`company-invitation:${jobKey}`), "hex").toString("base64url");
const hashOf = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");

/** The language to invite in: the invitee's own when they have an account, else the inviter's current one. */
const languageFor = async (db: TDb, input: TInviteInput, fallback: TLanguage): Promise<TLanguage> => {
  const found = first(
    await db
      .select({ language: users.language })
      .from(users)
      .where(input.email !== undefined ? eq(users.email, input.email) : eq(users.phone, input.phone!))
      .limit(1),
  );
  return found && isLanguage(found.language) ? found.language : fallback;
};

/**
 * POST /api/companies/:id/invitations {email | phone, role}: owners only. Records the invitation and enqueues its
 * mail or SMS in one transaction, counted under the company's lock (at most INVITATIONS_PER_DAY).
 */
export const inviteToCompany = async (
  db: TDb,
  secrets: TSecretBox,
  user: User,
  companyId: number,
  input: TInviteInput,
  locale: TLanguage,
  now = Date.now(),
) => {
  const { company } = await actingFor(db, user, companyId, ["owner"]);
  assertRoleFits(company.kind, input.role);
  const language = await languageFor(db, input, locale);
  const jobKey = `company-invitation:${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("hex")}`;
  const row = await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`company:${companyId}`]);
    await actingFor(tx, user, companyId, ["owner"]);
    const [sent] = await tx
      .select({ n: count() })
      .from(companyInvitations)
      .where(and(eq(companyInvitations.companyId, companyId), gte(companyInvitations.createdAt, now - DAY_MS)));
    if (Number(sent?.n ?? 0) >= INVITATIONS_PER_DAY)
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.company.tooManyInvitations",
          message: "This company has sent {count} invitations in the last 24 hours. Try again tomorrow.",
          values: { count: INVITATIONS_PER_DAY },
        },
      );
    const [made] = await tx
      .insert(companyInvitations)
      .values({
        companyId,
        email: input.email ?? null,
        phone: input.phone ?? null,
        role: input.role,
        language,
        invitedById: user.id,
        jobKey,
        tokenHash: hashOf(tokenFor(secrets, jobKey)),
        expiresAt: now + INVITATION_TTL_MS,
        createdAt: now,
      })
      .returning();
    await enqueue(tx, COMPANY_INVITATION, { invitationId: made!.id }, { uniqueKey: jobKey }, now);
    return made!;
  });
  return {
    id: row.id,
    email: row.email,
    phone: row.phone,
    role: row.role,
    expiresAt: new Date(row.expiresAt).toISOString(),
    createdAt: new Date(row.createdAt).toISOString(),
  };
};

const roleName = (locale: TLanguage, role: string) =>
  translate(
    locale,
    role === "owner"
      ? /*i18n*/ { id: "company.role.owner", comment: "A company member's role", message: "owner" }
      : role === "dispatcher"
        ? /*i18n*/ { id: "company.role.dispatcher", comment: "A carrier company member's role", message: "dispatcher" }
        : role === "driver"
          ? /*i18n*/ { id: "company.role.driver", comment: "A carrier company member's role", message: "driver" }
          : /*i18n*/ { id: "company.role.staff", comment: "A shipper company member's role", message: "staff" },
  );

export type TInvitationDeps = {
  mailer: TMailer | null;
  sms: TSmsServices;
  secrets: TSecretBox;
  log: TLogger;
  baseUrl: string;
};

/**
 * The job: sends the invitation once (the row's `sentAt`), unless it was used, withdrawn or has expired. A refusal
 * by the mail server or the SMS provider is final (logged); a passing failure throws and the job retries.
 */
export const sendCompanyInvitation = async (db: TDb, deps: TInvitationDeps, invitationId: number, now = Date.now()) => {
  const row = first(await db.select().from(companyInvitations).where(eq(companyInvitations.id, invitationId)).limit(1));
  if (!row) return { sent: false as const, reason: "gone" };
  if (row.sentAt !== null) return { sent: true as const, again: false };
  if (row.usedAt !== null || row.revokedAt !== null || row.expiresAt <= now)
    return { sent: false as const, reason: "expired" };
  const company = first(await db.select().from(companies).where(eq(companies.id, row.companyId)).limit(1));
  if (!company) return { sent: false as const, reason: "gone" };
  const locale: TLanguage = isLanguage(row.language) ? row.language : "en";
  const link = `${deps.baseUrl.replace(/\/$/, "")}/invitations/${tokenFor(deps.secrets, row.jobKey)}`;
  const role = roleName(locale, row.role);
  const text = translate(
    locale,
    /*i18n*/ {
      id: "company.invitation.text",
      message: "You are invited to join {company} on MyTess as {role}. The invitation works for 7 days.",
    },
    { company: company.name, role },
  );
  if (row.email !== null) {
    if (!deps.mailer) {
      deps.log.warn("a company invitation was asked for but no mail is configured (SMTP_URL)", { invitationId });
      return { sent: false as const, reason: "no mail" };
    }
    const result = await deps.mailer.send(
      composeMail(locale, row.email, messageIdFor(row.jobKey, deps.baseUrl), {
        subject: translate(
          locale,
          /*i18n*/ { id: "mail.companyInvitation.subject", message: "Join {company} on MyTess" },
          { company: company.name },
        ),
        intro: [text],
        action: {
          label: translate(
            locale,
            /*i18n*/ {
              id: "mail.companyInvitation.action",
              comment: "Button in a company invitation mail",
              message: "Accept the invitation",
            },
          ),
          url: link,
        },
        outro: [
          translate(
            locale,
            /*i18n*/ {
              id: "mail.companyInvitation.outro",
              message:
                "Sign in or sign up with this email address to accept. If you do not know this company, ignore this mail.",
            },
          ),
        ],
      }),
    );
    if (result.status === "refused") {
      deps.log.warn("the mail server refused a company invitation", { invitationId, reason: result.reason });
      return { sent: false as const, reason: "refused" };
    }
    await db.update(companyInvitations).set({ sentAt: Date.now() }).where(eq(companyInvitations.id, row.id));
    return { sent: true as const };
  }
  const phone = row.phone!;
  const sender = deps.sms.senderFor(phone);
  if (!sender) {
    deps.log.warn("a company invitation was asked for but no SMS provider reaches the number", { invitationId });
    return { sent: false as const, reason: "no provider" };
  }
  const result = await sender.send({ to: phone, body: `${text} ${link}` });
  if (result.status === "refused") {
    deps.log.warn("the SMS provider refused a company invitation", { invitationId, reason: result.reason });
    return { sent: false as const, reason: "refused" };
  }
  await db.update(companyInvitations).set({ sentAt: Date.now() }).where(eq(companyInvitations.id, row.id));
  return { sent: true as const };
};

/** "dawit@example.com" → "d•••@example.com"; "+251911223344" → "+251•••••••44". */
export const maskContact = (invitation: Pick<CompanyInvitation, "email" | "phone">) => {
  if (invitation.email !== null) {
    const at = invitation.email.lastIndexOf("@");
    return `${invitation.email.slice(0, 1)}•••${invitation.email.slice(at)}`;
  }
  const phone = invitation.phone ?? "";
  return `${phone.slice(0, 4)}${"•".repeat(Math.max(phone.length - 6, 0))}${phone.slice(-2)}`;
};

/** The web offers to send the confirmation link again beside this message. */
export const INVITATION_CONFIRM_EMAIL = /*i18n*/ {
  id: "error.company.invitationConfirmEmail",
  message: "Confirm your email first: open the link we mailed to you, then accept the invitation.",
};

/** The open invitation with this token, or a 404 for any that is unknown, used, withdrawn or expired. */
const openInvitation = async (db: TDb, token: string, now: number) => {
  const invitation = first(
    await db
      .select()
      .from(companyInvitations)
      .where(eq(companyInvitations.tokenHash, hashOf(token)))
      .limit(1),
  );
  if (!invitation || invitation.usedAt !== null || invitation.revokedAt !== null || invitation.expiresAt <= now)
    throw new AppError("NOT_FOUND", INVITATION_INVALID);
  return invitation;
};

/**
 * GET /api/invitations/:token: the link's page, signed in or not, says who invites to which role before the reader
 * signs in. Only the token's holder can ask (it is 32 random bytes), and the contact comes back masked.
 */
export const previewInvitation = async (db: TDb, token: string, now = Date.now()): Promise<TInvitationPreview> => {
  const invitation = await openInvitation(db, token, now);
  const company = first(await db.select().from(companies).where(eq(companies.id, invitation.companyId)).limit(1));
  if (!company) throw new AppError("NOT_FOUND", INVITATION_INVALID);
  return {
    company: { name: company.name, kind: company.kind, country: company.country },
    role: invitation.role,
    sentTo: invitation.email !== null ? "email" : "phone",
    contact: maskContact(invitation),
    expiresAt: new Date(invitation.expiresAt).toISOString(),
  };
};

/** DELETE /api/companies/:id/invitations/:invitationId: an owner withdraws a pending invitation; its link stops working. */
export const withdrawInvitation = async (db: TDb, user: User, companyId: number, invitationId: number) => {
  await actingFor(db, user, companyId, ["owner"]);
  const [withdrawn] = await db
    .update(companyInvitations)
    .set({ revokedAt: Date.now() })
    .where(
      and(
        eq(companyInvitations.id, invitationId),
        eq(companyInvitations.companyId, companyId),
        isNull(companyInvitations.usedAt),
        isNull(companyInvitations.revokedAt),
      ),
    )
    .returning({ id: companyInvitations.id });
  if (!withdrawn)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ { id: "error.company.invitationNotFound", message: "This invitation is no longer pending" },
    );
  return { withdrawn: true as const };
};

/**
 * POST /api/invitations/:token/accept: the signed-in account joins the company in the invitation's role. The account
 * must be the one invited (its confirmed email, or its proven phone number), of the company's account type, and in no
 * company yet. The invitation is taken with a conditional update, so two accepts at once get one member.
 */
export const acceptInvitation = async (db: TDb, user: User, token: string, now = Date.now()) => {
  const invitation = await openInvitation(db, token, now);
  // The right address not yet proven: the account could have been made by anyone who typed it, so it confirms first.
  if (
    invitation.email !== null &&
    invitation.email.toLowerCase() === user.email?.toLowerCase() &&
    user.emailVerifiedAt === null
  )
    throw new AppError("FORBIDDEN", INVITATION_CONFIRM_EMAIL);
  const matches =
    invitation.email !== null
      ? invitation.email.toLowerCase() === user.email?.toLowerCase()
      : invitation.phone !== null && invitation.phone === user.phone;
  if (!matches)
    throw new AppError(
      "FORBIDDEN",
      invitation.email !== null
        ? /*i18n*/ {
            id: "error.company.invitationOtherEmail",
            message: "This invitation was sent to another email address. Sign in with the account that uses it.",
          }
        : /*i18n*/ {
            id: "error.company.invitationOtherPhone",
            message:
              "This invitation was sent to a phone number your account has not confirmed. Add and confirm that number in Settings first.",
          },
    );
  const company = first(await db.select().from(companies).where(eq(companies.id, invitation.companyId)).limit(1));
  if (!company) throw new AppError("NOT_FOUND", INVITATION_INVALID);
  if (userTypeFor(company.kind) !== user.userType)
    throw new AppError(
      "FORBIDDEN",
      company.kind === "carrier"
        ? /*i18n*/ {
            id: "error.company.invitationNeedsDriver",
            message: "Only a driver account can join a carrier company",
          }
        : /*i18n*/ {
            id: "error.company.invitationNeedsShipper",
            message: "Only a shipper account can join a shipper company",
          },
    );
  await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`company-member:${user.id}`, `company:${company.id}`]);
    if (await membershipOf(tx, user.id)) throw new AppError("CONFLICT", ALREADY_MEMBER);
    const [taken] = await tx
      .update(companyInvitations)
      .set({ usedAt: now, acceptedById: user.id })
      .where(
        and(
          eq(companyInvitations.id, invitation.id),
          isNull(companyInvitations.usedAt),
          isNull(companyInvitations.revokedAt),
        ),
      )
      .returning({ id: companyInvitations.id });
    if (!taken) throw new AppError("NOT_FOUND", INVITATION_INVALID);
    await tx
      .insert(companyMembers)
      .values({ companyId: company.id, userId: user.id, role: invitation.role, createdAt: now });
    // Other invitations to this account's contacts for the same company are spent with it.
    await tx
      .update(companyInvitations)
      .set({ revokedAt: now })
      .where(
        and(
          eq(companyInvitations.companyId, company.id),
          isNull(companyInvitations.usedAt),
          isNull(companyInvitations.revokedAt),
          or(eq(companyInvitations.email, user.email ?? ""), eq(companyInvitations.phone, user.phone ?? "")),
        ),
      );
  });
  return companyView(db, company, invitation.role, now);
};
