import { and, eq, inArray, like } from "drizzle-orm";
import type { TDb } from "../../db/client";
import { DEMO_USERS } from "../../db/seed/demo";
import { marketplaceConfigs, users } from "../../db/tables";
import type { TBoardServices } from "../server/integrations/boards/services";
import { enqueue } from "../server/jobs/queue";
import { boardSyncJob } from "../server/modules/boards/jobs";
import type { TMarketplaceProvider } from "../shared/schemas/boards";

// Demo mode: every demo driver has sandbox configurations of the three boards and of a load feed, pointed at the local
// emulators, so a new user sees external loads on the board at once (DAT live; the others synced right away). The
// emulators listen on new ports at each start, so the sandbox configurations are pointed at them again each time.

type TUrls = Record<TMarketplaceProvider, string>;
const SANDBOX = {
  dat: { clientId: "sandbox", clientSecret: "sandbox", userEmail: "sandbox" },
  truckstop: { username: "sandbox", password: "sandbox", integrationId: "sandbox" },
  "123loadboard": { clientId: "sandbox", clientSecret: "sandbox" },
  other: { apiKey: "sandbox" },
} as const;
const BOARDS: { provider: TMarketplaceProvider; name: string; syncEnabled: boolean }[] = [
  { provider: "dat", name: "DAT One", syncEnabled: false },
  { provider: "truckstop", name: "Truckstop", syncEnabled: true },
  { provider: "123loadboard", name: "123Loadboard", syncEnabled: true },
  { provider: "other", name: "East Africa load feed", syncEnabled: true },
];

export const ensureDemoBoards = async (db: TDb, boards: TBoardServices, urls: TUrls, now = Date.now()) => {
  const drivers = await db
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        inArray(
          users.email,
          DEMO_USERS.filter((u) => u.userType === "driver").map((u) => u.email),
        ),
        eq(users.userType, "driver"),
      ),
    );
  let created = 0;
  for (const d of drivers) {
    const have = await db.select().from(marketplaceConfigs).where(eq(marketplaceConfigs.userId, d.id));
    for (const b of BOARDS) {
      const existing = have.find((c) => c.provider === b.provider && c.apiBaseUrl.startsWith("http://127.0.0.1:"));
      if (existing) continue;
      const [row] = await db
        .insert(marketplaceConfigs)
        .values({
          userId: d.id,
          provider: b.provider,
          name: b.name,
          apiBaseUrl: urls[b.provider],
          isActive: true,
          syncEnabled: b.syncEnabled,
          syncIntervalMinutes: 30,
          rateLimitPerHour: 1000,
          credentials: boards.secrets.seal(JSON.stringify(SANDBOX[b.provider])),
          credentialFields: Object.keys(SANDBOX[b.provider]),
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      created++;
      if (b.syncEnabled)
        await enqueue(
          db,
          boardSyncJob,
          { configId: row!.id, trigger: "manual" },
          { uniqueKey: `board_sync:${row!.id}:demo` },
        );
    }
  }
  // Point every sandbox configuration at this start's emulators.
  for (const provider of Object.keys(urls) as TMarketplaceProvider[])
    await db
      .update(marketplaceConfigs)
      .set({ apiBaseUrl: urls[provider] })
      .where(and(eq(marketplaceConfigs.provider, provider), like(marketplaceConfigs.apiBaseUrl, "http://127.0.0.1:%")));
  return { created };
};
