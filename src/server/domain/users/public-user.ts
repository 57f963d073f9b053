import type { User } from "../../../../db/schema";

/** What the API shows of a user: never the password hash or the OIDC subject. */
export const toPublicUser = (u: User) => ({
  id: u.id,
  email: u.email,
  firstName: u.firstName,
  lastName: u.lastName,
  profileImageUrl: u.profileImageUrl,
  userType: u.userType,
  currency: u.currency,
  language: u.language,
  rating: u.totalRatings > 0 ? Math.round((u.ratingSum / u.totalRatings) * 10) / 10 : 0,
  totalRatings: u.totalRatings,
  totalTrips: u.totalTrips,
  createdAt: new Date(u.createdAt).toISOString(),
});
export type TPublicUser = ReturnType<typeof toPublicUser>;
