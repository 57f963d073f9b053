import { expect, type Page, test } from "@playwright/test";
import { awardBid, DEMO, postLoad, signIn, signUp, uniqueEmail } from "./helpers";

// The driver's home on a phone: loads near the driver come before the trips, "near" is the last position, else where
// the first saved lane starts, else the page asks for a position and says why; completed trips fold away.
test.use({ viewport: { width: 390, height: 844 } });

const ADDIS = { latitude: 9.0108, longitude: 38.7613 };
const HAWASSA = { latitude: 7.0621, longitude: 38.4764 };
const TO_DJIBOUTI = {
  pickupAddress: "Merkato",
  pickupCity: "Addis Ababa",
  pickupCountry: "Ethiopia",
  pickupLatitude: 9.03,
  pickupLongitude: 38.74,
  deliveryAddress: "Port of Djibouti",
  deliveryCity: "Djibouti",
  deliveryCountry: "Djibouti",
  deliveryLatitude: 11.59,
  deliveryLongitude: 43.14,
};

/** The distances the nearby cards show, as numbers, in the order shown. */
const nearbyDistances = async (page: Page) =>
  (await page.getByTestId("nearby-loads").getByTestId("distance-badge").allTextContents()).map((d) =>
    Number(d.replace(/[^\d.]/g, "")),
  );

const expectNoSidewaysScroll = async (page: Page) =>
  expect(
    await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth),
  ).toBeLessThanOrEqual(0);

test("without a position the home asks politely, falls back to a saved lane, then uses the position", async ({
  browser,
}) => {
  test.setTimeout(60_000);
  // No permission to read the position yet: the browser refuses when asked.
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/driver");
  await signUp(page, { type: "Driver", first: "Tsion", last: "Mekonnen", email: uniqueEmail("tsion") });
  await expect(page.getByRole("heading", { name: "Driver Dashboard" })).toBeVisible();

  // Loads near the driver come before the trips.
  const nearTitle = page.getByRole("heading", { name: "Loads near you" });
  const tripsTitle = page.getByRole("heading", { name: "My trips" });
  expect((await nearTitle.boundingBox())!.y).toBeLessThan((await tripsTitle.boundingBox())!.y);

  const ask = page.getByTestId("nearby-ask");
  await expect(ask).toContainText("Share your location to see loads near you.");
  await expect(ask).toContainText("MyTess uses it only to list the closest loads first");
  await expect(ask.getByRole("link", { name: "Add lane" })).toHaveAttribute("href", "/marketplaces");
  const use = ask.getByRole("button", { name: "Use my location" });
  expect((await use.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await use.click();
  await expect(ask).toContainText("Your position could not be read.");
  await expect(page.getByTestId("nearby-loads").getByTestId("load-card")).toHaveCount(0);
  await expectNoSidewaysScroll(page);

  // A saved lane from Addis Ababa: the loads near where it starts, closest first.
  const lane = await page.request.post("/api/marketplaces/lanes", {
    data: {
      originName: "Addis Ababa, Ethiopia",
      originLatitude: ADDIS.latitude,
      originLongitude: ADDIS.longitude,
      originRadiusMiles: 100,
    },
  });
  expect(lane.status()).toBe(201);
  await page.reload();
  await expect(page.getByTestId("nearby-origin")).toContainText("Near your saved lane from Addis Ababa, Ethiopia.");
  await expect(page.getByTestId("nearby-ask")).toHaveCount(0);
  await expect(page.getByTestId("nearby-loads").getByTestId("load-card").first()).toBeVisible();
  const fromLane = await nearbyDistances(page);
  expect(fromLane.length).toBeGreaterThan(1);
  expect(fromLane).toEqual([...fromLane].sort((a, b) => a - b));
  await expectNoSidewaysScroll(page);

  // Allowed now: the position replaces the lane as "near".
  await ctx.grantPermissions(["geolocation"]);
  await ctx.setGeolocation(HAWASSA);
  await page.getByTestId("nearby-origin").getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByTestId("toast").getByText("Location Updated")).toBeVisible();
  await expect(page.getByTestId("nearby-origin")).toHaveCount(0);
  await expect(page.getByTestId("coordinates")).toContainText("7.06210, 38.47640");
  await expect
    .poll(async () => {
      const d = await nearbyDistances(page);
      return d.length > 0 && d.join() !== fromLane.join();
    })
    .toBe(true);
  const fromPosition = await nearbyDistances(page);
  expect(fromPosition).toEqual([...fromPosition].sort((a, b) => a - b));
  await ctx.close();
});

test("completed trips fold away behind Completed trips (N); the trip to run stays in view", async ({ browser }) => {
  test.setTimeout(60_000);
  const shipperCtx = await browser.newContext();
  const shipper = await shipperCtx.newPage();
  await signIn(shipper, DEMO.shipper);
  const driverCtx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const driver = await driverCtx.newPage();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Kebede", last: "Worku", email: uniqueEmail("kebede") });
  await expect(driver.getByRole("heading", { name: "Driver Dashboard" })).toBeVisible();
  await expect(driver.getByTestId("no-trips")).toContainText("Loads you win appear here");
  await expect(driver.getByTestId("completed-trips")).toHaveCount(0);

  const load = { equipmentType: "dry_van", weight: 12000, budgetAmount: 900, budgetCurrency: "USD", ...TO_DJIBOUTI };
  const doneId = await postLoad(shipper, { ...load, title: `Coffee ${Date.now()}` });
  const runId = await postLoad(shipper, { ...load, title: `Sesame ${Date.now()}` });
  await awardBid(driver, shipper, doneId, { amount: 850, currency: "USD" });
  await awardBid(driver, shipper, runId, { amount: 880, currency: "USD" });
  expect((await driver.request.post(`/api/loads/${doneId}/pickup`)).status()).toBe(200);
  expect((await driver.request.post(`/api/loads/${doneId}/deliver`)).status()).toBe(200);
  expect((await shipper.request.post(`/api/loads/${doneId}/complete`)).status()).toBe(200);

  await driver.reload();
  const run = driver.locator(`[data-testid="trip-row"][data-load-id="${runId}"]`);
  const done = driver.locator(`[data-testid="trip-row"][data-load-id="${doneId}"]`);
  await expect(run.getByTestId("load-status")).toHaveText("Assigned");
  await expect(done).toHaveCount(0);
  await expect(driver.getByTestId("no-trips")).toHaveCount(0);

  const toggle = driver.getByTestId("completed-trips-toggle");
  await expect(toggle).toHaveText("Completed trips (1)");
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  expect((await toggle.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await expect(done.getByTestId("load-status")).toHaveText("Completed");
  // Not rated yet: the Rate button is in the folded list.
  await expect(done.getByRole("button", { name: "Rate the shipper" })).toBeVisible();
  await expectNoSidewaysScroll(driver);
  await toggle.click();
  await expect(done).toHaveCount(0);
  await expect(run).toBeVisible();

  await shipperCtx.close();
  await driverCtx.close();
});
