// The consignee's tracking link: an unguessable token (32 random bytes) in a URL the shipper hands on. Only the
// token's SHA-256 is kept, one live link per load; what the link shows is the trip's places, track, ETA and stage.
import { and, eq, gte } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type Load, loads, loginFailures, trackingLinks, type User } from "../../../../db/tables";
import { placeLabel } from "../../../shared/place";
import type {
  TSharedTrack,
  TSharedTripStage,
  TTrackingLink,
  TTrackingLinkState,
} from "../../../shared/schemas/tracking";
import { AppError } from "../../errors";
import { actsAsShipper } from "../companies/work";
import { LOAD_NOT_FOUND, LOAD_STATUS_WORD } from "../loads/errors";
import { trackOf } from "./positions";

/** A link works until this long after the delivery (open-ended before it). */
export const TRACKING_LINK_TTL_MS = 7 * 24 * 60 * 60_000;
/** Views of shared tracks one client address may ask for per minute, whichever links it opens. */
export const TRACK_VIEWS_PER_MINUTE = 60;
const VIEW_WINDOW_MS = 60_000;

/** Statuses whose trip a link may show: from the award to the end (a cancelled or re-posted load shows nothing). */
const LINKABLE: Load["status"][] = ["assigned", "in_transit", "delivered", "disputed", "completed"];

const hash = (token: string) => new Bun.CryptoHasher("sha256").update(token).digest("hex");
const iso = (ms: number) => new Date(ms).toISOString();

const expiryOf = (load: Pick<Load, "deliveredAt">) =>
  load.deliveredAt == null ? null : load.deliveredAt + TRACKING_LINK_TTL_MS;

const LINK_GONE = /*i18n*/ {
  id: "error.tracking.linkGone",
  message: "This tracking link has expired or was turned off",
};

const shippersLoad = async (db: Pick<TDb, "select">, actor: Pick<User, "id">, loadId: number) => {
  const [load] = await db.select().from(loads).where(eq(loads.id, loadId));
  if (!load || !(await actsAsShipper(db, load, actor))) throw new AppError("NOT_FOUND", LOAD_NOT_FOUND);
  return load;
};

/**
 * A new tracking link for the shipper's load, replacing the one it had (that one stops working at once). Only for a
 * trip that is under way or ended less than 7 days ago.
 */
export const createTrackingLink = async (
  db: TDb,
  actor: Pick<User, "id">,
  loadId: number,
  origin: string,
  now = Date.now(),
): Promise<TTrackingLink> =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`load:${loadId}`]);
    const load = await shippersLoad(tx, actor, loadId);
    if (!LINKABLE.includes(load.status))
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.tracking.linkNotTracked",
          message: "A tracking link is for a trip after the award: this load is {status}",
          values: { status: LOAD_STATUS_WORD[load.status] },
        },
      );
    const expiresAt = expiryOf(load);
    if (expiresAt != null && expiresAt <= now)
      throw new AppError(
        "CONFLICT",
        /*i18n*/ {
          id: "error.tracking.linkTooLate",
          message: "A tracking link works until 7 days after the delivery; this load was delivered earlier",
        },
      );
    const token = Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString("base64url");
    await tx
      .insert(trackingLinks)
      .values({ loadId, tokenHash: hash(token), createdAt: now })
      .onConflictDoUpdate({ target: trackingLinks.loadId, set: { tokenHash: hash(token), createdAt: now } });
    return {
      url: `${origin.replace(/\/+$/, "")}/track/${token}`,
      token,
      expiresAt: expiresAt == null ? null : iso(expiresAt),
    };
  });

/** Whether the shipper's load has a live link (the token itself was shown once and is not kept). */
export const trackingLinkState = async (
  db: TDb,
  actor: Pick<User, "id">,
  loadId: number,
  now = Date.now(),
): Promise<TTrackingLinkState> => {
  const load = await shippersLoad(db, actor, loadId);
  const [link] = await db.select().from(trackingLinks).where(eq(trackingLinks.loadId, loadId));
  if (!link || !isLive(load, now)) return { link: null };
  const expiresAt = expiryOf(load);
  return { link: { createdAt: iso(link.createdAt), expiresAt: expiresAt == null ? null : iso(expiresAt) } };
};

