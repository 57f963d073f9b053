// The REST board's page cache (modules/boards/page-cache.ts): GET /api/loads answers a kept page only while it is still
// what the database says. Every way the page can change is tried after the page was kept: a load posted through the
// API, a write straight into the database (as another server process would make), a shipper's rating, a board
// configuration renamed, time alone (a load becoming urgent), and another viewer asking the same query. On both engines.
import { afterEach, beforeEach, describe, expect, setDefaultTimeout, test } from "bun:test";
import { eq, getTableColumns } from "drizzle-orm";
import { loads, users } from "../../../db/tables";
import { URGENT_WITHIN_MS } from "../../shared/constants";
import { ZLoadSearchInput } from "../../shared/schemas/loads";
import { boardPageCacheSize, boardPageCacheUse, cellsOf, restBoardPage } from "../modules/boards/page-cache";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, type TTestApp } from "../testing";

setDefaultTimeout(60_000);
afterEach(closeTestApps);

type TClient = ReturnType<typeof createClient>;
type TItem = {
  id: number;
  title: string;
  status: string;
  isUrgent: boolean;
  shipper: { rating: number | null } | null;
};

let t: TTestApp;
let shipper: TClient;
let driver: TClient;
let shipperId: number;
let driverId: number;
beforeEach(async () => {
  t = await createTestApp();
  shipper = createClient(t, "10.0.0.1");
  driver = createClient(t, "10.0.0.2");
  shipperId = (await registerUser(shipper, "shipper")).id;
  driverId = (await registerUser(driver, "driver")).id;
});

const NEAR = "/api/loads?latitude=8.9&longitude=38.77&radius=50";
const board = async (who: TClient, path = NEAR) => {
  const res = await who.get(path);
  expect(res.status).toBe(200);
  return res.json as TItem[];
};
/** The same page as the web app's board reads it (tRPC: never from the REST cache). */
const fresh = async (who: TClient, input: Record<string, unknown>) => {
  const res = await who.get(`/trpc/loads.search?input=${encodeURIComponent(JSON.stringify(input))}`);
  expect(res.status).toBe(200);
  return res.json.result.data.items as TItem[];
};
const post = async (over: Record<string, unknown> = {}) => {
  const res = await shipper.post("/api/loads", loadInput(over));
  expect(res.status).toBe(201);
  return res.json.id as number;
};

