// UPS REST emulator: POST /security/v1/oauth/token (Basic auth), POST /api/rating/{version}/{requestoption},
// GET /api/track/v1/details/{inquiryNumber} (transId and transactionSrc headers required).
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

export const UPS_SERVICES: [string, string, TServiceLevel][] = [
  ["03", "UPS Ground", { base: 9.6, perLb: 0.6, zoneFactor: 0.23, days: groundDays, guaranteed: false }],
  ["12", "UPS 3 Day Select®", { base: 22.8, perLb: 1.25, zoneFactor: 0.12, days: () => 3, guaranteed: true }],
  ["02", "UPS 2nd Day Air®", { base: 28.7, perLb: 1.65, zoneFactor: 0.12, days: () => 2, guaranteed: true }],
  ["13", "UPS Next Day Air Saver®", { base: 49.5, perLb: 2.8, zoneFactor: 0.1, days: () => 1, guaranteed: true }],
  ["01", "UPS Next Day Air®", { base: 61.0, perLb: 3.3, zoneFactor: 0.1, days: () => 1, guaranteed: true }],
];
const ymd = (d: Date) => d.toISOString().slice(0, 10).replaceAll("-", "");
const hms = (d: Date) => d.toISOString().slice(11, 19).replaceAll(":", "");
const STEP = {
  label: ["M", "MP", "003", "Shipper created a label, UPS has not received the package yet. "],
  pickup: ["P", "OR", "005", "Pickup Scan "],
  depart: ["I", "DP", "005", "Departed from Facility "],
  arrive: ["I", "AR", "005", "Arrived at Facility "],
  out: ["I", "OT", "021", "Out For Delivery Today "],
  delivered: ["D", "F4", "011", "DELIVERED "],
  exception: [
    "X",
    "EX",
    "013",
    "The receiver was not available for delivery. We'll make a second attempt the next business day. ",
  ],
} as const;

const error = (status: number, code: string, message: string, headers: Record<string, string> = {}) =>
  json({ response: { errors: [{ code, message }] } }, status, headers);

