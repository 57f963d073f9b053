import { and, eq, inArray, like } from "drizzle-orm";
import type { TDb } from "../../db/client";
import { DEMO_USERS } from "../../db/seed/demo";
import { type MarketplaceConfig, marketplaceConfigs, users } from "../../db/tables";
import type { TBoardServices } from "../server/integrations/boards/services";
import { exchange } from "../server/integrations/http/kit";
import { enqueue } from "../server/jobs/queue";
import { logger } from "../server/logger";
import { finishConnect, startConnect } from "../server/modules/boards/connect";
import { boardSyncJob } from "../server/modules/boards/jobs";
import type { TMarketplaceProvider } from "../shared/schemas/boards";

// Demo mode: every demo driver has sandbox configurations of the three boards and of a load feed, pointed at the local
// emulators, so a new user sees external loads on the board at once (DAT live; the others synced right away). The
// emulators listen on new ports at each start, so the sandbox configurations are pointed at them again each time, and
// the Sandbox 123Loadboard ones are connected again (the emulator's tokens do not outlive it): the same grant a user
// goes through, with this code in the browser's place, approving on the emulator's authorize page.

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

export const ensureDemoBoards = async (
  db: TDb,
  boards: TBoardServices,
  urls: TUrls,
  now = Date.now(),
  origin = "http://localhost:3000",
) => {
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
  let connected = 0;
  if (drivers.length) {
    const sandbox123 = await db
      .select()
      .from(marketplaceConfigs)
      .where(
        and(
          eq(marketplaceConfigs.provider, "123loadboard"),
          like(marketplaceConfigs.apiBaseUrl, "http://127.0.0.1:%"),
          inArray(
            marketplaceConfigs.userId,
            drivers.map((d) => d.id),
          ),
        ),
      );
    for (const c of sandbox123) {
      try {
        if ((await connectThroughSandbox(db, boards, c, origin)) === "connected") connected++;
      } catch (err) {
        logger.warn("demo: a Sandbox 123Loadboard configuration could not be connected", {
          configId: c.id,
          error: String(err),
        });
      }
    }
  }
  return { created, connected };
};

const decode = (v: string) =>
  v.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[e]!);

/**
 * Connect 123Loadboard as a user does it, against the Sandbox: the authorize page is fetched, its Approve form posted,
 * and the redirect's code and state handed to the callback's domain function.
 */
export const connectThroughSandbox = async (db: TDb, boards: TBoardServices, c: MarketplaceConfig, origin: string) => {
  const [owner] = await db.select().from(users).where(eq(users.id, c.userId));
  if (!owner) return "failed";
  const { url } = await startConnect(db, boards, owner, c.id, origin);
  const guard = { trusted: boards.sandboxOrigins };
  const page = await exchange("123Loadboard", url, { method: "GET", redirect: "manual" }, boards.timeoutMs, guard);
  const approve = [...page.text.matchAll(/<form method="post" action="([^"]+)">([\s\S]*?)<\/form>/g)].find((f) =>
    f[2].includes('name="decision" value="approve"'),
  );
  if (!approve) throw new Error(`the authorize page has no Approve form (HTTP ${page.status})`);
  const form = new URLSearchParams(
    [...approve[2].matchAll(/<input type="hidden" name="([^"]*)" value="([^"]*)">/g)].map((m) => [
      decode(m[1]),
      decode(m[2]),
    ]),
  );
  const answer = await exchange(
    "123Loadboard",
    new URL(approve[1], url).href,
    {
      method: "POST",
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
      body: form.toString(),
      redirect: "manual",
    },
    boards.timeoutMs,
    guard,
  );
  const location = answer.headers.get("location");
  if (!location) throw new Error(`the authorize page did not send the browser back (HTTP ${answer.status})`);
  const back = new URL(location).searchParams;
  const r = await finishConnect(db, boards, owner.id, {
    state: back.get("state"),
    code: back.get("code"),
    error: back.get("error"),
  });
  return r.outcome;
};