describe("the REST board's page cache", () => {
  test("a kept page is the same answer as a fresh read, and a new load shows at once", async () => {
    await post({ title: "Teff" });
    const first = await board(driver);
    expect(first.map((l) => l.title)).toEqual(["Teff"]);
    // Asked again: the kept page, byte for byte what a fresh read gives.
    expect(await board(driver)).toEqual(first);
    expect(await fresh(driver, { latitude: 8.9, longitude: 38.77, radius: 50 })).toEqual(first);
    expect(boardPageCacheSize(t.db).pages).toBeGreaterThan(0);

    await post({ title: "Coffee", pickupLatitude: 8.95 });
    expect((await board(driver)).map((l) => l.title).sort()).toEqual(["Coffee", "Teff"]);
  });

  test("a write made outside this process's code (straight into the database) shows on the next answer", async () => {
    const id = await post({ title: "Teff" });
    expect((await board(driver)).map((l) => l.title)).toEqual(["Teff"]);
    // As another web process or the worker would write it: the database's trigger bumps the board version.
    await t.db.update(loads).set({ title: "Teff, 20 t" }).where(eq(loads.id, id));
    expect((await board(driver)).map((l) => l.title)).toEqual(["Teff, 20 t"]);
    await t.db.update(loads).set({ status: "cancelled" }).where(eq(loads.id, id));
    expect(await board(driver)).toEqual([]);
  });

  test("a shipper's new rating shows on a kept page (the trust version)", async () => {
    await post();
    expect((await board(driver))[0]!.shipper!.rating).toBeNull();
    await t.db.update(users).set({ ratingSum: 9, totalRatings: 2 }).where(eq(users.id, shipperId));
    expect((await board(driver))[0]!.shipper!.rating).toBe(4.5);
  });

  test("another viewer's same query is not answered with the first viewer's page", async () => {
    const id = await post({ title: "Cancelled one" });
    expect((await shipper.post(`/api/loads/${id}/cancel`, { reason: "No longer needed" })).status).toBe(200);
    const cancelled = `${NEAR}&status=cancelled`;
    // Only the load's parties find a load that is no longer posted.
    expect((await board(shipper, cancelled)).map((l) => l.title)).toEqual(["Cancelled one"]);
    expect(await board(driver, cancelled)).toEqual([]);
    expect((await board(shipper, cancelled)).map((l) => l.title)).toEqual(["Cancelled one"]);
  });

  test("a load that becomes urgent with time alone is shown urgent: the page is let go at that moment", async () => {
    const noon = new Date(Date.now() + 4 * 24 * 60 * 60 * 1000);
    noon.setUTCHours(12, 0, 0, 0);
    await post({
      pickupDate: noon.toISOString(),
      deliveryDate: new Date(noon.getTime() + 24 * 60 * 60 * 1000).toISOString(),
    });
    const [viewer] = await t.db.select().from(users).where(eq(users.id, driverId));
    const input = ZLoadSearchInput.parse({ latitude: 8.9, longitude: 38.77, radius: 50 });
    const at = async (now: number) => {
      const page = await restBoardPage(t.db, t.services.boards, input, viewer!, now);
      return (page.items.toJSON() as TItem[]).map((l) => l.isUrgent);
    };
    const becomesUrgent = noon.getTime() - URGENT_WITHIN_MS;
    expect(await at(becomesUrgent - 5000)).toEqual([false]);
    expect(await at(becomesUrgent - 1000)).toEqual([false]);
    expect(await at(becomesUrgent)).toEqual([true]);
  });

  test("the kept pages stay within the byte budget, the least recently asked let go first", async () => {
    await post();
    const [viewer] = await t.db.select().from(users).where(eq(users.id, driverId));
    // Three queries with the same one load on their page: three pages of the same size.
    const ask = (sort: string, budget: number) =>
      restBoardPage(
        t.db,
        { ...t.services.boards, pageCacheBytes: budget },
        ZLoadSearchInput.parse({ latitude: 8.9, longitude: 38.77, radius: 50, sort }),
        viewer!,
      );
    const one = (await ask("distance", 1_000_000)).items.bytes.byteLength;
    const budget = Math.floor(one * 2.5);
    await ask("date", budget);
    await ask("rate", budget);
    expect(boardPageCacheSize(t.db)).toEqual({ pages: 2, bytes: 2 * one });
    // The distance page went first; asking it again reads it afresh and lets the date page go.
    const again = await ask("distance", budget);
    expect(again.items.bytes.byteLength).toBe(one);
    expect(boardPageCacheSize(t.db)).toEqual({ pages: 2, bytes: 2 * one });
    // A page larger than the whole budget is answered and not kept.
    await ask("date", one - 1);
    expect(boardPageCacheSize(t.db)).toEqual({ pages: 2, bytes: 2 * one });
  });

  test("an update of loads bumps the board version when a column a page shows or searches by changes, only then", async () => {
    const id = await post();
    const version = async () => (await t.db.q.cacheVersions()).board;
    const before = await version();
    // The sync's bookkeeping and the edit time are not on any page.
    await t.db
      .update(loads)
      .set({ updatedAt: Date.now() + 1000, sourceSeenAt: Date.now() })
      .where(eq(loads.id, id));
    expect(await version()).toBe(before);
    await t.db.update(loads).set({ weightLbs: 30000 }).where(eq(loads.id, id));
    expect(await version()).toBe(before + 1);
    // The trigger names every column of loads except these, which no board page shows or searches by: a column added
    // later bumps the version unless it is added here (and to both migrations' lists) on purpose.
    const NOT_ON_A_PAGE = [
      "pickup_country_code",
      "source_hash",
      "source_seen_at",
      "accepted_bid_id",
      "carrier_company_id",
      "agreed_amount_minor",
      "agreed_currency",
      "cancelled_by_id",
      "cancel_reason",
      "cancelled_at",
      "picked_up_at",
      "delivered_at",
      "completed_at",
      "track_pruned_at",
      "updated_at",
    ];
    const [trigger] = await t.rows<{ sql: string }>(
      t.engine === "sqlite"
        ? "SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = 'loads_board_update'"
        : "SELECT pg_get_triggerdef(oid) AS sql FROM pg_trigger WHERE tgname = 'loads_board_update'",
    );
    const named = (column: string) => new RegExp(`NEW\\.${column}\\b`, "i").test(trigger!.sql);
    // The schema names columns in camelCase and the database in snake_case.
    const columns = Object.keys(getTableColumns(loads)).map((k) => k.replace(/[A-Z]/g, (m) => `_${m.toLowerCase()}`));
    expect(columns.filter((c) => !NOT_ON_A_PAGE.includes(c) && !named(c))).toEqual([]);
    expect(columns.filter((c) => NOT_ON_A_PAGE.includes(c) && named(c))).toEqual([]);
  });

  test("a change far from the page's circle leaves the kept page answered; a load moved into it shows", async () => {
    await post({ title: "Teff" });
    const far = await post({
      title: "Flowers",
      pickupCity: "Nairobi",
      pickupState: null,
      pickupCountry: "Kenya",
      pickupLatitude: -1.29,
      pickupLongitude: 36.82,
    });
    expect((await board(driver)).map((l) => l.title)).toEqual(["Teff"]);
    const use = boardPageCacheUse(t.db);
    // Another city's load changes (the board version moves on) and another shipper posts there (the trust version
    // moves on): the page's cells were not touched and its shipper's signals are the same, so it is answered as kept.
    await t.db.update(loads).set({ title: "Roses" }).where(eq(loads.id, far));
    const other = createClient(t, "10.0.0.3");
    await registerUser(other, "shipper");
    expect(
      (
        await other.post(
          "/api/loads",
          loadInput({ title: "Tea", pickupCity: "Nairobi", pickupLatitude: -1.3, pickupLongitude: 36.8 }),
        )
      ).status,
    ).toBe(201);
    expect((await board(driver)).map((l) => l.title)).toEqual(["Teff"]);
    expect(boardPageCacheUse(t.db)).toEqual({ ...use, revalidated: use.revalidated + 1 });
    // The far load moved to Addis Ababa: its new cell is the page's, so the page is read again and shows it.
    await t.db.update(loads).set({ pickupLatitude: 8.91, pickupLongitude: 38.76 }).where(eq(loads.id, far));
    expect((await board(driver)).map((l) => l.title).sort()).toEqual(["Roses", "Teff"]);
    expect(boardPageCacheUse(t.db).misses).toBe(use.misses + 1);
  });

  test("a write that may change any page (a board configuration, an exchange rate) lets kept pages go", async () => {
    await post({ title: "Teff" });
    await board(driver);
    const use = boardPageCacheUse(t.db);
    const etb = await t.rows<{ n: number }>(
      "SELECT CAST(count(*) AS INTEGER) AS n FROM fx_rates WHERE currency = 'ETB'",
    );
    expect(etb[0]!.n).toBe(1);
    await t.rows("UPDATE fx_rates SET rate_per_usd = rate_per_usd * 1.01 WHERE currency = 'ETB'");
    expect((await board(driver)).map((l) => l.title)).toEqual(["Teff"]);
    expect(boardPageCacheUse(t.db).misses).toBe(use.misses + 1);
    const v = await t.db.q.cacheVersions();
    // A log that no longer reaches back that far counts as a change.
    expect(
      await t.db.q.boardChangedSince(v.board - 100_000, v.board, { latFrom: 0, latTo: 0, lngFrom: 0, lngTo: 0 }),
    ).toBe(true);
    expect(await t.db.q.boardChangedSince(v.board, v.board, { latFrom: 0, latTo: 180, lngFrom: 0, lngTo: 360 })).toBe(
      false,
    );
  });

  test("the cells of a search circle: one degree each, every longitude near a pole or across the date line", () => {
    const cells = (latitude: number, longitude: number, radius: number) =>
      cellsOf(ZLoadSearchInput.parse({ latitude, longitude, radius }));
    // Addis Ababa, 50 miles: latitude 8.9 ± 0.74°, longitude 38.77 ± 0.74°.
    expect(cells(8.9, 38.77, 50)).toEqual({ latFrom: 98, latTo: 99, lngFrom: 218, lngTo: 219 });
    expect(cells(-33.9, 18.4, 25)).toEqual({ latFrom: 55, latTo: 56, lngFrom: 197, lngTo: 198 });
    // Fairbanks, 500 miles: 7.3° of latitude, 23.8° of longitude at the circle's northern edge.
    expect(cells(64.8, -147.7, 500)).toEqual({ latFrom: 147, latTo: 162, lngFrom: 8, lngTo: 56 });
    expect(cells(88, 10, 100)).toMatchObject({ lngFrom: 0, lngTo: 360 });
    expect(cells(-17.7, 179.9, 50)).toMatchObject({ lngFrom: 0, lngTo: 360 });
    expect(cellsOf(ZLoadSearchInput.parse({}))).toBeNull();
  });

  test("BOARD_PAGE_CACHE_MB=0: nothing is kept, and the answers are the same", async () => {
    await post({ title: "Teff" });
    const [viewer] = await t.db.select().from(users).where(eq(users.id, driverId));
    const input = ZLoadSearchInput.parse({ latitude: 8.9, longitude: 38.77, radius: 50 });
    const off = { ...t.services.boards, pageCacheBytes: 0 };
    const page = await restBoardPage(t.db, off, input, viewer!);
    expect((page.items.toJSON() as TItem[]).map((l) => l.title)).toEqual(["Teff"]);
    expect(boardPageCacheSize(t.db)).toEqual({ pages: 0, bytes: 0 });
  });
});
