import { expect, test } from "@playwright/test";
import { signIn, signUp, uniqueEmail } from "./helpers";

// Demo mode runs Sandbox emulators of DAT, Truckstop, 123Loadboard and a load feed: a board added here is reached
// through the same adapter a deployment uses, on loopback.
test.use({ geolocation: { latitude: 41.85, longitude: -87.65 }, permissions: ["geolocation"] });

test("a new driver adds DAT, tests it, searches it and sees its loads on the load board", async ({ page }) => {
  await page.goto("/signin?mode=register&returnTo=/marketplaces");
  await signUp(page, { type: "Driver", first: "Dana", last: "Miller", email: uniqueEmail("dana") });
  await expect(page.getByRole("heading", { name: "Marketplace Integrations" })).toBeVisible();
  await expect(page.getByTestId("sync-status")).toContainText("Stopped");

  // The dialog names what is missing, then takes the Sandbox.
  await page.getByTestId("add-marketplace").first().click();
  await page.getByTestId("marketplace-submit").click();
  await expect(page.getByText("Provider is required")).toBeVisible();
  await expect(page.getByText("Name is required")).toBeVisible();
  await page.getByLabel("Provider").selectOption("dat");
  await page.getByLabel("Name").fill("My DAT");
  await page.getByTestId("use-sandbox").click();
  await page.getByTestId("marketplace-submit").click();
  await expect(page.getByTestId("toast").getByText("Marketplace Added")).toBeVisible();
  const card = page.getByTestId("marketplace-card").filter({ hasText: "My DAT" });
  await expect(card.getByTestId("sandbox-badge")).toBeVisible();
  await expect(card.getByTestId("marketplace-status")).toHaveText("Active");
  await expect(card).toContainText("DAT is searched live only");

  await card.getByTestId("test-connection").click();
  await expect(page.getByTestId("toast").getByText("Connection Successful")).toBeVisible();
  await expect(page.getByTestId("toast").getByText("Successfully connected to the marketplace API.")).toBeVisible();

  // Search Loads: one board, live, around the browser's position.
  await page.getByTestId("tab-search").click();
  await page.getByTestId("marketplace-search").click();
  await expect(page.getByText("Choose a marketplace").last()).toBeVisible();
  await page.getByLabel("Marketplace").selectOption({ label: "My DAT (DAT)" });
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByLabel("Latitude", { exact: true })).not.toHaveValue("");
  await page.getByTestId("marketplace-search").click();
  const results = page.getByTestId("marketplace-result");
  await expect(results.first()).toBeVisible();
  expect(await results.count()).toBeLessThanOrEqual(20);
  await expect(results.first().getByTestId("powered-by")).toHaveText("Powered by DAT");
  await expect(results.first().getByTestId("poster-contact")).toBeVisible();

  // The load board: DAT's loads beside MyTess loads, marked with the board and taking no bids.
  await page.goto("/loads");
  await page.getByRole("button", { name: "Use my location" }).click();
  const external = page.getByTestId("load-row").filter({ has: page.getByTestId("board-name") });
  await expect(external.first()).toBeVisible();
  await expect(external.first().getByTestId("source-badge")).toHaveText("EXTERNAL");
  await expect(external.first().getByTestId("board-name")).toHaveText("My DAT");
  await expect(external.first().getByTestId("powered-by")).toBeVisible();
  await expect(external.first().getByTestId("quick-bid")).toHaveCount(0);
  await expect(page.getByTestId("board-answer").filter({ hasText: "My DAT" })).toContainText("live");

  // Deleted: gone from the list and from the board.
  await page.goto("/marketplaces");
  await card.getByTestId("delete-marketplace").click();
  await page.getByTestId("confirm-delete").click();
  await expect(page.getByTestId("toast").getByText("Marketplace Deleted")).toBeVisible();
  await expect(page.getByTestId("marketplace-card")).toHaveCount(0);
});

