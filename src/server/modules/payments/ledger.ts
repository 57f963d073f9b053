// The ledger of freight payments: double-entry, minor units, per currency. Each money movement is one transaction
// (`txn`: `fund:<payment>`, `refund:<payment>`, …) of entries that sum to zero, written in the database transaction of
// the state change it records; written twice it is refused by the unique (txn, account), so a replayed webhook or a
// retried job cannot count money twice.
import { and, asc, eq, inArray } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { freightPayments, ledgerEntries } from "../../../../db/tables";
import type { TLedgerAccount } from "../../../shared/schemas/payments";
import { AppError } from "../../errors";

export type TLedgerLine = { account: TLedgerAccount; amountMinor: number };

/**
 * Writes one balanced transaction; false when it was written before (nothing changes). An unbalanced one is a
 * programming error and throws before anything is written.
 */
export const postTxn = async (
  tx: TTx,
  t: { txn: string; paymentId: number; loadId: number; currency: string; providerObject: string | null },
  lines: TLedgerLine[],
  now: number,
): Promise<boolean> => {
  const sum = lines.reduce((s, l) => s + l.amountMinor, 0);
  if (sum !== 0 || lines.some((l) => !Number.isInteger(l.amountMinor)))
    throw new AppError(
      "INTERNAL_SERVER_ERROR",
      /*i18n*/ {
        id: "error.ledger.unbalanced",
        message: "The ledger transaction {txn} does not balance",
        values: { txn: t.txn },
      },
    );
  const [seen] = await tx
    .select({ id: ledgerEntries.id })
    .from(ledgerEntries)
    .where(eq(ledgerEntries.txn, t.txn))
    .limit(1);
  if (seen) return false;
  await tx.insert(ledgerEntries).values(
    lines
      .filter((l) => l.amountMinor !== 0)
      .map((l) => ({
        txn: t.txn,
        paymentId: t.paymentId,
        loadId: t.loadId,
        account: l.account,
        currency: t.currency,
        amountMinor: l.amountMinor,
        providerObject: t.providerObject,
        createdAt: now,
      })),
  );
  return true;
};

/** The provider's id of a movement, once known (a transfer made after the entries were written, by the outbox job). */
export const attachProviderObject = (tx: TTx | TDb, txn: string, providerObject: string) =>
  tx.update(ledgerEntries).set({ providerObject }).where(eq(ledgerEntries.txn, txn));

export type TLedgerProblem = { kind: string; paymentId: number | null; txn: string | null; detail: string };

/** What each state needs in the ledger: the transactions a payment in that state must have. */
const NEEDS: Record<string, string[]> = {
  awaiting_payment: [],
  failed: [],
  funded: ["fund"],
  disputed: ["fund"],
  released: ["fund", "release"],
  paid_out: ["fund", "release"],
  refunded: ["fund", "refund"],
};

/**
 * What a state may have beyond its needs: a dispute an operator split refunded part before releasing the rest
 * (`refund` beside the release); a paid-out payment the provider's fee on its transfer (`payout_fee`); a payment whose
 * payout failed keeps its funding and release (the money is the driver's, waiting for a transfer that works), and
 * a payout Stripe reversed its reversals (`payout_reversal`: the money back in escrow, for an operator). An operator's
 * settlement of a reversal releases again (`release/<n>`, kind `release`) or refunds (`refund/<n>`, kind `refund`), so
 * a payment with reversals may also be released or paid out with them, or refunded after its release
 * (REVERSAL_MAY_HAVE).
 */
const MAY_HAVE: Record<string, string[]> = {
  released: ["refund"],
  paid_out: ["refund", "payout_fee"],
  failed: ["fund", "release", "refund", "payout_reversal", "payout_fee"],
};
const REVERSAL_MAY_HAVE: Record<string, string[]> = {
  released: ["payout_reversal", "payout_fee"],
  paid_out: ["payout_reversal"],
  refunded: ["release", "payout_reversal", "payout_fee"],
};

/**
 * Checks the whole ledger: every transaction balances per currency, every payment's entries sum to zero, each
 * payment has exactly the transactions its state needs, every provider object is on one transaction only, and a
 * paid-out payment's release names its transfer. Returns the problems (none: the ledger is sound).
 */
