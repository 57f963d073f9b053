import { z } from "zod";
import { EQUIPMENT_TYPES, MONEY_CURRENCY_CODES } from "../constants";
import { zText } from "./text";

// An integration is {platform, name, credentials, settings}; settings hold the warehouse (the pickup of
// every load its orders become), the defaults of those loads and what to import.

export const ECOMMERCE_PLATFORMS = ["shopify", "amazon", "alibaba"] as const;
export type TEcommercePlatform = (typeof ECOMMERCE_PLATFORMS)[number];
export const ORDER_STATUSES = ["pending", "processing", "synced", "converted", "cancelled"] as const;
export type TOrderStatus = (typeof ORDER_STATUSES)[number];
/** The store statuses an integration may import. */
export const IMPORTABLE_STATUSES = ["pending", "processing", "cancelled"] as const;
export const BUDGET_MODES = ["perMile", "fixed", "percentOfOrder"] as const;
export const DEFAULT_STORE_SYNC_MINUTES = 30;

/** The credential fields each platform takes, in the order the form shows them (see integrations/stores/types.ts). */
export const STORE_CREDENTIAL_FIELDS = {
  shopify: ["shopDomain", "clientId", "clientSecret", "accessToken", "webhookSecret"],
  amazon: ["clientId", "clientSecret", "refreshToken", "marketplaceId", "region"],
  alibaba: ["appKey", "appSecret", "accessToken", "refreshToken"],
} as const satisfies Record<TEcommercePlatform, readonly string[]>;
/** Fields every integration of the platform needs; Shopify's others depend on its kind of app (SHOPIFY_APP_FIELDS). */
export const STORE_REQUIRED_FIELDS: Record<TEcommercePlatform, readonly string[]> = {
  shopify: ["shopDomain"],
  amazon: ["clientId", "clientSecret", "refreshToken", "marketplaceId", "region"],
  alibaba: ["appKey", "appSecret", "accessToken", "refreshToken"],
};

/**
 * A Shopify store connects through one of two kinds of app. `devDashboard`: an app made in Shopify's Dev Dashboard and
 * installed on the merchant's own store; its client ID and secret get access tokens (client-credentials grant) that
 * expire after about a day, and its client secret signs its webhooks. `legacyCustom`: a custom app made in the Shopify
 * admin before 2026 (no new ones can be made), with its Admin API access token; its webhooks are signed with its API
 * secret key. Either may name another webhook signing secret: the key Settings → Notifications shows for webhooks made
 * there.
 */
export const SHOPIFY_APP_KINDS = ["devDashboard", "legacyCustom"] as const;
export type TShopifyAppKind = (typeof SHOPIFY_APP_KINDS)[number];
export const SHOPIFY_APP_FIELDS: Record<TShopifyAppKind, { required: readonly string[]; optional: readonly string[] }> =
  {
    devDashboard: { required: ["clientId", "clientSecret"], optional: ["webhookSecret"] },
    legacyCustom: { required: ["accessToken"], optional: ["webhookSecret"] },
  };
/** The kind of app a set of Shopify credentials is for (`has` says whether a field is set); null when neither. */
export const shopifyAppKind = (has: (field: string) => boolean): TShopifyAppKind | null =>
  has("clientId") || has("clientSecret") ? "devDashboard" : has("accessToken") ? "legacyCustom" : null;
/** The credential fields a form shows, and those it requires: for Shopify, the shop's and one kind of app's. */
export const credentialFieldsFor = (platform: TEcommercePlatform, app: TShopifyAppKind): readonly string[] =>
  platform === "shopify"
    ? [...STORE_REQUIRED_FIELDS.shopify, ...SHOPIFY_APP_FIELDS[app].required, ...SHOPIFY_APP_FIELDS[app].optional]
    : STORE_CREDENTIAL_FIELDS[platform];
export const requiredFieldsFor = (platform: TEcommercePlatform, app: TShopifyAppKind): readonly string[] =>
  platform === "shopify"
    ? [...STORE_REQUIRED_FIELDS.shopify, ...SHOPIFY_APP_FIELDS[app].required]
    : STORE_REQUIRED_FIELDS[platform];
/**
 * The access scopes a Shopify app needs for an order sync: orders (the last 60 days; `read_all_orders` for older ones)
 * and products (the weights of the ordered variants).
 */
export const SHOPIFY_SCOPES = ["read_orders", "read_products"] as const;

const text = (field: string, max: number) =>
  zText({ error: `${field} is required` })
    .trim()
    .min(1, `${field} is required`)
    .max(max, `${field} must be at most ${max} characters`);
const num = (field: string) =>
  z.preprocess(
    (v) => (typeof v === "string" && v.trim() !== "" ? Number(v) : v === "" ? undefined : v),
    z.number({ error: (i) => (i.input === undefined ? `${field} is required` : `${field} must be a number`) }),
  );

export const ZWarehouse = z.object({
  address: text("settings.warehouse.address", 200),
  city: text("settings.warehouse.city", 100),
  state: zText()
    .trim()
    .max(100)
    .nullish()
    .transform((v) => v || null),
  country: text("settings.warehouse.country", 100),
  latitude: num("settings.warehouse.latitude").pipe(
    z
      .number()
      .min(-90, "settings.warehouse.latitude must be between -90 and 90")
      .max(90, "settings.warehouse.latitude must be between -90 and 90"),
  ),
  longitude: num("settings.warehouse.longitude").pipe(
    z
      .number()
      .min(-180, "settings.warehouse.longitude must be between -180 and 180")
      .max(180, "settings.warehouse.longitude must be between -180 and 180"),
  ),
});

