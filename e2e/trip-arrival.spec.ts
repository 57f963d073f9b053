import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

const DAY = 24 * 3600_000;
const PICKUP = { latitude: 9.03, longitude: 38.74 };
const DELIVERY = { latitude: 8.54, longitude: 39.27 };
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

// The driver's phone, its position emulated: near the pickup point the trip card asks "Arrived at pickup?" and the
// answer marks the load picked up; near the delivery point it asks "Arrived at delivery?"; far from both it asks nothing.
test("the trip card asks about arrival near the pickup and the delivery point", async ({ browser }) => {
  test.setTimeout(90_000);
  const shipperCtx = await browser.newContext(phone);
  // Somewhere between the two points, far from both.
  const driverCtx = await browser.newContext({
    ...phone,
    geolocation: { latitude: 8.8, longitude: 39.0, accuracy: 20 },
    permissions: ["geolocation"],
  });
  const shipper = await shipperCtx.newPage();
  const driver = await driverCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Hirut", last: "Bekele", email: uniqueEmail("hirut") });
  await expect(shipper.getByTestId("user-menu")).toBeVisible();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Kebede", last: "Tola", email: uniqueEmail("kebede") });
  await expect(driver.getByTestId("user-menu")).toBeVisible();

  const posted = await shipper.request.post("/api/loads", {
    data: {
      title: `Coffee, 8 t ${Date.now()}`,
      equipmentType: "dry_van",
      pickupAddress: "Merkato",
      pickupCity: "Addis Ababa",
      pickupCountry: "Ethiopia",
      pickupLatitude: PICKUP.latitude,
      pickupLongitude: PICKUP.longitude,
      deliveryAddress: "Adama Industrial Park",
      deliveryCity: "Adama",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: DELIVERY.latitude,
      deliveryLongitude: DELIVERY.longitude,
      pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
      deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
      weight: 17000,
      budgetAmount: 600,
      budgetCurrency: "USD",
    },
  });
  expect(posted.status()).toBe(201);
  const loadId = (await posted.json()).id as number;
  const bid = await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 550, currency: "USD" } });
  expect((await shipper.request.post(`/api/bids/${(await bid.json()).bid.id}/accept`)).status()).toBe(200);

  await driver.goto("/driver");
  const trip = driver.locator(`[data-testid="trip-row"][data-load-id="${loadId}"]`);
  const sharing = trip.getByTestId("trip-sharing");
  const prompt = trip.getByTestId("arrival-prompt");
  await expect(sharing).toHaveAttribute("data-sharing", "off");
  await trip.getByRole("button", { name: "Share my location for this trip" }).click();
  await expect(sharing).toHaveAttribute("data-sharing", "on");
  await expect(sharing).toContainText("Sharing your location with the shipper while the app is open.");
  await expect(prompt).toHaveCount(0);

  // About 200 m from the pickup point.
  await driverCtx.setGeolocation({ latitude: PICKUP.latitude + 0.0018, longitude: PICKUP.longitude, accuracy: 15 });
  await expect(prompt).toBeVisible({ timeout: 15_000 });
  await expect(prompt.getByRole("heading", { name: "Arrived at pickup?" })).toBeVisible();
  await expect(prompt).toContainText("Picked up?");
  const yes = prompt.getByRole("button", { name: "Yes, picked up" });
  expect((await yes.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await yes.click();
  await expect(trip.getByRole("button", { name: "Record delivery" })).toBeVisible();
  expect((await (await shipper.request.get(`/api/loads/${loadId}/track`)).json()).status).toBe("in_transit");
  // In transit, near the pickup point, nothing is asked.
  await expect(prompt).toHaveCount(0);

  // On the road: nothing asked; then about 300 m from the delivery point.
  await driverCtx.setGeolocation({ latitude: 8.7, longitude: 39.1, accuracy: 15 });
  await expect(prompt).toHaveCount(0);
  await driverCtx.setGeolocation({ latitude: DELIVERY.latitude, longitude: DELIVERY.longitude + 0.0027, accuracy: 15 });
  await expect(prompt.getByRole("heading", { name: "Arrived at delivery?" })).toBeVisible({ timeout: 15_000 });
  // "Not yet" puts the question away while the page stays open.
  await prompt.getByRole("button", { name: "Not yet" }).click();
  await expect(prompt).toHaveCount(0);
  await driverCtx.setGeolocation({ latitude: DELIVERY.latitude, longitude: DELIVERY.longitude + 0.001, accuracy: 15 });
  await expect(trip.getByTestId("trip-sharing")).toHaveAttribute("data-sharing", "on");
  await expect(prompt).toHaveCount(0);
  // Opened again, it asks again, and the answer opens the proof of delivery, which records the delivery.
  await driver.reload();
  await driverCtx.setGeolocation({ latitude: DELIVERY.latitude, longitude: DELIVERY.longitude + 0.002, accuracy: 15 });
  await expect(prompt.getByRole("heading", { name: "Arrived at delivery?" })).toBeVisible({ timeout: 15_000 });
  await prompt.getByRole("button", { name: "Yes, delivered" }).click();
  const pod = driver.getByTestId("pod-dialog");
  await expect(pod).toBeVisible();
  const pad = (await pod.getByTestId("signature-pad").boundingBox())!;
  await driver.mouse.move(pad.x + 20, pad.y + 40);
  await driver.mouse.down();
  await driver.mouse.move(pad.x + 120, pad.y + 90, { steps: 8 });
  await driver.mouse.move(pad.x + 220, pad.y + 30, { steps: 8 });
  await driver.mouse.up();
  await pod.getByLabel("Receiver's name").fill("Tigist Alemu");
  await pod.getByRole("button", { name: "Continue" }).click();
  await pod.getByRole("button", { name: "Send proof of delivery" }).click();
  await expect
    .poll(async () => (await (await shipper.request.get(`/api/loads/${loadId}/track`)).json()).status)
    .toBe("delivered");

  await Promise.all([shipperCtx.close(), driverCtx.close()]);
});
