// Error messages that several domain modules throw, and the status words their messages name.
import type { Bid, Load } from "../../../../db/tables";
import type { TMessage } from "../../errors";

/** Also what another user's load reads as, so ids cannot be probed. */
export const LOAD_NOT_FOUND = /*i18n*/ { id: "error.load.notFound", message: "Load not found" };

// Load and bid statuses as error messages name them: in English the status itself (the texts read "it is in_transit"),
// in Amharic and Afaan Oromo the word the screens use.

export const LOAD_STATUS_WORD: Record<Load["status"], TMessage> = {
  posted: /*i18n*/ {
    id: "error.loadStatus.posted",
    comment: "A load's status word, inserted into error messages: the load is published and open for bids",
    message: "posted",
  },
  assigned: /*i18n*/ {
    id: "error.loadStatus.assigned",
    comment: "A load's status word, inserted into error messages: the load has been given to a driver",
    message: "assigned",
  },
  in_transit: /*i18n*/ {
    id: "error.loadStatus.inTransit",
    comment: "A load's status word, inserted into error messages: the driver is on the way with the load",
    message: "in_transit",
  },
  delivered: /*i18n*/ {
    id: "error.loadStatus.delivered",
    comment: "A load's status word, inserted into error messages: the load arrived at its delivery place",
    message: "delivered",
  },
  disputed: /*i18n*/ {
    id: "error.loadStatus.disputed",
    comment: "A load's status word, inserted into error messages: the shipper disputed the proof of delivery",
    message: "disputed",
  },
  completed: /*i18n*/ {
    id: "error.loadStatus.completed",
    comment: "A load's status word, inserted into error messages: the trip is over and confirmed",
    message: "completed",
  },
  cancelled: /*i18n*/ {
    id: "error.loadStatus.cancelled",
    comment: "A load's status word, inserted into error messages: the shipper cancelled the load",
    message: "cancelled",
  },
};

export const BID_STATUS_WORD: Record<Bid["status"], TMessage> = {
  pending: /*i18n*/ {
    id: "error.bidStatus.pending",
    comment: "A bid's status word, inserted into error messages: the shipper has not answered yet",
    message: "pending",
  },
  accepted: /*i18n*/ {
    id: "error.bidStatus.accepted",
    comment:
      "A bid's status word, inserted into error messages such as “This bid is accepted”: the shipper accepted it",
    message: "accepted",
  },
  rejected: /*i18n*/ {
    id: "error.bidStatus.rejected",
    comment: "A bid's status word, inserted into error messages: the shipper declined it",
    message: "rejected",
  },
  withdrawn: /*i18n*/ {
    id: "error.bidStatus.withdrawn",
    comment: "A bid's status word, inserted into error messages: the driver took the bid back",
    message: "withdrawn",
  },
};
