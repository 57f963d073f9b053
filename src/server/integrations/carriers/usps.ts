import type { z } from "zod";
import type { TRateOption, TTrackingResult } from "../../../shared/schemas/shipping";
import { toInches, toPounds } from "../../../shared/units";
import { USPS_DEFAULT_HOURLY_QUOTA } from "../../config";
import { AppError } from "../../errors";
import { HourlyBudget, parseWire } from "../http/kit";
import { carrierSaid, createCarrierClient, RATE_REQUEST_FAILED, TRACKING_REQUEST_FAILED } from "./client";
import { uspsStatus } from "./status";
import type { TCarrierAdapter, TCarrierSettings } from "./types";
import { ZUspsOptionsResponse, ZUspsTrackingResponse } from "./wire";

type TOption = z.output<
  typeof ZUspsOptionsResponse
>["pricingOptions"][number]["shippingOptions"][number]["rateOptions"][number];

const NAME = "USPS";
const NAMES: Record<string, string> = {
  USPS_GROUND_ADVANTAGE: "USPS Ground Advantage",
  PRIORITY_MAIL: "Priority Mail",
  PRIORITY_MAIL_EXPRESS: "Priority Mail Express",
  FIRST_CLASS_PACKAGE_SERVICE: "First-Class Package Service",
  PARCEL_SELECT: "Parcel Select",
  MEDIA_MAIL: "Media Mail",
  LIBRARY_MAIL: "Library Mail",
};

type TUspsError = {
  error?: { message?: string; errors?: { detail?: string; title?: string }[] } | string;
  error_description?: string;
};
const errorMessage = (b: unknown) => {
  const e = b as TUspsError | null;
  if (!e) return undefined;
  if (typeof e.error === "string") return e.error_description ?? e.error;
  return e.error?.errors?.[0]?.detail ?? e.error?.message ?? undefined;
};
const zip5 = (postal: string) => postal.replace(/\D/g, "").slice(0, 5);

/** How many package sizes are asked about at once. */
const PARALLEL = 3;

/** The hourly quota is used up: how many package sizes were left without a price, and when to try again. */
const quotaUsedUp = (pending: number, seconds: number) =>
  new AppError(
    "TOO_MANY_REQUESTS",
    /*i18n*/ {
      id: "error.carrier.hourlyQuota",
      message:
        "{carrier} is limiting requests: {pending, plural, one {# package size was} other {# package sizes were}} not priced. Try again in {minutes} min.",
      values: { carrier: NAME, pending, minutes: Math.max(1, Math.ceil(seconds / 60)) },
    },
    { retryAfterSeconds: seconds },
  );

/**
 * USPS APIs v3: OAuth client credentials, Shipping Options (domestic prices with commitments), Tracking. USPS prices
 * one package per request, so identical packages are asked about once, and every request (token requests too) is
 * counted against the app's hourly quota: a quote that would not fit is answered "limited, try again in N min" before
 * anything is sent, rather than a run of 429s.
 */
