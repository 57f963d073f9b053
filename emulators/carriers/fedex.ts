// FedEx REST emulator: POST /oauth/token, POST /rate/v1/rates/quotes, POST /track/v1/trackingnumbers.
// As FedEx's rate schema says, `accountNumber` is required: a quote without accountNumber.value is refused (400,
// FedEx's {transactionId, errors: [{code, message}]}), and one for an account this API project is not tied to too.
import { billablePounds } from "../../src/shared/units";
import {
  addBusinessDays,
  createControl,
  estimatedDeliveryOf,
  groundDays,
  historyOf,
  json,
  milesBetween,
  priceOf,
  scenarioOf,
  sleep,
  type TServiceLevel,
  zoneOf,
} from "./model";

const SERVICES: [string, string, TServiceLevel][] = [
  ["FEDEX_GROUND", "FedEx Ground®", { base: 9.2, perLb: 0.62, zoneFactor: 0.22, days: groundDays, guaranteed: false }],
  [
    "FEDEX_EXPRESS_SAVER",
    "FedEx Express Saver®",
    { base: 24.5, perLb: 1.35, zoneFactor: 0.12, days: () => 3, guaranteed: true },
  ],
  ["FEDEX_2_DAY", "FedEx 2Day®", { base: 29.9, perLb: 1.7, zoneFactor: 0.12, days: () => 2, guaranteed: true }],
  [
    "STANDARD_OVERNIGHT",
    "FedEx Standard Overnight®",
    { base: 52.0, perLb: 2.9, zoneFactor: 0.1, days: () => 1, guaranteed: true },
  ],
  [
    "PRIORITY_OVERNIGHT",
    "FedEx Priority Overnight®",
    { base: 64.0, perLb: 3.4, zoneFactor: 0.1, days: () => 1, guaranteed: true },
  ],
];
const DAY_WORDS = ["ZERO", "ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN"];
const STEP_CODE = {
  label: ["OC", "Shipment information sent to FedEx"],
  pickup: ["PU", "Picked up"],
  depart: ["DP", "Departed FedEx location"],
  arrive: ["AR", "Arrived at FedEx location"],
  out: ["OD", "On FedEx vehicle for delivery"],
  delivered: ["DL", "Delivered"],
  exception: ["DE", "Delivery exception"],
} as const;

const error = (status: number, code: string, message: string) =>
  json({ transactionId: crypto.randomUUID(), errors: [{ code, message }] }, status);

