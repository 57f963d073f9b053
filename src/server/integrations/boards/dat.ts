// DAT: the two-step identity (service-account organization token, then a user token) and the "Search Freight
// Marketplaces" (v4) load search, as DAT's service-account and RESTful API documentation (one.support.dat.com)
// describes them.
//
// One base URL per configuration: on DAT's own freight hosts (freight.api[.prod|.staging|.nprod].dat.com) the identity
// calls go to the matching identity host (identity.api[.staging|.nprod].dat.com); on any other host (the emulator, a
// proxy) both the identity and the freight paths are called on the configured base URL. That is our simplification of
// DAT's split hosts.
//
// DAT's terms allow only user-initiated searches and no stored copies of results: the domain searches DAT live and
// never syncs it (see modules/boards).
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

/**
 * Our equipment types as DAT equipment classes (DAT's one- and two-letter codes): V van, R reefer, F flatbed,
 * SD step deck, LB lowboy, T tanker, C container.
 */
export const DAT_EQUIPMENT: Record<TEquipmentType, string> = {
  dry_van: "V",
  refrigerated: "R",
  flatbed: "F",
  step_deck: "SD",
  lowboy: "LB",
  tanker: "T",
  container: "C",
};

// DAT's more specific equipment codes, mapped to the nearest of ours; an unknown code falls back on its first letter.
const DAT_CODES: Record<string, TEquipmentType> = {
  V: "dry_van",
  VA: "dry_van",
  VF: "dry_van",
  VM: "dry_van",
  VR: "dry_van",
  VZ: "dry_van",
  R: "refrigerated",
  RA: "refrigerated",
  RZ: "refrigerated",
  F: "flatbed",
  FA: "flatbed",
  FD: "step_deck",
  FS: "flatbed",
  FT: "flatbed",
  FZ: "flatbed",
  SD: "step_deck",
  DD: "lowboy",
  LB: "lowboy",
  LO: "lowboy",
  RG: "lowboy",
  T: "tanker",
  TA: "tanker",
  TN: "tanker",
  TS: "tanker",
  C: "container",
  CI: "container",
  CR: "container",
  CN: "flatbed",
};
const FIRST_LETTER: Record<string, TEquipmentType> = {
  V: "dry_van",
  R: "refrigerated",
  F: "flatbed",
  S: "step_deck",
  L: "lowboy",
  T: "tanker",
  C: "container",
};

/** DAT's equipment code as one of our types (a van when DAT's code tells nothing we know). */
export const datEquipmentType = (code: string | null | undefined): TEquipmentType => {
  const c = code?.trim().toUpperCase() ?? "";
  return DAT_CODES[c] ?? FIRST_LETTER[c[0] ?? ""] ?? "dry_van";
};

/** The identity base for a configured base URL (see the note at the top). */
export const datIdentityBase = (base: string) => {
  const u = new URL(base);
  const m = /^freight\.api(?:\.(prod|staging|nprod))?\.dat\.com$/i.exec(u.hostname);
  if (!m) return base;
  const env = m[1]?.toLowerCase();
  return `https://identity.api${env === "staging" || env === "nprod" ? `.${env}` : ""}.dat.com`;
};

// The answer fields we read, loosely: unknown fields pass, nulls are allowed where DAT may leave a value out.
const s = z.string().nullish();
const n = z.union([z.number(), z.string()]).nullish();
const ZToken = z.looseObject({ accessToken: z.string().min(1), expiresWhen: z.string().nullish() });
const ZPlace = z.looseObject({
  city: s,
  stateProv: s,
  country: s,
  postalCode: s,
  latitude: n,
  longitude: n,
});
const ZMatch = z.looseObject({
  matchId: z.union([z.string(), z.number()]),
  servicedWhen: s,
  posting: z.looseObject({
    lane: z.looseObject({ origin: ZPlace, destination: ZPlace }),
    freight: z.looseObject({ equipmentType: s, weightPounds: n, lengthFeet: n, comments: s, fullPartial: s }).nullish(),
    exposure: z.looseObject({ earliestAvailabilityWhen: z.string(), latestAvailabilityWhen: s }),
    rate: z.looseObject({ amountUsd: n }).nullish(),
    posterInfo: z
      .looseObject({
        companyName: s,
        contact: z.looseObject({ name: s, phone: s, email: s }).nullish(),
      })
      .nullish(),
    posterDotIds: z.looseObject({ brokerMcNumber: n }).nullish(),
    tripLength: z.looseObject({ miles: n }).nullish(),
  }),
});
const ZSearchResponse = z.looseObject({ matches: z.array(z.unknown()), totalMatchCount: n });
export type TDatMatch = z.output<typeof ZMatch>;

const place = (p: z.output<typeof ZPlace>): TBoardPlace | null => {
  const city = text(p.city);
  if (!city) return null;
  const state = text(p.stateProv)?.toUpperCase() ?? null;
  return {
    city,
    state,
    country: northAmericanCountry(p.country, state),
    latitude: boardNumber(p.latitude),
    longitude: boardNumber(p.longitude),
    postalCode: text(p.postalCode),
  };
};

