import type { TDb } from "../../../../db/client";
import type { TDisplayCurrency, TLanguage } from "../../../shared/constants";
import type { TLoginInput, TRegisterInput } from "../../../shared/schemas/auth";
import type { TUnits } from "../../../shared/units";
import { AppError } from "../../errors";
import { enqueueEmailLink } from "./email-verification";
import { hashPassword, verifyPassword } from "./password";
import { purgeOldLoginFailures, releaseLoginAttempt, reserveLoginAttempt } from "./rate-limit";
import { createUser, EMAIL_TAKEN, findUserByEmail, findUserByPhone } from "./users";

export const registerUser = async (
  db: TDb,
  input: TRegisterInput,
  defaults?: { language: TLanguage; currency: TDisplayCurrency; units: TUnits },
) => {
  // The password is hashed before the email is looked up, so a taken email answers no faster than a new one.
  const passwordHash = await hashPassword(input.password);
  if (await findUserByEmail(db, input.email)) throw new AppError("CONFLICT", EMAIL_TAKEN);
  // The account works at once; the link to prove its address is mailed by a job that commits with it.
  return db.transaction(async (tx) => {
    const user = await createUser(tx, { ...input, passwordHash, defaults });
    await enqueueEmailLink(tx, { userId: user.id, email: user.email! });
    return user;
  });
};

/**
 * POST /api/auth/login {email | phone, password}: the same throttling for both (the sign-in keys are the email or the
 * number, shared with signing in by SMS code), and the same answer for an unknown account as for a wrong password.
 */
export const authenticate = async (db: TDb, input: TLoginInput, ip: string) => {
  const login = input.phone ?? input.email!;
  const reservation = await reserveLoginAttempt(db, login, ip);
  const user =
    input.phone !== undefined ? await findUserByPhone(db, input.phone) : await findUserByEmail(db, input.email!);
  const ok = await verifyPassword(input.password, user?.passwordHash);
  if (!user || !ok) {
    await purgeOldLoginFailures(db);
    throw new AppError(
      "UNAUTHORIZED",
      input.phone !== undefined
        ? /*i18n*/ {
            id: "error.auth.invalidPhoneCredentials",
            message: "Invalid phone number or password",
          }
        : /*i18n*/ {
            id: "error.auth.invalidCredentials",
            message: "Invalid email or password",
          },
    );
  }
  await releaseLoginAttempt(db, reservation);
  return user;
};