export const createUspsAdapter = (s: TCarrierSettings): TCarrierAdapter => {
  const budget = new HourlyBudget(s.hourlyQuota ?? USPS_DEFAULT_HOURLY_QUOTA, NAME);
  const client = createCarrierClient({
    name: NAME,
    baseUrl: s.baseUrl,
    timeoutMs: s.timeoutMs,
    budget,
    errorMessage,
    tokenRequest: {
      path: "/oauth2/v3/token",
      init: () => ({
        headers: { "Content-Type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "client_credentials",
          client_id: s.clientId,
          client_secret: s.clientSecret,
          scope: "prices shipments tracking",
        }),
      }),
    },
  });

  return {
    id: "usps",
    name: NAME,
    sandbox: s.sandbox,
    async rates(req) {
      if (req.shipper.countryCode !== "US" || req.recipient.countryCode !== "US") {
        throw new AppError(
          "BAD_REQUEST",
          /*i18n*/ {
            id: "error.carrier.domesticOnly",
            message: "{carrier}: rates are offered here for shipments within the United States only",
            values: { carrier: NAME },
          },
        );
      }
      const mailingDate = (req.shipDate ?? new Date()).toISOString().slice(0, 10);
      // One question per distinct package (USPS takes one at a time); identical packages share the answer. A class
      // counts only if every package has it.
      const sizes = new Map<string, Record<string, unknown>>();
      const keys = req.packages.map((p) => {
        const inches = (v?: number | null) => (v ? Math.round(toInches(v, p.dimensionUnit) * 100) / 100 : 1);
        const description = {
          weight: Math.round(toPounds(p.weight, p.weightUnit) * 100) / 100,
          length: inches(p.length),
          width: inches(p.width),
          height: inches(p.height),
        };
        const key = JSON.stringify(description);
        sizes.set(key, description);
        return key;
      });
      const needed = sizes.size + (client.tokens.has() ? 0 : 1);
      const wait = budget.waitSeconds(needed);
      if (wait > 0) throw quotaUsedUp(sizes.size, wait);
      const ask = async (description: Record<string, unknown>) => {
        const res = await client.call("/shipments/v3/options/search", {
          method: "POST",
          headers: { "Content-Type": "application/json" },
          body: JSON.stringify({
            originZIPCode: zip5(req.shipper.postalCode),
            destinationZIPCode: zip5(req.recipient.postalCode),
            destinationEntryFacilityType: "NONE",
            packageDescription: { ...description, mailClass: "ALL_OUTBOUND", mailingDate },
            pricingOptions: [{ priceType: "RETAIL" }],
          }),
        });
        if (res.status !== 200) client.fail(res, RATE_REQUEST_FAILED);
        const options = parseWire(NAME, ZUspsOptionsResponse, res.body).pricingOptions.flatMap(
          (po) => po.shippingOptions,
        );
        const price = (o: TOption) => o.totalPrice ?? o.totalBasePrice ?? Number.POSITIVE_INFINITY;
        return new Map(
          options.flatMap((o) => {
            const best = [...o.rateOptions].sort((x, y) => price(x) - price(y))[0];
            return best && Number.isFinite(price(best)) ? [[o.mailClass, best] as const] : [];
          }),
        );
      };
      // A few at a time; when USPS (or another process sharing the quota) says to wait, the rest are not sent.
      const bySize = new Map<string, Map<string, TOption>>();
      const queue = [...sizes];
      let limited: AppError | null = null;
      const worker = async () => {
        for (let next = queue.shift(); next && !limited; next = queue.shift()) {
          try {
            bySize.set(next[0], await ask(next[1]));
          } catch (err) {
            if (!(err instanceof AppError && err.code === "TOO_MANY_REQUESTS")) throw err;
            limited = err;
          }
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL, sizes.size) }, worker));
      if (limited)
        throw quotaUsedUp(
          sizes.size - bySize.size,
          (limited as AppError).retryAfterSeconds ?? budget.waitSeconds(sizes.size - bySize.size + 1),
        );
      const answers = keys.map((k) => bySize.get(k)!);
      const classes = [...answers[0].keys()].filter((c) => answers.every((a) => a.has(c)));
      return classes.map((mailClass): TRateOption => {
        const options = answers.map((a) => a.get(mailClass)!);
        const total = options.reduce((sum, o) => sum + (o.totalPrice ?? o.totalBasePrice ?? 0), 0);
        const commitment = options[0].commitment ?? {};
        // "2 Days" → 2; "NO STD" has no number.
        const days = Number.parseInt(String(commitment.name ?? ""), 10);
        return {
          carrier: "usps",
          serviceCode: mailClass,
          serviceName: NAMES[mailClass] ?? options[0].rates?.[0]?.productName ?? mailClass,
          transitTime:
            commitment.name && Number.isFinite(days)
              ? `${days} business day${days === 1 ? "" : "s"}`
              : "Transit time not given",
          totalCost: Math.round(total * 100) / 100,
          currency: "USD",
          deliveryDays: Number.isFinite(days) ? days : null,
          guaranteedDelivery: options.every((o) => o.commitment?.guaranteedDelivery === true),
        };
      });
    },
    async track(trackingNumber) {
      const res = await client.call(`/tracking/v3/tracking/${encodeURIComponent(trackingNumber)}?expand=DETAIL`, {
        method: "GET",
      });
      if (res.status === 404)
        throw new AppError(
          "NOT_FOUND",
          carrierSaid({
            carrier: NAME,
            reason: errorMessage(res.body) ?? /*i18n*/ {
              id: "error.carrier.usps.trackingNotFound",
              message: "Tracking information not found",
            },
          }),
        );
      if (res.status !== 200) client.fail(res, TRACKING_REQUEST_FAILED);
      const b = parseWire(NAME, ZUspsTrackingResponse, res.body);
      const events = b.trackingEvents
        .map((e) => ({
          description: String(e.eventType ?? ""),
          date: new Date(e.GMTTimestamp ?? `${e.eventTimestamp}Z`).toISOString(),
          location:
            e.eventCity || e.eventState
              ? { city: e.eventCity ?? null, state: e.eventState ?? null, country: e.eventCountry ?? "US" }
              : null,
          status: uspsStatus(null, e.eventCode, e.eventType),
          code: e.eventCode ?? "",
        }))
        .sort((x, y) => Date.parse(y.date) - Date.parse(x.date));
      const status = uspsStatus(b.statusCategory, events[0]?.code, b.status);
      const deliveredAt = events.find((e) => e.code === "01")?.date ?? null;
      const expected = b.expectedDeliveryTimeStamp ?? b.predictedDeliveryDate ?? b.guaranteedDeliveryTimeStamp;
      const result: TTrackingResult = {
        carrier: "usps",
        trackingNumber,
        status,
        // The service name comes with markup (USPS Ground Advantage<SUP>&#153;</SUP>).
        service: b.mailClass
          ? String(b.mailClass)
              .replace(/<[^>]+>/g, "")
              .replace(/&#\d+;/g, "")
              .trim()
          : null,
        currentLocation: events[0]?.location ?? null,
        estimatedDelivery: expected
          ? new Date(
              expected.length <= 10
                ? `${expected}T00:00:00Z`
                : `${expected}${/[zZ+]/.test(expected.slice(-6)) ? "" : "Z"}`,
            ).toISOString()
          : null,
        actualDelivery: status === "delivered" ? deliveredAt : null,
        events: events.map(({ code: _code, ...e }) => e),
      };
      return result;
    },
  };
};
