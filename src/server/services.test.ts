// One set of services per process, shared by its web role and its worker: a board's access token fetched for a live
// search is the one the worker's sync of that board uses, so the board sees one token request, not one per role.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { BOARD_SANDBOX_CREDENTIALS, startBoardEmulators } from "../../emulators/boards/server";
import { loadConfig } from "./config";
import { logger } from "./logger";
import { jobRegistry, startWorker } from "./modules/jobs";
import { createServices } from "./services";
import { closeTestApps, createClient, createTestApp, registerUser, testBoardServices } from "./testing";

// Per file: Bun 1.4 ignores bunfig's test timeout, and a preload's default reaches only the first file.
setDefaultTimeout(60_000);

let emu: ReturnType<typeof startBoardEmulators>;
beforeAll(() => {
  emu = startBoardEmulators();
});
afterAll(() => emu.stop());
afterEach(closeTestApps);

const CHICAGO = { latitude: 41.85, longitude: -87.65 };

const setUp = async () => {
  const t = await createTestApp({}, undefined, undefined, testBoardServices({ sandbox: Object.values(emu.urls) }));
  const driver = createClient(t);
  await registerUser(driver, "driver");
  expect((await driver.post("/api/drivers/location", CHICAGO)).status).toBe(200);
  const added = await driver.post("/api/marketplaces", {
    provider: "123loadboard",
    name: "123 sandbox",
    apiBaseUrl: emu.urls["123loadboard"],
    config: BOARD_SANDBOX_CREDENTIALS["123loadboard"],
    syncEnabled: true,
  });
  expect(added.status).toBe(201);
  const board = emu.controls["123loadboard"];
  board.reset();
  // The web role searches the board live: the first call of this configuration asks for a token.
  const search = await driver.post(`/api/marketplaces/${added.json.id}/search`, { limit: 5 });
  expect(search.status).toBe(200);
  expect(board.tokenCalls).toBe(1);
  expect((await driver.post("/api/sync/manual")).json).toMatchObject({ queued: 1 });
  return { t, board };
};

test("the worker of the same process syncs with the web role's token: one token request in all", async () => {
  const { t, board } = await setUp();
  const worker = startWorker({
    db: t.db,
    log: logger,
    handlers: jobRegistry(t.services, "https://mytess.example"),
    schedules: [],
    autoStart: false,
  });
  expect(await worker.runOnce()).toBe(1);
  expect(board.searchCalls).toBeGreaterThan(1);
  expect(board.tokenCalls).toBe(1);
});

test("services made a second time (a second process) hold tokens of their own: what sharing saves", async () => {
  const { t, board } = await setUp();
  const elsewhere = createServices(loadConfig({}), {
    notifiers: t.services.notifiers,
    boards: testBoardServices({ sandbox: Object.values(emu.urls) }),
  });
  // The second set opens the configuration's sealed credentials with its own key: give it the first one's box.
  Object.assign(elsewhere.boards, { secrets: t.services.boards.secrets });
  const worker = startWorker({
    db: t.db,
    log: logger,
    handlers: jobRegistry(elsewhere, "https://mytess.example"),
    schedules: [],
    autoStart: false,
  });
  expect(await worker.runOnce()).toBe(1);
  expect(board.tokenCalls).toBe(2);
});
