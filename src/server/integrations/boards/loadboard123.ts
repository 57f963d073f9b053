// 123Loadboard: OAuth2 token at {base}/token (client credentials, scope loadsearching), then POST {base}/loads/search
// with the headers 123Loadboard requires on every call (123LB-Api-Version, 123LB-AID, User-Agent).
//
// 123Loadboard's developer documentation is not public: the request follows integrators' code, and the fields of a
// load in the answer (origin{city,state,country,latitude,longitude}, pickupDateTimes[]/pickupDate, equipments[],
// rate{amount,currency}, poster{company{…},contactName}, createdOn…) are our reading of it, defined here and in
// emulators/boards/loadboard123.ts alike. Confirm them at onboarding. Whether a client-credentials token may search
// loads (rather than a user's authorization-code token) is also unconfirmed.
import { z } from "zod";
import type { TEquipmentType } from "../../../shared/constants";
import { TokenCache, type TToken } from "../carriers/token-cache";
import { exchange, HourlyBudget, parseWire, readJson, type TExchange, trimBase } from "../http/kit";
import {
  boardNumber,
  failOnStatus,
  isSandboxBoardUrl,
  laneTitle,
  northAmericanCountry,
  parseBoardDate,
  rateMinorOf,
  text,
} from "./http";
import {
  BOARD_NAMES,
  type TBoardLoad,
  type TBoardPlace,
  type TBoardSearch,
  type TBoardSettings,
  type TLoadBoardAdapter,
} from "./types";

/** The headers 123Loadboard requires on every call. */
export const LB123_HEADERS = {
  "123LB-Api-Version": "1.3",
  "123LB-AID": "mytess",
  "User-Agent": "MyTess (support@mytess.app)",
} as const;

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
const ZToken = z.looseObject({ access_token: z.string().min(1), expires_in: n });
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

/** Reads a 123Loadboard search answer; loads that lack what a load needs are left out. */
export const parseLb123Search = (board: string, body: unknown): TBoardLoad[] =>
  parseWire(board, ZSearchResponse, body).loads.flatMap((l) => mapLb123Load(l) ?? []);

const tokenOf = (board: string, res: TExchange): TToken => {
  failOnStatus(board, res);
  const t = parseWire(board, ZToken, readJson(board, res));
  const expiresIn = boardNumber(t.expires_in) ?? 3600;
  return { accessToken: t.access_token, expiresAt: Date.now() + expiresIn * 1000 };
};

/** 123Loadboard: OAuth client credentials (scope loadsearching), then POST /loads/search. */
export const createLoadboard123Adapter = (s: TBoardSettings): TLoadBoardAdapter => {
  const board = s.name || BOARD_NAMES["123loadboard"];
  const base = trimBase(s.baseUrl);
  const budget = new HourlyBudget(s.rateLimitPerHour, board);
  const basic = Buffer.from(`${s.credentials.clientId ?? ""}:${s.credentials.clientSecret ?? ""}`).toString("base64");

  const tokens = new TokenCache(async () =>
    tokenOf(
      board,
      await exchange(
        board,
        `${base}/token`,
        {
          method: "POST",
          headers: {
            ...LB123_HEADERS,
            Authorization: `Basic ${basic}`,
            "Content-Type": "application/x-www-form-urlencoded",
            Accept: "application/json",
          },
          body: new URLSearchParams({ grant_type: "client_credentials", scope: "loadsearching" }).toString(),
        },
        s.timeoutMs,
        { trusted: s.sandboxOrigins },
      ),
    ),
  );

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
      // The token is no longer honoured: fetch a new one, once.
      tokens.invalidate();
      return search(body, 1);
    }
    return res;
  };

  return {
    provider: "123loadboard",
    boardName: BOARD_NAMES["123loadboard"],
    sandbox: isSandboxBoardUrl(base),
    async test() {
      budget.take();
      tokens.invalidate();
      await tokens.get();
    },
    async search(q) {
      budget.take();
      const res = await search(lb123SearchBody(q));
      failOnStatus(board, res);
      return parseLb123Search(board, readJson(board, res));
    },
  };
};