/** Turns the load's link off; answers whether there was one. */
export const revokeTrackingLink = async (db: TDb, actor: Pick<User, "id">, loadId: number) =>
  db.transaction(async (tx) => {
    await db.q.lockKeys(tx, [`load:${loadId}`]);
    await shippersLoad(tx, actor, loadId);
    const gone = await tx
      .delete(trackingLinks)
      .where(eq(trackingLinks.loadId, loadId))
      .returning({ id: trackingLinks.id });
    return { revoked: gone.length > 0 };
  });

const isLive = (load: Pick<Load, "status" | "deliveredAt">, now: number) => {
  if (!LINKABLE.includes(load.status)) return false;
  const expiresAt = expiryOf(load);
  return expiresAt == null || expiresAt > now;
};

/**
 * Counts a view against the client address (every server process shares the count, kept with the sign-in attempts'
 * rows and cleared by the housekeeping job), refusing past TRACK_VIEWS_PER_MINUTE with a 429.
 */
const countView = (db: TDb, ip: string, now: number) =>
  db.transaction(async (tx) => {
    const key = `track:${ip}`;
    await db.q.lockKeys(tx, [key]);
    const recent = await tx
      .select({ at: loginFailures.at })
      .from(loginFailures)
      .where(and(eq(loginFailures.key, key), gte(loginFailures.at, now - VIEW_WINDOW_MS)))
      .orderBy(loginFailures.at);
    if (recent.length >= TRACK_VIEWS_PER_MINUTE) {
      const retryAfterSeconds = Math.max(1, Math.ceil((recent[0]!.at + VIEW_WINDOW_MS - now) / 1000));
      throw new AppError(
        "TOO_MANY_REQUESTS",
        /*i18n*/ {
          id: "error.tracking.tooManyViews",
          message: "Too many requests for tracked trips. Try again in {seconds} seconds.",
          values: { seconds: retryAfterSeconds },
        },
        { retryAfterSeconds },
      );
    }
    await tx.insert(loginFailures).values({ key, at: now });
  });

const stageOf = (status: Load["status"]): TSharedTripStage =>
  status === "assigned" ? "awaiting_pickup" : status === "in_transit" ? "in_transit" : "delivered";

/**
 * The trip behind a link, for anyone holding it: the places (town, region, country; not the street addresses), the
 * track, the ETA and the stage. A link that was replaced, revoked or has expired, or whose load was cancelled, is 404.
 */
export const sharedTrack = async (db: TDb, token: string, ip: string, now = Date.now()): Promise<TSharedTrack> => {
  await countView(db, ip, now);
  const [row] = await db
    .select({ load: loads })
    .from(trackingLinks)
    .innerJoin(loads, eq(loads.id, trackingLinks.loadId))
    .where(eq(trackingLinks.tokenHash, hash(token)));
  if (!row || !isLive(row.load, now)) throw new AppError("NOT_FOUND", LINK_GONE);
  const load = row.load;
  const track = await trackOf(db, load, now);
  const expiresAt = expiryOf(load);
  return {
    stage: stageOf(load.status),
    pickup: {
      label: placeLabel(load.pickupCity, load.pickupState, load.pickupCountry),
      latitude: load.pickupLatitude,
      longitude: load.pickupLongitude,
    },
    delivery: {
      label: placeLabel(load.deliveryCity, load.deliveryState, load.deliveryCountry),
      latitude: load.deliveryLatitude,
      longitude: load.deliveryLongitude,
    },
    positions: track.positions,
    lastPosition: track.lastPosition,
    remainingMiles: track.remainingMiles,
    eta: track.eta,
    etaComputedAt: track.etaComputedAt,
    deliveredAt: load.deliveredAt == null ? null : iso(load.deliveredAt),
    expiresAt: expiresAt == null ? null : iso(expiresAt),
  };
};
