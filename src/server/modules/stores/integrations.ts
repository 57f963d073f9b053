import { and, asc, eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type EcommerceIntegration, ecommerceIntegrations, type User } from "../../../../db/tables";
import {
  SHOPIFY_APP_FIELDS,
  STORE_CREDENTIAL_FIELDS,
  STORE_REQUIRED_FIELDS,
  shopifyAppKind,
  type TCreateIntegrationInput,
  type TEcommercePlatform,
  type TStoreSettingsInput,
  type TUpdateIntegrationInput,
} from "../../../shared/schemas/stores";
import {
  cleanCredentials,
  openCredentials,
  refusedAdapterCall,
  refuseField,
  requireCredentials,
  sealCredentials,
  type TCredentialRules,
} from "../../credentials";
import { AppError, type TMessage } from "../../errors";
import { acceptsServiceUrl, isTrusted } from "../../integrations/http/guard";
import { defaultStoreBaseUrl, isSandboxStoreUrl, STORE_HOSTS } from "../../integrations/stores/registry";
import type { TStoreServices } from "../../integrations/stores/services";
import { shopifyShopHost } from "../../integrations/stores/shopify";
import { STORE_NAMES, type TStoreAdapter } from "../../integrations/stores/types";
import { requirePremium } from "../billing/premium";

// A user's store integrations: personal like board configurations (another user's id answers 404),
// credentials sealed and shown only as set / not set, settings as given.

const NOT_FOUND = /*i18n*/ { id: "error.ecommerce.notFound", message: "E-commerce integration not found" };

export const settingsOf = (i: EcommerceIntegration) => i.settings as unknown as TStoreSettingsInput;

const credentialsOf = (services: TStoreServices, i: EcommerceIntegration) =>
  openCredentials(
    services.secrets,
    i.credentials,
    /*i18n*/ {
      id: "error.ecommerce.credentialsUnreadable",
      message:
        "The credentials of {name} cannot be read with this server's key (MYTESS_SECRET_KEY changed?); enter them again",
      values: { name: i.name },
    },
  );

export const toPublicIntegration = (i: EcommerceIntegration) => {
  const fields = STORE_CREDENTIAL_FIELDS[i.platform as TEcommercePlatform] as readonly string[];
  const settings = settingsOf(i);
  return {
    id: i.id,
    platform: i.platform as TEcommercePlatform,
    platformName: STORE_NAMES[i.platform as TEcommercePlatform],
    name: i.name,
    isActive: i.isActive,
    /** Which credential fields are set (true) or empty (false); values never leave the server. */
    credentials: Object.fromEntries(fields.map((f) => [f, i.credentialFields.includes(f)])) as Record<string, boolean>,
    settings,
    sandbox: settings.apiBaseUrl ? isSandboxStoreUrl(settings.apiBaseUrl) : false,
    totalOrdersSynced: i.totalOrdersSynced,
    lastSyncAt: i.lastSyncAt == null ? null : new Date(i.lastSyncAt).toISOString(),
    lastError: i.lastError,
    createdAt: new Date(i.createdAt).toISOString(),
  };
};
export type TPublicIntegration = ReturnType<typeof toPublicIntegration>;

/**
 * Why an integration's apiBaseUrl may not be called, or null: the operator's Sandbox origins pass, otherwise it must be
 * an https address on one of the platform's documented hosts. Checked when saved and again before every call.
 */
const baseUrlProblem = (services: TStoreServices, platform: TEcommercePlatform, url: string) =>
  acceptsServiceUrl(url, { hosts: STORE_HOSTS[platform], trusted: services.sandboxOrigins })
    ? null
    : /*i18n*/ {
        id: "error.ecommerce.baseUrlHost",
        message: "settings.apiBaseUrl must be an https address of {store}: {hosts}",
        values: {
          store: STORE_NAMES[platform],
          hosts: STORE_HOSTS[platform].map((h) => `https://${h}`).join(", "),
        },
      };

const checkBaseUrl = (services: TStoreServices, platform: TEcommercePlatform, url: string | null | undefined) => {
  if (!url) return;
  const problem = baseUrlProblem(services, platform, url);
  if (problem) throw refuseField("settings.apiBaseUrl", problem);
};

const SHOP_DOMAIN = /*i18n*/ {
  id: "error.ecommerce.shopDomain",
  message: "credentials.shopDomain must be the shop's myshopify.com name, such as acme.myshopify.com",
};

/** The credential fields of each store, and the messages that refuse them (src/server/credentials.ts). */
const rulesOf = (platform: TEcommercePlatform): TCredentialRules => ({
  fields: STORE_CREDENTIAL_FIELDS[platform] as readonly string[],
  required: STORE_REQUIRED_FIELDS[platform] as readonly string[],
  path: "credentials",
  unknown: (field, fields) => /*i18n*/ ({
    id: "error.ecommerce.unknownCredential",
    message: "{field} is not a credential of {store}; it takes {fields}",
    values: { field, store: STORE_NAMES[platform], fields },
  }),
  missing: (field) => /*i18n*/ ({
    id: "error.ecommerce.credentialRequired",
    message: "credentials.{field} is required for {store}",
    values: { field, store: STORE_NAMES[platform] },
  }),
});

