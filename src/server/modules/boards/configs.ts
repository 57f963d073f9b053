import { and, eq, sql } from "drizzle-orm";
import { perHandle, type TDb } from "../../../../db/client";
import { loads, type MarketplaceConfig, marketplaceConfigs, type User } from "../../../../db/tables";
import {
  CREDENTIAL_FIELDS,
  REQUIRED_CREDENTIAL_FIELDS,
  type TCreateMarketplaceInput,
  type TMarketplaceProvider,
  type TUpdateMarketplaceInput,
} from "../../../shared/schemas/boards";
import {
  cleanCredentials,
  openCredentials,
  refusedAdapterCall,
  refuseField,
  requireCredentials,
  sealCredentials,
  type TCredentialRules,
} from "../../credentials";
import { AppError } from "../../errors";
import { boardLabel, withConfigurationName } from "../../integrations/boards/http";
import { notConnected, reconnectNeeded } from "../../integrations/boards/loadboard123-oauth";
import { BOARD_HOSTS, isSandboxBoardUrl } from "../../integrations/boards/registry";
import type { TBoardServices } from "../../integrations/boards/services";
import { BOARD_NAMES, type TLoadBoardAdapter } from "../../integrations/boards/types";
import { acceptsServiceUrl } from "../../integrations/http/guard";
import { requirePremium } from "../billing/premium";
import { boardClientOf, connectionOf, needsUserConnect, userAuthFor } from "./user-auth";

// A user's board configurations. Board subscriptions are personal: a configuration is found only by
// the user who added it (another user's id answers 404, as if it did not exist). Credentials are sealed before they
// are stored and never leave the server: the API says which fields are set.

const NOT_FOUND = /*i18n*/ { id: "error.marketplace.notFound", message: "Marketplace configuration not found" };

/** DAT's terms allow only searches a user starts and no stored copies: DAT is searched live, never synced. */
export const canSync = (provider: string) => provider !== "dat";

/** A configuration as the API shows it: credentials as set / not set, never their values. */
export const toPublicMarketplace = (c: MarketplaceConfig) => {
  const fields = CREDENTIAL_FIELDS[c.provider as TMarketplaceProvider] as readonly string[];
  return {
    id: c.id,
    provider: c.provider as TMarketplaceProvider,
    boardName: BOARD_NAMES[c.provider as TMarketplaceProvider],
    name: c.name,
    apiBaseUrl: c.apiBaseUrl,
    isActive: c.isActive,
    syncEnabled: c.syncEnabled,
    syncIntervalMinutes: c.syncIntervalMinutes,
    rateLimitPerHour: c.rateLimitPerHour,
    /** Which credential fields are set (true) or empty (false). */
    config: Object.fromEntries(fields.map((f) => [f, c.credentialFields.includes(f)])) as Record<string, boolean>,
    /** Emulators and the boards' test hosts: labelled "Sandbox". */
    sandbox: isSandboxBoardUrl(c.apiBaseUrl),
    canSync: canSync(c.provider),
    lastSyncAt: c.lastSyncAt == null ? null : new Date(c.lastSyncAt).toISOString(),
    lastError: c.lastError,
    /**
     * Boards searched with the user's own authorization (123Loadboard): connected, not_connected, or reconnect when
     * the board refused to renew it; null for the others.
     */
    connection: connectionOf(c),
    createdAt: new Date(c.createdAt).toISOString(),
  };
};
export type TPublicMarketplace = ReturnType<typeof toPublicMarketplace>;

/** The credential fields of each board, and the messages that refuse them (src/server/credentials.ts). */
const rulesOf = (provider: TMarketplaceProvider): TCredentialRules => ({
  fields: CREDENTIAL_FIELDS[provider] as readonly string[],
  required: REQUIRED_CREDENTIAL_FIELDS[provider] as readonly string[],
  path: "config",
  unknown: (field, fields) => /*i18n*/ ({
    id: "error.marketplace.unknownCredential",
    message: "{field} is not a credential of {board}; it takes {fields}",
    values: { field, board: BOARD_NAMES[provider], fields },
  }),
  missing: (field) => /*i18n*/ ({
    id: "error.marketplace.credentialRequired",
    message: "config.{field} is required for {board}",
    values: { field, board: BOARD_NAMES[provider] },
  }),
});

/**
 * Why a board address may not be called, or null: the operator's Sandbox origins pass; DAT, Truckstop and
 * 123Loadboard must be on their documented hosts; a feed anywhere public over https. Checked when a configuration is
 * saved and again before every call (a row saved under older rules is refused the same way).
 */
const baseUrlProblem = (services: TBoardServices, provider: TMarketplaceProvider, url: string) => {
  const hosts = BOARD_HOSTS[provider];
  if (acceptsServiceUrl(url, { hosts, trusted: services.sandboxOrigins })) return null;
  return hosts
    ? /*i18n*/ {
        id: "error.marketplace.baseUrlHost",
        message: "apiBaseUrl must be an https address of {board}: {hosts}",
        values: { board: BOARD_NAMES[provider], hosts: hosts.map((h) => `https://${h}`).join(", ") },
      }
    : /*i18n*/ { id: "error.marketplace.baseUrl", message: "apiBaseUrl must be a public https address" };
};

