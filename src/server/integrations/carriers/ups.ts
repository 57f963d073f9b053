import type { TRateOption, TTrackingResult } from "../../../shared/schemas/shipping";
import { AppError } from "../../errors";
import { parseWire } from "../http/kit";
import { carrierSaid, createCarrierClient, RATE_REQUEST_FAILED, TRACKING_REQUEST_FAILED } from "./client";
import { upsStatus } from "./status";
import type { TCarrierAdapter, TCarrierSettings, TRateRequest } from "./types";
import { ZUpsRateResponse, ZUpsTrackResponse } from "./wire";

const NAME = "UPS";
/** UPS answers with service codes and an empty description; the names are ours to give. */
const SERVICE_NAMES: Record<string, string> = {
  "01": "UPS Next Day Air®",
  "02": "UPS 2nd Day Air®",
  "03": "UPS Ground",
  "07": "UPS Worldwide Express®",
  "08": "UPS Worldwide Expedited®",
  "11": "UPS Standard",
  "12": "UPS 3 Day Select®",
  "13": "UPS Next Day Air Saver®",
  "14": "UPS Next Day Air® Early",
  "54": "UPS Worldwide Express Plus®",
  "59": "UPS 2nd Day Air A.M.®",
  "65": "UPS Worldwide Saver®",
};

type TUpsError = { response?: { errors?: { code?: string; message?: string }[] } };
const errorMessage = (b: unknown) => (b as TUpsError | null)?.response?.errors?.[0]?.message;
const ymd = (d: Date) => d.toISOString().slice(0, 10).replaceAll("-", "");
const fromYmd = (date?: string, time?: string) =>
  date && /^\d{8}$/.test(date)
    ? new Date(
        `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6, 8)}T${(time ?? "000000").padEnd(6, "0").replace(/(\d\d)(\d\d)(\d\d)/, "$1:$2:$3")}Z`,
      ).toISOString()
    : null;
const money = (m?: { MonetaryValue: number; CurrencyCode?: string | null }) =>
  m && Number.isFinite(m.MonetaryValue) ? { value: m.MonetaryValue, currency: m.CurrencyCode ?? "USD" } : null;

const party = (a: TRateRequest["shipper"], shipperNumber?: string) => ({
  Name: a.name ?? a.company ?? "Shipper",
  ...(shipperNumber ? { ShipperNumber: shipperNumber } : {}),
  Address: {
    AddressLine: [a.street1, a.street2].filter(Boolean),
    City: a.city,
    StateProvinceCode: a.state,
    PostalCode: a.postalCode,
    CountryCode: a.countryCode,
  },
});

