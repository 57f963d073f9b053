// Deleting an account (DELETE /api/user): refused while anything the other party relies on is unfinished (a load
// awarded and not completed, a dispute, money held or owed); otherwise, in one transaction, everything that acts for
// the account goes (sessions, tokens, webhooks, push, chat links, saved searches, payout methods, board and store
// connections), its open loads are cancelled and open bids withdrawn as if done by hand, and the user row stays,
// anonymised, so the other party's completed trips, ratings, messages and payments keep their history.
import { and, eq, gte, inArray, isNull, or } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import {
  apiTokens,
  bids,
  companyMembers,
  ecommerceIntegrations,
  emailVerifications,
  freightPayments,
  idempotencyKeys,
  loadAlerts,
  loadDocuments,
  loads,
  loginFailures,
  marketplaceConfigs,
  messagingPreferences,
  notifications,
  operators,
  passwordResets,
  payoutMethods,
  phoneCodes,
  pushPreferences,
  pushSubscriptions,
  savedLanes,
  savedSearches,
  sessions,
  telegramLinkTokens,
  type User,
  users,
  verificationFiles,
  verifications,
  webhookEndpoints,
  whatsappCodes,
} from "../../../../db/tables";
import { AppError } from "../../errors";
import type { TSecretBox } from "../../secrets";
import type { TStorage } from "../../storage/types";
import { verifyPassword } from "../accounts/password";
import { codeInvalid, enqueuePhoneCode, takeCode, tryCode } from "../accounts/phone-codes";
import { releaseLoginAttempt, reserveLoginAttempt } from "../accounts/rate-limit";
import { withdrawBidIn } from "../bids/bids";
import { cancelLoadIn } from "../trips/trip";

/** Load states that are a trip under way: the other party needs the account until the trip completes. */
const IN_PROGRESS = ["assigned", "in_transit", "delivered"] as const;
/** Freight payment states where money is held or owed. */
const MONEY_WAITING = ["awaiting_payment", "funded", "released"] as const;

export type TDeletionBlockers = { inProgress: number[]; disputes: number[]; money: number[]; subscription: boolean };

const unique = (ids: number[]) => [...new Set(ids)].sort((a, b) => a - b);

/** What must finish before the account can go (load ids per reason), read in the caller's transaction or not. */
export const deletionBlockers = async (db: Pick<TDb, "select">, user: User): Promise<TDeletionBlockers> => {
  const mine = or(eq(loads.shipperId, user.id), eq(loads.assignedDriverId, user.id));
  const running = await db
    .select({ id: loads.id, status: loads.status })
    .from(loads)
    .where(and(mine, inArray(loads.status, [...IN_PROGRESS, "disputed"])));
  const money = await db
    .select({ loadId: freightPayments.loadId, state: freightPayments.state })
    .from(freightPayments)
    .where(
      and(
        or(eq(freightPayments.shipperId, user.id), eq(freightPayments.driverId, user.id)),
        inArray(freightPayments.state, [...MONEY_WAITING, "disputed"]),
      ),
    );
  return {
    inProgress: unique(running.filter((l) => l.status !== "disputed").map((l) => l.id)),
    disputes: unique([
      ...running.filter((l) => l.status === "disputed").map((l) => l.id),
      ...money.filter((m) => m.state === "disputed").map((m) => m.loadId),
    ]),
    money: unique(money.filter((m) => m.state !== "disputed").map((m) => m.loadId)),
    // A renewing subscription would go on charging a card nobody can sign in to stop.
    subscription: Boolean(user.stripeSubscriptionId) && !user.cancelAtPeriodEnd && !user.subscriptionCancelledAt,
  };
};

const blocked = (b: TDeletionBlockers) =>
  b.inProgress.length > 0 || b.disputes.length > 0 || b.money.length > 0 || b.subscription;

const idList = (ids: number[]) => (ids.length ? ids.map((id) => `#${id}`).join(", ") : "none");

/** The 409 that lists what must finish first, in the caller's language. */
export const deletionBlocked = (b: TDeletionBlockers) =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.account.deleteBlocked",
      message:
        "Your account cannot be deleted yet. Finish these first:{inProgress, select, none {} other { loads in progress {inProgress};}}{disputes, select, none {} other { open disputes on loads {disputes};}}{money, select, none {} other { money waiting on loads {money};}}{subscription, select, yes { cancel Premium (Settings → Premium);} other {}}",
      values: {
        inProgress: idList(b.inProgress),
        disputes: idList(b.disputes),
        money: idList(b.money),
        subscription: b.subscription ? "yes" : "no",
      },
    },
  );