const checkBaseUrl = (services: TBoardServices, provider: TMarketplaceProvider, url: string) => {
  const problem = baseUrlProblem(services, provider, url);
  if (problem) throw refuseField("apiBaseUrl", problem);
};

/** An OAuth client is its id and its secret together: one without the other is refused, naming the missing one. */
const checkClientPair = (provider: TMarketplaceProvider, creds: Record<string, string>) => {
  if (!needsUserConnect(provider) || Boolean(creds.clientId) === Boolean(creds.clientSecret)) return;
  const field = creds.clientId ? "clientSecret" : "clientId";
  throw refuseField(
    `config.${field}`,
    /*i18n*/ {
      id: "error.marketplace.clientPair",
      message: "config.{field} is required with the other: a 123Loadboard app's client ID and secret go together",
      values: { field },
    },
  );
};

/** The stored credentials of a configuration, opened. */
export const credentialsOf = (services: TBoardServices, c: MarketplaceConfig) =>
  openCredentials(
    services.secrets,
    c.credentials,
    /*i18n*/ {
      id: "error.marketplace.credentialsUnreadable",
      message:
        "The credentials of {name} cannot be read with this server's key (MYTESS_SECRET_KEY changed?); enter them again",
      values: { name: boardLabel(BOARD_NAMES[c.provider as TMarketplaceProvider], c.name) },
    },
  );

// Every board search reads the caller's configurations: one prepared statement per handle (db/client.ts perHandle).
// Their few rows are put in order here: an ORDER BY costs SQLite more than the look-up, even with no row to sort.
const listQuery = perHandle((db) =>
  db
    .select()
    .from(marketplaceConfigs)
    .where(eq(marketplaceConfigs.userId, sql.placeholder("userId")))
    .prepare(),
);

export const listMarketplaces = async (db: TDb, userId: number) =>
  (await listQuery(db).execute({ userId })).sort((a, b) => a.id - b.id);

/** The caller's own configuration, or 404. */
export const ownMarketplace = async (db: TDb, user: User, id: number) => {
  const [c] = await db
    .select()
    .from(marketplaceConfigs)
    .where(and(eq(marketplaceConfigs.id, id), eq(marketplaceConfigs.userId, user.id)));
  if (!c) throw new AppError("NOT_FOUND", NOT_FOUND);
  return c;
};

