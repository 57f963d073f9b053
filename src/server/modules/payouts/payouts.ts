// Driver payouts: where a driver's share of a released payment is sent. USD and EUR go to a Stripe Connect account
// MyTess creates for the driver (with `controller` settings: a Stripe-hosted Express dashboard, Stripe collecting the
// requirements, the platform paying the fees); the driver completes Stripe's hosted onboarding, and the account's
// `account.updated` events (only a prompt: the account is read back from Stripe) say when payouts are enabled. Birr
// goes through Chapa transfers to a bank account or a mobile-money wallet, whose bank id is taken from Chapa's own
// list (`GET /v1/banks`) at the time of saving, with the account holder's name the driver confirmed. The number is
// stored sealed with the server key and opened only to send a transfer; its last 4 digits, kept apart, are all that
// any answer, export or notification shows.
import { and, eq, isNotNull, notLike } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type PayoutMethod, payoutMethods, type User } from "../../../../db/tables";
import type { TPayoutBank, TPayoutSetup, TSaveChapaMethodInput } from "../../../shared/schemas/payouts";
import { AppError } from "../../errors";
import type { TPaymentServices } from "../../integrations/payments/services";
import type { TStripeAccount, TStripeEvent } from "../../integrations/payments/types";
import type { TSecretBox } from "../../secrets";

/** The metadata key naming the MyTess account on its Connect account. */
export const PAYOUT_STRIPE_KEY = "mytess_user";

const notConfigured = (provider: "Stripe" | "Chapa") =>
  new AppError(
    "SERVICE_UNAVAILABLE",
    /*i18n*/ {
      id: "error.payouts.providerNotConfigured",
      message: "{provider} payouts are not set up on this server",
      values: { provider },
    },
  );

const stateOf = (services: TPaymentServices, id: "stripe" | "chapa") =>
  services.states().find((s) => s.id === id)?.state ?? "not_configured";

/** A payout number as shown anywhere: its last 4 digits only (not even its length). */
export const maskedNumber = (last4: string | null) => (last4 ? `•••• ${last4}` : null);

/** What is stored of a payout number: the number sealed, its last 4 digits apart. */
export const sealNumber = (secrets: TSecretBox, accountNumber: string) => ({
  accountNumberSealed: secrets.seal(accountNumber),
  accountLast4: accountNumber.slice(-4),
});

/**
 * The number a transfer goes to, opened. A value this server's key cannot open (the key was changed or lost) is an
 * error for the operator, never sent anywhere.
 */
export const openNumber = (secrets: TSecretBox, m: PayoutMethod) => {
  try {
    return secrets.open(m.accountNumberSealed ?? "");
  } catch {
    throw new Error(`payout method ${m.id}: the account number cannot be opened with this server's key`);
  }
};

/**
 * Numbers saved before they were sealed, sealed now: run by the primary process after the migrations (sealing needs
 * the server key, which a migration does not have). Each row is changed only if it still holds the number read, so a
 * driver saving new details meanwhile keeps theirs. Returns how many were sealed.
 */
export const sealPayoutNumbers = async (db: TDb, secrets: TSecretBox) => {
  const plain = await db
    .select({ id: payoutMethods.id, number: payoutMethods.accountNumberSealed })
    .from(payoutMethods)
    .where(and(isNotNull(payoutMethods.accountNumberSealed), notLike(payoutMethods.accountNumberSealed, "v1.%")));
  let sealed = 0;
  for (const r of plain) {
    const [done] = await db
      .update(payoutMethods)
      // updatedAt stays: the details are the same, and the payout jobs' keys name the version the driver saved.
      .set(sealNumber(secrets, r.number!))
      .where(and(eq(payoutMethods.id, r.id), eq(payoutMethods.accountNumberSealed, r.number!)))
      .returning({ id: payoutMethods.id });
    if (done) sealed++;
  }
  return sealed;
};

export const methodOf = async (db: TDb, userId: number, provider: "stripe" | "chapa") =>
  (
    await db
      .select()
      .from(payoutMethods)
      .where(and(eq(payoutMethods.userId, userId), eq(payoutMethods.provider, provider)))
  )[0] ?? null;

/** Whether a driver can be paid through a provider now (a Connect account with payouts on, or a saved Chapa method). */
export const canBePaid = (m: PayoutMethod | null) =>
  !!m && (m.provider === "stripe" ? !!m.stripeAccountId && m.payoutsEnabled : !!m.bankCode && !!m.accountNumberSealed);

/** The driver's payout setup, for the settings page. */
export const payoutSetup = async (db: TDb, services: TPaymentServices, user: User): Promise<TPayoutSetup> => {
  const rows = await db.select().from(payoutMethods).where(eq(payoutMethods.userId, user.id));
  const stripe = rows.find((r) => r.provider === "stripe" && r.stripeAccountId);
  const chapa = rows.find((r) => r.provider === "chapa" && r.bankCode && r.accountNumberSealed);
  return {
    stripe: {
      state: stateOf(services, "stripe"),
      account: stripe
        ? {
            id: stripe.stripeAccountId!,
            payoutsEnabled: stripe.payoutsEnabled,
            detailsSubmitted: stripe.detailsSubmitted,
            requirementsDue: stripe.requirementsDue ?? [],
          }
        : null,
    },
    chapa: {
      state: stateOf(services, "chapa"),
      method: chapa
        ? {
            bankCode: chapa.bankCode!,
            bankName: chapa.bankName ?? "",
            mobileMoney: chapa.mobileMoney,
            accountNumber: maskedNumber(chapa.accountLast4) ?? "",
            accountName: chapa.accountName ?? "",
          }
        : null,
    },
  };
};

