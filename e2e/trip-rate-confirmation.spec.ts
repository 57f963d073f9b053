import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

const DAY = 24 * 3600_000;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

// After the award, on a phone: both parties see the agreed price and each other on the load's page; the driver
// downloads the rate confirmation and accepts it, the shipper accepts it, and the trip's timeline shows both.
test("after the award both parties see the price and each other, and both accept the rate confirmation", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const shipperCtx = await browser.newContext({ ...phone, acceptDownloads: true });
  const driverCtx = await browser.newContext({ ...phone, acceptDownloads: true });
  const shipper = await shipperCtx.newPage();
  const driver = await driverCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Selam", last: "Girma", email: uniqueEmail("selam") });
  await expect(shipper.getByTestId("user-menu")).toBeVisible();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Tesfaye", last: "Abdi", email: uniqueEmail("tesfaye") });
  await expect(driver.getByTestId("user-menu")).toBeVisible();

  const posted = await shipper.request.post("/api/loads", {
    data: {
      title: `Teff, 10 t ${Date.now()}`,
      equipmentType: "dry_van",
      pickupAddress: "Merkato",
      pickupCity: "Addis Ababa",
      pickupCountry: "Ethiopia",
      pickupLatitude: 9.03,
      pickupLongitude: 38.74,
      deliveryAddress: "Hawassa Industrial Park",
      deliveryCity: "Hawassa",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: 7.06,
      deliveryLongitude: 38.48,
      pickupDate: new Date(Date.now() + DAY).toISOString(),
      deliveryDate: new Date(Date.now() + 2 * DAY).toISOString(),
      weight: 22000,
      budgetAmount: 900,
      budgetCurrency: "USD",
    },
  });
  expect(posted.status()).toBe(201);
  const loadId = (await posted.json()).id as number;
  const bid = await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 850, currency: "USD" } });
  expect((await shipper.request.post(`/api/bids/${(await bid.json()).bid.id}/accept`)).status()).toBe(200);

  await driver.goto(`/loads/${loadId}`);
  const driverPanel = driver.getByTestId("trip-panel");
  await expect(driverPanel.getByTestId("trip-agreed-price")).toHaveText("$850.00");
  await expect(driverPanel.getByTestId("trip-other-name")).toHaveText("Selam Girma");
  await expect(driverPanel.getByTestId("rc-driver")).toContainText("not yet");

  const [download] = await Promise.all([
    driver.waitForEvent("download"),
    driverPanel.getByTestId("rc-download").click(),
  ]);
  expect(download.suggestedFilename()).toBe(`rate-confirmation-${loadId}.pdf`);
  const pdf = readFileSync(await download.path());
  expect(pdf.subarray(0, 5).toString()).toBe("%PDF-");

  const accept = driverPanel.getByTestId("rc-accept");
  const box = await accept.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
  await accept.click();
  await expect(driverPanel.getByTestId("rc-driver")).toContainText("accepted");
  await expect(driverPanel.getByTestId("rc-accept")).toHaveCount(0);

  await shipper.goto(`/loads/${loadId}`);
  const shipperPanel = shipper.getByTestId("trip-panel");
  await expect(shipperPanel.getByTestId("trip-agreed-price")).toHaveText("$850.00");
  await expect(shipperPanel.getByTestId("trip-other-name")).toHaveText("Tesfaye Abdi");
  await expect(shipperPanel.getByTestId("trip-other-trips")).toContainText("0 completed trips");
  await expect(shipperPanel.getByTestId("rc-driver")).toContainText("accepted");
  await shipperPanel.getByTestId("rc-accept").click();
  await expect(shipperPanel.getByTestId("rc-shipper")).toContainText("accepted");
  const timeline = shipperPanel.getByTestId("trip-timeline");
  await expect(timeline).toContainText("Load awarded");
  await expect(timeline).toContainText("Rate confirmation accepted by Tesfaye Abdi");
  await expect(timeline).toContainText("Rate confirmation accepted by Selam Girma");

  await shipperCtx.close();
  await driverCtx.close();
});