/**
 * Shopify's credentials are one kind of app's: a Dev Dashboard app's client ID and secret, or a legacy custom app's
 * access token (SHOPIFY_APP_FIELDS), never some of both.
 */
const checkShopifyApp = (creds: Record<string, string>) => {
  const kind = shopifyAppKind((f) => !!creds[f]);
  if (!kind)
    throw refuseField(
      "credentials.clientId",
      /*i18n*/ {
        id: "error.ecommerce.shopifyAppRequired",
        message:
          "credentials.clientId and credentials.clientSecret of your Dev Dashboard app are required for Shopify (or credentials.accessToken of a legacy custom app)",
      },
    );
  const missing = SHOPIFY_APP_FIELDS[kind].required.find((f) => !creds[f]);
  if (missing) throw refuseField(`credentials.${missing}`, rulesOf("shopify").missing(missing));
  if (kind === "devDashboard" && creds.accessToken)
    throw refuseField(
      "credentials.accessToken",
      /*i18n*/ {
        id: "error.ecommerce.shopifyTwoApps",
        message:
          "credentials.accessToken is a legacy custom app's; a Dev Dashboard app takes its client ID and secret only",
      },
    );
};

/**
 * What an update stores: the saved credentials with the given ones over them. State an adapter stored beside them (a
 * renewed token's expiry) is dropped, and a Shopify integration moved to the other kind of app keeps nothing of the
 * old one's (its webhook secret included, unless given).
 */
const mergeCredentials = (
  platform: TEcommercePlatform,
  saved: Record<string, string>,
  given: Record<string, string>,
) => {
  const fields: readonly string[] = STORE_CREDENTIAL_FIELDS[platform];
  const kept = Object.fromEntries(Object.entries(saved).filter(([k]) => fields.includes(k)));
  if (platform === "shopify") {
    const was = shopifyAppKind((f) => !!kept[f]);
    const now = shopifyAppKind((f) => !!given[f]);
    if (was && now && was !== now)
      for (const f of [...SHOPIFY_APP_FIELDS[was].required, ...SHOPIFY_APP_FIELDS[was].optional]) delete kept[f];
  }
  return { ...kept, ...given };
};

/** The shared rules, Shopify's shop domain and Amazon's region, which decide the host its calls go to. */
const checkCredentials = (platform: TEcommercePlatform, creds: Record<string, string>) => {
  requireCredentials(rulesOf(platform), creds);
  if (platform === "shopify" && !shopifyShopHost(creds.shopDomain))
    throw refuseField("credentials.shopDomain", SHOP_DOMAIN);
  if (platform === "shopify") checkShopifyApp(creds);
  if (platform === "amazon" && !["na", "eu", "fe", "sandbox"].includes(creds.region ?? "")) {
    const message = /*i18n*/ {
      id: "error.ecommerce.amazonRegion",
      message: "credentials.region must be na, eu or fe",
    };
    throw new AppError("BAD_REQUEST", message, { issues: [{ path: "credentials.region", message }] });
  }
};

export const listIntegrations = (db: TDb, userId: number) =>
  db
    .select()
    .from(ecommerceIntegrations)
    .where(eq(ecommerceIntegrations.userId, userId))
    .orderBy(asc(ecommerceIntegrations.id));

export const ownIntegration = async (db: TDb, user: User, id: number) => {
  const [i] = await db
    .select()
    .from(ecommerceIntegrations)
    .where(and(eq(ecommerceIntegrations.id, id), eq(ecommerceIntegrations.userId, user.id)));
  if (!i) throw new AppError("NOT_FOUND", NOT_FOUND);
  return i;
};