const writeAccount = (db: TDb, a: TStripeAccount, now: number) =>
  db
    .update(payoutMethods)
    .set({
      payoutsEnabled: a.payoutsEnabled,
      detailsSubmitted: a.detailsSubmitted,
      requirementsDue: a.currentlyDue,
      updatedAt: now,
    })
    .where(eq(payoutMethods.stripeAccountId, a.id))
    .returning();

/**
 * The driver's Stripe onboarding link: the Connect account is created once (its idempotency key is the user's, so two
 * clicks at once create one account), then a fresh single-use account link is asked for each time.
 */
export const startStripeOnboarding = async (
  db: TDb,
  services: TPaymentServices,
  user: User,
  input: { country?: string } | undefined,
  baseUrl: string,
  now = Date.now(),
) => {
  const stripe = services.stripe;
  if (!stripe) throw notConfigured("Stripe");
  let row = await methodOf(db, user.id, "stripe");
  if (!row?.stripeAccountId) {
    const account = await stripe.createConnectedAccount({
      email: user.email,
      country: (input?.country ?? "US").toUpperCase(),
      metadata: { [PAYOUT_STRIPE_KEY]: String(user.id) },
      idempotencyKey: `payout-account:${user.id}`,
    });
    await db
      .insert(payoutMethods)
      .values({
        userId: user.id,
        provider: "stripe",
        stripeAccountId: account.id,
        payoutsEnabled: account.payoutsEnabled,
        detailsSubmitted: account.detailsSubmitted,
        requirementsDue: account.currentlyDue,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing();
    row = await methodOf(db, user.id, "stripe");
  }
  const accountId = row!.stripeAccountId!;
  const link = await stripe.createAccountLink({
    account: accountId,
    refreshUrl: `${baseUrl}/settings?payouts=refresh`,
    returnUrl: `${baseUrl}/settings?payouts=return`,
  });
  return { url: link.url, accountId };
};

/** Whether a Stripe event is about a connected account's payout state. */
export const isPayoutAccountEvent = (e: TStripeEvent) => e.type === "account.updated";

/**
 * `account.updated`: the account is read back from Stripe (events come in any order and twice; the account is the
 * truth), and what it says is stored. Returns the user whose payouts just became possible, if any.
 */
export const applyStripeAccountEvent = async (
  db: TDb,
  services: TPaymentServices,
  e: TStripeEvent,
  now = Date.now(),
): Promise<{ applied: boolean; ignored?: string; enabledFor?: number }> => {
  const stripe = services.stripe;
  if (!stripe) return { applied: false, ignored: "Stripe is not configured" };
  const id = e.account ?? (typeof e.object.id === "string" ? e.object.id : null);
  if (!id) return { applied: false, ignored: "the event names no account" };
  const [row] = await db.select().from(payoutMethods).where(eq(payoutMethods.stripeAccountId, id));
  if (!row) return { applied: false, ignored: `no driver has the account ${id}` };
  const account = await stripe.retrieveAccount(id);
  const [updated] = await writeAccount(db, account, now);
  const enabledFor = !row.payoutsEnabled && updated?.payoutsEnabled ? row.userId : undefined;
  return { applied: true, ...(enabledFor ? { enabledFor } : {}) };
};

/** Chapa's banks and wallets, as Chapa lists them now. */
export const payoutBanks = async (services: TPaymentServices): Promise<TPayoutBank[]> => {
  const chapa = services.chapa;
  if (!chapa) throw notConfigured("Chapa");
  const banks = await chapa.listBanks();
  return banks
    .filter((b) => b.currency === "ETB")
    .map((b) => ({ id: b.id, name: b.name, mobileMoney: b.mobileMoney, acctLength: b.acctLength }))
    .sort((a, b) => Number(b.mobileMoney) - Number(a.mobileMoney) || a.name.localeCompare(b.name));
};

/**
 * Saves the driver's Chapa payout method: the bank must be in Chapa's list now (400 naming `bankCode` otherwise), the
 * number as long as that bank's numbers (`accountNumber`), and the holder's name confirmed by the driver.
 */
export const saveChapaMethod = async (
  db: TDb,
  services: TPaymentServices,
  secrets: TSecretBox,
  user: User,
  input: TSaveChapaMethodInput,
  now = Date.now(),
) => {
  const chapa = services.chapa;
  if (!chapa) throw notConfigured("Chapa");
  const banks = await chapa.listBanks();
  const bank = banks.find((b) => b.id === input.bankCode);
  if (!bank) {
    const message = /*i18n*/ {
      id: "error.payouts.unknownBank",
      message: "bankCode must be one of the banks Chapa lists",
    };
    throw new AppError("BAD_REQUEST", message, { issues: [{ path: "bankCode", message }] });
  }
  if (bank.acctLength && input.accountNumber.length !== bank.acctLength) {
    const message = /*i18n*/ {
      id: "error.payouts.accountNumberLength",
      message: "accountNumber must be {digits} digits for {bank}",
      values: { digits: bank.acctLength, bank: bank.name },
    };
    throw new AppError("BAD_REQUEST", message, { issues: [{ path: "accountNumber", message }] });
  }
  const values = {
    bankCode: bank.id,
    bankName: bank.name,
    mobileMoney: bank.mobileMoney,
    ...sealNumber(secrets, input.accountNumber),
    accountName: input.accountName.replace(/\s+/g, " "),
    updatedAt: now,
  };
  await db
    .insert(payoutMethods)
    .values({ userId: user.id, provider: "chapa", ...values, createdAt: now })
    .onConflictDoUpdate({ target: [payoutMethods.userId, payoutMethods.provider], set: values });
  return payoutSetup(db, services, user);
};