export const ZBudgetRule = z.object({
  mode: z.enum(BUDGET_MODES, { error: `settings.budget.mode must be one of ${BUDGET_MODES.join(", ")}` }),
  amount: num("settings.budget.amount").pipe(
    z
      .number()
      .gt(0, "settings.budget.amount must be greater than 0")
      .max(1_000_000, "settings.budget.amount must be at most 1000000"),
  ),
  currency: z
    .enum(MONEY_CURRENCY_CODES, { error: `settings.budget.currency must be one of ${MONEY_CURRENCY_CODES.join(", ")}` })
    .default("USD"),
});

const ZApiBaseUrl = zText()
  .trim()
  .max(300, "settings.apiBaseUrl must be at most 300 characters")
  .refine((v) => {
    if (!v) return true;
    try {
      const u = new URL(v);
      return (u.protocol === "https:" || u.protocol === "http:") && !u.username && !u.password;
    } catch {
      return false;
    }
  }, "settings.apiBaseUrl must be an http or https address")
  .transform((v) => (v ? v.replace(/\/+$/, "") : null))
  .nullish();

export const ZStoreSettings = z.object({
  warehouse: ZWarehouse,
  defaultEquipmentType: z
    .enum(EQUIPMENT_TYPES, { error: `settings.defaultEquipmentType must be one of ${EQUIPMENT_TYPES.join(", ")}` })
    .default("dry_van"),
  budget: ZBudgetRule.default({ mode: "perMile", amount: 2.5, currency: "USD" }),
  /** Used when the items carry no weight. */
  defaultWeightLbs: num("settings.defaultWeightLbs")
    .pipe(
      z
        .number()
        .gt(0, "settings.defaultWeightLbs must be greater than 0")
        .max(250_000, "settings.defaultWeightLbs must be at most 250000"),
    )
    .default(500),
  /** Days from the order (or today, if later) to the pickup. */
  pickupLeadDays: num("settings.pickupLeadDays")
    .pipe(
      z
        .number()
        .int("settings.pickupLeadDays must be a whole number")
        .min(0)
        .max(30, "settings.pickupLeadDays must be at most 30"),
    )
    .default(1),
  importStatuses: z
    .array(z.enum(IMPORTABLE_STATUSES, { error: `settings.importStatuses may hold ${IMPORTABLE_STATUSES.join(", ")}` }))
    .min(1, "settings.importStatuses must name at least one status")
    .default(["pending", "processing"]),
  syncIntervalMinutes: num("settings.syncIntervalMinutes")
    .pipe(
      z
        .number()
        .int()
        .min(5, "settings.syncIntervalMinutes must be at least 5")
        .max(1440, "settings.syncIntervalMinutes must be at most 1440"),
    )
    .default(DEFAULT_STORE_SYNC_MINUTES),
  apiBaseUrl: ZApiBaseUrl,
});
export type TStoreSettingsInput = z.infer<typeof ZStoreSettings>;

const ZCredentials = z
  .record(
    zText(),
    zText({ error: "credentials values must be text" }).max(2000, "credentials values must be at most 2000 characters"),
  )
  .default({});

export const ZCreateIntegrationInput = z.object({
  platform: z.enum(ECOMMERCE_PLATFORMS, { error: `platform must be one of ${ECOMMERCE_PLATFORMS.join(", ")}` }),
  name: text("name", 80),
  isActive: z.boolean({ error: "isActive must be true or false" }).default(true),
  credentials: ZCredentials,
  settings: ZStoreSettings,
});
export type TCreateIntegrationInput = z.infer<typeof ZCreateIntegrationInput>;

/** Changed fields; credentials given replace those fields; settings given replace the settings. */
export const ZUpdateIntegrationInput = z.object({
  name: text("name", 80).optional(),
  isActive: z.boolean({ error: "isActive must be true or false" }).optional(),
  credentials: ZCredentials.optional(),
  settings: ZStoreSettings.optional(),
});
export type TUpdateIntegrationInput = z.infer<typeof ZUpdateIntegrationInput>;

export const ZOrderListInput = z
  .object({
    integrationId: z.preprocess(
      (v) => (v === "" || v == null ? undefined : Number(v)),
      z.number().int().positive("integrationId must be a positive integer").optional(),
    ),
    status: z.preprocess(
      (v) => (v === "" || v === "all" ? undefined : v),
      z.enum(ORDER_STATUSES, { error: `status must be one of ${ORDER_STATUSES.join(", ")}` }).optional(),
    ),
    page: z.preprocess(
      (v) => (v === "" || v == null ? undefined : Number(v)),
      z.number().int("page must be a whole number").min(1, "page must be 1 or more").default(1),
    ),
    pageSize: z.preprocess(
      (v) => (v === "" || v == null ? undefined : Number(v)),
      z.number().int().min(1).max(100, "pageSize must be at most 100").default(20),
    ),
  })
  .default({ page: 1, pageSize: 20 });
export type TOrderListInput = z.infer<typeof ZOrderListInput>;
