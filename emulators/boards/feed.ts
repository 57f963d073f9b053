// The MyTess JSON load feed (provider "other"), as a broker would publish it (docs/load-feed.md), with loads on the
// Ethiopia–Djibouti corridor, in East Africa and around three North Sea ports. The API key "sandbox" is accepted;
// a missing or other key gets 401 {"error":"invalid api key"}.
//
//   GET /loads?lat=&lng=&radiusMiles=&equipmentType=&limit=   Authorization: Bearer <apiKey>
//   → { "version": 1, "loads": [ … ] }
import { EQUIPMENT_TYPES, type TEquipmentType } from "../../src/shared/constants";
import { createBoardState, datesOf, feedLoads, isEquipmentType, iso, json, searchLoads, type TEmuLoad } from "./model";

export const FEED_SANDBOX = { apiKey: "sandbox" } as const;

const LABEL: Record<TEquipmentType, string> = {
  dry_van: "Dry van",
  refrigerated: "Reefer",
  flatbed: "Flatbed",
  step_deck: "Step deck",
  lowboy: "Lowboy",
  tanker: "Tanker",
  container: "Container",
};

/** A load in the feed's format. */
export const feedLoad = (l: TEmuLoad, now = Date.now()) => {
  const d = datesOf(l, now);
  const place = (p: TEmuLoad["origin"]) => ({
    city: p.city,
    state: p.state,
    country: p.country,
    latitude: p.latitude,
    longitude: p.longitude,
    address: p.address,
  });
  return {
    id: l.id,
    title: `${LABEL[l.equipment]}: ${l.origin.city} → ${l.destination.city}`,
    description: l.comments,
    pickup: place(l.origin),
    delivery: place(l.destination),
    pickupDate: iso(d.pickupAt),
    deliveryDate: d.deliveryAt === null ? null : iso(d.deliveryAt),
    weightLbs: l.weightLbs,
    equipmentType: l.equipment,
    rate: l.rate === null ? null : { amount: l.rate, currency: l.currency },
    tripMiles: l.miles,
    contact: { company: l.company.name, name: l.contactName, phone: l.company.phone, email: l.company.email },
    updatedAt: iso(d.postedAt),
  };
};

export type TFeedControl = ReturnType<typeof createBoardState>["control"] & {
  /** Entries sent as they are after the loads of every answer (malformed loads, for tests). */
  extraRaw: unknown[];
  /** Whether a key is required (default true). */
  requireKey: boolean;
};

const number = (v: string | null) => (v === null || v.trim() === "" ? null : Number(v));

export const createFeedEmulator = () => {
  const state = createBoardState({
    seed: () => feedLoads("feed", (i) => `ET-${String(40001 + i)}`),
    tokenLifetimeSeconds: 0,
    outage: () => json({ error: "temporarily unavailable" }, 503),
    rateLimited: () => json({ error: "too many requests" }, 429, { "Retry-After": "30" }),
  });
  const control: TFeedControl = Object.assign(state.control, { extraRaw: [] as unknown[], requireKey: true });
  const baseReset = control.reset;
  control.reset = () => {
    baseReset();
    control.extraRaw = [];
    control.requireKey = true;
  };

  const handle = async (req: Request): Promise<Response> => {
    const url = new URL(req.url);
    if (req.method !== "GET" || url.pathname !== "/loads")
      return json({ error: `${req.method} ${url.pathname} is not part of the feed` }, 404);
    const refused = await state.enter("search");
    if (refused) return refused;
    const auth = req.headers.get("authorization");
    if (control.requireKey && auth !== `Bearer ${FEED_SANDBOX.apiKey}`) return json({ error: "invalid api key" }, 401);
    const q = url.searchParams;
    const lat = number(q.get("lat"));
    const lng = number(q.get("lng"));
    const radius = number(q.get("radiusMiles")) ?? 50;
    const limit = number(q.get("limit")) ?? 50;
    const equipment = q.get("equipmentType");
    if ((lat === null) !== (lng === null)) return json({ error: "lat and lng go together" }, 400);
    if (lat !== null && !(Math.abs(lat) <= 90)) return json({ error: "lat must be a number between -90 and 90" }, 400);
    if (lng !== null && !(Math.abs(lng) <= 180))
      return json({ error: "lng must be a number between -180 and 180" }, 400);
    if (!(radius > 0 && radius <= 1000)) return json({ error: "radiusMiles must be between 1 and 1000" }, 400);
    if (!(Number.isInteger(limit) && limit >= 1 && limit <= 500))
      return json({ error: "limit must be an integer between 1 and 500" }, 400);
    if (equipment && !isEquipmentType(equipment))
      return json({ error: `equipmentType must be one of ${EQUIPMENT_TYPES.join(", ")}` }, 400);
    const kinds = equipment && isEquipmentType(equipment) ? [equipment] : null;
    const picked =
      lat !== null && lng !== null
        ? searchLoads(state.current(), {
            origin: { latitude: lat, longitude: lng, radiusMiles: radius },
            equipment: kinds,
            limit,
          }).results.map((r) => r.load)
        : // Without a point: the whole feed, by id.
          state
            .current()
            .filter((l) => !kinds || kinds.includes(l.equipment))
            .sort((a, b) => a.id.localeCompare(b.id))
            .slice(0, limit);
    const now = Date.now();
    const loads = picked.map((l) => feedLoad(l, now));
    return json({ version: 1, loads: [...loads, ...control.extraRaw] });
  };
  return { handle, control };
};
