// Events reach people in two steps. The domain change, in its own transaction (the outbox), writes the in-app
// notification (the bell), a live event, and one `notify` job per recipient and channel the recipient has set up
// (web push, Telegram, WhatsApp), each under a key naming the occurrence so that nothing is enqueued twice. The job
// worker then renders the text in the recipient's language and sends it on that channel alone: a failing channel
// retries or fails by itself and never holds up the others.
import { createHash, randomBytes } from "node:crypto";
import { and, eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import {
  freightPayments,
  type Job,
  ledgerEntries,
  loads,
  messages,
  notifications,
  pushSubscriptions,
  users,
} from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import { formatMoney, fromMinor } from "../../../shared/money";
import { placeLabel } from "../../../shared/place";
import type { TMessagingType } from "../../../shared/schemas/messaging";
import type { TPushType } from "../../../shared/schemas/push";
import { formatDistance, unitFormatFor } from "../../../shared/units";
import { i18n, isLanguage } from "../../i18n";
import type { TNotifierRegistry } from "../../integrations/notifiers/registry";
import type { TNotification, TNotifyButton, TSendResult } from "../../integrations/notifiers/types";
import { enqueue, enqueueMany, JobDeferred, JobRetry, type TJobContext } from "../../jobs/queue";
import { publishLive } from "../../live/publish";
import { userHasPremium } from "../billing/premium";
import { notifyJob, type TNotifyEvent, type TNotifyPayload, type TSendChannel } from "./jobs";
import { markTelegramBlocked, messagingPreferencesOf, template } from "./messaging-preferences";
import { preferencesOf, quietUntil, recordNotification, sendToSubscriptions, subscriptionsOf } from "./push";

type TVerificationEvent = "verification_approved" | "verification_rejected" | "insurance_expiring";
export type TFreightEvent =
  | "freight_funded"
  | "freight_released"
  | "freight_paid_out"
  | "freight_payout_failed"
  | "freight_payout_needed"
  | "freight_payout_delayed"
  | "freight_payout_reversed";
type TLoadEvent = Exclude<
  TNotifyEvent,
  | "system_alert"
  | "announcement"
  | "payment_received"
  | "premium_ending"
  | "payment_resolved"
  | TVerificationEvent
  | TFreightEvent
>;

/** The notification type each event belongs to: an award is loadAssigned, everything else loadUpdates. */
export const TYPE_OF: Record<TNotifyEvent, TPushType> = {
  bid_received: "loadUpdates",
  bid_accepted: "loadAssigned",
  bid_rejected: "loadUpdates",
  counter_offered: "loadUpdates",
  counter_accepted: "loadAssigned",
  counter_declined: "loadUpdates",
  load_picked_up: "loadUpdates",
  load_delivered: "loadUpdates",
  load_completed: "loadUpdates",
  load_cancelled: "loadUpdates",
  load_updated: "loadUpdates",
  message_received: "loadUpdates",
  load_nearby: "loadUpdates",
  saved_search_match: "loadUpdates",
  truck_invitation: "loadUpdates",
  driver_arrived_pickup: "loadUpdates",
  driver_arrived_delivery: "loadUpdates",
  load_delayed: "loadUpdates",
  rate_confirmation_accepted: "loadUpdates",
  system_alert: "systemAlerts",
  announcement: "marketing",
  payment_received: "paymentReceived",
  premium_ending: "systemAlerts",
  payment_resolved: "paymentReceived",
  verification_approved: "systemAlerts",
  verification_rejected: "systemAlerts",
  insurance_expiring: "systemAlerts",
  freight_funded: "paymentReceived",
  freight_released: "paymentReceived",
  freight_paid_out: "paymentReceived",
  freight_payout_failed: "paymentReceived",
  freight_payout_needed: "paymentReceived",
  freight_payout_delayed: "paymentReceived",
  freight_payout_reversed: "paymentReceived",
};

/** A counter-offer's amount, as it travels in a notify job and is formatted for each recipient. */
export type TOffer = { amountMinor: number; currency: string };

type TEvent = {
  event: TLoadEvent;
  offer?: TOffer;
  loadId: number;
  actorId?: number | null;
  bidId?: number | null;
  messageId?: number | null;
  hoursLate?: number;
  fields?: string[];
  ref?: string | number;
};

/** The notification's title and body in `locale`. */
export const renderNotification = (
  locale: TLanguage,
  event: TLoadEvent,
  v: {
    load: string;
    name: string;
    text?: string;
    route?: string;
    distance?: string;
    hours?: number;
    amount?: string;
    search?: string;
    fields?: string;
  },
): { title: string; body: string } => {
  i18n.activate(locale);
  switch (event) {
    case "bid_received":
      return {
        title: i18n._({ id: "notify.bidReceived.title", message: "New bid on your load" }),
        body: i18n._({ id: "notify.bidReceived.body", message: "{name} placed a bid on {load}.", values: v }),
      };
    case "bid_accepted":
      return {
        title: i18n._({ id: "notify.bidAccepted.title", message: "Your bid was accepted" }),
        body: i18n._({ id: "notify.bidAccepted.body", message: "{load} is now assigned to you.", values: v }),
      };
    case "bid_rejected":
      return {
        title: i18n._({ id: "notify.bidRejected.title", message: "Your bid was not accepted" }),
        body: i18n._({ id: "notify.bidRejected.body", message: "The shipper declined your bid on {load}.", values: v }),
      };
    case "counter_offered":
      return {
        title: i18n._({
          id: "notify.counterOffered.title",
          comment: "Notification title: the other side answered a bid with a different price (a counter-offer)",
          message: "New counter-offer",
        }),
        body: i18n._({
          id: "notify.counterOffered.body",
          comment: "{amount} is a price with its currency (Br 9,500); answer with Accept, Counter or Decline",
          message: "{name} offers {amount} for {load}.",
          values: v,
        }),
      };
    case "counter_accepted":
      return {
        title: i18n._({ id: "notify.counterAccepted.title", message: "Your counter-offer was accepted" }),
        body: i18n._({
          id: "notify.counterAccepted.body",
          message: "{name} accepted {amount} for {load}; the load is awarded at that price.",
          values: v,
        }),
      };
    case "counter_declined":
      return {
        title: i18n._({ id: "notify.counterDeclined.title", message: "Your counter-offer was declined" }),
        body: i18n._({
          id: "notify.counterDeclined.body",
          message: "{name} declined your offer of {amount} for {load}.",
          values: v,
        }),
      };
    case "load_picked_up":
      return {
        title: i18n._({ id: "notify.loadPickedUp.title", message: "Load picked up" }),
        body: i18n._({
          id: "notify.loadPickedUp.body",
          message: "{load} has been picked up and is on its way.",
          values: v,
        }),
      };
    case "load_delivered":
      return {
        title: i18n._({
          id: "notify.loadDelivered.title",
          comment: "Notification title to the shipper: the load arrived at its delivery place",
          message: "Load delivered",
        }),
        body: i18n._({ id: "notify.loadDelivered.body", message: "{load} has been delivered.", values: v }),
      };
    case "load_completed":
      return {
        title: i18n._({
          id: "notify.loadCompleted.title",
          comment: "Notification title: the trip is finished and confirmed",
          message: "Load completed",
        }),
        body: i18n._({ id: "notify.loadCompleted.body", message: "{load} is marked as completed.", values: v }),
      };
    case "load_cancelled":
      return {
        title: i18n._({
          id: "notify.loadCancelled.title",
          comment: "Notification title to the driver: the shipper cancelled the load",
          message: "Load cancelled",
        }),
        body: i18n._({ id: "notify.loadCancelled.body", message: "{load} was cancelled by the shipper.", values: v }),
      };
    case "load_updated":
      return {
        title: i18n._({
          id: "notify.loadUpdated.title",
          comment: "Notification title to a driver who bid: the shipper changed details of the load (weight, dates, …)",
          message: "Load details changed",
        }),
        body: i18n._({
          id: "notify.loadUpdated.body",
          comment:
            "{fields} lists what changed, already translated and joined (weight, pickup date); your bid is unchanged",
          message: "The shipper changed {load}: {fields}. Your bid is still pending; check the load before the award.",
          values: v,
        }),
      };
    case "load_nearby":
      return {
        title: i18n._({ id: "notify.loadNearby.title", message: "New load near you" }),
        body: i18n._({
          id: "notify.loadNearby.body",
          comment: "New-load alert: {route} is origin → destination, {distance} a distance with its unit (12 km)",
          message: "{load}: {route}, pickup {distance} from you.",
          values: v,
        }),
      };
    case "saved_search_match":
      return {
        title: i18n._({
          id: "notify.savedSearchMatch.title",
          comment: "Notification title: a newly posted load matches a search the user saved on the load board",
          message: "New load for your saved search",
        }),
        body: i18n._({
          id: "notify.savedSearchMatch.body",
          comment: "Saved-search alert: {search} is the name the user gave the search, {route} origin → destination",
          message: "{search}: {load}, {route}.",
          values: v,
        }),
      };
    case "truck_invitation":
      return {
        title: i18n._({
          id: "notify.truckInvitation.title",
          comment: "Notification title to a driver: a shipper who saw their posted truck asks them to bid on a load",
          message: "Invitation to bid",
        }),
        body: i18n._({
          id: "notify.truckInvitation.body",
          comment: "{name} is the shipper's first name, {route} the load's origin → destination",
          message: "{name} invites you to bid on {route}.",
          values: v,
        }),
      };
    case "driver_arrived_pickup":
      return {
        title: i18n._({ id: "notify.arrivedPickup.title", message: "Driver at the pickup point" }),
        body: i18n._({
          id: "notify.arrivedPickup.body",
          message: "{name} is within 500 m of the pickup point of {load}.",
          values: v,
        }),
      };
    case "driver_arrived_delivery":
      return {
        title: i18n._({ id: "notify.arrivedDelivery.title", message: "Driver at the delivery point" }),
        body: i18n._({
          id: "notify.arrivedDelivery.body",
          message: "{name} is within 500 m of the delivery point of {load}.",
          values: v,
        }),
      };
    case "rate_confirmation_accepted":
      return {
        title: i18n._({
          id: "notify.rateConfirmationAccepted.title",
          comment:
            "Notification title: the other party of a trip accepted its rate confirmation (the agreed price and terms)",
          message: "Rate confirmation accepted",
        }),
        body: i18n._({
          id: "notify.rateConfirmationAccepted.body",
          comment: "{name} is the shipper or the driver of the trip, {load} the load's title",
          message: "{name} accepted the rate confirmation for {load}.",
          values: v,
        }),
      };
    case "load_delayed":
      return {
        title: i18n._({ id: "notify.loadDelayed.title", message: "Load running late" }),
        body: i18n._({
          id: "notify.loadDelayed.body",
          message:
            "{hours, plural, =0 {{load} is now expected shortly after its delivery date.} one {{load} is now expected about # hour after its delivery date.} other {{load} is now expected about # hours after its delivery date.}}",
          values: v,
        }),
      };
    case "message_received":
      return {
        title: i18n._({
          id: "notify.messageReceived.title",
          message: "New message from {name}",
          values: v,
        }),
        body: i18n._({
          id: "notify.messageReceived.body",
          comment:
            "Push/Telegram/WhatsApp notification body for a new chat message: the load's title, then the message text",
          message: "{load}: {text}",
          values: v,
        }),
      };
  }
};

/** What a load edit changed, in `locale`'s words: one name per part of the load, in the form's order, joined. */
const changedFieldsText = (fields: string[], locale: TLanguage) => {
  i18n.activate(locale);
  const names: string[] = [];
  for (const f of fields) {
    const name = LOAD_FIELD_NAME[LOAD_FIELD_PART[f] ?? ""]?.();
    if (name && !names.includes(name)) names.push(name);
  }
  return new Intl.ListFormat(locale === "en" ? "en" : locale, { type: "conjunction", style: "narrow" }).format(names);
};

/** Posting's fields by the part of the load the driver reads them as (the places' parts are one place). */
const LOAD_FIELD_PART: Record<string, string> = {
  title: "title",
  description: "description",
  equipmentType: "equipment",
  pickupAddress: "pickupPlace",
  pickupCity: "pickupPlace",
  pickupState: "pickupPlace",
  pickupCountry: "pickupPlace",
  pickupLatitude: "pickupPlace",
  pickupLongitude: "pickupPlace",
  deliveryAddress: "deliveryPlace",
  deliveryCity: "deliveryPlace",
  deliveryState: "deliveryPlace",
  deliveryCountry: "deliveryPlace",
  deliveryLatitude: "deliveryPlace",
  deliveryLongitude: "deliveryPlace",
  pickupDate: "pickupDate",
  deliveryDate: "deliveryDate",
  weight: "weight",
  budgetAmount: "budget",
  budgetCurrency: "budget",
  loadSize: "loadSize",
  specialInstructions: "instructions",
};

/** The parts' names, lower-case, as they are listed in the middle of a sentence. */
const LOAD_FIELD_NAME: Record<string, () => string> = {
  title: () =>
    i18n._({ id: "notify.loadField.title", comment: "A load's name, in a list of what changed", message: "title" }),
  description: () =>
    i18n._({
      id: "notify.loadField.description",
      comment: "In a list of what changed on a load",
      message: "description",
    }),
  equipment: () =>
    i18n._({
      id: "notify.loadField.equipment",
      comment: "The trailer type the load needs, in a list of what changed",
      message: "equipment type",
    }),
  pickupPlace: () =>
    i18n._({
      id: "notify.loadField.pickupPlace",
      comment: "Where the load is collected, in a list of what changed",
      message: "pickup location",
    }),
  deliveryPlace: () =>
    i18n._({
      id: "notify.loadField.deliveryPlace",
      comment: "Where the load is delivered, in a list of what changed",
      message: "delivery location",
    }),
  pickupDate: () =>
    i18n._({
      id: "notify.loadField.pickupDate",
      comment: "When the load is collected, in a list of what changed",
      message: "pickup date",
    }),
  deliveryDate: () =>
    i18n._({
      id: "notify.loadField.deliveryDate",
      comment: "When the load is due at delivery, in a list of what changed",
      message: "delivery date",
    }),
  weight: () =>
    i18n._({
      id: "notify.loadField.weight",
      comment: "The load's weight, in a list of what changed",
      message: "weight",
    }),
  budget: () =>
    i18n._({
      id: "notify.loadField.budget",
      comment: "The price the shipper offers, in a list of what changed",
      message: "budget",
    }),
  loadSize: () =>
    i18n._({
      id: "notify.loadField.loadSize",
      comment: "Full or partial truckload, in a list of what changed",
      message: "load size",
    }),
  instructions: () =>
    i18n._({
      id: "notify.loadField.instructions",
      comment: "The shipper's special instructions, in a list of what changed",
      message: "special instructions",
    }),
};

/** The number format of amounts in each language, as the bots write them (birr as "ብር" in Amharic). */
const MONEY_LOCALE: Record<TLanguage, string> = { en: "en-US", am: "am-ET", om: "en-GB" };

const localeOf = (language: string | null | undefined): TLanguage => (isLanguage(language) ? language : "en");

const quote = (s: string, max = 200) => (s.length <= max ? s : `${s.slice(0, max - 1)}…`);

/** A distance in miles as the recipient reads distances (their account's units), in `locale`'s words. */
const distanceFor = async (db: Pick<TDb, "select">, userId: number, miles: number, locale: TLanguage) => {
  const [u] = await db.select({ units: users.units }).from(users).where(eq(users.id, userId));
  return formatDistance(miles, unitFormatFor(u?.units, locale), 0);
};

/**
 * An operator's settlement of a disputed payment, to one of its parties: what they get (read from the ledger when the
 * job runs, so it says what was decided), or that the money went to the other party.
 */
/**
 * An operator settled a payment whose payout Stripe reversed: what is mine is the shipper's refunds of reversals
 * (`refund/<n>:…`) or the driver's releases after them (`release/<n>:…`).
 */
const composeReversalSettled = (
  title: string,
  currency: string,
  shipper: boolean,
  entries: { txn: string; account: string; amountMinor: number | bigint }[],
  locale: TLanguage,
) => {
  const mineMinor = entries
    .filter((e) =>
      shipper
        ? e.txn.startsWith("refund/") && e.account === "shipper"
        : e.txn.startsWith("release/") && e.account === "driver",
    )
    .reduce((s, e) => s + Number(e.amountMinor), 0);
  i18n.activate(locale);
  const v = { load: title, amount: formatMoney(fromMinor(mineMinor, currency), currency, MONEY_LOCALE[locale]) };
  const heading = i18n._({
    id: "notify.reversalSettled.title",
    comment: "Notification title: an operator decided what happens to a driver's payout that Stripe took back",
    message: "Reversed payout settled",
  });
  let body: string;
  if (mineMinor > 0)
    body = shipper
      ? i18n._({
          id: "notify.reversalSettled.refunded",
          message: "An operator settled the reversed payout on {load}: {amount} is refunded to you.",
          values: v,
        })
      : i18n._({
          id: "notify.reversalSettled.paidAgain",
          message: "An operator settled the reversed payout on {load}: {amount} is being paid to you again.",
          values: v,
        });
  else
    body = shipper
      ? i18n._({
          id: "notify.reversalSettled.toDriver",
          message: "An operator settled the reversed payout on {load}: the money is paid to the driver again.",
          values: v,
        })
      : i18n._({
          id: "notify.reversalSettled.toShipper",
          message: "An operator settled the reversed payout on {load}: the money is refunded to the shipper.",
          values: v,
        });
  return { title: heading, body, path: "/settings" };
};

const composeResolved = async (db: Pick<TDb, "select">, userId: number, loadId: number, locale: TLanguage) => {
  const [load] = await db.select({ title: loads.title }).from(loads).where(eq(loads.id, loadId));
  const [p] = await db.select().from(freightPayments).where(eq(freightPayments.loadId, loadId));
  const entries = p
    ? await db
        .select({ txn: ledgerEntries.txn, account: ledgerEntries.account, amountMinor: ledgerEntries.amountMinor })
        .from(ledgerEntries)
        .where(eq(ledgerEntries.paymentId, p.id))
    : [];
  const shipper = p?.shipperId === userId;
  if (p && entries.some((e) => e.txn.startsWith("payout_reversal/")))
    return composeReversalSettled(load?.title ?? `#${loadId}`, p.currency, shipper, entries, locale);
  const mineMinor = entries
    .filter((e) =>
      shipper
        ? e.txn.startsWith("refund:") && e.account === "shipper"
        : e.txn.startsWith("release:") && e.account === "driver",
    )
    .reduce((s, e) => s + Number(e.amountMinor), 0);
  i18n.activate(locale);
  const v = {
    load: load?.title ?? `#${loadId}`,
    amount: p ? formatMoney(fromMinor(mineMinor, p.currency), p.currency, MONEY_LOCALE[locale]) : "",
  };
  const title = i18n._({
    id: "notify.paymentResolved.title",
    comment: "Notification title: an operator decided a disputed freight payment",
    message: "Payment dispute settled",
  });
  let body: string;
  if (mineMinor > 0)
    body = shipper
      ? i18n._({
          id: "notify.paymentResolved.refunded",
          message: "An operator settled the payment dispute on {load}: {amount} is refunded to you.",
          values: v,
        })
      : i18n._({
          id: "notify.paymentResolved.released",
          message: "An operator settled the payment dispute on {load}: {amount} is released to you.",
          values: v,
        });
  else
    body = shipper
      ? i18n._({
          id: "notify.paymentResolved.toDriver",
          message: "An operator settled the payment dispute on {load}: the payment is released to the driver.",
          values: v,
        })
      : i18n._({
          id: "notify.paymentResolved.toShipper",
          message: "An operator settled the payment dispute on {load}: the payment is refunded to the shipper.",
          values: v,
        });
  return { title, body, path: "/settings" };
};

/** What to fix after a failed payout, in the driver's words; keyed by the reason the payments module gives. */
const payoutFix = (fix: string | undefined) => {
  switch (fix) {
    case "account_name":
      return i18n._({
        id: "notify.freightPayout.fix.accountName",
        message:
          "the account holder's name does not match the bank's records: correct the name in your payout settings",
      });
    case "account_number":
      return i18n._({
        id: "notify.freightPayout.fix.accountNumber",
        message: "the bank rejected the account number: check it in your payout settings",
      });
    default:
      return i18n._({
        id: "notify.freightPayout.fix.bank",
        message: "the bank refused the transfer: check your payout details or choose another bank or wallet",
      });
  }
};

/** A freight payment's notice to its driver: the load's title, the driver's share, and what to do if anything. */
const composeFreight = async (db: Pick<TDb, "select">, p: TNotifyPayload, locale: TLanguage) => {
  const [load] = p.loadId ? await db.select({ title: loads.title }).from(loads).where(eq(loads.id, p.loadId)) : [];
  i18n.activate(locale);
  const v = {
    load: load?.title ?? `#${p.loadId ?? ""}`,
    amount: p.freight
      ? formatMoney(fromMinor(p.freight.amountMinor, p.freight.currency), p.freight.currency, MONEY_LOCALE[locale])
      : "",
  };
  const path = p.loadId ? `/loads/${p.loadId}` : "/payments";
  switch (p.event) {
    case "freight_funded":
      return {
        title: i18n._({
          id: "notify.freightFunded.title",
          comment: "Notification title to the driver: the shipper paid the load's price into MyTess's escrow",
          message: "Payment secured",
        }),
        body: i18n._({
          id: "notify.freightFunded.body",
          message: "The shipper paid {amount} for {load}. You are paid when the delivery is accepted.",
          values: v,
        }),
        path,
      };
    case "freight_released":
      return {
        title: i18n._({
          id: "notify.freightReleased.title",
          comment: "Notification title to the driver: the escrowed money is released to them",
          message: "Payment released",
        }),
        body: i18n._({
          id: "notify.freightReleased.body",
          message: "{amount} for {load} is released to you and on its way to your payout account.",
          values: v,
        }),
        path,
      };
    case "freight_paid_out":
      return {
        title: i18n._({
          id: "notify.freightPaidOut.title",
          comment: "Notification title to the driver: the money was sent to their bank account or wallet",
          message: "Paid out",
        }),
        body: i18n._({
          id: "notify.freightPaidOut.body",
          message: "{amount} for {load} was sent to your payout account.",
          values: v,
        }),
        path,
      };
    case "freight_payout_failed":
      return {
        title: i18n._({ id: "notify.freightPayoutFailed.title", message: "Your payout failed" }),
        body: i18n._({
          id: "notify.freightPayoutFailed.body",
          comment: "{fix} says what went wrong and what to do, e.g. the bank rejected the account number",
          message: "We could not send {amount} for {load}: {fix}. It is sent again once you save your payout details.",
          values: { ...v, fix: payoutFix(p.freight?.fix) },
        }),
        path: "/settings",
      };
    case "freight_payout_delayed":
      return {
        title: i18n._({
          id: "notify.freightPayoutDelayed.title",
          comment: "Notification title to the driver: the bank transfer of their pay has not arrived after two days",
          message: "Payout delayed",
        }),
        body: i18n._({
          id: "notify.freightPayoutDelayed.body",
          message:
            "The transfer of {amount} for {load} is still pending at Chapa. Our team is checking it with Chapa; it is never sent twice, and you are told when it arrives.",
          values: v,
        }),
        path,
      };
    case "freight_payout_reversed":
      return {
        title: i18n._({
          id: "notify.freightPayoutReversed.title",
          comment: "Notification title to the driver: money already sent to their Stripe account was taken back",
          message: "Your payout was reversed",
        }),
        body: i18n._({
          id: "notify.freightPayoutReversed.body",
          message:
            "{amount} for {load} was taken back from your Stripe account. Check your Stripe account and contact MyTess support; the money is held until an operator settles it.",
          values: v,
        }),
        path,
      };
    default:
      return {
        title: i18n._({ id: "notify.freightPayoutNeeded.title", message: "Add a payout method to be paid" }),
        body: i18n._({
          id: "notify.freightPayoutNeeded.body",
          message:
            "{amount} for {load} is waiting for you. Add a bank account or wallet (or finish your Stripe setup) in your payout settings, and it is sent at once.",
          values: v,
        }),
        path: "/settings",
      };
  }
};

/** What the event says to one recipient, in `locale`, with the load's path. */
const compose = async (db: Pick<TDb, "select">, p: TNotifyPayload, locale: TLanguage) => {
  if (p.event === "payment_received" || p.event === "premium_ending") {
    i18n.activate(locale);
    const until = new Date(p.billing?.until ?? Date.now()).toLocaleDateString(locale === "en" ? "en-US" : locale, {
      dateStyle: "medium",
    });
    const v = { amount: p.billing?.amount ?? "", until };
    return p.event === "payment_received"
      ? {
          title: i18n._({
            id: "notify.paymentReceived.title",
            comment: "Notification title: a subscription payment arrived",
            message: "Payment received",
          }),
          body: i18n._({
            id: "notify.paymentReceived.body",
            message: "Thank you: {amount} received. MyTess Premium is active until {until}.",
            values: v,
          }),
          path: "/subscribe",
        }
      : {
          title: i18n._({ id: "notify.premiumEnding.title", message: "Premium ends soon" }),
          body: i18n._({
            id: "notify.premiumEnding.body",
            message: "Your MyTess Premium ends on {until}. Renew on the subscription page to keep bidding and posting.",
            values: v,
          }),
          path: "/subscribe",
        };
  }
  if (p.event === "payment_resolved" && p.loadId !== null) return composeResolved(db, p.userId, p.loadId, locale);
  if (p.event === "verification_approved" || p.event === "verification_rejected" || p.event === "insurance_expiring") {
    i18n.activate(locale);
    const path = "/verification";
    if (p.event === "verification_approved")
      return {
        title: i18n._({
          id: "notify.verificationApproved.title",
          comment: "Notification title: an operator checked the user's documents and approved them",
          message: "You are verified",
        }),
        body: i18n._({
          id: "notify.verificationApproved.body",
          message: "Your verification was approved: your loads and bids now show the Verified badge.",
        }),
        path,
      };
    if (p.event === "verification_rejected")
      return {
        title: i18n._({ id: "notify.verificationRejected.title", message: "Verification not approved" }),
        body: i18n._({
          id: "notify.verificationRejected.body",
          comment: "{reason} is the operator's own words, not translated",
          message: "Your verification was not approved: {reason}. You can correct it and submit again.",
          values: { reason: p.verification?.reason ?? "" },
        }),
        path,
      };
    return {
      title: i18n._({ id: "notify.insuranceExpiring.title", message: "Your insurance expires soon" }),
      body: i18n._({
        id: "notify.insuranceExpiring.body",
        comment: "{until} is a date such as 2027-03-01",
        message:
          "Your insurance certificate expires on {until}. Submit the new certificate so your badge keeps showing insurance.",
        values: { until: p.verification?.until ?? "" },
      }),
      path,
    };
  }
  if (p.event.startsWith("freight_")) return composeFreight(db, p, locale);
  if (p.loadId === null || p.event === "system_alert" || p.event === "announcement")
    return { title: p.text?.title ?? "MyTess", body: p.text?.body ?? "", path: p.loadId ? `/loads/${p.loadId}` : "/" };
  const [load] = await db
    .select({
      title: loads.title,
      pickupCity: loads.pickupCity,
      pickupCountry: loads.pickupCountry,
      deliveryCity: loads.deliveryCity,
      deliveryCountry: loads.deliveryCountry,
    })
    .from(loads)
    .where(eq(loads.id, p.loadId));
  const [actor] = p.actorId
    ? await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, p.actorId))
    : [];
  const [message] = p.messageId
    ? await db.select({ body: messages.body }).from(messages).where(eq(messages.id, p.messageId))
    : [];
  const text = renderNotification(locale, p.event as TLoadEvent, {
    load: load?.title ?? `#${p.loadId}`,
    name: actor?.firstName ?? "",
    text: quote(message?.body ?? ""),
    route: load
      ? `${placeLabel(load.pickupCity, load.pickupCountry)} → ${placeLabel(load.deliveryCity, load.deliveryCountry)}`
      : "",
    distance: p.event === "load_nearby" ? await distanceFor(db, p.userId, p.distance ?? 0, locale) : undefined,
    hours: p.hoursLate ?? 0,
    amount: p.offer
      ? formatMoney(fromMinor(p.offer.amountMinor, p.offer.currency), p.offer.currency, MONEY_LOCALE[locale])
      : undefined,
    search: p.searchName ?? "",
    fields: p.event === "load_updated" ? changedFieldsText(p.fields ?? [], locale) : undefined,
  });
  return { ...text, path: `/loads/${p.loadId}` };
};

