import { and, eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { users } from "../../../../db/tables";
import type { TDisplayCurrency, TLanguage, TUserType } from "../../../shared/constants";
import type { TUnits } from "../../../shared/units";
import { AppError } from "../../errors";
import type { TOidcClaims } from "../../integrations/oidc/oidc";
import { createUser, findUserByEmail } from "./users";

/**
 * The account behind an OpenID Connect identity: the one already linked to it, else an account with the same verified
 * email (which gets linked), else a new account of the type the visitor chose.
 */
export const findOrCreateOidcUser = async (
  db: TDb,
  claims: TOidcClaims,
  userType: TUserType,
  defaults?: { language: TLanguage; currency: TDisplayCurrency; units: TUnits },
) => {
  const [linked] = await db
    .select()
    .from(users)
    .where(and(eq(users.oidcIssuer, claims.issuer), eq(users.oidcSubject, claims.sub)));
  if (linked) return linked;
  if (!claims.email)
    throw new AppError(
      "BAD_REQUEST",
      /*i18n*/ {
        id: "error.oidc.noEmail",
        message: "The sign-in provider did not share an email address",
      },
    );
  const byEmail = await findUserByEmail(db, claims.email);
  if (byEmail) {
    if (claims.emailVerified !== true) {
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.oidc.emailTaken",
          message: "An account with this email already exists; sign in with its password",
        },
      );
    }
    const [linked] = await db
      .update(users)
      .set({
        oidcIssuer: claims.issuer,
        oidcSubject: claims.sub,
        // Only a provider that vouches for the address links it (above), so the address is proven.
        emailVerifiedAt: byEmail.emailVerifiedAt ?? Date.now(),
        updatedAt: Date.now(),
      })
      .where(eq(users.id, byEmail.id))
      .returning();
    return linked;
  }
  const [first, ...rest] = (claims.name ?? "").trim().split(/\s+/);
  return createUser(db, {
    email: claims.email,
    passwordHash: null,
    firstName: claims.givenName ?? (first || claims.email.split("@")[0]),
    lastName: claims.familyName ?? rest.join(" "),
    userType,
    oidcIssuer: claims.issuer,
    oidcSubject: claims.sub,
    profileImageUrl: claims.picture ?? null,
    emailVerifiedAt: claims.emailVerified === true ? Date.now() : null,
    defaults,
  });
};
