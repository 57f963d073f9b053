import { type BrowserContext, expect, type Page, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

const DAY = 24 * 3600_000;
// Addis Ababa (Merkato) to Adama: the driver's phone moves along the road east.
const PICKUP = { latitude: 9.03, longitude: 38.74 };
const DELIVERY = { latitude: 8.54, longitude: 39.27 };
const along = (f: number) => ({
  latitude: PICKUP.latitude + (DELIVERY.latitude - PICKUP.latitude) * f,
  longitude: PICKUP.longitude + (DELIVERY.longitude - PICKUP.longitude) * f,
});
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

type TTrack = {
  positions: { latitude: number; recordedAt: string }[];
  lastPosition: { latitude: number } | null;
  remainingMiles: number | null;
};
const trackOf = async (page: Page, loadId: number) =>
  (await (await page.request.get(`/api/loads/${loadId}/track`)).json()) as TTrack;

const moveTo = async (ctx: BrowserContext, f: number) => ctx.setGeolocation({ ...along(f), accuracy: 20 });

// A driver's trip on a phone, with the position emulated along the route; the shipper watches the load's page, which is
// never reloaded.
test("the driver's phone reports the trip by itself, offline too, and the shipper's page follows", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const shipperCtx = await browser.newContext(phone);
  const driverCtx = await browser.newContext({
    ...phone,
    geolocation: { ...along(0), accuracy: 20 },
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
      title: `Teff, 12 t ${Date.now()}`,
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
      weight: 26000,
      budgetAmount: 800,
      budgetCurrency: "USD",
    },
  });
  expect(posted.status()).toBe(201);
  const loadId = (await posted.json()).id as number;
  const bid = await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 750, currency: "USD" } });
  expect((await shipper.request.post(`/api/bids/${(await bid.json()).bid.id}/accept`)).status()).toBe(200);

  // Before pickup the trip is not shared unless the driver says so.
  await driver.goto("/driver");
  const trip = driver.locator(`[data-testid="trip-row"][data-load-id="${loadId}"]`);
  const sharing = trip.getByTestId("trip-sharing");
  await expect(sharing).toHaveAttribute("data-sharing", "off");
  await expect(sharing).toContainText("Your location is shared with the shipper from pickup");
  await trip.getByRole("button", { name: "Mark picked up" }).click();
  await expect(sharing).toHaveAttribute("data-sharing", "on");
  await expect(sharing).toContainText("Sharing your location with the shipper while the app is open.");

  // The shipper's page, opened once.
  await shipper.goto(`/loads/${loadId}`);
  await expect(shipper.getByTestId("track-summary")).toBeVisible({ timeout: 20_000 });
  await expect.poll(async () => (await trackOf(driver, loadId)).positions.length, { timeout: 15_000 }).toBe(1);
  await expect(shipper.getByTestId("track-eta")).toBeVisible({ timeout: 15_000 });
  await expect(shipper.getByTestId("last-position")).toBeVisible();
  const firstRemaining = await shipper.getByTestId("track-remaining").textContent();
  const milesAtStart = (await trackOf(shipper, loadId)).remainingMiles ?? 0;

  // Moving more than 500 m: each fix is a point, sent at once while online.
  // (One move at a time: the browser may hand the page only the last of two quick changes.)
  await moveTo(driverCtx, 0.1);
  await expect.poll(async () => (await trackOf(driver, loadId)).positions.length, { timeout: 15_000 }).toBe(2);
  await moveTo(driverCtx, 0.2);
  await expect.poll(async () => (await trackOf(driver, loadId)).positions.length, { timeout: 15_000 }).toBe(3);
  // The server's figures moved (the phone reported new places, not the first one again)...
  const nowMiles = (await trackOf(shipper, loadId)).remainingMiles ?? 0;
  expect(nowMiles).toBeLessThan(milesAtStart);
  // ...and the shipper's page followed without a reload.
  await expect(shipper.getByTestId("track-remaining")).not.toHaveText(firstRemaining ?? "", { timeout: 15_000 });

  // A dead zone: the fixes are held on the phone, then sent once, when the network returns.
  await driverCtx.setOffline(true);
  await moveTo(driverCtx, 0.3);
  await expect(sharing.getByTestId("trip-sharing-held")).toHaveText("1 position waiting to be sent");
  await moveTo(driverCtx, 0.4);
  await expect(sharing.getByTestId("trip-sharing-held")).toHaveText("2 positions waiting to be sent");
  expect((await trackOf(shipper, loadId)).positions).toHaveLength(3);
  await driverCtx.setOffline(false);
  await expect.poll(async () => (await trackOf(shipper, loadId)).positions.length, { timeout: 30_000 }).toBe(5);
  await expect(sharing.getByTestId("trip-sharing-held")).toHaveCount(0);
  const track = await trackOf(shipper, loadId);
  expect(new Set(track.positions.map((p) => p.recordedAt)).size).toBe(5);
  expect(track.lastPosition?.latitude).toBeCloseTo(along(0.4).latitude, 4);

  // Paused, the phone keeps its position to itself: of the two places passed while paused, none reaches the track;
  // resumed, the trip goes on from where the phone is then.
  await sharing.getByRole("button", { name: "Pause location sharing for this trip" }).click();
  await expect(sharing).toContainText("Location sharing is paused");
  await moveTo(driverCtx, 0.5);
  await driver.reload();
  await moveTo(driverCtx, 0.6);
  const again = driver.locator(`[data-testid="trip-row"][data-load-id="${loadId}"]`).getByTestId("trip-sharing");
  await expect(again).toHaveAttribute("data-sharing", "off");
  await again.getByRole("button", { name: "Share my location for this trip" }).click();
  await expect.poll(async () => (await trackOf(shipper, loadId)).positions.length, { timeout: 15_000 }).toBe(6);
  const resumed = await trackOf(shipper, loadId);
  expect(resumed.lastPosition?.latitude).toBeCloseTo(along(0.6).latitude, 4);
  expect(resumed.positions.some((p) => Math.abs(p.latitude - along(0.5).latitude) < 1e-4)).toBe(false);

  await shipperCtx.close();
  await driverCtx.close();
});