const WRONG_PASSWORD = /*i18n*/ { id: "error.account.deleteWrongPassword", message: "The password is wrong" };
const NO_PHONE = /*i18n*/ {
  id: "error.account.deleteNoPhone",
  message: "This account has no phone number: confirm with your password",
};
const NO_PASSWORD = /*i18n*/ {
  id: "error.account.deleteNoPassword",
  message: "This account has no password: ask for a code by SMS and confirm with it",
};

/** Codes asked for to delete an account, per 15 minutes (each SMS costs). */
const DELETE_CODES_PER_WINDOW = 3;
const DELETE_CODE_WINDOW_MS = 15 * 60_000;

/** POST /api/user/delete-code: sends a code to the account's own number (202); it confirms DELETE /api/user. */
export const requestDeletionCode = async (db: TDb, user: User, now = Date.now()) => {
  const phone = user.phone;
  if (!phone) throw new AppError("BAD_REQUEST", NO_PHONE, { issues: [{ path: "phone", message: NO_PHONE }] });
  await db.transaction(async (tx) => {
    const key = `del:${user.id}`;
    await db.q.lockKeys(tx, [key]);
    const recent = await tx
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, key), gte(loginFailures.at, now - DELETE_CODE_WINDOW_MS)))
      .orderBy(loginFailures.at);
    if (recent.length >= DELETE_CODES_PER_WINDOW) {
      const retryAfterMs = recent[0]!.at + DELETE_CODE_WINDOW_MS - now;
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.auth.tooManyCodes",
          message: "Too many codes asked for. Try again in {minutes, plural, one {# minute} other {# minutes}}.",
          values: { minutes: Math.max(1, Math.ceil(retryAfterMs / 60_000)) },
        },
        { retryAfterSeconds: Math.ceil(retryAfterMs / 1000) },
      );
    }
    await tx.insert(loginFailures).values({ key, at: now });
    await enqueuePhoneCode(tx, { phone, purpose: "delete_account", userId: user.id }, now);
  });
};

export type TDeletionProof = { password?: string; code?: string };

/**
 * Checks the proof before anything is written: the password (counted against the sign-in limits, so a stolen session
 * cannot guess it faster than the sign-in page), or a live deletion code sent to the account's number. Answers the
 * code's row to take in the deletion's transaction.
 */
const checkProof = async (db: TDb, secrets: TSecretBox, user: User, proof: TDeletionProof, ip: string, now: number) => {
  if (proof.code !== undefined) {
    if (!user.phone) throw new AppError("BAD_REQUEST", NO_PHONE, { issues: [{ path: "code", message: NO_PHONE }] });
    const id = await tryCode(
      db,
      secrets,
      { phone: user.phone, purpose: "delete_account", userId: user.id },
      proof.code,
      now,
    );
    if (id === null) throw codeInvalid();
    return id;
  }
  if (!user.passwordHash)
    throw new AppError("BAD_REQUEST", NO_PASSWORD, { issues: [{ path: "password", message: NO_PASSWORD }] });
  const reservation = await reserveLoginAttempt(db, user.email ?? user.phone ?? `user:${user.id}`, ip, now);
  if (!(await verifyPassword(proof.password ?? "", user.passwordHash)))
    throw new AppError("BAD_REQUEST", WRONG_PASSWORD, { issues: [{ path: "password", message: WRONG_PASSWORD }] });
  await releaseLoginAttempt(db, reservation);
  return null;
};

/** The name an anonymised account shows where the other party's history names it. */
export const DELETED_NAME = "Deleted user";

/**
 * DELETE /api/user: deletes the account after the proof, or refuses with 409 listing what must finish first.
 * Stored files only the account needed are removed after the commit (a failed removal leaves an orphan file, never a
 * row pointing at nothing).
 */