/** The channels a user has set up, read inside the change's transaction: only those get a job. */
const channelsOf = async (tx: Pick<TDb, "select">, userId: number): Promise<TSendChannel[]> => {
  const out: TSendChannel[] = [];
  const [sub] = await tx
    .select({ id: pushSubscriptions.id })
    .from(pushSubscriptions)
    .where(eq(pushSubscriptions.userId, userId))
    .limit(1);
  if (sub) out.push("web_push");
  const m = await messagingPreferencesOf(tx, userId);
  if (m.telegramEnabled && m.telegramChatId) out.push("telegram");
  if (m.whatsappEnabled && m.whatsappNumber) out.push("whatsapp");
  return out;
};

type TWriter = Pick<TDb, "insert" | "select">;

/** The bell's row and its live event, then one job per channel: what every event does for each recipient. */
const fanOut = async (tx: TWriter, p: TNotifyPayload, key: string, now: number) => {
  const [user] = await tx.select({ language: users.language }).from(users).where(eq(users.id, p.userId));
  if (!user) return;
  const text = await compose(tx, p, localeOf(user.language));
  const [row] = await tx
    .insert(notifications)
    .values({
      userId: p.userId,
      type: TYPE_OF[p.event],
      title: text.title,
      body: text.body,
      url: text.path,
      loadId: p.loadId,
      channel: "in_app",
      status: "sent",
      createdAt: now,
    })
    .returning({ id: notifications.id });
  await publishLive(tx, [p.userId], "notification", { notificationId: row.id, loadId: p.loadId ?? undefined }, now);
  for (const channel of await channelsOf(tx, p.userId)) {
    await enqueue(tx, notifyJob, { ...p, channel }, { uniqueKey: `${key}:${channel}` }, now);
  }
};

