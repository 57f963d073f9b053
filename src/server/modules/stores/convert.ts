import { and, eq, isNull } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import {
  type EcommerceIntegration,
  type EcommerceOrder,
  ecommerceIntegrations,
  ecommerceOrders,
  type User,
} from "../../../../db/tables";
import { MONEY_CURRENCY_CODES } from "../../../shared/constants";
import { haversineMiles } from "../../../shared/geo";
import { oceanCrossing } from "../../../shared/landmass";
import { fromMinor } from "../../../shared/money";
import type { TCreateLoadInput } from "../../../shared/schemas/loads";
import { AppError } from "../../errors";
import { checkLoadAllowance } from "../accounts/verified-contact";
import { countryName, placeOf } from "../boards/map";
import { checkLoadDates, insertLoad } from "../loads/loads";
import { toPublicLoad } from "../loads/serialize";
import { fromUsd, loadRates, toUsd } from "../platform/fx";
import { settingsOf } from "./integrations";
import { toPublicOrder } from "./orders";

// An order becomes a posted load: pickup at the integration's warehouse, delivery at the customer's city (the store's
// coordinates, else the offline gazetteer by city, state and country), weight from the items, dates from the order and
// the settings, budget by the integration's rule. Once only: the order row is locked and changed on the condition that
// it has no load yet, so a second convert, or two at once, gets 409 and one load exists.

const DAY = 24 * 60 * 60 * 1000;
const GRAMS_PER_LB = 453.59237;

const NOT_FOUND = /*i18n*/ { id: "error.ecommerce.orderNotFound", message: "Order not found" };

export type TOrderDraft = {
  /** The load as far as the order and the settings tell; delivery coordinates are null when the city cannot be placed. */
  load: Omit<TCreateLoadInput, "deliveryLatitude" | "deliveryLongitude" | "pickupDate" | "deliveryDate"> & {
    deliveryLatitude: number | null;
    deliveryLongitude: number | null;
    pickupDate: string;
    deliveryDate: string;
  };
  /** What keeps the order from becoming a load by itself (field names of the load form). */
  missing: string[];
};

const money = (n: number) => Math.round(n * 100) / 100;

/** The load an order would become, and what is missing for it. */
export const draftLoad = async (
  db: TDb,
  i: EcommerceIntegration,
  o: EcommerceOrder,
  now = Date.now(),
): Promise<TOrderDraft> => {
  const s = settingsOf(i);
  const missing: string[] = [];
  const delivery =
    o.shippingLatitude != null && o.shippingLongitude != null
      ? {
          city: o.shippingCity ?? "",
          state: o.shippingState,
          country: countryName(o.shippingCountry ?? ""),
          latitude: o.shippingLatitude,
          longitude: o.shippingLongitude,
        }
      : o.shippingCity && o.shippingCountry
        ? placeOf({
            city: o.shippingCity,
            state: o.shippingState,
            country: o.shippingCountry,
            latitude: null,
            longitude: null,
          })
        : null;
  if (!o.shippingCity) missing.push("deliveryCity");
  if (!o.shippingCountry) missing.push("deliveryCountry");
  if (!delivery) missing.push("deliveryLatitude", "deliveryLongitude");
  const tripMiles = delivery
    ? haversineMiles(s.warehouse.latitude, s.warehouse.longitude, delivery.latitude, delivery.longitude)
    : 0;
  const grams = o.items.reduce((sum, it) => sum + (it.unitWeightGrams ?? 0) * it.quantity, 0);
  const weight = grams > 0 ? Math.max(1, Math.round((grams / GRAMS_PER_LB) * 10) / 10) : s.defaultWeightLbs;
  const pickup =
    Math.max(o.orderDate, now) + s.pickupLeadDays * DAY + (s.pickupLeadDays === 0 ? 2 * 60 * 60 * 1000 : 0);
  const deliveryAt = pickup + Math.max(1, Math.ceil(tripMiles / 500)) * DAY;
  let budgetAmount: number;
  let budgetCurrency = s.budget.currency;
  if (s.budget.mode === "fixed") budgetAmount = s.budget.amount;
  else if (s.budget.mode === "perMile") budgetAmount = s.budget.amount * Math.max(tripMiles, 1);
  else {
    const share = (fromMinor(o.totalMinor, o.currency) * s.budget.amount) / 100;
    if ((MONEY_CURRENCY_CODES as readonly string[]).includes(o.currency)) {
      budgetAmount = share;
      budgetCurrency = o.currency as typeof budgetCurrency;
    } else {
      const rates = await loadRates(db);
      budgetAmount = fromUsd(rates, toUsd(rates, share, o.currency), budgetCurrency);
    }
  }
  const items = o.items.map((it) => `${it.title} ×${it.quantity}`);
  const title = `Order ${o.orderNumber}: ${items.join(", ")}`.slice(0, 120);
  const deliveryCity = o.shippingCity ?? "";
  return {
    load: {
      title,
      description: [`Store order ${o.orderNumber} (${i.name})`, ...items].join("\n").slice(0, 2000),
      equipmentType: s.defaultEquipmentType,
      loadSize: "full" as const,
      pickupAddress: s.warehouse.address,
      pickupCity: s.warehouse.city,
      pickupState: s.warehouse.state ?? null,
      pickupCountry: s.warehouse.country,
      pickupLatitude: s.warehouse.latitude,
      pickupLongitude: s.warehouse.longitude,
      deliveryAddress: (
        o.shippingLine1 ||
        [o.shippingPostalCode, deliveryCity].filter(Boolean).join(" ") ||
        deliveryCity
      ).slice(0, 200),
      deliveryCity,
      deliveryState: o.shippingState,
      deliveryCountry: delivery?.country ?? countryName(o.shippingCountry ?? ""),
      deliveryLatitude: delivery?.latitude ?? null,
      deliveryLongitude: delivery?.longitude ?? null,
      pickupDate: new Date(pickup).toISOString(),
      deliveryDate: new Date(deliveryAt).toISOString(),
      weight,
      budgetAmount: Math.max(0.01, money(budgetAmount)),
      budgetCurrency,
      specialInstructions: o.customerName ? `Deliver to ${o.customerName}` : null,
    },
    missing,
  };
};

