// Counter-offers: the load's shipper answers a pending bid with an amount of their own; the driver accepts it (the
// load is awarded at that amount), declines it, or counters back; the shipper answers a driver's counter the same way.
// One offer is open per bid at a time, and only the side that did not make it answers, so each side has at most one
// open offer. Every step takes the load's lock (as placing, accepting, rejecting and withdrawing bids do) and changes
// rows only from the state it read, so two steps sent at once take turns and the second sees what the first did.
import { and, eq } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { type Bid, type BidCounter, bidCounters, type Load, type User } from "../../../../db/tables";
import { formatMoney, fromMinor, toMinor } from "../../../shared/money";
import type { TCounterOfferInput } from "../../../shared/schemas/bids";
import { AppError } from "../../errors";
import { actsAsShipper } from "../companies/work";
import { BID_STATUS_WORD, LOAD_STATUS_WORD } from "../loads/errors";
import { enqueueNotify } from "../notifications/notify";
import { awardBid, BID_NOT_FOUND, lockedBidAndLoad, notPending, updatePending } from "./bids";
import { toPublicCounter } from "./counter-state";

/** Which side of the bid the caller is; anyone else gets the bid's "not found", so ids cannot be probed. */
const sideOf = async (tx: TTx, actor: User, bid: Bid, load: Load): Promise<"shipper" | "driver"> => {
  if (await actsAsShipper(tx, load, actor)) return "shipper";
  if (bid.driverId === actor.id) return "driver";
  throw new AppError("NOT_FOUND", BID_NOT_FOUND);
};

const openCounterOf = async (tx: TTx, bidId: number) =>
  (
    await tx
      .select()
      .from(bidCounters)
      .where(and(eq(bidCounters.bidId, bidId), eq(bidCounters.status, "open")))
  )[0];

const COUNTER_CHANGED = /*i18n*/ {
  id: "error.counter.changedMeanwhile",
  message: "This offer was answered by another request at the same moment; reload and try again",
};

/** Moves an open offer to its answer, only while it is still open; anything else is a 409. */
const answerOpen = async (tx: TTx, counterId: number, status: BidCounter["status"], now: number) => {
  const [changed] = await tx
    .update(bidCounters)
    .set({ status, answeredAt: now })
    .where(and(eq(bidCounters.id, counterId), eq(bidCounters.status, "open")))
    .returning();
  if (!changed) throw new AppError("CONFLICT", COUNTER_CHANGED);
  return changed;
};

const money = (minor: number, currency: string) => formatMoney(fromMinor(minor, currency), currency);

const requirePostedLoad = (load: Load) => {
  if (load.status !== "posted")
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.counter.loadNotPosted",
        message: "Offers are made only on posted loads; this load is {status}",
        values: { status: LOAD_STATUS_WORD[load.status] },
      },
    );
};

/**
 * The shipper counters a pending bid (or the driver's counter), or the driver counters the shipper's open offer.
 * The other side's open offer, if any, becomes `countered`; the new offer is the open one.
 */
export const counterBid = (db: TDb, actor: User, bidId: number, input: TCounterOfferInput, now = Date.now()) =>
  db.transaction(async (tx) => {
    const { bid, load } = await lockedBidAndLoad(db, tx, bidId);
    const side = await sideOf(tx, actor, bid, load);
    if (bid.status !== "pending")
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.counter.bidNotPending",
          message: "This bid is {status}; only a pending bid can be countered",
          values: { status: BID_STATUS_WORD[bid.status] },
        },
      );
    requirePostedLoad(load);
    const open = await openCounterOf(tx, bid.id);
    if (open?.side === side)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.counter.ownOfferOpen",
          message: "Your offer of {amount} is still open; wait for the answer before making another",
          values: { amount: money(open.amountMinor, open.currency) },
        },
      );
    if (side === "driver" && !open)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.counter.driverNeedsOffer",
          message: "You can counter only an offer from the shipper; to change your price, change your bid",
        },
      );
    if (open) await answerOpen(tx, open.id, "countered", now);
    // The bid's own row moves too, and only while it is pending: an award or withdrawal that slipped past the lock
    // makes this a 409 instead of an offer on a closed bid.
    await updatePending(tx, bid.id, { updatedAt: now });
    const [counter] = await tx
      .insert(bidCounters)
      .values({
        bidId: bid.id,
        loadId: load.id,
        side,
        authorId: actor.id,
        amountMinor: toMinor(input.amount, input.currency),
        currency: input.currency,
        status: "open",
        createdAt: now,
      })
      .returning();
    await enqueueNotify(tx, [side === "shipper" ? bid.driverId : load.shipperId], {
      event: "counter_offered",
      loadId: load.id,
      actorId: actor.id,
      bidId: bid.id,
      ref: `c${counter.id}`,
      offer: { amountMinor: counter.amountMinor, currency: counter.currency },
    });
    return { bidId: bid.id, loadId: load.id, counter: toPublicCounter(counter) };
  });

/** The open offer and the caller's right to answer it: only the side that did not make it answers. */
const answerable = async (db: TDb, tx: TTx, actor: User, bidId: number) => {
  const { bid, load } = await lockedBidAndLoad(db, tx, bidId);
  const side = await sideOf(tx, actor, bid, load);
  const open = await openCounterOf(tx, bid.id);
  // Offers close with their bid, so a bid that is no longer pending has none open either.
  if (!open)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ { id: "error.counter.noneOpen", message: "There is no open counter-offer on this bid to answer" },
    );
  if (open.side === side)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.counter.ownOffer",
        message: "This is your own offer; the other side accepts or declines it",
      },
    );
  return { bid, load, open };
};

/** The other side accepts the open offer: the load is awarded to the bid's driver at the offer's amount. */
export const acceptCounter = (db: TDb, actor: User, bidId: number, now = Date.now()) =>
  db.transaction(async (tx) => {
    const { bid, load, open } = await answerable(db, tx, actor, bidId);
    if (bid.status !== "pending") throw notPending("accept", bid.status);
    requirePostedLoad(load);
    const counter = await answerOpen(tx, open.id, "accepted", now);
    const agreed = { amountMinor: open.amountMinor, currency: open.currency };
    const award = await awardBid(tx, load, bid, agreed, actor.id, now, {
      event: "counter_accepted",
      to: open.authorId,
      ref: `c${open.id}`,
      offer: agreed,
    });
    return { ...award, counter: toPublicCounter(counter) };
  });

/** The other side declines the open offer; the bid stays pending at its own amount. */
export const declineCounter = (db: TDb, actor: User, bidId: number, now = Date.now()) =>
  db.transaction(async (tx) => {
    const { bid, load, open } = await answerable(db, tx, actor, bidId);
    const counter = await answerOpen(tx, open.id, "declined", now);
    await enqueueNotify(tx, [open.authorId], {
      event: "counter_declined",
      loadId: load.id,
      actorId: actor.id,
      bidId: bid.id,
      ref: `c${open.id}`,
      offer: { amountMinor: open.amountMinor, currency: open.currency },
    });
    return { bidId: bid.id, loadId: load.id, counter: toPublicCounter(counter) };
  });
