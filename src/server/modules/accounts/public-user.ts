import type { User } from "../../../../db/tables";
import type { TCalendar } from "../../../shared/dates";
import type { TUnits } from "../../../shared/units";

/** What the API shows of a user: never the password hash or the OIDC subject. */
export const toPublicUser = (u: User) => ({
  id: u.id,
  email: u.email,
  /** Whether the email was proven by its link (or vouched for by the sign-in provider). */
  emailVerified: u.email !== null && u.emailVerifiedAt !== null,
  /** E.164, once proven by a code. */
  phone: u.phone,
  firstName: u.firstName,
  lastName: u.lastName,
  profileImageUrl: u.profileImageUrl,
  userType: u.userType,
  currency: u.currency,
  language: u.language,
  calendar: u.calendar as TCalendar,
  ethiopianTime: u.ethiopianTime,
  units: u.units as TUnits,
  rating: u.totalRatings > 0 ? Math.round((u.ratingSum / u.totalRatings) * 10) / 10 : 0,
  totalRatings: u.totalRatings,
  totalTrips: u.totalTrips,
  /** The user's own last known position (drivers share it on the dashboard): the board searches from it at once. */
  location:
    u.latitude != null && u.longitude != null
      ? {
          latitude: u.latitude,
          longitude: u.longitude,
          updatedAt: u.locationUpdatedAt ? new Date(u.locationUpdatedAt).toISOString() : null,
        }
      : null,
  createdAt: new Date(u.createdAt).toISOString(),
});
export type TPublicUser = ReturnType<typeof toPublicUser>;