/**
 * Everything an event sends, inside the transaction of the change. `ref` names the occurrence (a bid's id and time,
 * a load's transition): enqueueing the same occurrence twice adds no job.
 */
export const enqueueNotify = async (
  tx: TWriter,
  recipients: (number | null | undefined)[],
  e: TEvent,
  now = Date.now(),
) => {
  for (const userId of new Set(recipients.filter((r): r is number => typeof r === "number"))) {
    if (userId === e.actorId) continue;
    const payload: TNotifyPayload = {
      userId,
      event: e.event,
      loadId: e.loadId,
      actorId: e.actorId ?? null,
      bidId: e.bidId ?? null,
      messageId: e.messageId ?? null,
      ...(e.offer ? { offer: e.offer } : {}),
      ...(e.hoursLate != null ? { hoursLate: e.hoursLate } : {}),
      ...(e.fields ? { fields: e.fields } : {}),
    };
    await fanOut(tx, payload, `notify:${e.event}:${e.loadId}:${e.ref ?? ""}:${userId}`, now);
  }
};

const absolute = (baseUrl: string, path: string) => `${baseUrl.replace(/\/+$/, "")}${path}`;

/** Telegram refuses link buttons to plain-HTTP or local addresses; the link stays in the text then. */
const linkable = (url: string) => {
  const u = new URL(url);
  return u.protocol === "https:" && !/^(localhost|127\.|\[::1\])/.test(u.hostname);
};

