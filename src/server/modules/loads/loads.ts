import { eq } from "drizzle-orm";
import { first, type TDb } from "../../../../db/client";
import { type Load, loads, type User } from "../../../../db/tables";
import { haversineMiles } from "../../../shared/geo";
import { toMinor } from "../../../shared/money";
import type { TCreateLoadInput } from "../../../shared/schemas/loads";
import { AppError } from "../../errors";
import { enqueue } from "../../jobs/queue";
import { checkLoadAllowance } from "../accounts/verified-contact";
import { actsAsShipper, dispatchesLoad, postingCompanyOf } from "../companies/work";
import { pickupCountryCode } from "../places/country";
import { recordActivity } from "../platform/activity";
import { savedSearchAlertsJob } from "../saved-searches/jobs";
import { LOAD_NOT_FOUND } from "./errors";
import { loadAlertsJob } from "./jobs";
import { toPublicLoad } from "./serialize";

// A pickup a few minutes in the past is the clock of the phone, not a mistake.
const PAST_GRACE_MS = 5 * 60 * 1000;

/** The rules that span fields: dates in order and in the future. */
export const checkLoadDates = (input: Pick<TCreateLoadInput, "pickupDate" | "deliveryDate">, now = Date.now()) => {
  if (input.pickupDate < now - PAST_GRACE_MS) {
    const past = /*i18n*/ { id: "error.load.pickupInPast", message: "pickupDate must not be in the past" };
    throw new AppError("BAD_REQUEST", past, { issues: [{ path: "pickupDate", message: past }] });
  }
  if (input.deliveryDate <= input.pickupDate) {
    const order = /*i18n*/ { id: "error.load.deliveryBeforePickup", message: "deliveryDate must be after pickupDate" };
    throw new AppError("BAD_REQUEST", order, { issues: [{ path: "deliveryDate", message: order }] });
  }
};

/** Writes a posted load inside the caller's transaction, with its activity and its load-alert job (the outbox). */
export const insertLoad = async (tx: TWriter, shipper: User, input: TCreateLoadInput, now = Date.now()) => {
  const { budgetAmount, weight, ...rest } = input;
  // Posted by a member of a shipper company: the load is the company's too (its owners and staff manage it).
  const shipperCompanyId = await postingCompanyOf(tx, shipper);
  const [load] = await tx
    .insert(loads)
    .values({
      ...rest,
      shipperId: shipper.id,
      shipperCompanyId,
      weightLbs: weight,
      budgetMinor: toMinor(budgetAmount, input.budgetCurrency),
      tripMiles: haversineMiles(
        input.pickupLatitude,
        input.pickupLongitude,
        input.deliveryLatitude,
        input.deliveryLongitude,
      ),
      status: "posted",
      sourceType: "mytess",
      pickupCountryCode: pickupCountryCode(input.pickupCountry, input.pickupLatitude, input.pickupLongitude),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await recordActivity(tx, [shipper.id], "load_posted", load!.id, shipper.id, now);
  // Drivers with load alerts near the pickup are found by the worker (the outbox: this job commits with the load).
  await enqueue(tx, loadAlertsJob, { loadId: load!.id }, { uniqueKey: `load_alerts:${load!.id}` }, now);
  // And the saved searches it matches, by their own job (a slow match never delays the drivers' alerts).
  await enqueue(tx, savedSearchAlertsJob, { loadId: load!.id }, { uniqueKey: `saved_search_alerts:${load!.id}` }, now);
  return load!;
};
type TWriter = Pick<TDb, "insert" | "select">;

/** Posts a load for a shipper after the rules that span fields: dates in order and in the future. */
export const createLoad = async (db: TDb, shipper: User, input: TCreateLoadInput, now = Date.now()) => {
  checkLoadDates(input, now);
  return db.transaction(async (tx) => {
    await checkLoadAllowance(db, tx, shipper);
    return insertLoad(tx, shipper, input, now);
  });
};

export const findLoad = async (db: TDb, id: number) =>
  first(await db.select().from(loads).where(eq(loads.id, id)).limit(1));

/** Who may see a load in full: anyone signed in while it is posted; afterwards its poster and its driver. */
export const canSeeLoad = (load: Load, viewer: User) =>
  load.sourceType === "external"
    ? load.sourceOwnerId === viewer.id
    : load.status === "posted" || load.shipperId === viewer.id || load.assignedDriverId === viewer.id;

/** The load a viewer may see: as above, or as its shipper company's member or its carrier company's dispatcher. */
export const getVisibleLoad = async (db: TDb, id: number, viewer: User) => {
  const load = await findLoad(db, id);
  if (
    !load ||
    !(
      canSeeLoad(load, viewer) ||
      (load.sourceType === "mytess" && (await actsAsShipper(db, load, viewer))) ||
      (await dispatchesLoad(db, load, viewer))
    )
  )
    throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  return load;
};

/** What a signed-out visitor sees of a shared load: enough to decide to sign in, nothing about the parties. */
export const publicPreview = async (db: TDb, id: number) => {
  const load = await findLoad(db, id);
  if (load?.status !== "posted" || load.sourceType !== "mytess") throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  const p = toPublicLoad(load!);
  return {
    id: p.id,
    title: p.title,
    pickupLocation: p.pickupLocation,
    deliveryLocation: p.deliveryLocation,
    pickupDate: p.pickupDate,
    deliveryDate: p.deliveryDate,
    equipmentType: p.equipmentType,
    weight: p.weight,
    budgetAmount: p.budgetAmount,
    budgetCurrency: p.budgetCurrency,
    tripMiles: p.tripMiles,
    isUrgent: p.isUrgent,
    status: p.status,
  };
};