const ownOrder = async (db: TDb, user: User, id: number) => {
  const [row] = await db
    .select({ o: ecommerceOrders, i: ecommerceIntegrations })
    .from(ecommerceOrders)
    .innerJoin(ecommerceIntegrations, eq(ecommerceIntegrations.id, ecommerceOrders.integrationId))
    .where(and(eq(ecommerceOrders.id, id), eq(ecommerceOrders.userId, user.id)));
  if (!row) throw new AppError("NOT_FOUND", NOT_FOUND);
  return row;
};

export const orderDraft = async (db: TDb, user: User, id: number) => {
  const { o, i } = await ownOrder(db, user, id);
  return { order: toPublicOrder(o, i.name), ...(await draftLoad(db, i, o)) };
};

/**
 * Converts an order into a posted load, or, with `load`, posts the load the shipper completed from the order's draft
 * (when its city could not be placed). 409 when the order is already a load or was cancelled. A load whose countries
 * no road joins (an ocean crossing, shared/landmass.ts) is ocean freight: 400 naming `deliveryCountry` unless the
 * shipper confirmed it goes as a truck load all the same (`confirmOceanCrossing`).
 */
export const convertOrder = async (
  db: TDb,
  user: User,
  id: number,
  completed?: TCreateLoadInput,
  now = Date.now(),
  confirmOceanCrossing = false,
) => {
  if (user.userType !== "shipper")
    throw new AppError(
      "FORBIDDEN",
      /*i18n*/ { id: "error.ecommerce.shipperOnly", message: "Only a shipper account can post an order as a load" },
    );
  const { o, i } = await ownOrder(db, user, id);
  let input: TCreateLoadInput;
  if (completed) input = completed;
  else {
    const { load, missing } = await draftLoad(db, i, o, now);
    if (missing.length || load.deliveryLatitude == null || load.deliveryLongitude == null) {
      const message = /*i18n*/ {
        id: "error.ecommerce.cannotPlace",
        message: "The delivery address of order {order} cannot be placed on the map: complete the load",
        values: { order: o.orderNumber },
      };
      throw new AppError("BAD_REQUEST", message, {
        issues: (missing.length ? missing : ["deliveryLatitude"]).map((path) => ({ path, message })),
      });
    }
    input = {
      ...load,
      deliveryLatitude: load.deliveryLatitude,
      deliveryLongitude: load.deliveryLongitude,
      pickupDate: Date.parse(load.pickupDate),
      deliveryDate: Date.parse(load.deliveryDate),
    };
  }
  checkLoadDates(input, now);
  const crossing = oceanCrossing(input.pickupCountry, input.deliveryCountry);
  if (crossing && !confirmOceanCrossing) {
    const message = /*i18n*/ {
      id: "error.ecommerce.oceanCrossing",
      message:
        "No road joins {from} and {to}: this order needs ocean freight, not a truck load. Confirm to post it as a truck load all the same",
      values: { from: countryName(crossing.from), to: countryName(crossing.to) },
    };
    throw new AppError("BAD_REQUEST", message, { issues: [{ path: "deliveryCountry", message }] });
  }
  const done = await db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`order:${o.id}`]);
    const [fresh] = await tx.select().from(ecommerceOrders).where(eq(ecommerceOrders.id, o.id));
    if (!fresh || fresh.loadId != null || fresh.status === "converted")
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.ecommerce.alreadyConverted",
          message: "Order {order} is already a load",
          values: { order: o.orderNumber },
        },
      );
    if (fresh.status === "cancelled")
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.ecommerce.orderCancelled",
          message: "Order {order} was cancelled in the store",
          values: { order: o.orderNumber },
        },
      );
    // Orders count with hand-posted loads: a store anyone can open in minutes proves no contact, and its orders say
    // whatever its owner typed, so an unproven account posts at most a few loads by either door.
    await checkLoadAllowance(db, tx, user);
    const load = await insertLoad(tx, user, input, now);
    const [order] = await tx
      .update(ecommerceOrders)
      .set({ status: "converted", loadId: load.id, convertedAt: now, updatedAt: now })
      .where(and(eq(ecommerceOrders.id, o.id), isNull(ecommerceOrders.loadId)))
      .returning();
    if (!order)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.ecommerce.alreadyConverted",
          message: "Order {order} is already a load",
          values: { order: o.orderNumber },
        },
      );
    return { order, load };
  });
  return { order: toPublicOrder(done.order, i.name), load: toPublicLoad(done.load) };
};
