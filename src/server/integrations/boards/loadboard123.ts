// 123Loadboard: POST {base}/loads/search with a 123Loadboard user's access token (the authorization-code grant, see
// loadboard123-oauth.ts: a client-credentials token may not search loads) and the headers 123Loadboard requires on
// every call (123LB-Api-Version, 123LB-AID, User-Agent).
//
// 123Loadboard's developer documentation is not public: the request follows integrators' code, and the fields of a
// load in the answer (origin{city,state,country,latitude,longitude}, pickupDateTimes[]/pickupDate, equipments[],
// rate{amount,currency}, poster{company{…},contactName}, createdOn…) are our reading of it, defined here and in
// emulators/boards/loadboard123.ts alike. Confirm them at onboarding.
import { z } from "zod";
import type { TEquipmentType } from "../../../shared/constants";
import { exchange, HourlyBudget, parseWire, readJson, type TExchange, trimBase } from "../http/kit";
import {
  boardNumber,
  failOnStatus,
  isSandboxBoardUrl,
  laneTitle,
  logSkipped,
  northAmericanCountry,
  parseBoardDate,
  rateMinorOf,
  text,
} from "./http";
import { LB123_HEADERS, userTokens } from "./loadboard123-oauth";
import {
  BOARD_NAMES,
  type TBoardLoad,
  type TBoardPlace,
  type TBoardResult,
  type TBoardSearch,
  type TBoardSettings,
  type TBoardSkip,
  type TLoadBoardAdapter,
} from "./types";

export { LB123_HEADERS };

/** Our equipment types as 123Loadboard's equipment names. */
export const LB123_EQUIPMENT: Record<TEquipmentType, string> = {
  dry_van: "Van",
  refrigerated: "Reefer",
  flatbed: "Flatbed",
  step_deck: "StepDeck",
  lowboy: "Lowboy",
  tanker: "Tanker",
  container: "Container",
};
const LB123_NAMES: Record<string, TEquipmentType> = {
  ...Object.fromEntries(Object.entries(LB123_EQUIPMENT).map(([k, v]) => [v.toLowerCase(), k as TEquipmentType])),
  vanreefer: "dry_van",
  vanflatbed: "dry_van",
  dropdeck: "step_deck",
  stepdeckflatbed: "step_deck",
  doubledrop: "lowboy",
  removablegooseneck: "lowboy",
  rgn: "lowboy",
  conestoga: "flatbed",
  hotshot: "flatbed",
  tank: "tanker",
};

/** 123Loadboard's equipment name as one of our types (a van when the name tells nothing we know). */
export const lb123EquipmentType = (name: string | null | undefined): TEquipmentType => {
  const key = (name ?? "").toLowerCase().replace(/[^a-z]/g, "");
  if (LB123_NAMES[key]) return LB123_NAMES[key];
  const partial = Object.entries(LB123_NAMES).find(([k]) => key.startsWith(k));
  return partial?.[1] ?? "dry_van";
};

/** The search body (POST /loads/search). */
export const lb123SearchBody = (q: TBoardSearch) => {
  const radius = Math.max(1, Math.round(q.radiusMiles));
  const d = q.destination;
  return {
    metadata: {
      limit: Math.max(1, Math.min(500, Math.round(q.limit))),
      sortBy: { field: "Origin", direction: "Ascending" },
      fields: "all",
      type: "Regular",
    },
    origin: {
      ...(q.origin.city ? { city: q.origin.city } : {}),
      states: q.origin.state ? [q.origin.state] : [],
      latitude: q.origin.latitude,
      longitude: q.origin.longitude,
      radius,
      type: "City",
    },
    destination: d
      ? {
          ...(d.city ? { city: d.city } : {}),
          states: d.state ? [d.state] : [],
          latitude: d.latitude,
          longitude: d.longitude,
          radius: Math.max(1, Math.round(q.destinationRadiusMiles ?? q.radiusMiles)),
          type: "City",
        }
      : { type: "Anywhere" },
    equipmentTypes: q.equipmentType ? [LB123_EQUIPMENT[q.equipmentType]] : Object.values(LB123_EQUIPMENT),
    loadSize: "Tl",
    includeLoadsWithoutWeight: true,
  };
};

const s = z.string().nullish();
const n = z.union([z.number(), z.string()]).nullish();
const ZPlace = z.looseObject({ city: s, state: s, country: s, postalCode: s, latitude: n, longitude: n });
const ZLoad = z.looseObject({
  id: z.union([z.string(), z.number()]),
  origin: ZPlace,
  destination: ZPlace,
  pickupDateTimes: z.array(z.string()).nullish(),
  pickupDate: s,
  deliveryDate: s,
  equipments: z.array(z.looseObject({ equipmentType: s })).nullish(),
  weight: n,
  rate: z.looseObject({ amount: n, currency: s }).nullish(),
  mileage: n,
  poster: z
    .looseObject({
      company: z.looseObject({ name: s, mcNumber: n, phone: s, email: s }).nullish(),
      contactName: s,
    })
    .nullish(),
  notes: s,
  createdOn: s,
});
const ZSearchResponse = z.looseObject({ loads: z.array(z.unknown()) });