const CHAT_TYPE: Partial<Record<TPushType, TMessagingType>> = {
  loadAssigned: "loadAssigned",
  loadUpdates: "loadUpdates",
  paymentReceived: "paymentReceived",
  systemAlerts: "systemAlerts",
};

type TDeps = { notifiers: TNotifierRegistry; baseUrl: string };
type TRecord = { userId: number; type: TPushType; title: string; body: string; url: string; loadId: number | null };

const record = (db: TDb, r: TRecord, channel: TSendChannel, status: "sent" | "failed", now: number) =>
  db.insert(notifications).values({ ...r, channel, status, createdAt: now });

/** A passing failure: again later (Telegram's retry_after when it gave one), or a failed row on the last attempt. */
const retryLater = async (db: TDb, job: Job, p: TNotifyPayload, r: TRecord, result: TSendResult, now: number) => {
  if (result.status !== "retry") return;
  if (result.retryAfterSeconds && job.attempts < job.maxAttempts)
    throw new JobDeferred(now + result.retryAfterSeconds * 1000, p);
  if (job.attempts >= job.maxAttempts && p.channel) await record(db, r, p.channel, "failed", now);
  throw new JobRetry(result.reason, p);
};

/** Telegram or WhatsApp: one message to the user's linked chat or number, in their messaging language. */
const sendChat = async (
  db: TDb,
  deps: TDeps,
  job: Job,
  p: TNotifyPayload & { channel: "telegram" | "whatsapp" },
  now: number,
) => {
  // Chat alerts are premium: an account without it keeps the bell and web push.
  if (!(await userHasPremium(db, p.userId, now))) return { skipped: "premium ended" };
  const prefs = await messagingPreferencesOf(db, p.userId);
  const type = CHAT_TYPE[TYPE_OF[p.event]];
  if (!type || !prefs.notificationTypes[type]) return { skipped: "turned off" };
  const on = p.channel === "telegram" ? prefs.telegramEnabled && prefs.telegramChatId : prefs.whatsappEnabled;
  if (!on) return { skipped: "channel off" };
  const notifier = deps.notifiers.get(p.channel);
  if (!notifier) return { skipped: "not configured" };
  const text = await compose(db, p, prefs.language);
  const url = absolute(deps.baseUrl, text.path);
  const r: TRecord = {
    userId: p.userId,
    type: TYPE_OF[p.event],
    title: text.title,
    body: text.body,
    url,
    loadId: p.loadId,
  };
  const n: TNotification = { title: text.title, body: text.body, url };
  let result: TSendResult;
  if (p.channel === "telegram") {
    i18n.activate(prefs.language);
    const buttons: TNotifyButton[] = [];
    if (p.event === "bid_received" && p.bidId)
      buttons.push(
        {
          label: i18n._({
            id: "notify.button.accept",
            comment: "Button under a Telegram/WhatsApp bid notification: accept this driver's bid (award the load)",
            message: "Accept",
          }),
          data: `accept:${p.bidId}`,
        },
        {
          label: i18n._({
            id: "notify.button.reject",
            comment: "Button under a Telegram/WhatsApp bid notification: decline this driver's bid",
            message: "Reject",
          }),
          data: `reject:${p.bidId}`,
        },
      );
    if (p.event === "counter_offered" && p.bidId)
      buttons.push(
        {
          label: i18n._({
            id: "notify.button.accept",
            comment: "Button under a Telegram/WhatsApp bid notification: accept this driver's bid (award the load)",
            message: "Accept",
          }),
          data: `caccept:${p.bidId}`,
        },
        {
          label: i18n._({
            id: "notify.button.decline",
            comment: "Button under a Telegram counter-offer notification: decline the offered price",
            message: "Decline",
          }),
          data: `cdecline:${p.bidId}`,
        },
      );
    if (linkable(url))
      buttons.push({
        label: i18n._({
          id: "notify.button.open",
          comment: "Button under a Telegram/WhatsApp notification: open this load in MyTess",
          message: "Open load",
        }),
        url,
      });
    result = await notifier.send({ chatId: prefs.telegramChatId as string }, { ...n, buttons });
    if (result.status === "gone") await markTelegramBlocked(db, p.userId, now);
  } else {
    const whatsapp = deps.notifiers.get("whatsapp");
    if (!whatsapp || !prefs.whatsappNumber) return { skipped: "not configured" };
    result = await whatsapp.send(
      { phone: prefs.whatsappNumber, lastInboundAt: prefs.whatsappLastInboundAt },
      { ...n, whatsappTemplate: template(prefs.language, n) },
    );
  }
  await retryLater(db, job, p, r, result, now);
  await record(db, r, p.channel, result.status === "delivered" ? "sent" : "failed", now);
  return { status: result.status };
};

