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
import { exchange, HourlyBudget, parseWire, readJson, serviceUnreadable, type TExchange, trimBase } from "../http/kit";
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

// Reading an answer -------------------------------------------------------------------------------------------------
//
// DAT's search answer is read field by field, each match on its own: a field DAT leaves out, or sends in another form
// than we expect, is read as missing, and only a match without what a load needs (an id, its two places, a pickup
// date) is left out, counted and logged with the field at fault. One odd match never costs the others, and a change of
// format shows as a count on the Marketplaces page rather than as a board that silently lists nothing.
//
// The current search (v4) puts the posting's id in posting.id (and a result id beside it; v3 called it matchId), the
// comments in freight.comments as a list of {comment}, the poster's company in posterInfo.companyName (or
// company.name) and the posted rate in exposure.audience.loadBoard.transactionDetails.loadOfferRateUsd.

type TObj = Record<string, unknown>;
const obj = (v: unknown): TObj | null => (v && typeof v === "object" && !Array.isArray(v) ? (v as TObj) : null);
/** The value at a dotted path, or undefined where any step is missing or not an object. */
const at = (v: unknown, path: string): unknown =>
  path.split(".").reduce<unknown>((o, k) => (o === undefined ? undefined : obj(o)?.[k]), v);
const idOf = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? String(v) : text(v));

/** The comments as DAT lists them ([{comment}]), or a plain string as older answers had it. */
const commentsOf = (v: unknown): string[] => {
  if (Array.isArray(v)) return v.flatMap((c) => text(obj(c)?.comment ?? c) ?? []);
  const one = text(v);
  return one ? [one] : [];
};

const placeOf = (v: unknown): TBoardPlace | null => {
  const p = obj(v);
  const city = text(p?.city);
  if (!p || !city) return null;
  const state = text(p.stateProv)?.toUpperCase() ?? null;
  return {
    city,
    state,
    country: northAmericanCountry(text(p.country), state),
    latitude: boardNumber(p.latitude),
    longitude: boardNumber(p.longitude),
    postalCode: text(p.postalCode),
  };
};

/** A phone or an e-mail among posterInfo.contactMethods ([{type, value}]), when the contact object has none. */
const contactMethod = (methods: unknown, kind: "phone" | "email") =>
  Array.isArray(methods)
    ? (methods
        .map((m) => ({ type: String(obj(m)?.type ?? obj(m)?.method ?? "").toUpperCase(), value: text(obj(m)?.value) }))
        .find((m) => m.value && (kind === "email" ? m.type.includes("EMAIL") : m.type.includes("PHONE")))?.value ??
      null)
    : null;

export type TDatMatchRead = { load: TBoardLoad } | { skip: TBoardSkip };

/** One DAT match as a board load, or why it cannot be one (`field` relative to the match). */
export const mapDatMatch = (raw: unknown): TDatMatchRead => {
  const m = obj(raw);
  const rawId = idOf(at(raw, "posting.id")) ?? idOf(m?.resultId) ?? idOf(m?.matchId);
  const skip = (field: string, reason: string): TDatMatchRead => ({ skip: { id: rawId, field, reason } });
  if (!m) return skip("", "not an object");
  const p = obj(m.posting);
  if (!p) return skip("posting", "missing");
  if (!rawId) return skip("posting.id", "missing");
  const pickup = placeOf(at(p, "lane.origin"));
  if (!pickup) return skip("posting.lane.origin.city", "missing");
  const delivery = placeOf(at(p, "lane.destination"));
  if (!delivery) return skip("posting.lane.destination.city", "missing");
  const when = at(p, "exposure.earliestAvailabilityWhen");
  const pickupDate = parseBoardDate(typeof when === "string" ? when : null);
  if (pickupDate === null)
    return skip("posting.exposure.earliestAvailabilityWhen", when === undefined ? "missing" : "not a date");
  const freight = obj(p.freight);
  const poster = obj(p.posterInfo);
  const contact = obj(poster?.contact);
  const parts = [text(at(freight, "commodity.details")), ...commentsOf(freight?.comments)].filter(
    (t): t is string => t !== null,
  );
  const rate =
    boardNumber(at(p, "exposure.audience.loadBoard.transactionDetails.loadOfferRateUsd")) ??
    boardNumber(at(p, "exposure.transactionDetails.loadOfferRateUsd")) ??
    boardNumber(at(p, "rate.amountUsd"));
  const weight = boardNumber(freight?.weightPounds);
  const miles = boardNumber(at(p, "tripLength.miles"));
  return {
    load: {
      externalId: rawId,
      title: laneTitle(pickup, delivery),
      description: parts.length ? parts.join(" · ") : null,
      pickup,
      delivery,
      pickupDate,
      // DAT gives an availability window for the pickup, not a delivery date.
      deliveryDate: null,
      weightLbs: weight && weight > 0 ? weight : null,
      equipmentType: datEquipmentType(text(freight?.equipmentType)),
      rateMinor: rateMinorOf(rate, "USD"),
      currency: "USD",
      tripMiles: miles && miles > 0 ? miles : null,
      contact: {
        company: text(poster?.companyName) ?? text(at(poster, "company.name")),
        name: text(contact?.name),
        phone: text(contact?.phone) ?? contactMethod(poster?.contactMethods, "phone"),
        email: text(contact?.email) ?? contactMethod(poster?.contactMethods, "email"),
        mcNumber: idOf(at(p, "posterDotIds.brokerMcNumber")),
      },
      postedAt: parseBoardDate(text(m.servicedWhen) ?? text(p.updatedWhen) ?? text(p.createdWhen)),
    },
  };
};

/** Reads a DAT search answer: the matches that are loads, and those that are not (with the field at fault). */
export const parseDatSearch = (board: string, body: unknown): TBoardResult => {
  const matches = at(body, "matches");
  if (!Array.isArray(matches)) throw serviceUnreadable(board, "matches");
  const loads: TBoardLoad[] = [];
  const skipped: TBoardSkip[] = [];
  matches.forEach((raw, i) => {
    const r = mapDatMatch(raw);
    if ("load" in r) loads.push(r.load);
    else skipped.push({ ...r.skip, field: `matches.${i}${r.skip.field ? `.${r.skip.field}` : ""}` });
  });
  return { loads, skipped };
};

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

const ZToken = z.looseObject({ accessToken: z.string().min(1), expiresWhen: z.string().nullish() });

const tokenOf = (board: string, res: TExchange, fallbackLifeMs: number): TToken => {
  failOnStatus(board, res);
  const t = parseWire(board, ZToken, readJson(board, res));
  const expiresAt = parseBoardDate(t.expiresWhen) ?? Date.now() + fallbackLifeMs;
  return { accessToken: t.accessToken, expiresAt };
};

/** DAT: two-step JWT identity, then POST /marketplaces/v1/loads/search as the configured user. */
export const createDatAdapter = (s: TBoardSettings): TLoadBoardAdapter => {
  const board = BOARD_NAMES.dat;
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
      const found = parseDatSearch(board, readJson(board, res));
      logSkipped(board, s.name, found.skipped);
      return found;
    },
  };
};
