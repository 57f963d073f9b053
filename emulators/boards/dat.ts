// DAT emulator: the identity service's two token calls and the Search Freight Marketplaces (v4) load search, on one
// base URL. Accepts the service account sandbox/sandbox and the user sandbox; refuses anything else with a 401 JSON
// error, as DAT's identity service does.
//
//   POST /access/v1/token/organization  {username, password}         → {accessToken, expiresWhen}
//   POST /access/v1/token/user          Bearer org token, {username} → {accessToken, expiresWhen}
//   POST /marketplaces/v1/loads/search  Bearer user token, {criteria, limit} → {matches[], totalMatchCount}
//
// A match is in the current (v4) shape, as public integrations of it read it: a resultId, the posting with its own id,
// freight.comments as a list of {comment}, the poster's companyName and contact, the posted rate under
// exposure.audience.loadBoard.transactionDetails. As on the real board, posters leave optional fields out (comments,
// weight, the contact's e-mail or phone, trip miles), and now and then a match lacks what a load needs (a pickup date,
// the origin's city): about one in twenty-five.
import { z } from "zod";
import type { TEquipmentType } from "../../src/shared/constants";
import {
  createBoardState,
  datesOf,
  findCity,
  iso,
  json,
  northAmericanLoads,
  readJsonBody,
  searchLoads,
  type TBoardControl,
  type TEmuLoad,
  type TEmuQuery,
} from "./model";

export const DAT_SANDBOX = { clientId: "sandbox", clientSecret: "sandbox", userEmail: "sandbox" } as const;

// DAT equipment classes, as this emulator understands them.
const CLASSES: Record<string, TEquipmentType> = {
  V: "dry_van",
  R: "refrigerated",
  F: "flatbed",
  SD: "step_deck",
  LB: "lowboy",
  T: "tanker",
  C: "container",
};
const CODE_OF = Object.fromEntries(Object.entries(CLASSES).map(([k, v]) => [v, k])) as Record<TEquipmentType, string>;

const error = (status: number, message: string, code = status === 401 ? "UNAUTHORIZED" : "BAD_REQUEST") =>
  json({ status, code, message }, status);

const ZPlace = z.object({
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  city: z.string().optional(),
  stateProv: z.string().optional(),
  postalCode: z.string().optional(),
  radiusMiles: z.number().positive().max(1000).optional(),
});
const ZSearch = z.object({
  criteria: z.object({
    lane: z.object({ origin: ZPlace, destination: ZPlace.optional() }),
    equipmentClasses: z.array(z.string()).optional(),
    fullPartial: z.enum(["FULL", "PARTIAL", "BOTH"]).optional(),
  }),
  limit: z.number().int().positive().max(500).optional(),
});
const ZCredentials = z.object({ username: z.string(), password: z.string().optional() });

/** A lane end as an area: coordinates, else a known city (and state), else a state alone. */
const area = (p: z.output<typeof ZPlace>): TEmuQuery["origin"] | null => {
  const radiusMiles = p.radiusMiles ?? 100;
  if (p.latitude !== undefined && p.longitude !== undefined)
    return { latitude: p.latitude, longitude: p.longitude, radiusMiles };
  const c = findCity(p.city, p.stateProv);
  if (c) return { latitude: c.latitude, longitude: c.longitude, radiusMiles };
  if (p.stateProv && !p.city) return { states: [p.stateProv] };
  return null;
};

/**
 * What a poster left out of a load, and whether the match is unreadable (the same for a load every time): comments and
 * weight in one in four, the e-mail in one in six, the phone in one in eight, trip miles in one in nine; no pickup date
 * in one in fifty, no origin city (a postal code only) in another one in fifty.
 */
export const datGaps = (id: string) => {
  const n = Number(id.replace(/\D/g, ""));
  return {
    noComments: n % 4 === 1,
    noEmail: n % 6 === 2,
    noPhone: n % 8 === 5,
    noMiles: n % 9 === 4,
    noPickupDate: n % 50 === 17,
    noOriginCity: n % 50 === 42,
  };
};
export const isUnreadableDatLoad = (id: string) => {
  const g = datGaps(id);
  return g.noPickupDate || g.noOriginCity;
};

