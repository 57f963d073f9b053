import { z } from "zod";
import { zText } from "./text";

/** The steps of a load's trip after the award, as the timeline lists them. */
export const TRIP_EVENT_KINDS = [
  "awarded",
  "rate_confirmation_accepted",
  "picked_up",
  "delivered",
  "pod_accepted",
  "disputed",
  "completed",
  // The shipper edited the load while it was posted: detail { fields, before, after }.
  "edited",
] as const;
export type TTripEventKind = (typeof TRIP_EVENT_KINDS)[number];

/** How long the shipper has to accept or dispute a proof of delivery before the load completes by itself. */
export const POD_ANSWER_MS = 48 * 60 * 60_000;

export const ZDisputeInput = z.object({
  reason: zText({ error: "reason is required" })
    .trim()
    .min(1, "reason is required")
    .max(1000, "reason must be at most 1000 characters"),
});
export type TDisputeInput = z.infer<typeof ZDisputeInput>;

export type TTripEvent = {
  id: number;
  kind: TTripEventKind;
  at: string;
  /** Null when the system took the step (completion after 48 hours without an answer). */
  actor: { id: number; name: string } | null;
  detail: Record<string, unknown> | null;
};
