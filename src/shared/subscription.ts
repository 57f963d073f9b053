const DAY_MS = 24 * 60 * 60 * 1000;

/** Whole days left until `endsAt`, rounded up, never below 0. */
export const daysLeft = (endsAt: number | string | Date, now = Date.now()) =>
  Math.max(0, Math.ceil((new Date(endsAt).getTime() - now) / DAY_MS));
