// Error messages that several domain modules throw, and the status words their messages name.
import type { Bid, Load } from "../../../db/tables";
import type { TMessage } from "../errors";

/** Also what another user's load reads as, so ids cannot be probed. */
export const LOAD_NOT_FOUND = /*i18n*/ { id: "error.load.notFound", message: "Load not found" };

// Load and bid statuses as error messages name them: in English the status itself (the texts read "it is in_transit"),
// in Amharic and Afaan Oromo the word the screens use.

export const LOAD_STATUS_WORD: Record<Load["status"], TMessage> = {
  posted: /*i18n*/ { id: "error.loadStatus.posted", message: "posted" },
  assigned: /*i18n*/ { id: "error.loadStatus.assigned", message: "assigned" },
  in_transit: /*i18n*/ { id: "error.loadStatus.inTransit", message: "in_transit" },
  delivered: /*i18n*/ { id: "error.loadStatus.delivered", message: "delivered" },
  completed: /*i18n*/ { id: "error.loadStatus.completed", message: "completed" },
  cancelled: /*i18n*/ { id: "error.loadStatus.cancelled", message: "cancelled" },
};

export const BID_STATUS_WORD: Record<Bid["status"], TMessage> = {
  pending: /*i18n*/ { id: "error.bidStatus.pending", message: "pending" },
  accepted: /*i18n*/ { id: "error.bidStatus.accepted", message: "accepted" },
  rejected: /*i18n*/ { id: "error.bidStatus.rejected", message: "rejected" },
  withdrawn: /*i18n*/ { id: "error.bidStatus.withdrawn", message: "withdrawn" },
};