/**
 * The push Topic (RFC 8030) of a job: the same for every attempt, so a message sent again after its worker died
 * replaces the undelivered one at the push service, and (as the notification's tag) a shown one on the device.
 */
export const pushTopic = (job: Pick<Job, "id" | "uniqueKey">) =>
  createHash("sha256")
    .update(job.uniqueKey ?? `job:${job.id}`)
    .digest("base64url")
    .slice(0, 32);

/** Web push: the user's push preferences and quiet hours, every subscription once. */
const sendPush = async (db: TDb, deps: TDeps, job: Job, p: TNotifyPayload, now: number) => {
  const [user] = await db.select().from(users).where(eq(users.id, p.userId));
  if (!user) return { skipped: "no user" };
  const type = TYPE_OF[p.event];
  const prefs = await preferencesOf(db, user.id);
  if (!prefs.enabled || !prefs.notificationTypes[type]) return { skipped: "turned off" };
  const sent = new Set(p.sent ?? []);
  const subs = (await subscriptionsOf(db, user.id)).filter((s) => !sent.has(s.id));
  if (!subs.length && !sent.size) return { skipped: "no subscription" };

  const text = await compose(db, p, localeOf(user.language));
  const url = absolute(deps.baseUrl, text.path);
  const r: TRecord = { userId: user.id, type, title: text.title, body: text.body, url, loadId: p.loadId };

  const until = quietUntil(prefs.quietHours, now);
  if (until !== null) {
    const heldId =
      p.heldId ??
      (
        await recordNotification(db, { userId: user.id, type, title: r.title, body: r.body, url, status: "held" }, now)
      )[0]?.id;
    throw new JobDeferred(until, { ...p, heldId });
  }

  const results = await sendToSubscriptions(db, deps.notifiers, subs, {
    title: r.title,
    body: r.body,
    url,
    urgency: ["bid_received", "bid_accepted", "counter_offered", "counter_accepted"].includes(p.event)
      ? "high"
      : "normal",
    topic: pushTopic(job),
  });
  for (const x of results) if (x.result.status === "delivered") sent.add(x.sub.id);
  const retry = results.find((x) => x.result.status === "retry");
  const next = { ...p, sent: [...sent] };
  if (retry) {
    if (job.attempts >= job.maxAttempts && !sent.size) {
      await finishPush(db, p, r, "failed", now);
    }
    throw new JobRetry(retry.result.status === "retry" ? retry.result.reason : "retry", next);
  }
  await finishPush(db, p, r, sent.size ? "sent" : "failed", now);
  return { sent: sent.size, results: results.map((x) => x.result.status) };
};

