import { and, eq, inArray } from "drizzle-orm";
import type { TDb } from "../../db/client";
import { DEMO_USERS } from "../../db/seed/demo";
import { ecommerceIntegrations, users } from "../../db/tables";
import { sealCredentials } from "../server/credentials";
import type { TStoreServices } from "../server/integrations/stores/services";
import { enqueue } from "../server/jobs/queue";
import { storeSyncJob } from "../server/modules/stores/jobs";
import type { TStoreSettingsInput } from "../shared/schemas/stores";

// The Sandbox shop's demo app (the emulator's SHOPIFY_DEMO_CLIENT_ID), whose client secret is the installation's own.
// The emulator's published app ("sandbox" for ID and secret) would take the same orders, but its secret signs webhooks
// anyone could forge, so a demo store holding it is moved to the demo app.
const DEMO_APP = { shopDomain: "sandbox", clientId: "mytess-demo" } as const;
const PUBLISHED_SECRET = "sandbox";

// Demo mode: every demo shipper has a Sandbox Shopify store (the local emulator) with orders waiting to become loads,
// its warehouse in the shipper's region. The emulator listens on a new port at each start, so the Sandbox stores are
// pointed at it again each time.

const WAREHOUSES: Record<string, TStoreSettingsInput["warehouse"]> = {
  "selam@demo.mytess.app": {
    address: "Bole Lemi Industrial Park, Warehouse 4",
    city: "Addis Ababa",
    state: "Addis Ababa",
    country: "Ethiopia",
    latitude: 8.955,
    longitude: 38.865,
  },
  "john@demo.mytess.app": {
    address: "1400 W 35th St, Dock 12",
    city: "Chicago",
    state: "IL",
    country: "United States",
    latitude: 41.8305,
    longitude: -87.6614,
  },
  "lena@demo.mytess.app": {
    address: "Waalhaven Oostzijde 81",
    city: "Rotterdam",
    state: null,
    country: "Netherlands",
    latitude: 51.8895,
    longitude: 4.4395,
  },
};

/**
 * `clientSecret` is the installation's own (demo-secrets.ts): the Shopify emulator's demo app takes it in the token
 * grant and signs its webhooks with it. New Sandbox stores are made on that app, and a Sandbox store still holding the
 * published "sandbox" secret (as the published app's client secret, or as a webhook secret) is given it at start, so
 * nobody can forge its order webhooks.
 */
export const ensureDemoStores = async (
  db: TDb,
  stores: TStoreServices,
  urls: { shopify: string },
  clientSecret: string,
  now = Date.now(),
) => {
  const emails = DEMO_USERS.filter((u) => u.userType === "shipper").map((u) => u.email);
  const shippers = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.email, emails), eq(users.userType, "shipper")));
  let created = 0;
  for (const s of shippers) {
    const warehouse = s.email ? WAREHOUSES[s.email] : undefined;
    if (!warehouse) continue;
    const have = await db.select().from(ecommerceIntegrations).where(eq(ecommerceIntegrations.userId, s.id));
    const sandbox = have.find(
      (i) => i.platform === "shopify" && String(i.settings.apiBaseUrl ?? "").startsWith("http://127.0.0.1:"),
    );
    if (sandbox) {
      let creds: Record<string, string> | null = null;
      try {
        creds = JSON.parse(stores.secrets.open(sandbox.credentials)) as Record<string, string>;
      } catch {
        // Sealed under another key: the demo app again.
      }
      const secured = creds
        ? {
            ...creds,
            ...(creds.clientSecret === PUBLISHED_SECRET && { clientId: DEMO_APP.clientId, clientSecret }),
            ...(creds.webhookSecret === PUBLISHED_SECRET && { webhookSecret: clientSecret }),
          }
        : { ...DEMO_APP, clientSecret };
      const changed = JSON.stringify(secured) !== JSON.stringify(creds);
      await db
        .update(ecommerceIntegrations)
        .set({
          settings: { ...sandbox.settings, apiBaseUrl: urls.shopify },
          ...(changed && {
            ...sealCredentials(stores.secrets, secured),
            updatedAt: Math.max(now, sandbox.updatedAt + 1),
          }),
        })
        .where(eq(ecommerceIntegrations.id, sandbox.id));
      continue;
    }
    const settings: TStoreSettingsInput = {
      warehouse,
      defaultEquipmentType: "dry_van",
      budget: { mode: "perMile", amount: 2.5, currency: "USD" },
      defaultWeightLbs: 500,
      pickupLeadDays: 1,
      importStatuses: ["pending", "processing"],
      syncIntervalMinutes: 30,
      apiBaseUrl: urls.shopify,
    };
    // The Sandbox shop's Dev Dashboard app: tokens by the client-credentials grant, webhooks signed with its secret.
    const creds = { ...DEMO_APP, clientSecret };
    const [row] = await db
      .insert(ecommerceIntegrations)
      .values({
        userId: s.id,
        platform: "shopify",
        name: "Sandbox Shopify store",
        isActive: true,
        ...sealCredentials(stores.secrets, creds),
        settings: settings as unknown as Record<string, unknown>,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    created++;
    await enqueue(db, storeSyncJob, { integrationId: row!.id }, { uniqueKey: `store_sync:${row!.id}:demo` });
  }
  return { created };
};