/** UPS REST: OAuth with Basic client authentication, Rating (Shop with time in transit), Tracking. */
export const createUpsAdapter = (s: TCarrierSettings): TCarrierAdapter => {
  const client = createCarrierClient({
    name: NAME,
    baseUrl: s.baseUrl,
    timeoutMs: s.timeoutMs,
    errorMessage,
    tokenRequest: {
      path: "/security/v1/oauth/token",
      init: () => ({
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          Authorization: `Basic ${Buffer.from(`${s.clientId}:${s.clientSecret}`).toString("base64")}`,
          ...(s.accountNumber ? { "x-merchant-id": s.accountNumber } : {}),
        },
        body: "grant_type=client_credentials",
      }),
    },
  });

  return {
    id: "ups",
    name: NAME,
    sandbox: s.sandbox,
    async rates(req) {
      const unit = (u: string) =>
        u === "KG" ? { Code: "KGS", Description: "Kilograms" } : { Code: "LBS", Description: "Pounds" };
      const totalLb = req.packages.reduce(
        (sum, p) => sum + (p.weightUnit === "KG" ? p.weight * 2.20462262 : p.weight),
        0,
      );
      const res = await client.call("/api/rating/v2409/Shop?additionalinfo=timeintransit", {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          transId: crypto.randomUUID().replaceAll("-", "").slice(0, 32),
          transactionSrc: "mytess",
        },
        body: JSON.stringify({
          RateRequest: {
            Request: {
              RequestOption: "Shoptimeintransit",
              SubVersion: "2409",
              TransactionReference: { CustomerContext: "MyTess rate shopping" },
            },
            Shipment: {
              Shipper: party(req.shipper, s.accountNumber),
              ShipFrom: party(req.shipper),
              ShipTo: party(req.recipient),
              NumOfPieces: String(req.packages.length),
              Package: req.packages.map((p) => ({
                PackagingType: { Code: "02", Description: "Package" },
                ...(p.length && p.width && p.height
                  ? {
                      Dimensions: {
                        UnitOfMeasurement: {
                          Code: p.dimensionUnit,
                          Description: p.dimensionUnit === "CM" ? "Centimeters" : "Inches",
                        },
                        Length: String(p.length),
                        Width: String(p.width),
                        Height: String(p.height),
                      },
                    }
                  : {}),
                PackageWeight: { UnitOfMeasurement: unit(p.weightUnit), Weight: String(p.weight) },
              })),
              ShipmentTotalWeight: { UnitOfMeasurement: unit("LBS"), Weight: totalLb.toFixed(1) },
              DeliveryTimeInformation: { PackageBillType: "03", Pickup: { Date: ymd(req.shipDate ?? new Date()) } },
            },
          },
        }),
      });
      if (res.status !== 200) client.fail(res, RATE_REQUEST_FAILED);
      const list = parseWire(NAME, ZUpsRateResponse, res.body).RateResponse.RatedShipment;
      return list.flatMap((r): TRateOption[] => {
        const price =
          money(r.NegotiatedRateCharges?.TotalChargesWithTaxes) ??
          money(r.TotalChargesWithTaxes) ??
          money(r.TotalCharges) ??
          money(r.NegotiatedRateCharges?.TotalCharge) ??
          money(r.TransportationCharges);
        if (!price) return [];
        const summary = r.TimeInTransit?.ServiceSummary;
        const days = Number(
          summary?.EstimatedArrival?.BusinessDaysInTransit ?? r.GuaranteedDelivery?.BusinessDaysInTransit,
        );
        const code = r.Service.Code;
        return [
          {
            carrier: "ups",
            serviceCode: code,
            serviceName: SERVICE_NAMES[code] ?? summary?.Service?.Description ?? `UPS service ${code}`,
            transitTime: Number.isFinite(days)
              ? `${days} business day${days === 1 ? "" : "s"}`
              : "Transit time not given",
            totalCost: Math.round(price.value * 100) / 100,
            currency: price.currency,
            deliveryDays: Number.isFinite(days) ? days : null,
            // An empty GuaranteedIndicator tag still means guaranteed.
            guaranteedDelivery: summary?.GuaranteedIndicator !== undefined || Boolean(r.GuaranteedDelivery),
          },
        ];
      });
    },
    async track(trackingNumber) {
      const res = await client.call(
        `/api/track/v1/details/${encodeURIComponent(trackingNumber)}?locale=en_US&returnSignature=false`,
        {
          method: "GET",
          headers: { transId: crypto.randomUUID().replaceAll("-", "").slice(0, 32), transactionSrc: "mytess" },
        },
      );
      if (res.status !== 200) client.fail(res, TRACKING_REQUEST_FAILED);
      const shipment = parseWire(NAME, ZUpsTrackResponse, res.body).trackResponse.shipment[0];
      const pkg = shipment?.package?.[0];
      if (!pkg) {
        // "Not found" comes as a warning inside a 200.
        throw new AppError(
          "NOT_FOUND",
          carrierSaid({
            carrier: NAME,
            reason: shipment?.warnings?.[0]?.message ?? /*i18n*/ {
              id: "error.carrier.ups.trackingNotFound",
              message: "Tracking Information Not Found",
            },
          }),
        );
      }
      const activity = pkg.activity;
      type TAddress = NonNullable<NonNullable<(typeof activity)[number]["location"]>["address"]>;
      const loc = (a?: TAddress) =>
        a
          ? { city: a.city ?? null, state: a.stateProvince ?? null, country: a.countryCode ?? a.country ?? null }
          : null;
      const events = activity
        .map((a) => ({
          description: String(a.status?.description ?? "").trim(),
          date: fromYmd(a.date ?? undefined, a.time ?? undefined) ?? "",
          location: loc(a.location?.address),
          status: upsStatus(a.status?.type, a.status?.code),
        }))
        .filter((e) => e.date)
        .sort((x, y) => Date.parse(y.date) - Date.parse(x.date));
      const delivered = activity.some((a) => a.status?.type === "D");
      const status = delivered
        ? "delivered"
        : upsStatus(
            pkg.currentStatus?.type ?? activity[0]?.status?.type,
            pkg.currentStatus?.code ?? activity[0]?.status?.code,
          );
      const dates = pkg.deliveryDate;
      const del = dates.find((d) => d.type === "DEL");
      const est = dates.find((d) => d.type === "RDD") ?? dates.find((d) => d.type === "SDD");
      const result: TTrackingResult = {
        carrier: "ups",
        trackingNumber,
        status,
        service: pkg.service?.description ?? null,
        currentLocation: loc(activity[0]?.location?.address),
        estimatedDelivery: est ? fromYmd(est.date) : null,
        actualDelivery: del
          ? fromYmd(del.date, pkg.deliveryTime?.type === "DEL" ? (pkg.deliveryTime.endTime ?? undefined) : undefined)
          : null,
        events,
      };
      return result;
    },
  };
};
