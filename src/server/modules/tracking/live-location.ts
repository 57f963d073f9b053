import { and, desc, eq, inArray } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { loads, type User } from "../../../../db/tables";
import { placeLabel } from "../../../shared/place";
import type { TPosition } from "../../../shared/schemas/tracking";
import { AppError } from "../../errors";
import { recordPositions } from "./positions";

/**
 * The trip a driver's live location (shared in a chat with the bot) feeds: their load in transit, else one awarded to
 * them and not picked up yet (sharing a live location with the bot is the driver's own choice to share before pickup).
 * With several, the one that moved last.
 */
export const liveTripOf = async (db: Pick<TDb, "select">, driverId: number) => {
  const candidates = await db
    .select()
    .from(loads)
    .where(and(eq(loads.assignedDriverId, driverId), inArray(loads.status, ["in_transit", "assigned"])))
    .orderBy(desc(loads.updatedAt), desc(loads.id));
  return candidates.find((l) => l.status === "in_transit") ?? candidates[0] ?? null;
};

/** A live location's point joins the driver's current trip, through the same checks and de-duplication as the app's. */
export const recordLiveLocation = async (db: TDb, driver: Pick<User, "id">, point: TPosition, now = Date.now()) => {
  const load = await liveTripOf(db, driver.id);
  if (!load)
    throw new AppError(
      "CONFLICT",
      /*i18n*/ {
        id: "error.tracking.noTripUnderWay",
        message: "You have no trip under way, so your location is not recorded",
      },
    );
  const { stored } = await recordPositions(db, driver, load.id, [point], now);
  return {
    loadId: load.id,
    from: placeLabel(load.pickupCity, load.pickupState, load.pickupCountry),
    to: placeLabel(load.deliveryCity, load.deliveryState, load.deliveryCountry),
    stored,
  };
};
