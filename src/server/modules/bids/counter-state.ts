import { and, asc, eq, inArray } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { type BidCounter, bidCounters } from "../../../../db/tables";
import { fromMinor } from "../../../shared/money";
import type { TCounterOffer } from "../../../shared/schemas/bids";

/**
 * Ends the open counter-offers of bids that stop being pending (changed, withdrawn, rejected, accepted at their own
 * amount, or left behind by another award or the load's cancellation), so no answer can land on a closed negotiation.
 * Runs in the transaction that changes the bid, under the load's lock.
 */
export const closeOpenCounters = async (
  tx: Pick<TTx, "update">,
  where: { bidIds: number[] } | { loadId: number },
  now: number,
) => {
  if ("bidIds" in where && !where.bidIds.length) return;
  await tx
    .update(bidCounters)
    .set({ status: "closed", answeredAt: now })
    .where(
      and(
        eq(bidCounters.status, "open"),
        "bidIds" in where ? inArray(bidCounters.bidId, where.bidIds) : eq(bidCounters.loadId, where.loadId),
      ),
    );
};

export const toPublicCounter = (c: BidCounter): TCounterOffer => ({
  id: c.id,
  bidId: c.bidId,
  side: c.side,
  amount: fromMinor(c.amountMinor, c.currency),
  currency: c.currency,
  status: c.status,
  createdAt: new Date(c.createdAt).toISOString(),
  answeredAt: c.answeredAt != null ? new Date(c.answeredAt).toISOString() : null,
});

/** Each bid's offers, oldest first, and the one waiting for an answer: what the bid lists show. */
export const negotiationsOf = async (db: Pick<TDb, "select">, bidIds: number[]) => {
  const out = new Map<number, { openCounter: TCounterOffer | null; counters: TCounterOffer[] }>();
  for (const id of bidIds) out.set(id, { openCounter: null, counters: [] });
  if (!bidIds.length) return out;
  const rows = await db
    .select()
    .from(bidCounters)
    .where(inArray(bidCounters.bidId, bidIds))
    .orderBy(asc(bidCounters.id));
  for (const row of rows) {
    const n = out.get(row.bidId);
    if (!n) continue;
    const c = toPublicCounter(row);
    n.counters.push(c);
    if (c.status === "open") n.openCounter = c;
  }
  return out;
};
