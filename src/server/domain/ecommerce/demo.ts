import { and, eq, inArray } from "drizzle-orm";
import type { TDb } from "../../../../db/client";
import { DEMO_USERS } from "../../../../db/seed/demo";
import { ecommerceIntegrations, users } from "../../../../db/tables";
import type { TStoreSettingsInput } from "../../../shared/schemas/ecommerce";
import type { TStoreServices } from "../../integrations/stores/services";
import { enqueue } from "../../jobs/queue";

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

export const ensureDemoStores = async (
  db: TDb,
  stores: TStoreServices,
  urls: { shopify: string },
  now = Date.now(),
) => {
  const emails = DEMO_USERS.filter((u) => u.userType === "shipper").map((u) => u.email);
  const shippers = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(and(inArray(users.email, emails), eq(users.userType, "shipper")));
  let created = 0;
  for (const s of shippers) {
    const warehouse = WAREHOUSES[s.email];
    if (!warehouse) continue;
    const have = await db.select().from(ecommerceIntegrations).where(eq(ecommerceIntegrations.userId, s.id));
    const sandbox = have.find(
      (i) => i.platform === "shopify" && String(i.settings.apiBaseUrl ?? "").startsWith("http://127.0.0.1:"),
    );
    if (sandbox) {
      await db
        .update(ecommerceIntegrations)
        .set({ settings: { ...sandbox.settings, apiBaseUrl: urls.shopify } })
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
    const creds = { shopDomain: "sandbox", clientId: "sandbox", clientSecret: "sandbox" };
    const [row] = await db
      .insert(ecommerceIntegrations)
      .values({
        userId: s.id,
        platform: "shopify",
        name: "Sandbox Shopify store",
        isActive: true,
        credentials: stores.secrets.seal(JSON.stringify(creds)),
        credentialFields: Object.keys(creds),
        settings: settings as unknown as Record<string, unknown>,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    created++;
    await enqueue(db, {
      kind: "store_sync",
      payload: { integrationId: row!.id },
      uniqueKey: `store_sync:${row!.id}:demo`,
      maxAttempts: 1,
    });
  }
  return { created };
};