export const createIntegration = async (
  db: TDb,
  services: TStoreServices,
  user: User,
  input: TCreateIntegrationInput,
  now = Date.now(),
) => {
  checkBaseUrl(services, input.platform, input.settings.apiBaseUrl);
  const creds = cleanCredentials(rulesOf(input.platform), input.credentials);
  checkCredentials(input.platform, creds);
  const [row] = await db
    .insert(ecommerceIntegrations)
    .values({
      userId: user.id,
      platform: input.platform,
      name: input.name,
      isActive: input.isActive,
      ...sealCredentials(services.secrets, creds),
      settings: input.settings as unknown as Record<string, unknown>,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
};

export const updateIntegration = async (
  db: TDb,
  services: TStoreServices,
  user: User,
  id: number,
  input: TUpdateIntegrationInput,
  now = Date.now(),
) => {
  // Credentials are merged with the saved ones and written only if those did not change meanwhile: an adapter may store
  // renewed tokens at any time, and they must not be overwritten with the ones they replaced.
  for (;;) {
    const i = await ownIntegration(db, user, id);
    const platform = i.platform as TEcommercePlatform;
    // An active integration imports orders (sync and webhooks), which is premium: activating needs premium.
    if (input.isActive === true && !i.isActive) requirePremium(user, now);
    if (input.settings) checkBaseUrl(services, platform, input.settings.apiBaseUrl);
    let sealed: ReturnType<typeof sealCredentials> | null = null;
    if (input.credentials && Object.keys(input.credentials).length > 0) {
      const merged = mergeCredentials(
        platform,
        credentialsOf(services, i),
        cleanCredentials(rulesOf(platform), input.credentials),
      );
      checkCredentials(platform, merged);
      sealed = sealCredentials(services.secrets, merged);
    }
    const [row] = await db
      .update(ecommerceIntegrations)
      .set({
        ...(input.name !== undefined && { name: input.name }),
        ...(input.isActive !== undefined && { isActive: input.isActive }),
        ...(input.settings && { settings: input.settings as unknown as Record<string, unknown> }),
        ...(sealed ?? {}),
        ...((input.settings || sealed) && { lastError: null }),
        updatedAt: Math.max(now, i.updatedAt + 1),
      })
      .where(
        and(
          eq(ecommerceIntegrations.id, id),
          eq(ecommerceIntegrations.userId, user.id),
          ...(sealed ? [eq(ecommerceIntegrations.credentials, i.credentials)] : []),
        ),
      )
      .returning();
    if (row) return row;
  }
};

/** Deletes an integration and its orders; loads already made from them stay posted. */
export const deleteIntegration = async (db: TDb, user: User, id: number) => {
  await ownIntegration(db, user, id);
  await db
    .delete(ecommerceIntegrations)
    .where(and(eq(ecommerceIntegrations.id, id), eq(ecommerceIntegrations.userId, user.id)));
  return { success: true as const };
};

/**
 * Where an adapter keeps tokens it renews: beside the other credentials, sealed, as long as the integration is the
 * version the adapter was made for (a user's change replaces the credentials and makes a new adapter).
 */
const credentialStoreOf = (db: TDb, services: TStoreServices, i: EcommerceIntegration) => {
  const thisVersion = and(eq(ecommerceIntegrations.id, i.id), eq(ecommerceIntegrations.updatedAt, i.updatedAt));
  return {
    load: async () => {
      const [row] = await db
        .select({ credentials: ecommerceIntegrations.credentials })
        .from(ecommerceIntegrations)
        .where(thisVersion);
      return row ? credentialsOf(services, { ...i, credentials: row.credentials }) : null;
    },
    save: async (credentials: Record<string, string>) => {
      await db.update(ecommerceIntegrations).set(sealCredentials(services.secrets, credentials)).where(thisVersion);
    },
  };
};

/**
 * The adapter of an integration (one per version, so tokens are kept). Requests go to the settings' apiBaseUrl, else
 * the platform's own host for the credentials; an address the rules refuse (a row saved under older rules) gives an
 * adapter whose every call fails with that refusal, and nothing is sent.
 */
export const storeAdapterOf = (db: TDb, services: TStoreServices, i: EcommerceIntegration): TStoreAdapter => {
  const platform = i.platform as TEcommercePlatform;
  const apiBaseUrl = settingsOf(i).apiBaseUrl;
  const refused = (path: string, message: TMessage): TStoreAdapter => {
    const call = refusedAdapterCall(path, message);
    return {
      platform,
      storeName: STORE_NAMES[platform],
      sandbox: false,
      test: call,
      listOrders: call,
      verifyWebhook: null,
    };
  };
  const problem = apiBaseUrl ? baseUrlProblem(services, platform, apiBaseUrl) : null;
  if (problem) return refused("settings.apiBaseUrl", problem);
  const credentials = credentialsOf(services, i);
  const baseUrl = apiBaseUrl ?? defaultStoreBaseUrl(platform, credentials);
  if (!baseUrl) return refused("credentials.shopDomain", SHOP_DOMAIN);
  return services.adapter(`${i.id}:${i.updatedAt}`, () => ({
    platform,
    name: i.name,
    baseUrl,
    // Only an emulator serves Amazon's token endpoint beside its API; Amazon's own hosts use Login with Amazon.
    ...(apiBaseUrl && isTrusted(apiBaseUrl, services.sandboxOrigins) ? { authBaseUrl: apiBaseUrl } : {}),
    credentials,
    timeoutMs: services.timeoutMs,
    sandboxOrigins: services.sandboxOrigins,
    credentialStore: credentialStoreOf(db, services, i),
  }));
};

export const recordStoreError = (db: TDb, id: number, error: string | null) =>
  db.update(ecommerceIntegrations).set({ lastError: error }).where(eq(ecommerceIntegrations.id, id));

/**
 * The connection test: a real call with the stored credentials; `connected` says how it went (the web app's Connection
 * Successful or Connection Failed).
 */
export const testIntegration = async (db: TDb, services: TStoreServices, user: User, id: number) => {
  const i = await ownIntegration(db, user, id);
  try {
    await storeAdapterOf(db, services, i).test();
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    await recordStoreError(db, i.id, message);
    return { connected: false as const, message };
  }
  await recordStoreError(db, i.id, null);
  return { connected: true as const, message: null };
};
