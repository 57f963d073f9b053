// Provider "other": our own JSON load feed, which a broker or a partner board publishes for MyTess to read. The format
// is documented for them in docs/load-feed.md; this module is its reference reader.
//
//   GET {base}/loads?lat=&lng=&radiusMiles=&equipmentType=&limit=    Authorization: Bearer <apiKey> (when one is set)
//   → { "version": 1, "loads": [ … ] }
//
// A load that breaks the format is skipped (and logged with the field at fault); an answer whose top level breaks it
// fails the whole call.
import { z } from "zod";
import { EQUIPMENT_TYPES } from "../../../shared/constants";
import { haversineMiles } from "../../../shared/geo";
import { toMinor } from "../../../shared/money";
import { exchange, failOnStatus, HourlyBudget, readJson, serviceUnreadable, trimBase } from "../http/kit";
import { isSandboxBoardUrl, laneTitle, logSkipped, parseBoardDate, text } from "./http";
import {
  BOARD_NAMES,
  type TBoardLoad,
  type TBoardResult,
  type TBoardSearch,
  type TBoardSettings,
  type TLoadBoardAdapter,
} from "./types";

export const FEED_VERSION = 1;

const optText = z.string().nullish();
const date = z.string().refine((v) => parseBoardDate(v) !== null, { message: "must be an ISO 8601 date or date-time" });
const place = (withCoordinates: boolean) =>
  z.looseObject({
    city: z.string().trim().min(1),
    state: optText,
    country: z
      .string()
      .regex(/^[A-Za-z]{2}$/, { message: "must be an ISO 3166 alpha-2 code" })
      .transform((c) => c.toUpperCase()),
    latitude: withCoordinates ? z.number().min(-90).max(90) : z.number().min(-90).max(90).nullish(),
    longitude: withCoordinates ? z.number().min(-180).max(180) : z.number().min(-180).max(180).nullish(),
    address: optText,
    postalCode: optText,
  });

/** One load of the feed (docs/load-feed.md): unknown fields are ignored, so the format can grow. */
export const ZFeedLoad = z.looseObject({
  id: z.union([z.string().trim().min(1).max(200), z.number().int()]).transform(String),
  title: optText,
  description: optText,
  pickup: place(true),
  delivery: place(false),
  pickupDate: date,
  deliveryDate: date.nullish(),
  weightLbs: z.number().nonnegative().nullish(),
  equipmentType: z.enum(EQUIPMENT_TYPES),
  rate: z
    .looseObject({
      amount: z.number().nonnegative(),
      currency: z
        .string()
        .regex(/^[A-Za-z]{3}$/, { message: "must be an ISO 4217 code" })
        .transform((c) => c.toUpperCase()),
    })
    .nullish(),
  tripMiles: z.number().nonnegative().nullish(),
  contact: z.looseObject({ company: optText, name: optText, phone: optText, email: optText }).nullish(),
  updatedAt: date.nullish(),
});
export type TFeedLoad = z.output<typeof ZFeedLoad>;

const ZFeed = z.looseObject({ version: z.literal(FEED_VERSION), loads: z.array(z.unknown()) });

export type TFeedSkip = { index: number; id: string | null; field: string; message: string };

const toBoardLoad = (l: TFeedLoad): TBoardLoad => {
  const pickup = {
    city: l.pickup.city,
    state: text(l.pickup.state),
    country: l.pickup.country,
    latitude: l.pickup.latitude ?? null,
    longitude: l.pickup.longitude ?? null,
    postalCode: text(l.pickup.postalCode),
  };
  const delivery = {
    city: l.delivery.city,
    state: text(l.delivery.state),
    country: l.delivery.country,
    latitude: l.delivery.latitude ?? null,
    longitude: l.delivery.longitude ?? null,
    postalCode: text(l.delivery.postalCode),
  };
  const currency = l.rate?.currency ?? "USD";
  return {
    externalId: l.id,
    title: text(l.title) ?? laneTitle(pickup, delivery),
    description: text(l.description),
    pickup,
    delivery,
    pickupDate: parseBoardDate(l.pickupDate)!,
    deliveryDate: parseBoardDate(l.deliveryDate),
    weightLbs: l.weightLbs ?? null,
    equipmentType: l.equipmentType,
    rateMinor: l.rate && l.rate.amount > 0 ? toMinor(l.rate.amount, currency) : null,
    currency,
    tripMiles: l.tripMiles ?? null,
    contact: {
      company: text(l.contact?.company),
      name: text(l.contact?.name),
      phone: text(l.contact?.phone),
      email: text(l.contact?.email),
      mcNumber: null,
    },
    postedAt: parseBoardDate(l.updatedAt),
  };
};