export const checkLedger = async (db: TDb) => {
  const entries = await db.select().from(ledgerEntries).orderBy(asc(ledgerEntries.id));
  const pays = await db.select().from(freightPayments).orderBy(asc(freightPayments.id));
  const problems: TLedgerProblem[] = [];
  const byTxn = new Map<string, typeof entries>();
  for (const e of entries) byTxn.set(e.txn, [...(byTxn.get(e.txn) ?? []), e]);
  const objects = new Map<string, Set<string>>();
  for (const [txn, rows] of byTxn) {
    const sums = new Map<string, number>();
    for (const r of rows) sums.set(r.currency, (sums.get(r.currency) ?? 0) + Number(r.amountMinor));
    for (const [currency, sum] of sums)
      if (sum !== 0)
        problems.push({
          kind: "unbalanced",
          paymentId: rows[0]!.paymentId,
          txn,
          detail: `${txn} sums to ${sum} in ${currency}`,
        });
    if (new Set(rows.map((r) => r.paymentId)).size > 1)
      problems.push({ kind: "mixed", paymentId: rows[0]!.paymentId, txn, detail: `${txn} spans several payments` });
    for (const r of rows)
      if (r.providerObject) objects.set(r.providerObject, (objects.get(r.providerObject) ?? new Set()).add(txn));
  }
  for (const [object, txns] of objects)
    if (txns.size > 1)
      problems.push({
        kind: "object_twice",
        paymentId: null,
        txn: [...txns].join(","),
        detail: `${object} is on ${txns.size} transactions`,
      });
  for (const p of pays) {
    // A kind is the name before the payment's number, less any object it names (`payout_reversal/<trr>:<payment>`).
    const kinds = [...byTxn.keys()].filter((t) => t.endsWith(`:${p.id}`)).map((t) => t.split(":")[0]!.split("/")[0]!);
    const needs = NEEDS[p.state] ?? [];
    for (const k of needs)
      if (!kinds.includes(k))
        problems.push({ kind: "missing", paymentId: p.id, txn: `${k}:${p.id}`, detail: `${p.state} without ${k}` });
    if (kinds.includes("payout_reversal") && !kinds.includes("release"))
      problems.push({ kind: "missing", paymentId: p.id, txn: `release:${p.id}`, detail: "reversal without release" });
    if (p.state === "failed" && kinds.includes("release") !== kinds.includes("fund"))
      problems.push({ kind: "missing", paymentId: p.id, txn: null, detail: "failed with only one of fund, release" });
    const may = [
      ...(MAY_HAVE[p.state] ?? []),
      ...(kinds.includes("payout_reversal") ? (REVERSAL_MAY_HAVE[p.state] ?? []) : []),
    ];
    for (const k of kinds)
      if (!needs.includes(k) && !may.includes(k))
        problems.push({ kind: "unexpected", paymentId: p.id, txn: `${k}:${p.id}`, detail: `${p.state} with ${k}` });
    const total = entries.filter((e) => e.paymentId === p.id).reduce((s, e) => s + Number(e.amountMinor), 0);
    if (total !== 0)
      problems.push({ kind: "unbalanced", paymentId: p.id, txn: null, detail: `payment sums to ${total}` });
    if (kinds.includes("fund") && !entries.some((e) => e.txn === `fund:${p.id}` && e.providerObject === p.chargeRef))
      problems.push({ kind: "object_missing", paymentId: p.id, txn: `fund:${p.id}`, detail: "fund names no charge" });
    if (p.state === "paid_out" && !entries.some((e) => e.txn === `release:${p.id}` && e.providerObject))
      problems.push({
        kind: "object_missing",
        paymentId: p.id,
        txn: `release:${p.id}`,
        detail: "paid out without a transfer",
      });
  }
  return { entries: entries.length, payments: pays.length, problems };
};

/** A payment's entries, oldest first (for its history and the operator). */
export const entriesOf = (db: TDb | TTx, paymentIds: number[]) =>
  paymentIds.length
    ? db
        .select()
        .from(ledgerEntries)
        .where(and(inArray(ledgerEntries.paymentId, paymentIds)))
        .orderBy(asc(ledgerEntries.id))
    : Promise.resolve([]);
