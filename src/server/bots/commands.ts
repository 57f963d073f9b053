// What the bots understand, once for Telegram and WhatsApp: text in, text (and buttons) out. Every command acts
// through the same router and procedures as the web app, as the account linked to the chat or number, so the rules,
// checks and errors are the app's own; errors come back in the user's language.
import type { TDb } from "../../../db/client";
import type { User } from "../../../db/tables";
import type { TLanguage } from "../../shared/constants";
import { CALENDARS, formatDate, type TCalendar } from "../../shared/dates";
import { formatMoney } from "../../shared/money";
import { placeLabel } from "../../shared/place";
import { formatDistance, unitFormatFor } from "../../shared/units";
import { describeError } from "../errors";
import { i18n } from "../i18n";
import type { TNotifyButton } from "../integrations/notifiers/types";
import type { TServices } from "../services";
import { createContext, type TChannel } from "../trpc/context";
import { createCaller } from "../trpc/root";

export type TBotReply = { text: string; buttons?: TNotifyButton[] };
export type TBotDeps = { db: TDb; services: TServices; baseUrl: string };
export type TBotUser = { user: User; language: TLanguage };

export const COMMANDS = [
  "loads",
  "bid",
  "offers",
  "accept",
  "counter",
  "decline",
  "track",
  "language",
  "stop",
  "help",
  "start",
] as const;
export type TCommand = (typeof COMMANDS)[number];