const finishPush = async (db: TDb, p: TNotifyPayload, r: TRecord, status: "sent" | "failed", now: number) => {
  if (p.heldId) {
    await db
      .update(notifications)
      .set({ status, createdAt: now })
      .where(and(eq(notifications.id, p.heldId), eq(notifications.userId, p.userId)));
  } else {
    await record(db, r, "web_push", status, now);
  }
};

/** The `notify` job's run: `baseUrl` is the public origin links point at. */
export const notifyHandler = async (p: TNotifyPayload, ctx: TJobContext<"notifiers">) => {
  const { db, job } = ctx;
  const deps: TDeps = { notifiers: ctx.services.notifiers, baseUrl: ctx.baseUrl };
  const now = Date.now();
  if (!p.channel) {
    // Alerts of new loads are premium, as bidding is: none for an account whose premium ended after the match.
    if (p.event === "load_nearby" && !(await userHasPremium(db, p.userId, now))) return { skipped: "premium ended" };
    // A job for the recipient as a whole (bulk alerts, or written before channels): its fan-out, then done.
    await db.transaction((tx) => fanOut(tx, p, job.uniqueKey ?? `notify:job:${job.id}`, now));
    return { fannedOut: true };
  }
  if (p.channel === "web_push") return sendPush(db, deps, job, p, now);
  return sendChat(db, deps, job, { ...p, channel: p.channel }, now);
};

