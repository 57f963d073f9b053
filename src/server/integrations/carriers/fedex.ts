import type { TRateOption, TTrackingResult } from "../../../shared/schemas/shipping";
import { AppError } from "../../errors";
import { parseWire } from "../http/kit";
import { carrierSaid, createCarrierClient, RATE_REQUEST_FAILED, TRACKING_REQUEST_FAILED } from "./client";
import { fedexStatus } from "./status";
import type { TCarrierAdapter, TCarrierSettings, TRateRequest } from "./types";
import { ZFedexRateResponse, ZFedexTrackResponse } from "./wire";

const NAME = "FedEx";
const WORD_DAYS: Record<string, number> = {
  ONE: 1,
  TWO: 2,
  THREE: 3,
  FOUR: 4,
  FIVE: 5,
  SIX: 6,
  SEVEN: 7,
  EIGHT: 8,
  NINE: 9,
  TEN: 10,
};

type TFedexError = { errors?: { code?: string; message?: string }[] };
const errorMessage = (b: unknown) => (b as TFedexError | null)?.errors?.[0]?.message;

const address = (a: TRateRequest["shipper"]) => ({
  streetLines: [a.street1, a.street2].filter(Boolean),
  city: a.city,
  stateOrProvinceCode: a.state,
  postalCode: a.postalCode,
  countryCode: a.countryCode,
});

/**
 * FedEx REST: OAuth client credentials, Rate and Transit Times, Track by number. FedEx's rate schema requires the
 * account the quote is for (`accountNumber.value`), so the registry makes no FedEx adapter without one.
 */
export const createFedexAdapter = (s: TCarrierSettings): TCarrierAdapter => {
  const accountNumber = s.accountNumber?.trim();
  if (!accountNumber) throw new Error("FedEx needs its account number (FEDEX_ACCOUNT_NUMBER) to quote rates");
  const client = createCarrierClient({
    name: NAME,
    baseUrl: s.baseUrl,
    timeoutMs: s.timeoutMs,
    errorMessage,
    tokenRequest: {
      path: "/oauth/token",
      init: () => ({
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: s.clientId,
          client_secret: s.clientSecret,
        }),
      }),
    },
  });
  const post = (path: string, body: unknown) =>
    client.call(path, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-locale": "en_US" },
      body: JSON.stringify(body),
    });

  return {
    id: "fedex",
    name: NAME,
    sandbox: s.sandbox,
    async rates(req) {
      const res = await post("/rate/v1/rates/quotes", {
        accountNumber: { value: accountNumber },
        rateRequestControlParameters: { returnTransitTimes: true, servicesNeededOnRateFailure: true },
        requestedShipment: {
          shipper: { address: address(req.shipper) },
          recipient: { address: address(req.recipient) },
          pickupType: "DROPOFF_AT_FEDEX_LOCATION",
          rateRequestType: ["ACCOUNT", "LIST"],
          shipDateStamp: (req.shipDate ?? new Date()).toISOString().slice(0, 10),
          requestedPackageLineItems: req.packages.map((p) => ({
            weight: { units: p.weightUnit === "KG" ? "KG" : "LB", value: p.weight },
            // FedEx takes whole numbers, and all three or none.
            ...(p.length && p.width && p.height
              ? {
                  dimensions: {
                    length: Math.ceil(p.length),
                    width: Math.ceil(p.width),
                    height: Math.ceil(p.height),
                    units: p.dimensionUnit,
                  },
                }
              : {}),
            ...(p.declaredValue ? { declaredValue: { amount: p.declaredValue, currency: "USD" } } : {}),
          })),
        },
      });
      if (res.status !== 200) client.fail(res, RATE_REQUEST_FAILED);
      const details = parseWire(NAME, ZFedexRateResponse, res.body).output.rateReplyDetails;
      return details.flatMap((d): TRateOption[] => {
        const rated = d.ratedShipmentDetails;
        const pick =
          rated.find((r) => r.rateType === "PREFERRED_CURRENCY") ??
          rated.find((r) => r.rateType === "ACCOUNT") ??
          rated[0];
        const total = pick?.totalNetChargeWithDutiesAndTaxes ?? pick?.totalNetCharge;
        if (!pick || total === undefined || !Number.isFinite(total)) return [];
        const word = String(
          d.commit?.transitDays?.minimumTransitTime ?? d.operationalDetail?.transitTime ?? "",
        ).replace(/_DAYS?$/, "");
        const days = WORD_DAYS[word] ?? null;
        return [
          {
            carrier: "fedex",
            serviceCode: d.serviceType,
            serviceName: d.serviceName ?? d.serviceType,
            transitTime:
              d.commit?.transitDays?.description ?? (days ? `${days} business days` : "Transit time not given"),
            totalCost: Math.round(total * 100) / 100,
            currency: pick.currency ?? "USD",
            deliveryDays: days,
            guaranteedDelivery:
              Boolean(d.commit?.guaranteedType) || d.operationalDetail?.ineligibleForMoneyBackGuarantee === false,
          },
        ];
      });
    },
    async track(trackingNumber) {
      const res = await post("/track/v1/trackingnumbers", {
        includeDetailedScans: true,
        trackingInfo: [{ trackingNumberInfo: { trackingNumber } }],
      });
      if (res.status !== 200) client.fail(res, TRACKING_REQUEST_FAILED);
      const results = parseWire(NAME, ZFedexTrackResponse, res.body).output.completeTrackResults[0]?.trackResults ?? [];
      const found = results.filter((r) => !r.error);
      if (!found.length) {
        // "Not found" comes inside a 200.
        throw new AppError(
          "NOT_FOUND",
          carrierSaid({
            carrier: NAME,
            reason: results[0]?.error?.message ?? /*i18n*/ {
              id: "error.carrier.fedex.trackingNotFound",
              message: "Tracking number cannot be found.",
            },
          }),
        );
      }
      // Duplicates: keep the result with the newest scan.
      type TResult = (typeof found)[number];
      const newest = (r: TResult) => Math.max(0, ...r.scanEvents.map((e) => Date.parse(e.date) || 0));
      const r = found.reduce((x, y) => (newest(y) > newest(x) ? y : x));
      const status = fedexStatus(r.latestStatusDetail?.code);
      type TLoc = NonNullable<TResult["latestStatusDetail"]>["scanLocation"];
      const loc = (l: TLoc) =>
        l ? { city: l.city ?? null, state: l.stateOrProvinceCode ?? null, country: l.countryCode ?? null } : null;
      const dates = r.dateAndTimes;
      const events = r.scanEvents
        .map((e) => ({
          description: e.exceptionDescription || e.eventDescription || e.eventType || "",
          date: new Date(e.date).toISOString(),
          location: loc(e.scanLocation),
          status: fedexStatus(e.eventType),
        }))
        .sort((x, y) => Date.parse(y.date) - Date.parse(x.date));
      const actual = dates.find((d) => d.type === "ACTUAL_DELIVERY")?.dateTime;
      const estimated =
        r.standardTransitTimeWindow?.window?.begins ??
        r.estimatedDeliveryTimeWindow?.window?.begins ??
        dates.find((d) => d.type === "ESTIMATED_DELIVERY")?.dateTime;
      const result: TTrackingResult = {
        carrier: "fedex",
        trackingNumber,
        status,
        service: r.serviceDetail?.description ?? null,
        currentLocation: loc(r.latestStatusDetail?.scanLocation),
        estimatedDelivery: estimated ? new Date(estimated).toISOString() : null,
        actualDelivery: status === "delivered" && actual ? new Date(actual).toISOString() : null,
        events,
      };
      return result;
    },
  };
};
