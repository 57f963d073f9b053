// One set of services per process, shared by its web role, its worker and its bots: a board's access token fetched
// for a live search is the one every other caller of that process uses, so the board sees one token request, not one
// per role.
import { afterAll, afterEach, beforeAll, expect, setDefaultTimeout, test } from "bun:test";
import { BOARD_SANDBOX_CREDENTIALS, startBoardEmulators } from "../../emulators/boards/server";
import { ZMarketplaceSearchInput } from "../shared/schemas/boards";
import { loadConfig } from "./config";
import { findUserById } from "./modules/accounts/users";
import { searchMarketplace } from "./modules/boards/search";
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
  const user = await registerUser(driver, "driver");
  expect((await driver.post("/api/drivers/location", CHICAGO)).status).toBe(200);
  const added = await driver.post("/api/marketplaces", {
    provider: "dat",
    name: "DAT sandbox",
    apiBaseUrl: emu.urls.dat,
    config: BOARD_SANDBOX_CREDENTIALS.dat,
  });
  expect(added.status).toBe(201);
  const board = emu.controls.dat;
  board.reset();
  // The web role searches the board live: the first call of this configuration asks for a token. DAT issues it in
  // two steps (the organization's token, then the user's), so one acquisition is two calls.
  const search = await driver.post(`/api/marketplaces/${added.json.id}/search`, { limit: 5 });
  expect(search.status).toBe(200);
  expect(board.tokenCalls).toBe(2);
  const me = await findUserById(t.db, user.id);
  if (!me) throw new Error("the driver just registered is not there");
  return { t, board, me, id: added.json.id as number };
};

test("another role of the same process (the worker, the bots) searches with the web role's token: no new request", async () => {
  const { t, board, me, id } = await setUp();
  const answer = await searchMarketplace(t.db, t.services.boards, me, id, ZMarketplaceSearchInput.parse({ limit: 5 }));
  expect(answer.results.length).toBeGreaterThan(0);
  expect(board.searchCalls).toBe(2);
  expect(board.tokenCalls).toBe(2);
});

test("services made a second time (a second process) hold tokens of their own: what sharing saves", async () => {
  const { t, board, me, id } = await setUp();
  const elsewhere = createServices(loadConfig({}), {
    notifiers: t.services.notifiers,
    boards: testBoardServices({ sandbox: Object.values(emu.urls) }),
  });
  // The second set opens the configuration's sealed credentials with its own key: give it the first one's box.
  Object.assign(elsewhere.boards, { secrets: t.services.boards.secrets });
  const answer = await searchMarketplace(t.db, elsewhere.boards, me, id, ZMarketplaceSearchInput.parse({ limit: 5 }));
  expect(answer.results.length).toBeGreaterThan(0);
  expect(board.tokenCalls).toBe(4);
});