export const createMarketplace = async (
  db: TDb,
  services: TBoardServices,
  user: User,
  input: TCreateMarketplaceInput,
  now = Date.now(),
) => {
  checkBaseUrl(services, input.provider, input.apiBaseUrl);
  const rules = rulesOf(input.provider);
  const creds = cleanCredentials(rules, input.config);
  requireCredentials(rules, creds);
  checkClientPair(input.provider, creds);
  const [row] = await db
    .insert(marketplaceConfigs)
    .values({
      userId: user.id,
      provider: input.provider,
      name: input.name,
      apiBaseUrl: input.apiBaseUrl,
      isActive: input.isActive,
      // DAT is never synced (its terms): the flag stays off whatever the form says.
      syncEnabled: canSync(input.provider) && input.syncEnabled,
      syncIntervalMinutes: input.syncIntervalMinutes,
      rateLimitPerHour: input.rateLimitPerHour,
      ...sealCredentials(services.secrets, creds),
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return row!;
};

export const updateMarketplace = async (
  db: TDb,
  services: TBoardServices,
  user: User,
  id: number,
  input: TUpdateMarketplaceInput,
  now = Date.now(),
) => {
  const c = await ownMarketplace(db, user, id);
  const provider = c.provider as TMarketplaceProvider;
  // Sync is premium: switching it on (or reactivating a synced board) needs premium; what is on already may be edited.
  const syncs = (x: { isActive: boolean; syncEnabled: boolean }) => x.isActive && x.syncEnabled && canSync(provider);
  if (!syncs(c) && syncs({ isActive: input.isActive ?? c.isActive, syncEnabled: input.syncEnabled ?? c.syncEnabled }))
    requirePremium(user, now);
  if (input.apiBaseUrl !== undefined) checkBaseUrl(services, provider, input.apiBaseUrl);
  let sealed: ReturnType<typeof sealCredentials> | null = null;
  if (input.config && Object.keys(input.config).length > 0) {
    const rules = rulesOf(provider);
    const merged = { ...credentialsOf(services, c), ...cleanCredentials(rules, input.config) };
    requireCredentials(rules, merged);
    checkClientPair(provider, merged);
    sealed = sealCredentials(services.secrets, merged);
  }
  // A user's authorization belongs to the board's address and the app it was given to: either changed, it is dropped
  // and the user connects again.
  const disconnect =
    needsUserConnect(provider) && ((input.apiBaseUrl !== undefined && input.apiBaseUrl !== c.apiBaseUrl) || sealed);
  const [row] = await db
    .update(marketplaceConfigs)
    .set({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.apiBaseUrl !== undefined && { apiBaseUrl: input.apiBaseUrl }),
      ...(input.isActive !== undefined && { isActive: input.isActive }),
      ...(input.syncEnabled !== undefined && { syncEnabled: canSync(provider) && input.syncEnabled }),
      ...(input.syncIntervalMinutes !== undefined && { syncIntervalMinutes: input.syncIntervalMinutes }),
      ...(input.rateLimitPerHour !== undefined && { rateLimitPerHour: input.rateLimitPerHour }),
      ...(sealed ?? {}),
      ...(disconnect && { oauthTokens: null, oauthStatus: null, oauthPending: null }),
      // A change of address or credentials clears the last error: the next call tells afresh.
      ...((input.apiBaseUrl !== undefined || sealed) && { lastError: null }),
      updatedAt: Math.max(now, c.updatedAt + 1),
    })
    .where(and(eq(marketplaceConfigs.id, id), eq(marketplaceConfigs.userId, user.id)))
    .returning();
  // A board that is no longer synced (or no longer active) leaves no copy behind: its loads come live or not at all.
  if (!row!.isActive || !row!.syncEnabled) await db.delete(loads).where(eq(loads.sourceConfigId, id));
  return row!;
};

/** Deletes a configuration and, with it, every load synced through it and its sync history. */
export const deleteMarketplace = async (db: TDb, user: User, id: number) => {
  await ownMarketplace(db, user, id);
  await db.delete(marketplaceConfigs).where(and(eq(marketplaceConfigs.id, id), eq(marketplaceConfigs.userId, user.id)));
  return { success: true as const };
};

/**
 * The adapter of a configuration (one per configuration version, so its token and hourly budget are kept). An address
 * the rules refuse gives an adapter whose every call fails with that refusal, and nothing is sent.
 */
export const adapterOf = (db: TDb, services: TBoardServices, c: MarketplaceConfig): TLoadBoardAdapter => {
  const provider = c.provider as TMarketplaceProvider;
  const failing = (call: () => Promise<never>, sandbox = false) =>
    withConfigurationName({ provider, boardName: BOARD_NAMES[provider], sandbox, test: call, search: call }, c.name);
  const problem = baseUrlProblem(services, provider, c.apiBaseUrl);
  if (problem) return failing(refusedAdapterCall("apiBaseUrl", problem));
  let credentials = credentialsOf(services, c);
  if (needsUserConnect(provider)) {
    // Nothing is sent for a connection that is not there: the user is told to connect (again).
    const connection = connectionOf(c);
    const sandbox = isSandboxBoardUrl(c.apiBaseUrl);
    if (connection === "reconnect")
      return failing(() => Promise.reject(reconnectNeeded(c.lastError ?? "the authorization was refused")), sandbox);
    if (connection === "not_connected") return failing(() => Promise.reject(notConnected()), sandbox);
    const client = boardClientOf(services, credentials);
    if (!client) return failing(() => Promise.reject(noBoardApp()), sandbox);
    credentials = { ...credentials, ...client };
  }
  return services.adapter(`${c.id}:${c.updatedAt}`, () => ({
    provider,
    name: c.name,
    baseUrl: c.apiBaseUrl,
    credentials,
    timeoutMs: services.timeoutMs,
    rateLimitPerHour: c.rateLimitPerHour,
    sandboxOrigins: services.sandboxOrigins,
    userAuth: needsUserConnect(provider) ? userAuthFor(db, services, c.id) : undefined,
  }));
};

/** Neither the server nor the configuration has a 123Loadboard app to connect with. */
export const noBoardApp = () =>
  new AppError(
    "CONFLICT",
    /*i18n*/ {
      id: "error.board.noApp",
      message:
        "{service} cannot be connected: this server has no 123Loadboard app (LOADBOARD123_CLIENT_ID) and the configuration gives no client ID and secret of its own",
      values: { service: BOARD_NAMES["123loadboard"] },
    },
  );

export const isSandboxBoardUrlOf = (c: Pick<MarketplaceConfig, "apiBaseUrl">) => isSandboxBoardUrl(c.apiBaseUrl);

export const recordBoardError = (db: TDb, id: number, error: string | null) =>
  db.update(marketplaceConfigs).set({ lastError: error }).where(eq(marketplaceConfigs.id, id));

/** The connection test: a real call to the board with the stored credentials. */
export const testMarketplace = async (db: TDb, services: TBoardServices, user: User, id: number) => {
  const c = await ownMarketplace(db, user, id);
  try {
    await adapterOf(db, services, c).test();
  } catch (err) {
    await recordBoardError(db, c.id, err instanceof Error ? err.message : String(err));
    throw err;
  }
  await recordBoardError(db, c.id, null);
  return { connected: true as const, provider: c.provider, name: c.name };
};