/** A load as a v4 match. `resultId` identifies the result within one search; the posting keeps its own id. */
export const datMatch = (l: TEmuLoad, resultId: string, now = Date.now()) => {
  const d = datesOf(l, now);
  const gap = datGaps(l.id);
  const place = (p: TEmuLoad["origin"], withCity = true) => ({
    ...(withCity ? { city: p.city } : {}),
    stateProv: p.state,
    postalCode: p.postalCode,
    latitude: p.latitude,
    longitude: p.longitude,
  });
  const comments = gap.noComments || !l.comments ? [] : [{ comment: l.comments }];
  return {
    resultId,
    servicedWhen: iso(d.postedAt),
    posting: {
      id: l.id,
      lane: { origin: place(l.origin, !gap.noOriginCity), destination: place(l.destination) },
      freight: {
        equipmentType: CODE_OF[l.equipment],
        fullPartial: l.fullLoad ? "FULL" : "PARTIAL",
        ...(gap.noComments || l.weightLbs === null ? {} : { weightPounds: l.weightLbs }),
        lengthFeet: l.lengthFeet,
        ...(comments.length ? { comments } : {}),
      },
      exposure: {
        ...(gap.noPickupDate ? {} : { earliestAvailabilityWhen: iso(d.pickupAt) }),
        latestAvailabilityWhen: iso(d.pickupLatestAt),
        audience: {
          loadBoard: {
            includesExtendedNetwork: false,
            ...(l.rate === null
              ? {}
              : { transactionDetails: { transactionType: "NONBOOKABLE_OFFER_RATE", loadOfferRateUsd: l.rate } }),
          },
        },
      },
      posterInfo: {
        companyName: l.company.name,
        contact: {
          ...(l.contactName ? { name: l.contactName } : {}),
          ...(gap.noPhone ? {} : { phone: l.company.phone }),
          ...(gap.noEmail ? {} : { email: l.company.email }),
        },
        city: l.company.city,
        state: l.company.state,
        credit: { creditScore: 90 + (Number(l.id.replace(/\D/g, "")) % 10), daysToPay: 28 },
      },
      posterDotIds: { brokerMcNumber: l.company.mcNumber },
      ...(gap.noMiles ? {} : { tripLength: { miles: l.miles, method: "ROAD" } }),
    },
  };
};

export type TDatControl = TBoardControl & {
  /** Raw matches appended to every search answer (a test's odd or broken match). */
  extraRaw: unknown[];
};

export const createDatEmulator = () => {
  const state = createBoardState({
    seed: () => northAmericanLoads("dat", (i) => `DAT-${String(700001 + i)}`),
    tokenLifetimeSeconds: 1800,
    outage: () => error(503, "Service Unavailable", "SERVICE_UNAVAILABLE"),
    rateLimited: () =>
      json({ status: 429, code: "TOO_MANY_REQUESTS", message: "Rate limit exceeded" }, 429, { "Retry-After": "30" }),
  });
  const control: TDatControl = Object.assign(state.control, { extraRaw: [] as unknown[] });
  const baseReset = control.reset;
  control.reset = () => {
    baseReset();
    control.extraRaw = [];
  };
  let searches = 0;

  const token = (kind: "org" | "user") => {
    const t = state.issue(kind);
    return json({ accessToken: t.token, expiresWhen: iso(t.expiresAt) });
  };

  const handle = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const post = req.method === "POST";
    if (post && path === "/access/v1/token/organization") {
      const refused = await state.enter("token");
      if (refused) return refused;
      const c = ZCredentials.safeParse(await readJsonBody(req));
      if (!c.success) return error(400, "username and password are required");
      if (c.data.username !== DAT_SANDBOX.clientId || c.data.password !== DAT_SANDBOX.clientSecret)
        return error(401, "Invalid service account username or password");
      return token("org");
    }
    if (post && path === "/access/v1/token/user") {
      const refused = await state.enter("token");
      if (refused) return refused;
      if (!state.valid(req.headers.get("authorization"), "org"))
        return error(401, "The organization token is missing, invalid or expired");
      const c = ZCredentials.safeParse(await readJsonBody(req));
      if (!c.success) return error(400, "username is required");
      if (c.data.username !== DAT_SANDBOX.userEmail)
        return error(401, `User ${c.data.username} is not a DAT user of this organization`);
      return token("user");
    }
    if (post && path === "/marketplaces/v1/loads/search") {
      const refused = await state.enter("search");
      if (refused) return refused;
      if (!state.valid(req.headers.get("authorization"), "user"))
        return error(401, "The user token is missing, invalid or expired");
      const body = ZSearch.safeParse(await readJsonBody(req));
      if (!body.success) {
        const i = body.error.issues[0];
        return error(400, `${i?.path.join(".") || "body"}: ${i?.message ?? "invalid"}`);
      }
      const c = body.data.criteria;
      const origin = area(c.lane.origin);
      if (!origin)
        return error(400, "criteria.lane.origin needs latitude/longitude, a known city and stateProv, or a stateProv");
      const destination = c.lane.destination ? area(c.lane.destination) : null;
      const unknown = c.equipmentClasses?.find((e) => !CLASSES[e]);
      if (unknown) return error(400, `Unknown equipment class ${unknown}`);
      const fp = c.fullPartial ?? "BOTH";
      const loads = state.current().filter((l) => fp === "BOTH" || (fp === "FULL") === l.fullLoad);
      const { total, results } = searchLoads(loads, {
        origin,
        destination,
        equipment: c.equipmentClasses?.map((e) => CLASSES[e]),
        limit: body.data.limit ?? 50,
      });
      const now = Date.now();
      const search = ++searches;
      const matches = results.map((r, i) => datMatch(r.load, `${search.toString(36)}-${i + 1}`, now));
      return json({ matches: [...matches, ...control.extraRaw], totalMatchCount: total + control.extraRaw.length });
    }
    return error(404, `${req.method} ${path} is not a DAT endpoint`, "NOT_FOUND");
  };
  return { handle, control };
};
