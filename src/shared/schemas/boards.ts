import { z } from "zod";
import { EQUIPMENT_TYPES } from "../constants";
import { zText } from "./text";

// Provider, name and apiBaseUrl are required; the sync interval falls back to 30 minutes and the rate
// limit to 1000 per hour when empty or invalid; a search falls back to radius 50 and limit 20.

export const MARKETPLACE_PROVIDERS = ["dat", "truckstop", "123loadboard", "other"] as const;
export type TMarketplaceProvider = (typeof MARKETPLACE_PROVIDERS)[number];
export const DEFAULT_SYNC_INTERVAL_MINUTES = 30;
export const DEFAULT_RATE_LIMIT_PER_HOUR = 1000;
export const DEFAULT_SEARCH_RADIUS = 50;
export const DEFAULT_SEARCH_LIMIT = 20;
export const SYNC_STATUS_REFETCH_MS = 30_000;

/** The credential fields of each provider, in the order the form shows them. */
export const CREDENTIAL_FIELDS = {
  dat: ["clientId", "clientSecret", "userEmail"],
  truckstop: ["username", "password", "integrationId"],
  "123loadboard": ["clientId", "clientSecret"],
  other: ["apiKey"],
} as const satisfies Record<TMarketplaceProvider, readonly string[]>;
export type TCredentialField = (typeof CREDENTIAL_FIELDS)[TMarketplaceProvider][number];
/**
 * The fields a provider cannot work without. 123Loadboard's are optional: its searches use the user's own authorization
 * (Connect 123Loadboard), made with the server's 123Loadboard app unless the user enters their own app's client.
 */
export const REQUIRED_CREDENTIAL_FIELDS: Record<TMarketplaceProvider, readonly string[]> = {
  dat: ["clientId", "clientSecret", "userEmail"],
  truckstop: ["username", "password", "integrationId"],
  "123loadboard": [],
  other: [],
};

/** A number, or the default when the field is empty or not a usable whole number in range. */
const orDefault = (fallback: number, min: number, max: number) =>
  z.preprocess((v) => {
    const n =
      typeof v === "string" ? (v.trim() === "" ? Number.NaN : Number(v)) : typeof v === "number" ? v : Number.NaN;
    return Number.isInteger(n) && n >= min && n <= max ? n : fallback;
  }, z.number());

const ZProvider = z.enum(MARKETPLACE_PROVIDERS, {
  error: `provider must be one of ${MARKETPLACE_PROVIDERS.join(", ")}`,
});
const ZName = zText({ error: "name is required" })
  .trim()
  .min(1, "name is required")
  .max(80, "name must be at most 80 characters");
const ZBaseUrl = zText({ error: "apiBaseUrl is required" })
  .trim()
  .min(1, "apiBaseUrl is required")
  .max(300, "apiBaseUrl must be at most 300 characters")
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password;
    } catch {
      return false;
    }
  }, "apiBaseUrl must be an http or https address")
  .transform((v) => v.replace(/\/+$/, ""));
const ZCredentials = z
  .record(
    zText(),
    zText({ error: "config values must be text" }).max(500, "config values must be at most 500 characters"),
  )
  .default({});

export const ZCreateMarketplaceInput = z.object({
  provider: ZProvider,
  name: ZName,
  apiBaseUrl: ZBaseUrl,
  isActive: z.boolean({ error: "isActive must be true or false" }).default(true),
  syncEnabled: z.boolean({ error: "syncEnabled must be true or false" }).default(false),
  syncIntervalMinutes: orDefault(DEFAULT_SYNC_INTERVAL_MINUTES, 5, 24 * 60).default(DEFAULT_SYNC_INTERVAL_MINUTES),
  rateLimitPerHour: orDefault(DEFAULT_RATE_LIMIT_PER_HOUR, 1, 100_000).default(DEFAULT_RATE_LIMIT_PER_HOUR),
  config: ZCredentials,
});
export type TCreateMarketplaceInput = z.infer<typeof ZCreateMarketplaceInput>;
export type TCreateMarketplaceForm = z.input<typeof ZCreateMarketplaceInput>;

/** Changed fields only; credentials given replace those fields, credentials left out are kept. */
export const ZUpdateMarketplaceInput = z.object({
  name: ZName.optional(),
  apiBaseUrl: ZBaseUrl.optional(),
  isActive: z.boolean({ error: "isActive must be true or false" }).optional(),
  syncEnabled: z.boolean({ error: "syncEnabled must be true or false" }).optional(),
  syncIntervalMinutes: orDefault(DEFAULT_SYNC_INTERVAL_MINUTES, 5, 24 * 60).optional(),
  rateLimitPerHour: orDefault(DEFAULT_RATE_LIMIT_PER_HOUR, 1, 100_000).optional(),
  config: ZCredentials.optional(),
});
export type TUpdateMarketplaceInput = z.infer<typeof ZUpdateMarketplaceInput>;

const optionalCoordinate = (field: string, limit: number) =>
  z.preprocess(
    (v) => (v === "" || v === null ? undefined : typeof v === "string" ? Number(v) : v),
    z
      .number({ error: `${field} must be a number` })
      .min(-limit, `${field} must be between -${limit} and ${limit}`)
      .max(limit, `${field} must be between -${limit} and ${limit}`)
      .optional(),
  );

export const ZMarketplaceSearchInput = z
  .object({
    originLatitude: optionalCoordinate("originLatitude", 90),
    originLongitude: optionalCoordinate("originLongitude", 180),
    destinationLatitude: optionalCoordinate("destinationLatitude", 90),
    destinationLongitude: optionalCoordinate("destinationLongitude", 180),
    radiusMiles: orDefault(DEFAULT_SEARCH_RADIUS, 1, 500).default(DEFAULT_SEARCH_RADIUS),
    equipmentType: z.preprocess(
      (v) => (v === "" || v === "all" || v === null ? undefined : v),
      z.enum(EQUIPMENT_TYPES, { error: `equipmentType must be one of ${EQUIPMENT_TYPES.join(", ")}` }).optional(),
    ),
    limit: orDefault(DEFAULT_SEARCH_LIMIT, 1, 100).default(DEFAULT_SEARCH_LIMIT),
  })
  .refine((v) => (v.originLatitude === undefined) === (v.originLongitude === undefined), {
    message: "originLatitude and originLongitude go together",
    path: ["originLongitude"],
  })
  .refine((v) => (v.destinationLatitude === undefined) === (v.destinationLongitude === undefined), {
    message: "destinationLatitude and destinationLongitude go together",
    path: ["destinationLongitude"],
  });
export type TMarketplaceSearchInput = z.infer<typeof ZMarketplaceSearchInput>;
