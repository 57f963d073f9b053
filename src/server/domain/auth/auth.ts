import type { Db } from "../../../../db/client";
import type { TLoginInput, TRegisterInput } from "../../../shared/schemas/auth";
import { AppError } from "../../errors";
import { createUser, findUserByEmail } from "../users/users";
import { hashPassword, verifyPassword } from "./password";
import { checkLoginAllowed, clearAccountFailures, recordLoginFailure } from "./rate-limit";

export const registerUser = async (db: Db, input: TRegisterInput) => {
  if (findUserByEmail(db, input.email)) throw new AppError("CONFLICT", "An account with this email already exists");
  const passwordHash = await hashPassword(input.password);
  return createUser(db, { ...input, passwordHash });
};

export const authenticate = async (db: Db, input: TLoginInput, ip: string) => {
  checkLoginAllowed(db, input.email, ip);
  const user = findUserByEmail(db, input.email);
  const ok = await verifyPassword(input.password, user?.passwordHash);
  if (!user || !ok) {
    recordLoginFailure(db, input.email, ip);
    throw new AppError("UNAUTHORIZED", "Invalid email or password");
  }
  clearAccountFailures(db, input.email);
  return user;
};
