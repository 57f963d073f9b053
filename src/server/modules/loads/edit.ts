// A shipper edits a posted load (PATCH /api/loads/:id): posting's fields and checks, while it is posted, under the
// load's lock in one transaction with its history row (a trip event `edited`) and the notices to pending bidders.
import { and, eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { bids, type Load, loads, type User } from "../../../../db/tables";
import { haversineMiles } from "../../../shared/geo";
import { fromMinor, toMinor } from "../../../shared/money";
import type { TCreateLoadInput, TUpdateLoadInput } from "../../../shared/schemas/loads";
import { AppError } from "../../errors";
import { actsAsShipper } from "../companies/work";
import { enqueueNotify } from "../notifications/notify";
import { pickupCountryCode } from "../places/country";
import { recordTripEvent } from "../trips/events";
import { LOAD_NOT_FOUND, LOAD_STATUS_WORD } from "./errors";
import { checkLoadDates } from "./loads";

type TEditable = keyof TCreateLoadInput;

/** The load as posting's input names its fields: the weight, the budget in its currency's units, dates in ms. */
const asInput = (l: Load): TCreateLoadInput => ({
  title: l.title,
  description: l.description,
  equipmentType: l.equipmentType as TCreateLoadInput["equipmentType"],
  pickupAddress: l.pickupAddress,
  pickupCity: l.pickupCity,
  pickupState: l.pickupState,
  pickupCountry: l.pickupCountry,
  pickupLatitude: l.pickupLatitude,
  pickupLongitude: l.pickupLongitude,
  deliveryAddress: l.deliveryAddress,
  deliveryCity: l.deliveryCity,
  deliveryState: l.deliveryState,
  deliveryCountry: l.deliveryCountry,
  deliveryLatitude: l.deliveryLatitude,
  deliveryLongitude: l.deliveryLongitude,
  pickupDate: l.pickupDate,
  deliveryDate: l.deliveryDate,
  weight: l.weightLbs,
  budgetAmount: fromMinor(l.budgetMinor, l.budgetCurrency),
  budgetCurrency: l.budgetCurrency as TCreateLoadInput["budgetCurrency"],
  loadSize: l.loadSize,
  specialInstructions: l.specialInstructions,
});

/** A value as the history keeps it: dates as ISO text, the rest as the API gives it. */
const shown = (k: TEditable, v: unknown) =>
  (k === "pickupDate" || k === "deliveryDate") && typeof v === "number" ? new Date(v).toISOString() : (v ?? null);

const notPosted = (load: Load) =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.load.editNotPosted",
      comment: "{status} is a load's status word (assigned, in_transit, …)",
      message: "A load can be edited only while it is posted; this one is {status}",
      values: { status: LOAD_STATUS_WORD[load.status] },
    },
  );

/**
 * Applies `patch` to a posted load the user acts for as its shipper (others, and external loads: 404). Only the fields
 * that differ are written; with none, the load comes back unchanged and nothing is recorded or sent. Pending bids stay
 * pending, and each of their drivers is told once which fields changed.
 */
export const updateLoad = (db: TDb, user: User, loadId: number, patch: TUpdateLoadInput, now = Date.now()) =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`load:${loadId}`]);
    const [load] = await tx.select().from(loads).where(eq(loads.id, loadId));
    if (load?.sourceType !== "mytess" || !(await actsAsShipper(tx, load, user)))
      throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
    if (load.status !== "posted") throw notPosted(load);

    const before = asInput(load);
    const changed = (Object.keys(patch) as TEditable[]).filter((k) => patch[k] !== undefined && patch[k] !== before[k]);
    if (!changed.length) return load;
    const after: TCreateLoadInput = { ...before };
    for (const k of changed) (after as Record<TEditable, unknown>)[k] = patch[k];

    // Posting's checks on the result: delivery after pickup whichever moved, and a pickup moved not in the past (one
    // left alone may have passed since posting).
    checkLoadDates(after, changed.includes("pickupDate") ? now : Number.NEGATIVE_INFINITY);

    const { weight, budgetAmount, ...rest } = after;
    const [updated] = await tx
      .update(loads)
      .set({
        ...rest,
        weightLbs: weight,
        budgetMinor: toMinor(budgetAmount, after.budgetCurrency),
        tripMiles: haversineMiles(
          after.pickupLatitude,
          after.pickupLongitude,
          after.deliveryLatitude,
          after.deliveryLongitude,
        ),
        pickupCountryCode: pickupCountryCode(after.pickupCountry, after.pickupLatitude, after.pickupLongitude),
        updatedAt: now,
      })
      .where(and(eq(loads.id, load.id), eq(loads.status, "posted")))
      .returning();
    if (!updated) throw notPosted(load);

    await recordTripEvent(tx, load.id, "edited", user.id, now, {
      fields: changed,
      before: Object.fromEntries(changed.map((k) => [k, shown(k, before[k])])),
      after: Object.fromEntries(changed.map((k) => [k, shown(k, after[k])])),
    });
    const pending = await tx
      .select({ driverId: bids.driverId })
      .from(bids)
      .where(and(eq(bids.loadId, load.id), eq(bids.status, "pending")));
    await enqueueNotify(
      tx,
      pending.map((p) => p.driverId),
      { event: "load_updated", loadId: load.id, actorId: user.id, fields: changed, ref: now },
      now,
    );
    return updated;
  });
