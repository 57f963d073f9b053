import type { TDb } from "../../../../db/client";
import { enqueueVerificationNotice } from "../notifications/notify";
import { reviewSubmission } from "./verification";

type TReviewer = { id: number } | null;

/** Approves a pending submission and tells its owner, in the same transaction. */
export const approveSubmission = (db: TDb, reviewer: TReviewer, id: number, now = Date.now()) =>
  reviewSubmission(
    db,
    reviewer,
    id,
    { status: "approved" },
    (tx, v) => enqueueVerificationNotice(tx, v.submittedBy, "verification_approved", {}, `${v.id}`, now),
    now,
  );

/** Rejects a pending submission with the reason its owner is told. */
export const rejectSubmission = (db: TDb, reviewer: TReviewer, id: number, reason: string, now = Date.now()) =>
  reviewSubmission(
    db,
    reviewer,
    id,
    { status: "rejected", reason },
    (tx, v) => enqueueVerificationNotice(tx, v.submittedBy, "verification_rejected", { reason }, `${v.id}`, now),
    now,
  );