export const deleteAccount = async (
  db: TDb,
  deps: { secrets: TSecretBox; storage: TStorage },
  user: User,
  proof: TDeletionProof,
  ip: string,
  now = Date.now(),
) => {
  // Told before the password is asked for, so nobody types it for nothing.
  const before = await deletionBlockers(db, user);
  if (blocked(before)) throw deletionBlocked(before);
  const codeId = await checkProof(db, deps.secrets, user, proof, ip, now);
  const files = await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`user:${user.id}`]);
    if (codeId !== null) await takeCode(tx, codeId, now);
    const [current] = await tx
      .select()
      .from(users)
      .where(and(eq(users.id, user.id), isNull(users.deletedAt)));
    if (!current)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ { id: "error.account.alreadyDeleted", message: "This account has already been deleted" },
      );

    // Open loads are cancelled and open bids withdrawn as the owner would, each under its load's lock: bidders are
    // told as for any cancellation. A load awarded meanwhile makes the check below refuse the whole deletion.
    const open = await tx
      .select({ id: loads.id })
      .from(loads)
      .where(and(eq(loads.shipperId, user.id), eq(loads.status, "posted"), eq(loads.sourceType, "mytess")));
    for (const { id } of open) await cancelLoadIn(db, tx, current, id, null, now);
    const pending = await tx
      .select({ id: bids.id })
      .from(bids)
      .where(and(eq(bids.driverId, user.id), eq(bids.status, "pending")));
    for (const { id } of pending) await withdrawBidIn(db, tx, current, id, now);
    const after = await deletionBlockers(tx, current);
    if (blocked(after)) throw deletionBlocked(after);

    // Files nobody else needs: documents on loads that never had another party, and verification files.
    const lonelyDocs = await tx
      .select({ id: loadDocuments.id, storageKey: loadDocuments.storageKey })
      .from(loadDocuments)
      .innerJoin(loads, eq(loads.id, loadDocuments.loadId))
      .where(and(eq(loadDocuments.uploaderId, user.id), isNull(loads.assignedDriverId)));
    if (lonelyDocs.length)
      await tx.delete(loadDocuments).where(
        inArray(
          loadDocuments.id,
          lonelyDocs.map((d) => d.id),
        ),
      );
    const verificationKeys = await tx
      .select({ storageKey: verificationFiles.storageKey })
      .from(verificationFiles)
      .where(eq(verificationFiles.uploadedBy, user.id));
    await tx.delete(verificationFiles).where(eq(verificationFiles.uploadedBy, user.id));
    await tx.delete(verifications).where(eq(verifications.submittedBy, user.id));

    // Everything that acts for the account, or that only the account reads.
    const me = user.id;
    await tx.delete(sessions).where(eq(sessions.userId, me));
    await tx.delete(apiTokens).where(eq(apiTokens.userId, me));
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.userId, me));
    await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, me));
    await tx.delete(pushPreferences).where(eq(pushPreferences.userId, me));
    await tx.delete(messagingPreferences).where(eq(messagingPreferences.userId, me));
    await tx.delete(telegramLinkTokens).where(eq(telegramLinkTokens.userId, me));
    await tx.delete(whatsappCodes).where(eq(whatsappCodes.userId, me));
    await tx.delete(savedSearches).where(eq(savedSearches.userId, me));
    await tx.delete(loadAlerts).where(eq(loadAlerts.userId, me));
    await tx.delete(savedLanes).where(eq(savedLanes.userId, me));
    await tx.delete(payoutMethods).where(eq(payoutMethods.userId, me));
    // Board and store connections hold sealed credentials; the board's copies of loads go with them.
    await tx.delete(marketplaceConfigs).where(eq(marketplaceConfigs.userId, me));
    await tx.delete(ecommerceIntegrations).where(eq(ecommerceIntegrations.userId, me));
    await tx.delete(emailVerifications).where(eq(emailVerifications.userId, me));
    await tx.delete(passwordResets).where(eq(passwordResets.userId, me));
    await tx.delete(phoneCodes).where(eq(phoneCodes.userId, me));
    await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.userId, me));
    await tx.delete(notifications).where(eq(notifications.userId, me));
    await tx.delete(companyMembers).where(eq(companyMembers.userId, me));
    await tx.delete(operators).where(eq(operators.userId, me));

    await tx
      .update(users)
      .set({
        email: null,
        emailVerifiedAt: null,
        phone: null,
        passwordHash: null,
        oidcIssuer: null,
        oidcSubject: null,
        firstName: DELETED_NAME,
        lastName: "",
        profileImageUrl: null,
        latitude: null,
        longitude: null,
        locationUpdatedAt: null,
        isAvailable: false,
        stripeCustomerId: null,
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, me));
    return [...lonelyDocs.map((d) => d.storageKey), ...verificationKeys.map((v) => v.storageKey)];
  });
  for (const key of files) await deps.storage.delete(key).catch(() => {});
  return { deleted: true as const };
};