/** "/bid@mytess_bot 12 500 etb" or "bid 12 500 etb" → { command: "bid", args: ["12", "500", "etb"] }. */
export const parseCommand = (text: string): { command: TCommand | null; args: string[] } => {
  const [head = "", ...args] = text.trim().split(/\s+/);
  const name = head.replace(/^\//, "").replace(/@\w+$/, "").toLowerCase();
  return { command: (COMMANDS as readonly string[]).includes(name) ? (name as TCommand) : null, args };
};

const INTL: Record<TLanguage, string> = { en: "en-US", am: "am-ET", om: "en-GB" };

export const callerFor = (deps: TBotDeps, u: TBotUser, channel: TChannel) =>
  createCaller(createContext({ db: deps.db, actor: u.user, channel, locale: u.language, services: deps.services }));

const dateOf = (u: TBotUser, iso: string) =>
  formatDate(iso, {
    language: u.language,
    calendar: (CALENDARS as readonly string[]).includes(u.user.calendar) ? (u.user.calendar as TCalendar) : "gregorian",
    ethiopianTime: u.user.ethiopianTime,
    dateStyle: "medium",
    timeStyle: "short",
  });

/** An error as the user should read it: the app's own message, translated. */
export const errorText = (err: unknown, locale: TLanguage) => {
  const { body } = describeError(err, locale);
  const issue = body.issues?.[0];
  return issue && issue.message !== body.message ? `${body.message}: ${issue.message}` : body.message;
};

export const helpText = (locale: TLanguage, channel: "telegram" | "whatsapp") => {
  i18n.activate(locale);
  const p = channel === "telegram" ? "/" : "";
  return [
    i18n._({
      id: "bot.help.title",
      comment: "Telegram/WhatsApp bot: heading of the list of commands",
      message: "MyTess commands:",
    }),
    i18n._({ id: "bot.help.loads", message: "{p}loads: posted loads near your last location", values: { p } }),
    i18n._({
      id: "bot.help.bid",
      message: "{p}bid <load number> <amount> [USD|EUR|ETB]: place a bid",
      values: { p },
    }),
    i18n._({
      id: "bot.help.offers",
      message: "{p}offers: your pending bids and the shipper's counter-offers on them",
      values: { p },
    }),
    i18n._({
      id: "bot.help.counterAnswers",
      message:
        "{p}accept <bid number>, {p}decline <bid number>, {p}counter <bid number> <amount> [USD|EUR|ETB]: answer a counter-offer",
      values: { p },
    }),
    i18n._({ id: "bot.help.track", message: "{p}track <tracking number>: where a parcel is", values: { p } }),
    ...(channel === "telegram"
      ? [
          i18n._({ id: "bot.help.language", message: "/language: English, Amharic or Afaan Oromo" }),
          i18n._({ id: "bot.help.stop", message: "/stop: stop alerts here and unlink this chat" }),
        ]
      : []),
    i18n._({ id: "bot.help.help", message: "{p}help: this list", values: { p } }),
  ].join("\n");
};

/** For chats and numbers no account is linked to (a chat id typed in the app links nothing, so none is shown). */
export const notLinkedText = (locale: TLanguage, channel: "telegram" | "whatsapp") => {
  i18n.activate(locale);
  return channel === "telegram"
    ? i18n._({
        id: "bot.notLinked.telegram",
        message:
          "This chat is not linked to a MyTess account yet. In MyTess, open Messaging and press Connect Telegram, then press Start here.",
      })
    : i18n._({
        id: "bot.notLinked.whatsapp",
        message:
          "This number is not linked to a MyTess account. In MyTess, open Messaging, enter this number and confirm it with the code we send to it.",
      });
};

const PAGE = 5;

/** "Call: +1 312 555 0100 · Email: ops@example.com" for an external load, as its board gives the poster's contact. */
const posterContactLine = (
  contact: { name?: string | null; company?: string | null; phone?: string | null; email?: string | null } | null,
) => {
  const who = [contact?.company, contact?.name].filter(Boolean).join(" · ");
  const parts = [
    who || null,
    contact?.phone
      ? i18n._({
          id: "bot.loads.call",
          comment: "Bot load list, a load from an outside board: the poster's phone number to call ({phone})",
          message: "Call: {phone}",
          values: { phone: contact.phone },
        })
      : null,
    contact?.email
      ? i18n._({
          id: "bot.loads.email",
          comment: "Bot load list, a load from an outside board: the poster's email address ({email})",
          message: "Email: {email}",
          values: { email: contact.email },
        })
      : null,
  ].filter(Boolean);
  return parts.length
    ? parts.join(" · ")
    : i18n._({
        id: "bot.loads.externalNoContact",
        message: "From an outside board: book it with the poster through that board.",
      });
};

/** loads: the nearest posted loads to the driver's last known position, each with a Bid button. */
export const loadsCommand = async (deps: TBotDeps, u: TBotUser, channel: TChannel): Promise<TBotReply> => {
  i18n.activate(u.language);
  if (u.user.userType !== "driver")
    return { text: i18n._({ id: "bot.loads.driversOnly", message: "Only drivers look for loads here." }) };
  if (u.user.latitude == null || u.user.longitude == null)
    return {
      text: i18n._({
        id: "bot.loads.noLocation",
        message: "Share your location first: send it here as a location, or open the load board in the MyTess app.",
      }),
    };
  const radius = 50;
  const page = await callerFor(deps, u, channel).loads.search({
    latitude: u.user.latitude,
    longitude: u.user.longitude,
    radius,
    status: "posted",
    sort: "distance",
    page: 1,
    pageSize: PAGE,
  } as never);
  i18n.activate(u.language);
  if (!page.items.length)
    return {
      text: i18n._({
        id: "bot.loads.none",
        comment: "Bot: {radius} is a distance with its unit (80 km)",
        message: "No posted loads within {radius} of your last location.",
        values: { radius: formatDistance(radius, unitFormatFor(u.user.units, u.language), 0) },
      }),
    };
  const lines = page.items.map((l) =>
    [
      `#${l.id} ${l.title}`,
      `${l.pickupLocation} → ${l.deliveryLocation}`,
      [
        l.distance == null
          ? null
          : i18n._({
              id: "bot.loads.away",
              comment:
                "Telegram/WhatsApp bot load list: distance from the driver's last location to the pickup, with its unit (12 km)",
              message: "{distance} away",
              values: { distance: formatDistance(l.distance, unitFormatFor(u.user.units, u.language), 0) },
            }),
        dateOf(u, l.pickupDate),
        formatMoney(l.budgetAmount, l.budgetCurrency, INTL[u.language]),
      ]
        .filter(Boolean)
        .join(" · "),
      // An external load is booked with its poster, not bid on: the board's contact instead of a Bid button.
      l.source.type === "external" ? posterContactLine(l.source.contact) : null,
    ]
      .filter(Boolean)
      .join("\n"),
  );
  const header = i18n._({ id: "bot.loads.header", message: "Posted loads near you:" });
  const footer = i18n._({
    id: "bot.loads.howToBid",
    message: "To bid: bid <load number> <amount> [USD|EUR|ETB]",
  });
  return {
    text: [header, ...lines, footer].join("\n\n"),
    buttons: page.items
      .filter((l) => l.source.type !== "external")
      .map((l) => ({
        label: i18n._({
          id: "bot.loads.bidButton",
          comment: "Button under a load in the Telegram bot: place a bid (price offer) on load number #{id}",
          message: "Bid on #{id}",
          values: { id: l.id },
        }),
        data: `bid:${l.id}`,
      })),
  };
};

/** bid <load> <amount> [currency]: through the same procedure as the bid dialog. */
export const bidCommand = async (
  deps: TBotDeps,
  u: TBotUser,
  channel: TChannel,
  args: string[],
): Promise<TBotReply> => {
  i18n.activate(u.language);
  const usage = i18n._({
    id: "bot.bid.usage",
    message: "Write it like this: bid 123 500 ETB (load number, amount, currency)",
  });
  const [idText, amountText, currencyText] = args;
  const loadId = Number(idText?.replace(/^#/, ""));
  const amount = Number(amountText?.replace(/,/g, ""));
  if (!Number.isSafeInteger(loadId) || loadId <= 0 || !Number.isFinite(amount) || amount <= 0) return { text: usage };
  const currency = (currencyText ?? u.user.currency ?? "USD").toUpperCase();
  try {
    const out = await callerFor(deps, u, channel).bids.place({ loadId, amount, currency } as never);
    i18n.activate(u.language);
    return {
      text: out.replaced
        ? i18n._({
            id: "bot.bid.replaced",
            message: "Your bid on load #{id} is now {amount}.",
            values: { id: loadId, amount: formatMoney(amount, currency, INTL[u.language]) },
          })
        : i18n._({
            id: "bot.bid.placed",
            message: "Bid placed: {amount} on load #{id}. You will hear here when the shipper answers.",
            values: { id: loadId, amount: formatMoney(amount, currency, INTL[u.language]) },
          }),
    };
  } catch (err) {
    return { text: errorText(err, u.language) };
  }
};

/**
 * offers: the driver's pending bids, each with the shipper's open counter-offer if there is one and how to answer it
 * (Telegram also gets Accept / Decline buttons, the same ones the counter-offer's alert carries).
 */
export const offersCommand = async (deps: TBotDeps, u: TBotUser, channel: TChannel): Promise<TBotReply> => {
  i18n.activate(u.language);
  if (u.user.userType !== "driver")
    return { text: i18n._({ id: "bot.offers.driversOnly", message: "Only drivers have bids to answer here." }) };
  const mine = (await callerFor(deps, u, channel).bids.mine()).filter((b) => b.status === "pending");
  i18n.activate(u.language);
  if (!mine.length) return { text: i18n._({ id: "bot.offers.none", message: "You have no pending bids." }) };
  const money = (amount: number, currency: string) => formatMoney(amount, currency, INTL[u.language]);
  const lines = mine.map((b) => {
    const head = i18n._({
      id: "bot.offers.bid",
      comment: "Bot: one of the driver's pending bids; {bid} is the bid's number, {load} the load's number",
      message: "Bid {bid} on load #{load} {title}: {amount}",
      values: { bid: b.id, load: b.loadId, title: b.load.title, amount: money(b.amount, b.currency) },
    });
    const open = b.openCounter;
    if (!open) return head;
    return [
      head,
      open.side === "shipper"
        ? i18n._({
            id: "bot.offers.shipperOffers",
            comment: "Bot: the shipper's open counter-offer on the driver's bid, then how to answer it",
            message: "The shipper offers {amount}. Reply: accept {bid}, decline {bid} or counter {bid} <amount>",
            values: { amount: money(open.amount, open.currency), bid: b.id },
          })
        : i18n._({
            id: "bot.offers.yourOffer",
            comment: "Bot: the driver's own counter-offer waits for the shipper's answer",
            message: "Your counter-offer of {amount} waits for the shipper.",
            values: { amount: money(open.amount, open.currency) },
          }),
    ].join("\n");
  });
  const answerable = mine.filter((b) => b.openCounter?.side === "shipper");
  return {
    text: [i18n._({ id: "bot.offers.header", message: "Your pending bids:" }), ...lines].join("\n\n"),
    buttons: answerable.flatMap((b) => [
      {
        label: i18n._({
          id: "bot.offers.acceptButton",
          comment: "Bot button: accept the shipper's counter-offer on bid number {bid}",
          message: "Accept offer on {bid}",
          values: { bid: b.id },
        }),
        data: `caccept:${b.id}`,
      },
      {
        label: i18n._({
          id: "bot.offers.declineButton",
          comment: "Bot button: decline the shipper's counter-offer on bid number {bid}",
          message: "Decline offer on {bid}",
          values: { bid: b.id },
        }),
        data: `cdecline:${b.id}`,
      },
    ]),
  };
};

/**
 * accept <bid> / decline <bid> / counter <bid> <amount> [currency]: answers the open counter-offer on a bid through
 * the same procedures as the web app's buttons (the app decides whose turn it is and refuses the rest).
 */
export const counterAnswerCommand = async (
  deps: TBotDeps,
  u: TBotUser,
  channel: TChannel,
  action: "accept" | "decline" | "counter",
  args: string[],
): Promise<TBotReply> => {
  i18n.activate(u.language);
  const usage = i18n._({
    id: "bot.counter.usage",
    message: "Write it like this: accept 12, decline 12 or counter 12 850 ETB (bid number, then your amount)",
  });
  const [idText, amountText, currencyText] = args;
  const bidId = Number(idText?.replace(/^#/, ""));
  if (!Number.isSafeInteger(bidId) || bidId <= 0) return { text: usage };
  const caller = callerFor(deps, u, channel);
  try {
    if (action === "accept") {
      const out = await caller.bids.acceptCounter({ bidId });
      i18n.activate(u.language);
      return {
        text: i18n._({
          id: "bot.counter.acceptedAt",
          message: "Offer accepted: load #{load} is yours at {amount}.",
          values: { load: out.loadId, amount: formatMoney(out.agreedAmount, out.agreedCurrency, INTL[u.language]) },
        }),
      };
    }
    if (action === "decline") {
      await caller.bids.declineCounter({ bidId });
      i18n.activate(u.language);
      return {
        text: i18n._({
          id: "bot.counter.declinedText",
          message: "Offer declined. Your bid {bid} stays at its own amount.",
          values: { bid: bidId },
        }),
      };
    }
    const amount = Number(amountText?.replace(/,/g, ""));
    if (!Number.isFinite(amount) || amount <= 0) return { text: usage };
    const currency = (currencyText ?? u.user.currency ?? "USD").toUpperCase();
    await caller.bids.counter({ bidId, amount, currency } as never);
    i18n.activate(u.language);
    return {
      text: i18n._({
        id: "bot.counter.sent",
        message: "Counter-offer sent: {amount} on bid {bid}. You will hear here when the shipper answers.",
        values: { bid: bidId, amount: formatMoney(amount, currency, INTL[u.language]) },
      }),
    };
  } catch (err) {
    return { text: errorText(err, u.language) };
  }
};

const STATUS: Record<string, { id: string; message: string; comment?: string }> = {
  delivered: /*i18n*/ {
    id: "bot.track.delivered",
    comment: "Parcel tracking status in the Telegram bot: the parcel was delivered",
    message: "Delivered",
  },
  in_transit: /*i18n*/ {
    id: "bot.track.inTransit",
    comment: "Parcel tracking status in the Telegram bot: the parcel is on its way",
    message: "In transit",
  },
  exception: /*i18n*/ {
    id: "bot.track.exception",
    comment: "Parcel tracking status in the Telegram bot: a problem stopped the delivery (carrier exception)",
    message: "Delivery exception",
  },
  pending: /*i18n*/ { id: "bot.track.pending", message: "Label created, not yet moving" },
  unknown: /*i18n*/ {
    id: "bot.track.unknown",
    comment: "Parcel tracking status in the Telegram bot: the carrier gave no status",
    message: "Status unknown",
  },
};

/** track <number>: the carrier's latest status, place and dates. */
export const trackCommand = async (
  deps: TBotDeps,
  u: TBotUser,
  channel: TChannel,
  args: string[],
): Promise<TBotReply> => {
  i18n.activate(u.language);
  const number = args.join("");
  if (!number)
    return { text: i18n._({ id: "bot.track.usage", message: "Write it like this: track 1Z999AA10123456784" }) };
  try {
    const { tracking: t } = await callerFor(deps, u, channel).shipping.track({ trackingNumber: number });
    i18n.activate(u.language);
    const status = STATUS[t.status] ?? STATUS.unknown;
    const lines = [
      `${t.carrier.toUpperCase()} ${t.trackingNumber}: ${i18n._(status)}`,
      t.currentLocation
        ? i18n._({
            id: "bot.track.at",
            comment: "Telegram bot parcel tracking: the place where the parcel was last scanned",
            message: "Last seen: {place}",
            values: { place: placeLabel(t.currentLocation.city, t.currentLocation.state, t.currentLocation.country) },
          })
        : null,
      t.actualDelivery
        ? i18n._({
            id: "bot.track.deliveredAt",
            comment: "Telegram bot parcel tracking: the parcel was delivered on {date}",
            message: "Delivered {date}",
            values: { date: dateOf(u, t.actualDelivery) },
          })
        : t.estimatedDelivery
          ? i18n._({
              id: "bot.track.expected",
              comment: "Telegram bot parcel tracking: the date the carrier expects to deliver",
              message: "Expected {date}",
              values: { date: dateOf(u, t.estimatedDelivery) },
            })
          : null,
    ];
    return { text: lines.filter(Boolean).join("\n") };
  } catch (err) {
    return { text: errorText(err, u.language) };
  }
};

/** One point of a live location a driver shares in a chat: where, when (epoch seconds), and what the phone said of it. */
export type TLiveFix = { latitude: number; longitude: number; at: number; accuracy?: number; heading?: number };

/**
 * A driver's live location joins the trip they are on, as the app's positions do (same checks, a point stored once).
 * The first point is answered (on, for which trip, how to stop); the moves that follow are silent, and a move that
 * cannot be stored is only logged, since the chat would otherwise fill with errors every few seconds.
 */
export const liveLocationCommand = async (
  deps: TBotDeps,
  u: TBotUser,
  channel: TChannel,
  fix: TLiveFix,
  first: boolean,
): Promise<TBotReply | null> => {
  try {
    const r = await callerFor(deps, u, channel).tracking.liveLocation({
      latitude: fix.latitude,
      longitude: fix.longitude,
      recordedAt: new Date(fix.at * 1000).toISOString(),
      accuracy: fix.accuracy ?? null,
      heading: fix.heading ?? null,
    });
    if (!first) return null;
    i18n.activate(u.language);
    return {
      text: i18n._({
        id: "bot.live.on",
        message:
          "Location sharing is on: your live location now shows on the trip of load #{id} ({from} → {to}), which the shipper sees. To stop, open the live location in this chat and tap Stop sharing.",
        values: { id: r.loadId, from: r.from, to: r.to },
      }),
    };
  } catch (err) {
    if (first) return { text: errorText(err, u.language) };
    deps.services.log.info("telegram live location point not stored", { userId: u.user.id, error: String(err) });
    return null;
  }
};