/** A billing notice to one user (the bell and their channels), once per `ref`. */
export const enqueueBillingNotice = (
  tx: Pick<TDb, "insert">,
  userId: number,
  event: "payment_received" | "premium_ending",
  billing: { amount: string; until: number },
  ref: string,
  now = Date.now(),
) =>
  enqueue(
    tx,
    notifyJob,
    {
      userId,
      event,
      loadId: null,
      billing: { amount: billing.amount, until: new Date(billing.until).toISOString() },
    },
    { uniqueKey: `notify:${event}:${ref}` },
    now,
  );

/** An operator's settlement of a disputed payment, to both its parties (the bell and their channels), once each. */
export const enqueuePaymentResolvedNotice = async (
  tx: Pick<TDb, "insert">,
  userIds: number[],
  loadId: number,
  paymentId: number,
  now = Date.now(),
  /** Which settlement of the payment (a reversed payout's: `reversal:<attempt>`); a dispute's has none. */
  ref?: string,
) => {
  for (const userId of userIds)
    await enqueue(
      tx,
      notifyJob,
      { userId, event: "payment_resolved", loadId },
      { uniqueKey: `notify:payment_resolved:${paymentId}${ref ? `:${ref}` : ""}:${userId}` },
      now,
    );
};

/** A freight payment's notice to its driver (the bell and their channels), once per `ref`. */
export const enqueueFreightNotice = (
  tx: Pick<TDb, "insert">,
  userId: number,
  event: TFreightEvent,
  loadId: number,
  freight: { amountMinor: number; currency: string; fix?: string },
  ref: string,
  now = Date.now(),
) => enqueue(tx, notifyJob, { userId, event, loadId, freight }, { uniqueKey: `notify:${event}:${ref}` }, now);