test("a driver connects 123Loadboard on its authorization page, then a search returns its loads", async ({ page }) => {
  await page.goto("/signin?mode=register&returnTo=/marketplaces");
  await signUp(page, { type: "Driver", first: "Liya", last: "Tadesse", email: uniqueEmail("liya") });
  await page.getByTestId("add-marketplace").first().click();
  await page.getByLabel("Provider").selectOption("123loadboard");
  await page.getByLabel("Name").fill("My 123");
  await expect(page.getByTestId("lb123-note")).toContainText("Connect 123Loadboard");
  await page.getByTestId("use-sandbox").click();
  await page.getByTestId("marketplace-submit").click();
  await expect(page.getByTestId("toast").getByText("Marketplace Added")).toBeVisible();
  const card = page.getByTestId("marketplace-card").filter({ hasText: "My 123" });
  await expect(card.getByTestId("connection-status")).toHaveText("Not connected");

  // Not connected yet: the connection test says what to do.
  await card.getByTestId("test-connection").click();
  await expect(page.getByTestId("toast").getByText("is not connected: use Connect 123Loadboard")).toBeVisible();

  // 123Loadboard's own page (the Sandbox's): the user approves, and comes back connected.
  await card.getByTestId("connect-board").click();
  await expect(page.getByRole("heading", { name: "123Loadboard Sandbox · Authorize" })).toBeVisible();
  await expect(page.getByText("Search loads on the load board as you")).toBeVisible();
  await page.getByRole("button", { name: "Approve" }).click();
  await expect(page).toHaveURL(/\/marketplaces$/);
  await expect(page.getByTestId("toast").getByText("123Loadboard Connected")).toBeVisible();
  await expect(card.getByTestId("connection-status")).toHaveText("Connected");
  await expect(card.getByTestId("connect-board")).toHaveText("Reconnect 123Loadboard");

  await page.getByTestId("tab-search").click();
  await page.getByLabel("Marketplace").selectOption({ label: "My 123 (123Loadboard)" });
  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByLabel("Latitude", { exact: true })).not.toHaveValue("");
  await page.getByTestId("marketplace-search").click();
  await expect(page.getByTestId("marketplace-result").first()).toBeVisible();
  await expect(page.getByTestId("marketplace-results-summary")).toContainText("from My 123");
});

test("a demo driver's synced boards: Manual Sync, the runs in Monitoring, their loads on the board", async ({
  page,
}) => {
  await signIn(page, { email: "mike@demo.mytess.app", password: "mytess-demo" }, "/marketplaces");
  await expect(page.getByTestId("marketplace-card")).toHaveCount(4);
  await expect(
    page.getByTestId("marketplace-card").filter({ hasText: "Truckstop" }).getByTestId("marketplace-status"),
  ).toHaveText("Active & Syncing");
  // Connected through the Sandbox's authorization page when the demo started.
  await expect(
    page.getByTestId("marketplace-card").filter({ hasText: "123Loadboard" }).getByTestId("connection-status"),
  ).toHaveText("Connected");
  await page.getByTestId("manual-sync").click();
  await expect(page.getByTestId("toast").getByText("Sync Started")).toBeVisible();
  await expect(page.getByTestId("toast").getByText("Manual synchronization has been started.")).toBeVisible();
  await page.getByTestId("tab-monitoring").click();
  const runs = page.getByTestId("sync-run");
  await expect(runs.filter({ hasText: "Manual" }).first()).toBeVisible({ timeout: 15_000 });
  await expect(runs.filter({ hasText: "Truckstop" }).first()).toBeVisible();

  await page.goto("/loads");
  await expect(page.getByTestId("board-answer").filter({ hasText: "Truckstop" })).toContainText("synced");
  await expect(
    page
      .getByTestId("load-row")
      .filter({ has: page.getByTestId("board-name").filter({ hasText: "Truckstop" }) })
      .first(),
  ).toBeVisible();
});
