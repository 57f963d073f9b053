// A proven contact: an email confirmed by its link (or vouched for by the sign-in provider), or a phone number, which an
// account only ever holds once a code sent to it came back. Accounts work from the first minute, but what costs a
// counterparty money or floods the board waits for one, so a throwaway address cannot do it.
import { and, count, eq } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { loads, type User } from "../../../../db/tables";
import { AppError } from "../../errors";

/** Loads an account may post before it proves a contact. */
export const UNVERIFIED_LOAD_LIMIT = 3;

export const hasVerifiedContact = (user: Pick<User, "email" | "emailVerifiedAt" | "phone">) =>
  (user.email !== null && user.emailVerifiedAt !== null) || user.phone !== null;

const FUND = /*i18n*/ {
  id: "error.contact.requiredToFund",
  message: "Confirm your email or phone before you pay for a load. You can do it in Settings.",
};
const POST_MORE = /*i18n*/ {
  id: "error.contact.requiredToPostMore",
  message: "Confirm your email or phone to post more than 3 loads",
};

/** What waits for a proven contact, each with the message that says what to do. */
export type TContactGatedAction = "fund" | "postMoreLoads";

/** 403 unless the account has a proven contact; the message ids start `error.contact.` (the web links to Settings). */
export const requireVerifiedContact = (user: User, action: TContactGatedAction) => {
  if (hasVerifiedContact(user)) return;
  throw new AppError("FORBIDDEN", action === "fund" ? FUND : POST_MORE);
};

/**
 * Inside the transaction that posts a load: an account without a proven contact posts at most UNVERIFIED_LOAD_LIMIT
 * loads. Counted under the account's lock, so loads posted at once cannot all slip under the limit.
 */
export const checkLoadAllowance = async (db: TDb, tx: TTx, user: User) => {
  if (hasVerifiedContact(user)) return;
  await db.q.lockKeys(tx, [`loads-posted:${user.id}`]);
  const [row] = await tx
    .select({ n: count() })
    .from(loads)
    .where(and(eq(loads.shipperId, user.id), eq(loads.sourceType, "mytess")));
  if (Number(row?.n ?? 0) >= UNVERIFIED_LOAD_LIMIT) requireVerifiedContact(user, "postMoreLoads");
};
