import type { Db } from "../../../../db/client";
import type { TLoginInput, TRegisterInput } from "../../../shared/schemas/auth";
import { AppError } from "../../errors";
import { createUser, findUserByEmail } from "../users/users";
import { hashPassword, verifyPassword } from "./password";
import { purgeOldLoginFailures, releaseLoginAttempt, reserveLoginAttempt } from "./rate-limit";

export const registerUser = async (db: Db, input: TRegisterInput) => {
  // The password is hashed before the email is looked up, so a taken email answers no faster than a new one.
  const passwordHash = await hashPassword(input.password);
  if (findUserByEmail(db, input.email)) throw new AppError("CONFLICT", "An account with this email already exists");
  return createUser(db, { ...input, passwordHash });
};

export const authenticate = async (db: Db, input: TLoginInput, ip: string) => {
  const reservation = reserveLoginAttempt(db, input.email, ip);
  const user = findUserByEmail(db, input.email);
  const ok = await verifyPassword(input.password, user?.passwordHash);
  if (!user || !ok) {
    purgeOldLoginFailures(db);
    throw new AppError("UNAUTHORIZED", "Invalid email or password");
  }
  releaseLoginAttempt(db, reservation);
  return user;
};
