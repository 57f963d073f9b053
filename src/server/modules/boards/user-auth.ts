import { and, eq } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { type MarketplaceConfig, marketplaceConfigs } from "../../../../db/tables";
import type { TBoardServices } from "../../integrations/boards/services";
import type { TBoardUserAuth, TBoardUserTokens } from "../../integrations/boards/types";

// Boards searched with a user's own authorization (123Loadboard): where the user's tokens live. They are sealed in the
// configuration's row like its credentials and shared by every process; a refresh in one process is seen by the
// others, and each change is conditional on the sealed value it replaces (a sealed value is unique: a fresh IV each
// time), so two processes renewing at once keep one result.

/** Boards whose searches need the user to connect (the authorization-code grant). */
export const needsUserConnect = (provider: string) => provider === "123loadboard";

/**
 * How a configuration's connection stands: null for boards without one; not_connected until the user connects;
 * reconnect when the board refused to renew it.
 */
export const connectionOf = (c: Pick<MarketplaceConfig, "provider" | "oauthTokens" | "oauthStatus">) => {
  if (!needsUserConnect(c.provider)) return null;
  if (c.oauthStatus === "reconnect") return "reconnect" as const;
  return c.oauthStatus === "connected" && c.oauthTokens ? ("connected" as const) : ("not_connected" as const);
};
export type TConnection = ReturnType<typeof connectionOf>;

/**
 * The OAuth client a configuration connects with: its own client id and secret when the user entered those of their
 * own 123Loadboard app, else the server's app (LOADBOARD123_CLIENT_ID and _SECRET); null when there is neither.
 */
export const boardClientOf = (services: TBoardServices, creds: Record<string, string>) => {
  if (creds.clientId && creds.clientSecret) return { clientId: creds.clientId, clientSecret: creds.clientSecret };
  return services.loadboard123App;
};

const readTokens = (services: TBoardServices, sealed: string | null): TBoardUserTokens | null => {
  if (!sealed) return null;
  try {
    return JSON.parse(services.secrets.open(sealed)) as TBoardUserTokens;
  } catch {
    // Sealed under another key (MYTESS_SECRET_KEY changed): as good as none, the user connects again.
    return null;
  }
};

const same = (a: TBoardUserTokens | null, b: TBoardUserTokens) =>
  a !== null && a.accessToken === b.accessToken && a.refreshToken === b.refreshToken;

export const sealTokens = (services: TBoardServices, t: TBoardUserTokens) => services.secrets.seal(JSON.stringify(t));

/** The database as a configuration's token store (see TBoardUserAuth). */
export const userAuthFor = (db: TDb, services: TBoardServices, configId: number): TBoardUserAuth => {
  const row = async () =>
    (
      await db
        .select({ tokens: marketplaceConfigs.oauthTokens, status: marketplaceConfigs.oauthStatus })
        .from(marketplaceConfigs)
        .where(eq(marketplaceConfigs.id, configId))
    )[0];
  return {
    async load() {
      const r = await row();
      return r?.status === "connected" ? readTokens(services, r.tokens) : null;
    },
    async save(next, previous) {
      const r = await row();
      if (!r?.tokens || !same(readTokens(services, r.tokens), previous)) return false;
      const done = await db
        .update(marketplaceConfigs)
        .set({ oauthTokens: sealTokens(services, next), oauthStatus: "connected" })
        .where(and(eq(marketplaceConfigs.id, configId), eq(marketplaceConfigs.oauthTokens, r.tokens)))
        .returning({ id: marketplaceConfigs.id });
      return done.length > 0;
    },
    async refused(_reason, previous) {
      const r = await row();
      if (!r?.tokens || !same(readTokens(services, r.tokens), previous)) return;
      // The refusal itself becomes the configuration's last error where the failing call is recorded.
      await db
        .update(marketplaceConfigs)
        .set({ oauthStatus: "reconnect" })
        .where(and(eq(marketplaceConfigs.id, configId), eq(marketplaceConfigs.oauthTokens, r.tokens)));
    },
  };
};
