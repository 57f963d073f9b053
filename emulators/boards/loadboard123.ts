// 123Loadboard emulator: OAuth2 token endpoint and the load search. Every call must carry 123LB-Api-Version: 1.3,
// 123LB-AID and a User-Agent. Accepts the client sandbox/sandbox; anything else gets 401 {"error":"invalid_client"}
// from /token, and a bad bearer token 401 from the search.
//
//   POST /token          Basic base64(clientId:clientSecret), form grant_type=client_credentials&scope=loadsearching
//   POST /loads/search   Bearer token, {metadata, origin, destination, equipmentTypes, loadSize, …} → {loads[]}
//
// 123Loadboard's documentation is not public: the fields of a load in the answer are our reading of it, kept the same
// as in src/server/integrations/boards/loadboard123.ts.
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

export const LB123_SANDBOX = { clientId: "sandbox", clientSecret: "sandbox" } as const;

const NAMES: Record<string, TEquipmentType> = {
  Van: "dry_van",
  Reefer: "refrigerated",
  Flatbed: "flatbed",
  StepDeck: "step_deck",
  Lowboy: "lowboy",
  Tanker: "tanker",
  Container: "container",
};
const NAME_OF = Object.fromEntries(Object.entries(NAMES).map(([k, v]) => [v, k])) as Record<TEquipmentType, string>;

const ZArea = z.object({
  type: z.enum(["City", "States", "Anywhere"]),
  city: z.string().optional(),
  states: z.array(z.string()).optional(),
  latitude: z.number().optional(),
  longitude: z.number().optional(),
  radius: z.number().nonnegative().max(1000).optional(),
});
const ZSearch = z.object({
  metadata: z.object({
    limit: z.number().int().positive().max(500),
    sortBy: z.object({ field: z.string(), direction: z.enum(["Ascending", "Descending"]) }).optional(),
    fields: z.string().optional(),
    type: z.string().optional(),
  }),
  origin: ZArea,
  destination: ZArea.optional(),
  equipmentTypes: z.array(z.string()).optional(),
  loadSize: z.enum(["Tl", "Ltl", "All"]).optional(),
  includeLoadsWithoutWeight: z.boolean().optional(),
});

const area = (a: z.output<typeof ZArea>): TEmuQuery["origin"] | "anywhere" | null => {
  if (a.type === "Anywhere") return "anywhere";
  const radiusMiles = a.radius ?? 50;
  if (a.type === "City") {
    if (a.latitude !== undefined && a.longitude !== undefined)
      return { latitude: a.latitude, longitude: a.longitude, radiusMiles };
    const c = findCity(a.city, a.states?.[0]);
    return c ? { latitude: c.latitude, longitude: c.longitude, radiusMiles } : null;
  }
  return a.states?.length ? { states: a.states } : null;
};

/** A load as 123Loadboard lists it (our reading of its fields). */
export const lb123Load = (l: TEmuLoad, now = Date.now()) => {
  const d = datesOf(l, now);
  const place = (p: TEmuLoad["origin"]) => ({
    city: p.city,
    state: p.state,
    country: p.country,
    postalCode: p.postalCode,
    latitude: p.latitude,
    longitude: p.longitude,
  });
  // One load in five gives only a pickup date, as some posters do.
  const dateOnly = Number(l.id.replace(/\D/g, "")) % 5 === 0;
  return {
    id: l.id,
    origin: place(l.origin),
    destination: place(l.destination),
    ...(dateOnly ? { pickupDate: iso(d.pickupAt).slice(0, 10) } : { pickupDateTimes: [iso(d.pickupAt)] }),
    deliveryDate: d.deliveryAt === null ? null : iso(d.deliveryAt),
    equipments: [{ equipmentType: NAME_OF[l.equipment] }],
    loadSize: l.fullLoad ? "Tl" : "Ltl",
    weight: l.weightLbs,
    length: l.lengthFeet,
    rate: l.rate === null ? null : { amount: l.rate, currency: l.currency },
    mileage: l.miles,
    poster: {
      company: { name: l.company.name, mcNumber: l.company.mcNumber, phone: l.company.phone, email: l.company.email },
      contactName: l.contactName,
    },
    notes: l.comments,
    createdOn: iso(d.postedAt),
  };
};

