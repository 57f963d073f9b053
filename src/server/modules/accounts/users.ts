import { asc, eq } from "drizzle-orm";
import { first, type TDb, type TTx } from "../../../../db/client";
import { type User, users } from "../../../../db/tables";
import { type TDisplayCurrency, type TLanguage, TRIAL_MONTHS, type TUserType } from "../../../shared/constants";
import type { TUpdateProfileInput } from "../../../shared/schemas/auth";
import type { TUnits } from "../../../shared/units";
import { AppError } from "../../errors";

export const trialEnd = (from: number) => {
  const d = new Date(from);
  d.setUTCMonth(d.getUTCMonth() + TRIAL_MONTHS);
  return d.getTime();
};

type TCreateUserParams = {
  email: string;
  passwordHash: string | null;
  firstName: string;
  lastName: string;
  userType: TUserType;
  oidcIssuer?: string;
  oidcSubject?: string;
  profileImageUrl?: string | null;
  /** When the address was proven: an identity provider that vouches for it proves it at once. */
  emailVerifiedAt?: number | null;
  /** Where the account is made (its language and the device's region): its currency and units follow. */
  defaults?: { language: TLanguage; currency: TDisplayCurrency; units: TUnits };
  now?: number;
};

export const EMAIL_TAKEN = /*i18n*/ {
  id: "error.auth.emailTaken",
  message: "An account with this email already exists",
};

/** Creates an account with the free premium trial running; a taken email is a CONFLICT. */
export const createUser = async (db: TDb | TTx, p: TCreateUserParams): Promise<User> => {
  const now = p.now ?? Date.now();
  const email = p.email.trim().toLowerCase();
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, email));
  if (existing) throw new AppError("CONFLICT", EMAIL_TAKEN);
  const [user] = await db
    .insert(users)
    .values({
      email,
      passwordHash: p.passwordHash,
      firstName: p.firstName,
      lastName: p.lastName,
      userType: p.userType,
      oidcIssuer: p.oidcIssuer,
      oidcSubject: p.oidcSubject,
      profileImageUrl: p.profileImageUrl ?? null,
      emailVerifiedAt: p.emailVerifiedAt ?? null,
      ...(p.defaults ?? {}),
      trialEndsAt: trialEnd(now),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return user;
};

export const findUserByEmail = async (db: TDb, email: string) =>
  first(await db.select().from(users).where(eq(users.email, email.trim().toLowerCase())).limit(1));

/** The account whose number is `phone` (E.164, as ZPhone gives it). */
export const findUserByPhone = async (db: TDb, phone: string) =>
  first(await db.select().from(users).where(eq(users.phone, phone)).limit(1));

export const findUserById = async (db: TDb, id: number) =>
  first(await db.select().from(users).where(eq(users.id, id)).limit(1));

export const listUsers = (db: TDb) => db.select().from(users).orderBy(asc(users.id));

export const updateUser = async (
  db: TDb,
  id: number,
  values: Partial<Pick<User, "language" | "currency" | "calendar" | "ethiopianTime" | "units">> | TUpdateProfileInput,
) => {
  const [user] = await db
    .update(users)
    .set({ ...values, updatedAt: Date.now() })
    .where(eq(users.id, id))
    .returning();
  return user;
};