/** One DAT match as a board load; null when it lacks what a load needs (places, a pickup date). */
export const mapDatMatch = (raw: unknown): TBoardLoad | null => {
  const r = ZMatch.safeParse(raw);
  if (!r.success) return null;
  const m = r.data;
  const p = m.posting;
  const pickup = place(p.lane.origin);
  const delivery = place(p.lane.destination);
  const pickupDate = parseBoardDate(p.exposure.earliestAvailabilityWhen);
  if (!pickup || !delivery || pickupDate === null) return null;
  const contact = p.posterInfo?.contact;
  return {
    externalId: String(m.matchId),
    title: laneTitle(pickup, delivery),
    description: text(p.freight?.comments),
    pickup,
    delivery,
    pickupDate,
    // DAT gives an availability window for the pickup, not a delivery date.
    deliveryDate: null,
    weightLbs: boardNumber(p.freight?.weightPounds),
    equipmentType: datEquipmentType(p.freight?.equipmentType),
    rateMinor: rateMinorOf(boardNumber(p.rate?.amountUsd), "USD"),
    currency: "USD",
    tripMiles: boardNumber(p.tripLength?.miles),
    contact: {
      company: text(p.posterInfo?.companyName),
      name: text(contact?.name),
      phone: text(contact?.phone),
      email: text(contact?.email),
      mcNumber: text(p.posterDotIds?.brokerMcNumber),
    },
    postedAt: parseBoardDate(m.servicedWhen),
  };
};

/** Reads a DAT search answer; matches that lack what a load needs are left out. */
export const parseDatSearch = (board: string, body: unknown): TBoardLoad[] =>
  parseWire(board, ZSearchResponse, body).matches.flatMap((m) => mapDatMatch(m) ?? []);

/** The search body: criteria.lane.origin (coordinates, and city/state when known), destination, classes, limit. */
export const datSearchBody = (q: TBoardSearch) => {
  const miles = (r: number) => Math.max(1, Math.round(r));
  const where = (
    p: { latitude: number; longitude: number; city?: string | null; state?: string | null },
    radiusMiles: number,
  ) => ({
    latitude: p.latitude,
    longitude: p.longitude,
    ...(p.city ? { city: p.city } : {}),
    ...(p.state ? { stateProv: p.state } : {}),
    radiusMiles,
  });
  return {
    criteria: {
      lane: {
        origin: where(q.origin, miles(q.radiusMiles)),
        ...(q.destination
          ? { destination: where(q.destination, miles(q.destinationRadiusMiles ?? q.radiusMiles)) }
          : {}),
      },
      equipmentClasses: q.equipmentType ? [DAT_EQUIPMENT[q.equipmentType]] : Object.values(DAT_EQUIPMENT),
      fullPartial: "BOTH",
    },
    limit: Math.max(1, Math.min(500, Math.round(q.limit))),
  };
};

const tokenOf = (board: string, res: TExchange, fallbackLifeMs: number): TToken => {
  failOnStatus(board, res);
  const t = parseWire(board, ZToken, readJson(board, res));
  const expiresAt = parseBoardDate(t.expiresWhen) ?? Date.now() + fallbackLifeMs;
  return { accessToken: t.accessToken, expiresAt };
};

/** DAT: two-step JWT identity, then POST /marketplaces/v1/loads/search as the configured user. */
export const createDatAdapter = (s: TBoardSettings): TLoadBoardAdapter => {
  const board = s.name || BOARD_NAMES.dat;
  const base = trimBase(s.baseUrl);
  const identity = datIdentityBase(base);
  const budget = new HourlyBudget(s.rateLimitPerHour, board);
  const creds = s.credentials;
  const post = (url: string, body: unknown, bearer?: string) =>
    exchange(
      board,
      url,
      {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          Accept: "application/json",
          ...(bearer ? { Authorization: `Bearer ${bearer}` } : {}),
        },
        body: JSON.stringify(body),
      },
      s.timeoutMs,
      { trusted: s.sandboxOrigins },
    );

  // Tokens last about 30 minutes; DAT says when in expiresWhen.
  const orgTokens = new TokenCache(async () =>
    tokenOf(
      board,
      await post(`${identity}/access/v1/token/organization`, {
        username: creds.clientId ?? "",
        password: creds.clientSecret ?? "",
      }),
      30 * 60_000,
    ),
  );
  const userTokens = new TokenCache(async () => {
    const org = await orgTokens.get();
    const res = await post(`${identity}/access/v1/token/user`, { username: creds.userEmail ?? "" }, org);
    // A refused organization token: drop it, so that the next attempt starts from the service account.
    if (res.status === 401) orgTokens.invalidate();
    return tokenOf(board, res, 30 * 60_000);
  });

  const search = async (body: unknown, attempt = 0): Promise<TExchange> => {
    const res = await post(`${base}/marketplaces/v1/loads/search`, body, await userTokens.get());
    if (res.status === 401 && attempt === 0) {
      // DAT no longer honours the token (expired early, revoked): authenticate again, once.
      userTokens.invalidate();
      orgTokens.invalidate();
      return search(body, 1);
    }
    return res;
  };

  return {
    provider: "dat",
    boardName: BOARD_NAMES.dat,
    sandbox: isSandboxBoardUrl(base),
    async test() {
      budget.take();
      // A real call: cached tokens would prove nothing.
      orgTokens.invalidate();
      userTokens.invalidate();
      await userTokens.get();
    },
    async search(q) {
      budget.take();
      const res = await search(datSearchBody(q));
      failOnStatus(board, res);
      return parseDatSearch(board, readJson(board, res));
    },
  };
};