export const createFedexEmulator = (opts: { clientId: string; clientSecret: string; accountNumber: string }) => {
  const control = createControl();
  const handle = async (req: Request) => {
    const url = new URL(req.url);
    await sleep(control.delayMs);
    if (req.method === "POST" && url.pathname === "/oauth/token") {
      control.tokenRequests++;
      const failure = control.takeFailure();
      if (failure) return failure;
      const f = new URLSearchParams(await req.text());
      if (f.get("grant_type") !== "client_credentials")
        return error(400, "BAD.REQUEST.ERROR", "grant_type must be client_credentials");
      if (f.get("client_id") !== opts.clientId || f.get("client_secret") !== opts.clientSecret) {
        return error(
          401,
          "NOT.AUTHORIZED.ERROR",
          "The given client credentials were not valid. Please modify your request and try again.",
        );
      }
      const t = control.issue();
      return json({ access_token: t.token, token_type: "bearer", expires_in: t.expiresIn, scope: "CXS-TP" });
    }
    control.apiRequests++;
    const failure = control.takeFailure();
    if (failure) return failure;
    if (!control.valid(req.headers.get("authorization"))) {
      return error(401, "NOT.AUTHORIZED.ERROR", "Access token expired. Please modify your request and try again.");
    }
    let body: any;
    try {
      body = await req.json();
    } catch {
      return error(400, "INVALID.INPUT.EXCEPTION", "Invalid field value in the input");
    }
    if (req.method === "POST" && url.pathname === "/rate/v1/rates/quotes") {
      const s = body?.requestedShipment;
      const from = s?.shipper?.address;
      const to = s?.recipient?.address;
      const account = body?.accountNumber?.value;
      if (typeof account !== "string" || !account.trim())
        return error(400, "INVALID.INPUT.EXCEPTION", "Invalid field value in the input: accountNumber.value");
      if (account.trim() !== opts.accountNumber)
        return error(
          400,
          "ACCOUNT.NUMBER.MISMATCH",
          "The account number in the request does not match the account number of this API project.",
        );
      if (!from?.postalCode || !to?.postalCode || !from?.countryCode || !to?.countryCode) {
        return error(400, "POSTALCODE.MISSING", "Postal code is required for postal aware countries.");
      }
      const items: any[] = s.requestedPackageLineItems ?? [];
      if (!items.length || items.some((p) => !(Number(p?.weight?.value) > 0)))
        return error(400, "WEIGHT.INVALID", "Package weight must be greater than zero.");
      const miles = milesBetween(from, to);
      const international = from.countryCode !== to.countryCode;
      const zone = zoneOf(miles, international);
      const pounds = items.reduce(
        (sum, p) =>
          sum +
          billablePounds({
            weight: Number(p.weight.value),
            weightUnit: p.weight.units === "KG" ? "KG" : "LBS",
            length: p.dimensions?.length,
            width: p.dimensions?.width,
            height: p.dimensions?.height,
            dimensionUnit: p.dimensions?.units === "CM" ? "CM" : "IN",
          }),
        0,
      );
      const shipDate = new Date(`${s.shipDateStamp ?? new Date().toISOString().slice(0, 10)}T12:00:00Z`);
      const services = SERVICES.filter(([code]) => !international || code !== "FEDEX_GROUND");
      return json({
        transactionId: crypto.randomUUID(),
        output: {
          alerts: [
            {
              code: "SHIPMENT.CHARGES.NOTE",
              message: "Shipment level charges have been added to first package.",
              alertType: "NOTE",
            },
          ],
          rateReplyDetails: services.map(([code, name, level]) => {
            const days = level.days(zone) + (international ? 2 : 0);
            const list = priceOf(level, pounds, zone) * (international ? 2.4 : 1);
            const account = Math.round(list * 0.93 * 100) / 100;
            const deliveryDate = `${addBusinessDays(shipDate, days).toISOString().slice(0, 10)}T23:59:00`;
            return {
              serviceType: code,
              serviceName: name,
              packagingType: "YOUR_PACKAGING",
              commit: {
                dateDetail: { dayFormat: deliveryDate },
                transitDays: {
                  minimumTransitTime: `${DAY_WORDS[days] ?? "UNKNOWN"}_DAYS`,
                  description: `${days} Business Day${days === 1 ? "" : "s"}`,
                },
                ...(level.guaranteed ? { guaranteedType: "GUARANTEED_CLOSE_OF_BUSINESS" } : {}),
              },
              ratedShipmentDetails: [
                {
                  rateType: "ACCOUNT",
                  totalBaseCharge: account,
                  totalNetCharge: account,
                  totalNetChargeWithDutiesAndTaxes: account,
                  totalDiscounts: 0,
                  currency: "USD",
                },
                {
                  rateType: "LIST",
                  totalBaseCharge: list,
                  totalNetCharge: list,
                  totalNetChargeWithDutiesAndTaxes: list,
                  totalDiscounts: 0,
                  currency: "USD",
                },
              ],
              operationalDetail: {
                deliveryDate,
                commitDate: deliveryDate,
                transitTime: `${DAY_WORDS[days] ?? "UNKNOWN"}_DAYS`,
                ineligibleForMoneyBackGuarantee: !level.guaranteed,
              },
            };
          }),
          quoteDate: new Date().toISOString().slice(0, 10),
        },
      });
    }
    if (req.method === "POST" && url.pathname === "/track/v1/trackingnumbers") {
      const infos: any[] = body?.trackingInfo ?? [];
      if (!infos.length || infos.length > 30)
        return error(400, "TRACKING.TRACKINGNUMBER.EMPTY", "At least one and at most 30 tracking numbers are allowed.");
      return json({
        transactionId: crypto.randomUUID(),
        output: {
          completeTrackResults: infos.map((i) => {
            const n = String(i?.trackingNumberInfo?.trackingNumber ?? "");
            const scenario = scenarioOf(n);
            if (scenario === "not_found") {
              return {
                trackingNumber: n,
                trackResults: [
                  {
                    trackingNumberInfo: { trackingNumber: n, trackingNumberUniqueId: "", carrierCode: "" },
                    error: {
                      code: "TRACKING.TRACKINGNUMBER.NOTFOUND",
                      message: "Tracking number cannot be found. Please correct the tracking number and try again.",
                    },
                  },
                ],
              };
            }
            const { steps, start } = historyOf(n, scenario);
            const last = steps.at(-1)!;
            const place = (p: (typeof steps)[number]["place"]) => ({
              city: p.city,
              stateOrProvinceCode: p.state,
              postalCode: p.zip,
              countryCode: "US",
            });
            return {
              trackingNumber: n,
              trackResults: [
                {
                  trackingNumberInfo: { trackingNumber: n, carrierCode: "FDXG" },
                  serviceDetail: { description: "FedEx Ground", shortDescription: "FG", type: "FEDEX_GROUND" },
                  latestStatusDetail: {
                    code: STEP_CODE[last.kind][0],
                    derivedCode: STEP_CODE[last.kind][0],
                    statusByLocale: STEP_CODE[last.kind][1],
                    description: STEP_CODE[last.kind][1],
                    scanLocation: place(last.place),
                  },
                  dateAndTimes: [
                    ...(last.kind === "delivered"
                      ? [{ type: "ACTUAL_DELIVERY", dateTime: last.at.toISOString() }]
                      : []),
                    { type: "SHIP", dateTime: start.toISOString() },
                  ],
                  ...(last.kind !== "delivered"
                    ? {
                        estimatedDeliveryTimeWindow: {
                          window: { begins: estimatedDeliveryOf(start).toISOString() },
                          type: "ESTIMATED_DELIVERY",
                        },
                      }
                    : {}),
                  scanEvents: [...steps].reverse().map((st) => ({
                    date: st.at.toISOString(),
                    eventType: STEP_CODE[st.kind][0],
                    eventDescription: STEP_CODE[st.kind][1],
                    derivedStatusCode: STEP_CODE[st.kind][0],
                    ...(st.kind === "exception"
                      ? { exceptionCode: "07", exceptionDescription: "Customer not available or business closed" }
                      : {}),
                    scanLocation: place(st.place),
                  })),
                },
              ],
            };
          }),
        },
      });
    }
    return error(404, "NOT.FOUND.ERROR", `${req.method} ${url.pathname} is not a FedEx endpoint`);
  };
  return { handle, control };
};