export const createUpsEmulator = (opts: { clientId: string; clientSecret: string }) => {
  const control = createControl();
  control.tokenLifetimeSeconds = 14399;
  const handle = async (req: Request) => {
    const url = new URL(req.url);
    await sleep(control.delayMs);
    if (req.method === "POST" && url.pathname === "/security/v1/oauth/token") {
      control.tokenRequests++;
      const failure = control.takeFailure();
      if (failure) return failure;
      const [id, secret] = Buffer.from((req.headers.get("authorization") ?? "").replace(/^Basic\s+/i, ""), "base64")
        .toString()
        .split(":");
      if (id !== opts.clientId || secret !== opts.clientSecret)
        return error(401, "250003", "Invalid Access License number");
      if (new URLSearchParams(await req.text()).get("grant_type") !== "client_credentials")
        return error(400, "10400", "Invalid/Missing grant_type");
      const t = control.issue();
      return json({
        token_type: "Bearer",
        issued_at: String(t.issuedAt),
        client_id: opts.clientId,
        access_token: t.token,
        scope: "",
        expires_in: String(t.expiresIn),
        refresh_count: "0",
        status: "approved",
      });
    }
    control.apiRequests++;
    const failure = control.takeFailure();
    if (failure) return failure;
    if (!control.valid(req.headers.get("authorization")))
      return error(401, "250002", "Invalid Authentication Information.");
    const rating = /^\/api\/rating\/(v\d+)\/(Rate|Shop|Ratetimeintransit|Shoptimeintransit)$/.exec(url.pathname);
    if (req.method === "POST" && rating) {
      let body: any;
      try {
        body = await req.json();
      } catch {
        return error(400, "110002", "Invalid JSON");
      }
      const sh = body?.RateRequest?.Shipment;
      const from = sh?.Shipper?.Address;
      const to = sh?.ShipTo?.Address;
      if (!from?.CountryCode || !to?.CountryCode || !from?.AddressLine?.length)
        return error(400, "111210", "The requested service is unavailable between the selected locations.");
      if (!from.PostalCode || !to.PostalCode)
        return error(400, "111057", "This measurement system is not valid for the selected country.");
      const pkgs: any[] = Array.isArray(sh.Package) ? sh.Package : sh.Package ? [sh.Package] : [];
      if (!pkgs.length) return error(400, "111500", "Missing or invalid package");
      const pounds = pkgs.reduce((sum, p) => {
        const w = Number(p?.PackageWeight?.Weight);
        const dims = p?.Dimensions;
        return (
          sum +
          billablePounds({
            weight: w,
            weightUnit: p?.PackageWeight?.UnitOfMeasurement?.Code === "KGS" ? "KG" : "LBS",
            length: dims ? Number(dims.Length) : null,
            width: dims ? Number(dims.Width) : null,
            height: dims ? Number(dims.Height) : null,
            dimensionUnit: dims?.UnitOfMeasurement?.Code === "CM" ? "CM" : "IN",
          })
        );
      }, 0);
      if (!(pounds > 0)) return error(400, "111050", "Package weight is missing or invalid.");
      const international = from.CountryCode !== to.CountryCode;
      const zone = zoneOf(
        milesBetween(
          { postalCode: from.PostalCode, countryCode: from.CountryCode },
          { postalCode: to.PostalCode, countryCode: to.CountryCode },
        ),
        international,
      );
      const pickupDate = sh.DeliveryTimeInformation?.Pickup?.Date as string | undefined;
      const pickup = pickupDate
        ? new Date(`${pickupDate.slice(0, 4)}-${pickupDate.slice(4, 6)}-${pickupDate.slice(6, 8)}T12:00:00Z`)
        : new Date();
      const withTransit =
        rating[2].endsWith("timeintransit") || url.searchParams.get("additionalinfo") === "timeintransit";
      const services = UPS_SERVICES.filter(([code]) =>
        rating[2].startsWith("Rate") ? code === sh.Service?.Code : true,
      ).filter(([code]) => !international || code !== "03");
      if (!services.length) return error(400, "111100", "The requested service is invalid from the selected origin.");
      return json({
        RateResponse: {
          Response: {
            ResponseStatus: { Code: "1", Description: "Success" },
            Alert: [{ Code: "110971", Description: "Your invoice may vary from the displayed reference rates" }],
          },
          RatedShipment: services.map(([code, name, level]) => {
            const days = level.days(zone) + (international ? 2 : 0);
            const total = (priceOf(level, pounds, zone) * (international ? 2.5 : 1)).toFixed(2);
            const arrival = addBusinessDays(pickup, days);
            return {
              Service: { Code: code, Description: "" },
              Zone: String(zone).padStart(3, "0"),
              TransportationCharges: { CurrencyCode: "USD", MonetaryValue: total },
              TotalCharges: { CurrencyCode: "USD", MonetaryValue: total },
              ...(level.guaranteed
                ? { GuaranteedDelivery: { BusinessDaysInTransit: String(days), DeliveryByTime: "10:30 P.M." } }
                : {}),
              ...(withTransit
                ? {
                    TimeInTransit: {
                      PickupDate: ymd(pickup),
                      PackageBillType: "03",
                      ServiceSummary: {
                        Service: { Description: name },
                        EstimatedArrival: {
                          Arrival: { Date: ymd(arrival), Time: "230000" },
                          BusinessDaysInTransit: String(days),
                          TotalTransitDays: String(days),
                        },
                        ...(level.guaranteed ? { GuaranteedIndicator: "" } : {}),
                        SaturdayDelivery: "0",
                      },
                    },
                  }
                : {}),
            };
          }),
        },
      });
    }
    const track = /^\/api\/track\/v1\/details\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && track) {
      if (!req.headers.get("transId") || !req.headers.get("transactionSrc"))
        return error(400, "VSS000", "Missing transId");
      const n = decodeURIComponent(track[1]).toUpperCase();
      if (n.length < 7 || n.length > 34) return error(400, "TV1002", "Invalid inquiry number");
      const scenario = scenarioOf(n);
      if (scenario === "not_found") {
        return json({
          trackResponse: {
            shipment: [{ inquiryNumber: n, warnings: [{ code: "TW0001", message: "Tracking Information Not Found" }] }],
          },
        });
      }
      const { steps, start } = historyOf(n, scenario);
      const last = steps.at(-1)!;
      const status = (k: keyof typeof STEP) => ({
        type: STEP[k][0],
        code: STEP[k][1],
        statusCode: STEP[k][2],
        description: STEP[k][3],
      });
      return json({
        trackResponse: {
          shipment: [
            {
              inquiryNumber: n,
              package: [
                {
                  trackingNumber: n,
                  deliveryDate:
                    last.kind === "delivered"
                      ? [{ type: "DEL", date: ymd(last.at) }]
                      : [{ type: "SDD", date: ymd(estimatedDeliveryOf(start)) }],
                  ...(last.kind === "delivered" ? { deliveryTime: { type: "DEL", endTime: hms(last.at) } } : {}),
                  currentStatus: { ...status(last.kind), simplifiedTextDescription: STEP[last.kind][3].trim() },
                  service: { code: "003", description: "UPS Ground" },
                  activity: [...steps].reverse().map((st) => ({
                    location: {
                      address: {
                        city: st.place.city,
                        stateProvince: st.place.state,
                        postalCode: st.place.zip,
                        countryCode: "US",
                        country: "US",
                      },
                    },
                    status: status(st.kind),
                    date: ymd(st.at),
                    time: hms(st.at),
                  })),
                  packageCount: 1,
                },
              ],
            },
          ],
        },
      });
    }
    return error(404, "404", `${req.method} ${url.pathname} is not a UPS endpoint`);
  };
  return { handle, control };
};
