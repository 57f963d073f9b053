// USPS APIs v3 emulator: POST /oauth2/v3/token (form or JSON), POST /shipments/v3/options/search,
// GET /tracking/v3/tracking/{trackingNumber}.
// Quota: like a new USPS app, at most control.hourlyQuota requests (default 60) in any hour, every endpoint counted,
// token requests included; beyond it USPS's error body with status 429 and a Retry-After (seconds until the oldest
// request of the hour leaves it). control.hourlyQuota = null lifts it; control.resetQuota() starts a new hour.
import {
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

const CLASSES: [string, string, TServiceLevel][] = [
  [
    "USPS_GROUND_ADVANTAGE",
    "USPS Ground Advantage",
    { base: 5.4, perLb: 0.55, zoneFactor: 0.2, days: (z) => groundDays(z) + 1, guaranteed: false },
  ],
  [
    "PRIORITY_MAIL",
    "Priority Mail",
    { base: 9.85, perLb: 0.9, zoneFactor: 0.15, days: (z) => (z <= 4 ? 2 : 3), guaranteed: false },
  ],
  [
    "PRIORITY_MAIL_EXPRESS",
    "Priority Mail Express",
    { base: 30.45, perLb: 2.1, zoneFactor: 0.1, days: (z) => (z <= 5 ? 1 : 2), guaranteed: true },
  ],
];
const STEP = {
  label: ["GX", "Shipping Label Created, USPS Awaiting Item", "Pre-Shipment"],
  pickup: ["03", "USPS in possession of item", "Accepted"],
  depart: ["T1", "Departed USPS Regional Facility", "In-Transit"],
  arrive: ["A1", "Arrived at USPS Regional Facility", "In-Transit"],
  out: ["OF", "Out for Delivery", "In-Transit"],
  delivered: ["01", "Delivered, Front Door/Porch", "Delivered"],
  exception: ["02", "Notice Left (No Authorized Recipient Available)", "Alert"],
} as const;

const error = (status: number, code: string, message: string, detail?: string) =>
  json(
    {
      apiVersion: "v3",
      error: { code, message, errors: detail ? [{ status: String(status), code, title: message, detail }] : [] },
    },
    status,
  );

/** A new USPS app's quota (requests per hour, all endpoints and token requests counted). */
export const USPS_EMULATOR_HOURLY_QUOTA = 60;

export const createUspsEmulator = (opts: { clientId: string; clientSecret: string }) => {
  let hour: number[] = [];
  const control = Object.assign(createControl(), {
    hourlyQuota: USPS_EMULATOR_HOURLY_QUOTA as number | null,
    /** Requests refused for the quota. */
    quotaRefusals: 0,
    resetQuota: () => {
      hour = [];
    },
  });
  control.tokenLifetimeSeconds = 28799;
  /** USPS's 429 when the hour's quota is used up; null while there is room (the request is then counted). */
  const overQuota = () => {
    const now = Date.now();
    hour = hour.filter((t) => t > now - 3_600_000);
    if (control.hourlyQuota !== null && hour.length >= control.hourlyQuota) {
      control.quotaRefusals++;
      const retryAfter = Math.max(1, Math.ceil((hour[0]! + 3_600_000 - now) / 1000));
      return json(
        {
          apiVersion: "v3",
          error: {
            code: "429",
            message: "Too Many Requests",
            errors: [
              {
                status: "429",
                code: "429",
                title: "Too Many Requests",
                detail: `The quota of ${control.hourlyQuota} requests per hour for this application is used up.`,
              },
            ],
          },
        },
        429,
        { "Retry-After": String(retryAfter) },
      );
    }
    hour.push(now);
    return null;
  };
  const handle = async (req: Request) => {
    const url = new URL(req.url);
    await sleep(control.delayMs);
    const refused = overQuota();
    if (refused) return refused;
    if (req.method === "POST" && url.pathname === "/oauth2/v3/token") {
      control.tokenRequests++;
      const failure = control.takeFailure();
      if (failure) return failure;
      const text = await req.text();
      const f: Record<string, string> = (req.headers.get("content-type") ?? "").includes("json")
        ? (JSON.parse(text || "{}") as Record<string, string>)
        : Object.fromEntries(new URLSearchParams(text));
      if (
        f.grant_type !== "client_credentials" ||
        f.client_id !== opts.clientId ||
        f.client_secret !== opts.clientSecret
      ) {
        return json(
          {
            error: "invalid_client",
            error_description: "Client authentication failed.",
            error_uri: "https://datatracker.ietf.org/doc/html/rfc6749#page-45",
          },
          401,
        );
      }
      const t = control.issue();
      return json({
        access_token: t.token,
        token_type: "Bearer",
        issued_at: t.issuedAt,
        expires_in: t.expiresIn,
        status: "approved",
        scope: "prices tracking shipments",
        issuer: "api.usps.com",
        client_id: opts.clientId,
      });
    }
    control.apiRequests++;
    const failure = control.takeFailure();
    if (failure) return failure;
    if (!control.valid(req.headers.get("authorization")))
      return error(401, "401", "Unauthorized", "The access token is missing, invalid or expired.");
    if (req.method === "POST" && url.pathname === "/shipments/v3/options/search") {
      let body: any;
      try {
        body = await req.json();
      } catch {
        return error(400, "400", "Bad Request", "The request body is not valid JSON.");
      }
      const from = String(body?.originZIPCode ?? "");
      const to = String(body?.destinationZIPCode ?? "");
      const pkg = body?.packageDescription;
      if (!/^\d{5}$/.test(from) || !/^\d{5}$/.test(to))
        return error(400, "400", "Bad Request", "originZIPCode and destinationZIPCode must be 5-digit ZIP codes.");
      const weight = Number(pkg?.weight);
      if (!(weight > 0)) return error(400, "400", "Bad Request", "packageDescription.weight is required.");
      if (weight > 70) return error(400, "400", "Bad Request", "packageDescription.weight must be at most 70 lb.");
      const cubic = Number(pkg.length) * Number(pkg.width) * Number(pkg.height);
      const billable = Math.max(weight, cubic > 1728 ? cubic / 166 : 0);
      const zone = zoneOf(
        milesBetween({ postalCode: from, countryCode: "US" }, { postalCode: to, countryCode: "US" }),
        false,
      );
      const mailing = new Date(`${pkg.mailingDate ?? new Date().toISOString().slice(0, 10)}T12:00:00Z`);
      return json({
        originZIPCode: from,
        destinationZIPCode: to,
        pricingOptions: [
          {
            priceType: body?.pricingOptions?.[0]?.priceType ?? "RETAIL",
            shippingOptions: CLASSES.map(([mailClass, name, level]) => {
              const days = level.days(zone);
              const price = priceOf(level, billable, zone);
              const expected = new Date(mailing.getTime() + days * 86_400_000).toISOString().slice(0, 10);
              return {
                mailClass,
                rateOptions: [
                  {
                    commitment: {
                      name: `${days} Day${days === 1 ? "" : "s"}`,
                      expectedDeliveryDate: expected,
                      scheduleDeliveryDate: expected,
                      guaranteedDelivery: level.guaranteed,
                    },
                    totalBasePrice: price,
                    rates: [
                      {
                        description: `${name} Single-piece`,
                        productName: name,
                        price,
                        zone: String(zone).padStart(2, "0"),
                        mailClass,
                        SKU: `DV${mailClass.slice(0, 4)}XXXXR0${zone}`,
                      },
                    ],
                  },
                ],
              };
            }),
          },
        ],
      });
    }
    const track = /^\/tracking\/v3\/tracking\/([^/]+)$/.exec(url.pathname);
    if (req.method === "GET" && track) {
      const n = decodeURIComponent(track[1]).toUpperCase();
      const scenario = scenarioOf(n);
      if (scenario === "not_found")
        return error(
          404,
          "150006",
          "Not Found",
          "A status update is not yet available for your package. It will be available when the shipper provides an update or the package is delivered to USPS.",
        );
      const { steps, start } = historyOf(n, scenario);
      const last = steps.at(-1)!;
      return json({
        trackingNumber: n,
        status: STEP[last.kind][1],
        statusCategory: STEP[last.kind][2],
        statusSummary: `Your item status: ${STEP[last.kind][1]}.`,
        mailClass: "USPS Ground Advantage<SUP>&#153;</SUP>",
        destinationZIP: steps.at(-1)!.place.zip,
        ...(last.kind !== "delivered"
          ? { expectedDeliveryTimeStamp: estimatedDeliveryOf(start).toISOString().slice(0, 19) }
          : {}),
        trackingEvents: [...steps].reverse().map((st) => ({
          eventType: STEP[st.kind][1],
          eventTimestamp: st.at.toISOString().slice(0, 19),
          GMTTimestamp: st.at.toISOString().replace(/\.\d{3}Z$/, "Z"),
          GMTOffset: "+00:00",
          eventCountry: null,
          eventCity: st.place.city,
          eventState: st.place.state,
          eventZIP: st.place.zip,
          eventCode: STEP[st.kind][0],
        })),
      });
    }
    return error(404, "404", "Not Found", `${req.method} ${url.pathname} is not a USPS endpoint`);
  };
  return { handle, control };
};
