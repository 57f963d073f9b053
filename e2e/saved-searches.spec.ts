import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// A driver saves the board's lane (to Djibouti) under a name; a shipper posts a load on it; the driver's bell rings
// with the saved search's name, the search says "1 new", and opening it brings its filters back through the address.

const DAY = 24 * 3600_000;
const load = (title: string, to: { city: string; country: string; latitude: number; longitude: number }) => ({
  title,
  equipmentType: "dry_van",
  pickupAddress: "Merkato",
  pickupCity: "Addis Ababa",
  pickupCountry: "Ethiopia",
  pickupLatitude: 9.03,
  pickupLongitude: 38.74,
  deliveryAddress: "Port",
  deliveryCity: to.city,
  deliveryCountry: to.country,
  deliveryLatitude: to.latitude,
  deliveryLongitude: to.longitude,
  pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
  deliveryDate: new Date(Date.now() + 6 * DAY).toISOString(),
  weight: 26000,
  budgetAmount: 2400,
  budgetCurrency: "USD",
});
const DJIBOUTI = { city: "Djibouti", country: "Djibouti", latitude: 11.5721, longitude: 43.1456 };
const HAWASSA = { city: "Hawassa", country: "Ethiopia", latitude: 7.06, longitude: 38.48 };
const LANE =
  "/loads?destination=Djibouti%2C+Djibouti&destinationLatitude=11.5721&destinationLongitude=43.1456&destinationRadius=100";

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1440, height: 900 },
]) {
  test(`a saved search alerts on a new matching load and opens with its filters (${viewport.name})`, async ({
    browser,
  }) => {
    test.setTimeout(120_000);
    const driverCtx = await browser.newContext({ viewport });
    const shipperCtx = await browser.newContext();
    const driver = await driverCtx.newPage();
    const shipper = await shipperCtx.newPage();
    await driver.goto("/signin?mode=register&returnTo=/loads");
    await signUp(driver, { type: "Driver", first: "Kebede", last: "Tola", email: uniqueEmail("kebede") });
    await expect(driver.getByTestId("user-menu")).toBeVisible({ timeout: 30_000 });
    await shipper.goto("/signin?mode=register&returnTo=/shipper");
    await signUp(shipper, { type: "Shipper", first: "Hirut", last: "Bekele", email: uniqueEmail("hirut") });
    await expect(shipper.getByTestId("user-menu")).toBeVisible({ timeout: 30_000 });

    // The lane on the board, then saved by name.
    await driver.goto(LANE);
    await expect(driver.locator("#f-destination")).toHaveValue(/Djibouti/);
    await driver.getByTestId("save-search").click();
    const dialog = driver.getByTestId("save-search-dialog");
    await expect(dialog.getByLabel("Name")).toHaveValue("Anywhere → Djibouti, Djibouti");
    await dialog.getByLabel("Name").fill("");
    await dialog.getByTestId("save-search-submit").click();
    await expect(dialog.getByRole("alert")).toHaveText("Give the search a name");
    await dialog.getByLabel("Name").fill("Port run");
    await dialog.getByTestId("save-search-submit").click();
    await expect(dialog).toBeHidden();
    await driver.getByTestId("saved-searches-toggle").click();
    const row = driver.getByTestId("saved-search");
    await expect(row).toHaveCount(1);
    await expect(row.getByTestId("saved-search-name")).toHaveText("Port run");
    await expect(row.getByTestId("saved-search-new")).toHaveCount(0);
    await driver.getByTestId("saved-searches-toggle").click();

    // A load on the lane and one elsewhere: one alert, naming the search.
    expect((await shipper.request.post("/api/loads", { data: load("Coffee to the port", DJIBOUTI) })).status()).toBe(
      201,
    );
    expect((await shipper.request.post("/api/loads", { data: load("Teff to Hawassa", HAWASSA) })).status()).toBe(201);
    await expect(driver.getByTestId("notification-count")).toHaveText("1", { timeout: 30_000 });
    await driver.getByTestId("notification-bell").click();
    const item = driver.getByTestId("notification-item").first();
    await expect(item).toContainText("New load for your saved search");
    await expect(item).toContainText("Port run: Coffee to the port");
    await driver.keyboard.press("Escape");

    // "1 new" on the search, until it is opened; opening it puts its filters in the address.
    await driver.goto("/loads");
    await expect(driver.getByTestId("saved-searches-new-total")).toHaveText("1");
    await driver.getByTestId("saved-searches-toggle").click();
    await expect(row.getByTestId("saved-search-new")).toHaveText("1 new");
    await row.getByTestId("open-saved-search").click();
    await expect(driver).toHaveURL(/destinationLatitude=11\.5721/);
    await expect(driver.locator("#f-destination")).toHaveValue(/Djibouti/);
    await expect(driver.getByTestId("saved-searches-new-total")).toHaveCount(0);

    // Renamed, then deleted after a confirmation.
    await driver.getByTestId("saved-searches-toggle").click();
    await row.getByTestId("rename-saved-search").click();
    const rename = driver.getByTestId("rename-saved-search-dialog");
    await rename.getByLabel("Name").fill("Djibouti run");
    await rename.getByTestId("rename-saved-search-submit").click();
    await expect(row.getByTestId("saved-search-name")).toHaveText("Djibouti run");
    await row.getByTestId("delete-saved-search").click();
    await expect(driver.getByTestId("confirm-delete-saved-search-dialog")).toContainText(
      "Delete the saved search Djibouti run?",
    );
    await driver.getByTestId("confirm-delete-saved-search").click();
    await expect(driver.getByTestId("saved-searches-empty")).toBeVisible();

    await driverCtx.close();
    await shipperCtx.close();
  });
}
