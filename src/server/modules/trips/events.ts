import { asc, eq, inArray } from "drizzle-orm";
import type { TDb, TTx } from "../../../../db/client";
import { loads, tripEvents, type User, users } from "../../../../db/tables";
import { fromMinor } from "../../../shared/money";
import type { TTripEvent, TTripEventKind } from "../../../shared/schemas/trips";
import type { TWebhookEvent } from "../../../shared/schemas/webhooks";
import { AppError } from "../../errors";
import { isTripParty } from "../companies/work";
import { LOAD_NOT_FOUND } from "../loads/errors";
import { emitWebhookEvent } from "../webhooks/emit";

/**
 * Writes one step of a load's trip. Callers hold the load's lock and write the status change in the same transaction,
 * so the timeline and the status never disagree. `actorId` null is the system.
 */
export const recordTripEvent = async (
  tx: TTx,
  loadId: number,
  kind: TTripEventKind,
  actorId: number | null,
  now: number,
  detail: Record<string, unknown> | null = null,
) => {
  await tx.insert(tripEvents).values({ loadId, kind, actorId, detail, createdAt: now });
  const event = WEBHOOK_OF[kind];
  if (!event) return;
  // Read in the step's transaction, after its update: the award's driver is the load's assigned driver by now.
  const [load] = await tx
    .select({ shipperId: loads.shipperId, assignedDriverId: loads.assignedDriverId, status: loads.status })
    .from(loads)
    .where(eq(loads.id, loadId));
  if (!load) return;
  await emitWebhookEvent(tx, {
    event,
    loadId,
    to: [load.shipperId, load.assignedDriverId],
    data: { status: load.status, ...webhookDetail(detail) },
    now,
  });
};

/** The trip steps a webhook endpoint can ask for (the others stay on the timeline). */
const WEBHOOK_OF: Partial<Record<TTripEventKind, TWebhookEvent>> = {
  awarded: "load.awarded",
  picked_up: "load.picked_up",
  delivered: "load.delivered",
  disputed: "load.disputed",
  completed: "load.completed",
};

/** A step's detail as a webhook carries it: amounts in the currency's units, as the REST answers give them. */
const webhookDetail = (detail: Record<string, unknown> | null) => {
  if (!detail) return {};
  const { amountMinor, ...rest } = detail;
  return typeof amountMinor === "number" && typeof rest.currency === "string"
    ? { ...rest, amount: fromMinor(amountMinor, rest.currency) }
    : rest;
};

/** The trip's steps, oldest first, for the load's shipper and assigned driver only (404 for everyone else). */
export const timelineOf = async (db: TDb, actor: User, loadId: number): Promise<TTripEvent[]> => {
  const [load] = await db
    .select({
      shipperId: loads.shipperId,
      assignedDriverId: loads.assignedDriverId,
      carrierCompanyId: loads.carrierCompanyId,
      shipperCompanyId: loads.shipperCompanyId,
    })
    .from(loads)
    .where(eq(loads.id, loadId));
  if (!load || !(await isTripParty(db, load, actor))) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  const rows = await db
    .select()
    .from(tripEvents)
    .where(eq(tripEvents.loadId, loadId))
    // The order they were recorded in: each step is written under the load's lock, so ids follow the steps; a step's
    // time is read when its request starts, before it waits for the lock, so two at once may carry swapped times.
    .orderBy(asc(tripEvents.id));
  const actorIds = [...new Set(rows.map((r) => r.actorId).filter((a): a is number => a != null))];
  const names = new Map(
    actorIds.length
      ? (
          await db
            .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
            .from(users)
            .where(inArray(users.id, actorIds))
        ).map((u) => [u.id, `${u.firstName} ${u.lastName}`.trim()])
      : [],
  );
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    at: new Date(r.createdAt).toISOString(),
    actor: r.actorId != null ? { id: r.actorId, name: names.get(r.actorId) ?? "" } : null,
    detail: r.detail ?? null,
  }));
};
