// Business constants (docs/product-rules.md). Pure data: imported by the web app, the server, the bots and the CLI.

export const LANGUAGES = [
  { code: "en", name: "English", nativeName: "English" },
  { code: "am", name: "Amharic", nativeName: "አማርኛ" },
  { code: "om", name: "Afaan Oromo", nativeName: "Afaan Oromoo" },
] as const;
export const LANGUAGE_CODES = ["en", "am", "om"] as const;
export type TLanguage = (typeof LANGUAGE_CODES)[number];
export const DEFAULT_LANGUAGE: TLanguage = "en";

/** Display currencies of the selector (their first-start rates are FX_SEED_RATES; the server keeps the live table). */
export const CURRENCIES = [
  { code: "USD", name: "US Dollar", symbol: "$", locale: "en-US" },
  { code: "EUR", name: "Euro", symbol: "€", locale: "de-DE" },
  { code: "ETB", name: "Ethiopian Birr", symbol: "Br", locale: "am-ET" },
] as const;
/**
 * The first-start rates (units per USD), used only until the rate source has answered once (and for a currency it
 * never publishes).
 */
export const FX_SEED_RATES: Record<string, number> = { USD: 1, EUR: 0.85, ETB: 60.5, GBP: 0.79, CAD: 1.37 };
export const DISPLAY_CURRENCY_CODES = ["USD", "EUR", "ETB"] as const;
export type TDisplayCurrency = (typeof DISPLAY_CURRENCY_CODES)[number];
/** Currencies a load budget or a bid may be written in. */
export const MONEY_CURRENCY_CODES = ["USD", "EUR", "GBP", "CAD", "ETB"] as const;
export type TMoneyCurrency = (typeof MONEY_CURRENCY_CODES)[number];

export const USER_TYPES = ["driver", "shipper"] as const;
export type TUserType = (typeof USER_TYPES)[number];

export const EQUIPMENT_TYPES = [
  "dry_van",
  "refrigerated",
  "flatbed",
  "step_deck",
  "lowboy",
  "tanker",
  "container",
] as const;
export type TEquipmentType = (typeof EQUIPMENT_TYPES)[number];

/** The load board's sort orders (the search API's `sort`). */
export const LOAD_SORTS = ["distance", "rate", "date"] as const;
export type TLoadSort = (typeof LOAD_SORTS)[number];
export const RADIUS_OPTIONS = [25, 50, 100, 250, 500] as const;
/** Saved lanes (the lanes board sync searches besides the user's last location): at most this many per user. */
export const SAVED_LANES_MAX = 20;
/** Saved board searches per account. */
export const SAVED_SEARCHES_MAX = 25;
/** A lane's origin and destination radius, in miles: what the boards' searches take (1–500). */
export const LANE_RADIUS_MIN = 1;
export const LANE_RADIUS_MAX = 500;
export const DEFAULT_LANE_RADIUS = 100;
export const DEFAULT_RADIUS = 50;
export const EARTH_RADIUS_MILES = 3959;
export const EARTH_RADIUS_KM = 6371;
export const URGENT_WITHIN_MS = 2 * 24 * 60 * 60 * 1000;
export const DISTANCE_BADGE_NEAR_MILES = 10;
export const DISTANCE_BADGE_MID_MILES = 50;

export const PREMIUM_PRICE_USD = 29;
/** Paid in birr through Chapa (no recurring billing), twelve months cost this many monthly prices. */
export const PREMIUM_YEAR_PRICE_MONTHS = 10;
export const TRIAL_MONTHS = 6;
export const MONEY_BACK_DAYS = 30;

export const SESSION_COOKIE = "mytess_session";
export const SESSION_TTL_MS = 30 * 24 * 60 * 60 * 1000;
export const PASSWORD_MIN_LENGTH = 8;

/** Shown only when GET /api/platform-stats fails. */
export const SAMPLE_PLATFORM_STATS = {
  totalLoads: 2847,
  activeDrivers: 1256,
  completedDeliveries: 18943,
  countriesServed: 45,
  avgRating: 4.8,
  totalRevenue: 2_400_000,
} as const;

export const TOAST_LIMIT = 1;
export const TOAST_DURATION_MS = 5000;
/** A local (in-page) notification closes after 5 seconds. */
export const LOCAL_NOTIFICATION_MS = 5000;
export const TOAST_REMOVE_DELAY_MS = 1_000_000;
export const TOAST_SWIPE_THRESHOLD = 50;
export const TOOLTIP_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;
export const COPIED_INDICATOR_MS = 2000;
export const UPDATE_BANNER_MS = 30_000;
export const STATUS_TOAST_MS = 5000;

/**
 * How long the server keeps the answer to a write sent with an Idempotency-Key (the offline queue's replays): a phone
 * that was offline for a day still gets its first answer.
 */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export const STORAGE_KEYS = {
  language: "i18nextLng",
  preferredLanguage: "preferredLanguage",
  preferredCurrency: "preferredCurrency",
  queuedRequests: "queuedRequests",
  engagementLog: "socialEngagementLog",
} as const;

/** A cookie the web app sets with its active language, so the server can ask for that language's messages up front. */
export const LANGUAGE_COOKIE = "mytess_lang";
/** The web app sends the device's time zone in this cookie, so an account made on it starts with local defaults. */
export const TIME_ZONE_COOKIE = "mytess_tz";

/**
 * The most calls one tRPC batch may carry: the server refuses a longer batch (each call costs a query), and the web
 * app's batching link splits a screen's queries at this size (a load page asks for more than twenty at once).
 */
export const MAX_TRPC_BATCH = 20;
