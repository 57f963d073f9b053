import { inArray } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { users } from "../../../../db/tables";

export type TBoardShipper = { name: string; rating: number | null; ratings: number };

/**
 * Who posted each MyTess load on a board page, as a driver weighs it before bidding: the shipper's first name and the
 * initial of the last, the average rating and how many ratings it rests on (null while there is none). Nothing that
 * reaches the person (no id, email or phone) is shown.
 */
export const boardShippers = async (db: TDb, shipperIds: (number | null)[]) => {
  const ids = [...new Set(shipperIds.filter((id): id is number => id != null))];
  const out = new Map<number, TBoardShipper>();
  if (!ids.length) return out;
  const rows = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      ratingSum: users.ratingSum,
      totalRatings: users.totalRatings,
    })
    .from(users)
    .where(inArray(users.id, ids));
  for (const r of rows)
    out.set(r.id, {
      name: [r.firstName, r.lastName ? `${r.lastName.charAt(0)}.` : ""].filter(Boolean).join(" "),
      rating: r.totalRatings > 0 ? Math.round((r.ratingSum / r.totalRatings) * 10) / 10 : null,
      ratings: r.totalRatings,
    });
  return out;
};
