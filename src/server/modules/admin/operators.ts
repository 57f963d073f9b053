import { eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { operators, type User } from "../../../../db/tables";
import { AppError } from "../../errors";
import { findUserByEmail } from "../accounts/users";

/** True when the account may use the operator's web pages (the CLI named it). */
export const isOperator = async (db: Pick<TDb, "select">, userId: number) =>
  (await db.select({ userId: operators.userId }).from(operators).where(eq(operators.userId, userId))).length > 0;

const accountOf = async (db: TDb, email: string): Promise<User> => {
  const user = await findUserByEmail(db, email);
  if (!user)
    throw new AppError(
      "NOT_FOUND",
      /*i18n*/ { id: "error.admin.noSuchAccount", message: "No account has the email {email}", values: { email } },
    );
  return user;
};

/** Makes the account an operator on the web, or (`on: false`) no longer one; answers whether it now is. */
export const setOperator = async (db: TDb, email: string, on: boolean, now = Date.now()) => {
  const user = await accountOf(db, email);
  if (on) await db.insert(operators).values({ userId: user.id, grantedAt: now }).onConflictDoNothing();
  else await db.delete(operators).where(eq(operators.userId, user.id));
  return { userId: user.id, email: user.email, operator: on };
};
