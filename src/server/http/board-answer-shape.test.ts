import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { eq } from "drizzle-orm";
import { users } from "../../../db/tables";
import { BOARD_SANDBOX_CREDENTIALS, startBoardEmulators } from "../../../emulators/boards/server";
import { ZBoardPage } from "../../shared/schemas/answers/common";
import { ZLoadSearchInput } from "../../shared/schemas/loads";
import { searchBoard } from "../modules/boards/search";
import { closeTestApps, createClient, createTestApp, loadInput, registerUser, testBoardServices } from "../testing";
import { withoutOutputParse } from "../trpc/init";
import { appRouter } from "../trpc/root";

// The board's answer (loads.search) is not parsed by tRPC on each call (withoutOutputParse, docs/design-notes.md
// "Answers checked in tests"): these tests are that check. Real pages of every kind of item (MyTess loads with and
// without a shipper's signals, a live board's loads with their tag and contact, the no-point and other-status paths)
// parse under ZBoardPage unchanged: no field missing, none of another type, none extra that the parse would drop.
setDefaultTimeout(60_000);
let emu: ReturnType<typeof startBoardEmulators>;
beforeAll(() => {
  emu = startBoardEmulators();
});
afterAll(() => emu.stop());
afterEach(closeTestApps);

const CHICAGO = { latitude: 41.85, longitude: -87.65 };

test("real board pages are exactly ZBoardPage's shape (what the skipped output parse would have returned)", async () => {
  const t = await createTestApp({}, undefined, undefined, testBoardServices({ sandbox: Object.values(emu.urls) }));
  const shipper = createClient(t, "10.0.0.3");
  await registerUser(shipper, "shipper");
  const chicago = {
    pickupCity: "Chicago",
    pickupState: "IL",
    pickupCountry: "United States",
    pickupLatitude: 41.86,
    pickupLongitude: -87.64,
    deliveryCity: "Detroit",
    deliveryState: "MI",
    deliveryCountry: "United States",
    deliveryLatitude: 42.33,
    deliveryLongitude: -83.05,
  };
  expect((await shipper.post("/api/loads", loadInput({ ...chicago, title: "Steel coils" }))).status).toBe(201);
  // Nullable fields absent, another currency, an urgent pickup.
  const bare = loadInput({
    ...chicago,
    title: "Paper rolls",
    description: undefined,
    pickupState: undefined,
    budgetCurrency: "EUR",
    pickupDate: new Date(Date.now() + 3_600_000).toISOString(),
  });
  expect((await shipper.post("/api/loads", bare)).status).toBe(201);
  const driver = createClient(t);
  const { id } = await registerUser(driver, "driver");
  const dat = await driver.post("/api/marketplaces", {
    provider: "dat",
    name: "DAT One",
    apiBaseUrl: emu.urls.dat,
    config: BOARD_SANDBOX_CREDENTIALS.dat,
  });
  expect(dat.status).toBe(201);
  const [viewer] = await t.db.select().from(users).where(eq(users.id, id));

  const pages = [
    { ...CHICAGO, radius: 100, pageSize: 100 },
    { ...CHICAGO, radius: 100, sort: "rate" },
    { sort: "date" },
    { ...CHICAGO, radius: 100, destinationLatitude: 42.33, destinationLongitude: -83.05, destinationRadius: 50 },
    { status: "assigned" },
  ];
  let mytess = 0;
  let external = 0;
  for (const input of pages) {
    const page = await searchBoard(t.db, t.services.boards, ZLoadSearchInput.parse(input), viewer!);
    mytess += page.items.filter((l) => l.source.type === "mytess" && l.shipper).length;
    external += page.items.filter((l) => l.source.type === "external" && l.board && l.source.contact).length;
    // toStrictEqual: a key the schema does not know (which the parse would drop) or a value it would change fails.
    expect(ZBoardPage.parse(page)).toStrictEqual(page);
  }
  // The pages held every kind of item.
  expect(mytess).toBeGreaterThan(0);
  expect(external).toBeGreaterThan(0);
});

test("loads.search carries no output parse; other procedures keep theirs; dropping a missing one throws", () => {
  const kinds = (p: unknown) =>
    (p as { _def: { middlewares: { _type?: string }[] } })._def.middlewares.map((m) => m._type);
  expect(kinds(appRouter.loads.search)).not.toContain("output");
  expect(kinds(appRouter.loads.create)).toContain("output");
  // loads.search still declares its output for the OpenAPI document and the web's types.
  expect((appRouter.loads.search._def as { output?: unknown }).output).toBe(ZBoardPage);
  expect(() => withoutOutputParse(appRouter.loads.search)).toThrow("no output check");
});