/**
 * Reads a feed answer: the loads that follow the format, and the ones skipped with the field at fault. A wrong top
 * level (not `{version: 1, loads: []}`) throws an error naming the board and the field.
 */
export const parseFeed = (board: string, body: unknown): { loads: TBoardLoad[]; skipped: TFeedSkip[] } => {
  const top = ZFeed.safeParse(body);
  if (!top.success) throw serviceUnreadable(board, top.error.issues[0]?.path.join(".") || "(top)");
  const loads: TBoardLoad[] = [];
  const skipped: TFeedSkip[] = [];
  top.data.loads.forEach((raw, index) => {
    const r = ZFeedLoad.safeParse(raw);
    if (r.success) {
      loads.push(toBoardLoad(r.data));
      return;
    }
    const issue = r.error.issues[0];
    const rawId = raw && typeof raw === "object" ? (raw as Record<string, unknown>).id : undefined;
    skipped.push({
      index,
      id: typeof rawId === "string" || typeof rawId === "number" ? String(rawId) : null,
      field: `loads.${index}.${issue?.path.join(".") ?? ""}`.replace(/\.$/, ""),
      message: issue?.message ?? "invalid",
    });
  });
  return { loads, skipped };
};

/** The query string of a search (docs/load-feed.md, "Query parameters"). */
export const feedQuery = (q: TBoardSearch) => {
  const p = new URLSearchParams({
    lat: String(Math.round(q.origin.latitude * 1e6) / 1e6),
    lng: String(Math.round(q.origin.longitude * 1e6) / 1e6),
    radiusMiles: String(Math.max(1, Math.round(q.radiusMiles))),
  });
  if (q.equipmentType) p.set("equipmentType", q.equipmentType);
  p.set("limit", String(Math.max(1, Math.min(500, Math.round(q.limit)))));
  return p;
};

/** Our JSON load feed (provider "other"). */
export const createFeedAdapter = (s: TBoardSettings): TLoadBoardAdapter => {
  const board = BOARD_NAMES.other;
  const base = trimBase(s.baseUrl);
  const budget = new HourlyBudget(s.rateLimitPerHour, board);
  const apiKey = s.credentials.apiKey?.trim();

  const get = async (query: URLSearchParams): Promise<TBoardResult> => {
    budget.take();
    const res = await exchange(
      board,
      `${base}/loads?${query}`,
      {
        method: "GET",
        headers: { Accept: "application/json", ...(apiKey ? { Authorization: `Bearer ${apiKey}` } : {}) },
      },
      s.timeoutMs,
      { trusted: s.sandboxOrigins },
    );
    // A feed can be any host a user names: its error bodies are never shown to anyone, only its HTTP status.
    failOnStatus(board, res);
    const { loads, skipped } = parseFeed(board, readJson(board, res));
    const unread = skipped.map((k) => ({ id: k.id, field: k.field, reason: k.message }));
    logSkipped(board, s.name, unread);
    return { loads, skipped: unread };
  };

  return {
    provider: "other",
    boardName: BOARD_NAMES.other,
    sandbox: isSandboxBoardUrl(base),
    async test() {
      await get(new URLSearchParams({ limit: "1" }));
    },
    async search(q) {
      const found = await get(feedQuery(q));
      // The feed is asked about the pickup area only; a destination narrows the answer here, by its radius.
      const d = q.destination;
      if (!d) return found;
      const radius = q.destinationRadiusMiles ?? q.radiusMiles;
      const loads = found.loads.filter(
        (l) =>
          l.delivery.latitude === null ||
          l.delivery.longitude === null ||
          haversineMiles(d.latitude, d.longitude, l.delivery.latitude, l.delivery.longitude) <= radius,
      );
      return { loads, skipped: found.skipped };
    },
  };
};