/** A verification notice to its owner (the bell and their channels), once per `ref`. */
export const enqueueVerificationNotice = (
  tx: Pick<TDb, "insert">,
  userId: number,
  event: TVerificationEvent,
  verification: { reason?: string; until?: string },
  ref: string,
  now = Date.now(),
) =>
  enqueue(tx, notifyJob, { userId, event, loadId: null, verification }, { uniqueKey: `notify:${event}:${ref}` }, now);

/**
 * An operator's message to every user (or every driver or shipper): one job per user, each fanning out to the bell and
 * the user's channels when it runs, so the call returns at once however many users there are. `systemAlerts` reaches
 * push and chats where that type is on; `marketing` only push (chats have no marketing type).
 */
export const broadcast = async (
  db: TDb,
  b: { type: "systemAlerts" | "marketing"; title: string; message: string; role?: "driver" | "shipper" },
  now = Date.now(),
) => {
  const id = `${now}-${randomBytes(4).toString("hex")}`;
  const recipients = await db
    .select({ id: users.id })
    .from(users)
    .where(b.role ? eq(users.userType, b.role) : undefined)
    .orderBy(users.id);
  const event: TNotifyEvent = b.type === "systemAlerts" ? "system_alert" : "announcement";
  await enqueueMany(
    db,
    notifyJob,
    recipients.map((u) => ({
      payload: { userId: u.id, event, loadId: null, text: { title: b.title, body: b.message } },
      uniqueKey: `notify:broadcast:${id}:${u.id}`,
    })),
    now,
  );
  return { broadcastId: id, recipients: recipients.length };
};