const place = (p: z.output<typeof ZPlace>): TBoardPlace | null => {
  const city = text(p.city);
  if (!city) return null;
  const state = text(p.state)?.toUpperCase() ?? null;
  return {
    city,
    state,
    country: northAmericanCountry(p.country, state),
    latitude: boardNumber(p.latitude),
    longitude: boardNumber(p.longitude),
    postalCode: text(p.postalCode),
  };
};

/** One 123Loadboard load as a board load; null when it lacks what a load needs. */
export const mapLb123Load = (raw: unknown): TBoardLoad | null => {
  const r = ZLoad.safeParse(raw);
  if (!r.success) return null;
  const l = r.data;
  const pickup = place(l.origin);
  const delivery = place(l.destination);
  const pickupDate = parseBoardDate(l.pickupDateTimes?.[0] ?? l.pickupDate);
  if (!pickup || !delivery || pickupDate === null) return null;
  const currency = text(l.rate?.currency)?.toUpperCase() ?? "USD";
  const weight = boardNumber(l.weight);
  const company = l.poster?.company;
  return {
    externalId: String(l.id),
    title: laneTitle(pickup, delivery),
    description: text(l.notes),
    pickup,
    delivery,
    pickupDate,
    deliveryDate: parseBoardDate(l.deliveryDate),
    weightLbs: weight && weight > 0 ? weight : null,
    equipmentType: lb123EquipmentType(l.equipments?.[0]?.equipmentType),
    rateMinor: rateMinorOf(boardNumber(l.rate?.amount), currency),
    currency,
    tripMiles: boardNumber(l.mileage),
    contact: {
      company: text(company?.name),
      name: text(l.poster?.contactName),
      phone: text(company?.phone),
      email: text(company?.email),
      mcNumber: text(company?.mcNumber),
    },
    postedAt: parseBoardDate(l.createdOn),
  };
};

/** Reads a 123Loadboard search answer: the loads, and those that lack what a load needs (each on its own). */
export const parseLb123Search = (board: string, body: unknown): TBoardResult => {
  const loads: TBoardLoad[] = [];
  const skipped: TBoardSkip[] = [];
  parseWire(board, ZSearchResponse, body).loads.forEach((raw, i) => {
    const load = mapLb123Load(raw);
    if (load) {
      loads.push(load);
      return;
    }
    const r = ZLoad.safeParse(raw);
    const id = (raw as { id?: unknown } | null)?.id;
    skipped.push({
      id: typeof id === "string" || typeof id === "number" ? String(id) : null,
      field: `loads.${i}${r.success ? "" : `.${r.error.issues[0]?.path.join(".") ?? ""}`}`.replace(/\.$/, ""),
      reason: r.success ? "a place or the pickup date is missing" : (r.error.issues[0]?.message ?? "invalid"),
    });
  });
  return { loads, skipped };
};

/** A one-result search around Chicago: the connection test (a real call with the user's token). */
const PROBE: TBoardSearch = {
  origin: { latitude: 41.8781, longitude: -87.6298, city: "Chicago", state: "IL", country: "US" },
  radiusMiles: 50,
  limit: 1,
};

/** 123Loadboard: the user's access token (renewed with the refresh token), then POST /loads/search. */
export const createLoadboard123Adapter = (s: TBoardSettings): TLoadBoardAdapter => {
  const board = BOARD_NAMES["123loadboard"];
  const base = trimBase(s.baseUrl);
  const budget = new HourlyBudget(s.rateLimitPerHour, board);
  const tokens = userTokens(s, s.userAuth);

  const search = async (body: unknown, attempt = 0): Promise<TExchange> => {
    const res = await exchange(
      board,
      `${base}/loads/search`,
      {
        method: "POST",
        headers: {
          ...LB123_HEADERS,
          Authorization: `Bearer ${await tokens.get()}`,
          "Content-Type": "application/json",
          Accept: "application/json",
        },
        body: JSON.stringify(body),
      },
      s.timeoutMs,
      { trusted: s.sandboxOrigins },
    );
    if (res.status === 401 && attempt === 0) {
      // The access token is no longer honoured (expired early, revoked): renew it, once.
      await tokens.renew();
      return search(body, 1);
    }
    return res;
  };

  const run = async (q: TBoardSearch) => {
    budget.take();
    const res = await search(lb123SearchBody(q));
    failOnStatus(board, res);
    return parseLb123Search(board, readJson(board, res));
  };

  return {
    provider: "123loadboard",
    boardName: BOARD_NAMES["123loadboard"],
    sandbox: isSandboxBoardUrl(base),
    async test() {
      // A real call with the user's token as stored now, not one this process kept.
      tokens.forget();
      await run(PROBE);
    },
    async search(q) {
      const found = await run(q);
      logSkipped(board, s.name, found.skipped);
      return found;
    },
  };
};
