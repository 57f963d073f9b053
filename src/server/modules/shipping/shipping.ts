import { and, desc, eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { shipments, type User } from "../../../../db/tables";
import type { TLanguage } from "../../../shared/constants";
import { fromMinor, toMinor } from "../../../shared/money";
import type { TAddress, TPackage, TRateOption, TRatesInput, TTrackingResult } from "../../../shared/schemas/shipping";
import { CARRIERS, detectCarriers, normalizeTrackingNumber, type TCarrier } from "../../../shared/tracking-number";
import { AppError } from "../../errors";
import { translate } from "../../i18n";
import type { TCarrierRegistry } from "../../integrations/carriers/registry";

const notConfigured = (carriers: TCarrierRegistry, id: TCarrier) =>
  new AppError(
    "SERVICE_UNAVAILABLE",
    /*i18n*/ {
      id: "error.carrier.notConfigured",
      message: "{carrier} is not configured",
      values: { carrier: carriers.nameOf(id) },
    },
  );

/**
 * Asks the chosen carriers at once; one failing does not hide the others, and its reason is told in the caller's
 * language. Rates come cheapest first.
 */
export const shopRates = async (carriers: TCarrierRegistry, input: TRatesInput, locale: TLanguage = "en") => {
  const ids: TCarrier[] = input.carrier ? [input.carrier] : [...CARRIERS];
  const settled = await Promise.allSettled(
    ids.map(async (id) => {
      const adapter = carriers.get(id);
      if (!adapter) throw notConfigured(carriers, id);
      return adapter.rates({ shipper: input.shipper, recipient: input.recipient, packages: input.packages });
    }),
  );
  const rates: TRateOption[] = [];
  const errors: { carrier: TCarrier; message: string }[] = [];
  settled.forEach((s, i) => {
    if (s.status === "fulfilled") rates.push(...s.value);
    else
      errors.push({
        carrier: ids[i],
        message:
          s.reason instanceof AppError
            ? s.reason.messageIn(locale)
            : translate(
                locale,
                /*i18n*/ {
                  id: "error.carrier.unexpected",
                  comment: "Parcel rates/tracking: a carrier (FedEx, UPS, USPS) failed in a way we did not expect",
                  message: "{carrier}: unexpected error",
                  values: { carrier: carriers.nameOf(ids[i]) },
                },
              ),
      });
  });
  rates.sort((a, b) => a.totalCost - b.totalCost || (a.deliveryDays ?? 99) - (b.deliveryDays ?? 99));
  return { rates, errors };
};

/**
 * Tracks a package: with the carrier named, or else the carrier the number's format and check digit point to (when
 * two fit, the one that knows the number wins).
 */
export const trackPackage = async (
  carriers: TCarrierRegistry,
  raw: string,
  carrier?: TCarrier,
): Promise<TTrackingResult> => {
  const number = normalizeTrackingNumber(raw);
  const candidates = carrier ? [carrier] : [...new Set(detectCarriers(number).map((d) => d.carrier))];
  if (!candidates.length) {
    const unknown = /*i18n*/ {
      id: "error.shipping.unknownTrackingNumber",
      message: "This tracking number does not match a FedEx, UPS or USPS format",
    };
    throw new AppError("BAD_REQUEST", unknown, { issues: [{ path: "trackingNumber", message: unknown }] });
  }
  let last: unknown;
  for (const id of candidates) {
    const adapter = carriers.get(id);
    if (!adapter) {
      last = notConfigured(carriers, id);
      continue;
    }
    try {
      return await adapter.track(number);
    } catch (err) {
      last = err;
      if (!(err instanceof AppError && err.code === "NOT_FOUND")) throw err;
    }
  }
  throw last;
};

const toPublicShipment = (s: typeof shipments.$inferSelect) => ({
  id: s.id,
  carrier: s.carrier as TCarrier,
  serviceCode: s.serviceCode,
  serviceName: s.serviceName,
  totalCost: fromMinor(s.totalCostMinor, s.currency),
  currency: s.currency,
  deliveryDays: s.deliveryDays,
  guaranteedDelivery: s.guaranteedDelivery,
  shipper: s.shipper as TAddress,
  recipient: s.recipient as TAddress,
  packages: s.packages as TPackage[],
  createdAt: new Date(s.createdAt).toISOString(),
});

/** "Select This Service": the chosen quote is kept with its addresses in the user's shipments. */
export const saveShipment = async (
  db: TDb,
  user: User,
  input: { quote: TRateOption; shipper: TAddress; recipient: TAddress; packages: TPackage[] },
) =>
  toPublicShipment(
    (
      await db
        .insert(shipments)
        .values({
          userId: user.id,
          carrier: input.quote.carrier,
          serviceCode: input.quote.serviceCode,
          serviceName: input.quote.serviceName,
          totalCostMinor: toMinor(input.quote.totalCost, input.quote.currency),
          currency: input.quote.currency,
          deliveryDays: input.quote.deliveryDays,
          guaranteedDelivery: input.quote.guaranteedDelivery,
          shipper: input.shipper,
          recipient: input.recipient,
          packages: input.packages,
          createdAt: Date.now(),
        })
        .returning()
    )[0],
  );

export const listShipments = async (db: TDb, user: User) =>
  (
    await db
      .select()
      .from(shipments)
      .where(eq(shipments.userId, user.id))
      .orderBy(desc(shipments.createdAt), desc(shipments.id))
      .limit(100)
  ).map(toPublicShipment);

export const deleteShipment = async (db: TDb, user: User, id: number) => {
  const [gone] = await db
    .delete(shipments)
    .where(and(eq(shipments.id, id), eq(shipments.userId, user.id)))
    .returning({ id: shipments.id });
  if (!gone) throw new AppError("NOT_FOUND", /*i18n*/ { id: "error.shipment.notFound", message: "Shipment not found" });
  return { id, deleted: true };
};
