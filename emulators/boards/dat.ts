// DAT emulator: the identity service's two token calls and the Search Freight Marketplaces (v4) load search, on one
// base URL. Accepts the service account sandbox/sandbox and the user sandbox; refuses anything else with a 401 JSON
// error, as DAT's identity service does.
//
//   POST /access/v1/token/organization  {username, password}         → {accessToken, expiresWhen}
//   POST /access/v1/token/user          Bearer org token, {username} → {accessToken, expiresWhen}
//   POST /marketplaces/v1/loads/search  Bearer user token, {criteria, limit} → {matches[], totalMatchCount}
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

/** A load as a v4 match. */
export const datMatch = (l: TEmuLoad, now = Date.now()) => {
  const d = datesOf(l, now);
  const place = (p: TEmuLoad["origin"]) => ({
    city: p.city,
    stateProv: p.state,
    postalCode: p.postalCode,
    latitude: p.latitude,
    longitude: p.longitude,
  });
  return {
    matchId: l.id,
    servicedWhen: iso(d.postedAt),
    posting: {
      lane: { origin: place(l.origin), destination: place(l.destination) },
      freight: {
        equipmentType: CODE_OF[l.equipment],
        fullPartial: l.fullLoad ? "FULL" : "PARTIAL",
        weightPounds: l.weightLbs,
        lengthFeet: l.lengthFeet,
        comments: l.comments,
      },
      exposure: { earliestAvailabilityWhen: iso(d.pickupAt), latestAvailabilityWhen: iso(d.pickupLatestAt) },
      rate: l.rate === null ? null : { amountUsd: l.rate },
      posterInfo: {
        companyName: l.company.name,
        contact: { ...(l.contactName ? { name: l.contactName } : {}), phone: l.company.phone, email: l.company.email },
        city: l.company.city,
        state: l.company.state,
        credit: { creditScore: 90 + (Number(l.id.replace(/\D/g, "")) % 10), daysToPay: 28 },
      },
      posterDotIds: { brokerMcNumber: l.company.mcNumber },
      tripLength: { miles: l.miles, method: "ROAD" },
    },
  };
};

export const createDatEmulator = () => {
  const state = createBoardState({
    seed: () => northAmericanLoads("dat", (i) => `DAT-${String(700001 + i)}`),
    tokenLifetimeSeconds: 1800,
    outage: () => error(503, "Service Unavailable", "SERVICE_UNAVAILABLE"),
    rateLimited: () =>
      json({ status: 429, code: "TOO_MANY_REQUESTS", message: "Rate limit exceeded" }, 429, { "Retry-After": "30" }),
  });
  const { control } = state;

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
      return json({ matches: results.map((r) => datMatch(r.load, now)), totalMatchCount: total });
    }
    return error(404, `${req.method} ${path} is not a DAT endpoint`, "NOT_FOUND");
  };
  return { handle, control };
};