const HEADER_ERRORS: [string, (v: string | null) => boolean, string][] = [
  ["123LB-Api-Version", (v) => v === "1.3", "The 123LB-Api-Version header must be 1.3"],
  ["123LB-AID", (v) => Boolean(v?.trim()), "The 123LB-AID header is required"],
  ["User-Agent", (v) => Boolean(v?.trim()), "A User-Agent header naming the application is required"],
];

export const createLoadboard123Emulator = () => {
  const state = createBoardState({
    seed: () => northAmericanLoads("123loadboard", (i) => `LB${String(5100000 + i * 3)}`),
    tokenLifetimeSeconds: 3600,
    outage: () => json({ error: "service_unavailable", message: "The service is temporarily unavailable" }, 503),
    rateLimited: () =>
      json({ error: "too_many_requests", message: "API rate limit exceeded" }, 429, { "Retry-After": "30" }),
  });
  const { control } = state;

  const handle = async (req: Request): Promise<Response> => {
    const path = new URL(req.url).pathname;
    const isToken = req.method === "POST" && path === "/token";
    const isSearch = req.method === "POST" && path === "/loads/search";
    const refused = await state.enter(isToken ? "token" : isSearch ? "search" : "other");
    if (refused) return refused;
    for (const [name, ok, message] of HEADER_ERRORS)
      if (!ok(req.headers.get(name))) return json({ error: "invalid_request", message }, 400);

    if (isToken) {
      const [scheme, encoded] = (req.headers.get("authorization") ?? "").split(" ");
      const [id, secret] = scheme?.toLowerCase() === "basic" ? atob(encoded ?? "").split(":") : [];
      if (id !== LB123_SANDBOX.clientId || secret !== LB123_SANDBOX.clientSecret)
        return json({ error: "invalid_client" }, 401);
      const form = new URLSearchParams(await req.text());
      if (form.get("grant_type") !== "client_credentials") return json({ error: "unsupported_grant_type" }, 400);
      const scopes = (form.get("scope") ?? "").split(/\s+/);
      if (!scopes.includes("loadsearching")) return json({ error: "invalid_scope" }, 400);
      const t = state.issue("access");
      return json({ access_token: t.token, token_type: "Bearer", expires_in: t.expiresIn, scope: "loadsearching" });
    }
    if (isSearch) {
      if (!state.valid(req.headers.get("authorization"), "access"))
        return json({ error: "invalid_token", message: "The access token is invalid or has expired" }, 401);
      const body = ZSearch.safeParse(await readJsonBody(req));
      if (!body.success) {
        const i = body.error.issues[0];
        return json({ error: "invalid_request", message: `${i?.path.join(".") || "body"}: ${i?.message}` }, 400);
      }
      const b = body.data;
      const origin = area(b.origin);
      if (!origin || origin === "anywhere")
        return json({ error: "invalid_request", message: "origin needs a city, coordinates or states" }, 400);
      const destination = b.destination ? area(b.destination) : "anywhere";
      if (!destination) return json({ error: "invalid_request", message: "destination is not a known place" }, 400);
      const unknown = b.equipmentTypes?.find((e) => !NAMES[e]);
      if (unknown) return json({ error: "invalid_request", message: `Unknown equipment type ${unknown}` }, 400);
      const size = b.loadSize ?? "All";
      const loads = state
        .current()
        .filter((l) => size === "All" || (size === "Tl") === l.fullLoad)
        .filter((l) => b.includeLoadsWithoutWeight !== false || l.weightLbs !== null);
      const { total, results } = searchLoads(loads, {
        origin,
        destination: destination === "anywhere" ? null : destination,
        equipment: b.equipmentTypes?.map((e) => NAMES[e]),
        limit: b.metadata.limit,
      });
      const now = Date.now();
      return json({ loads: results.map((r) => lb123Load(r.load, now)), metadata: { totalResults: total } });
    }
    return json({ error: "not_found", message: `${req.method} ${path} is not an API endpoint` }, 404);
  };
  return { handle, control };
};
