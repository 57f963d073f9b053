import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

const DAY = 24 * 3600_000;
const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };

// The shipper shares a trip's tracking link from the load page on a phone; the consignee opens it signed out, in
// their own language, and sees the stage, the towns and the ETA, and nothing of the parties or the price. Turned
// off, the link says so.
test("the consignee's tracking link: signed out, in the visitor's language, no personal data, revocable", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const shipperCtx = await browser.newContext(phone);
  const driverCtx = await browser.newContext(phone);
  const shipper = await shipperCtx.newPage();
  const driver = await driverCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Hirut", last: "Bekele", email: uniqueEmail("hirut") });
  await expect(shipper.getByTestId("user-menu")).toBeVisible();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Kebede", last: "Tola", email: uniqueEmail("kebede") });
  await expect(driver.getByTestId("user-menu")).toBeVisible();

  const title = `Teff, 12 t ${Date.now()}`;
  const posted = await shipper.request.post("/api/loads", {
    data: {
      title,
      equipmentType: "dry_van",
      pickupAddress: "Merkato Block 7",
      pickupCity: "Addis Ababa",
      pickupCountry: "Ethiopia",
      pickupLatitude: 9.03,
      pickupLongitude: 38.74,
      deliveryAddress: "Adama Industrial Park Gate 3",
      deliveryCity: "Adama",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: 8.54,
      deliveryLongitude: 39.27,
      pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
      deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
      weight: 26000,
      budgetAmount: 812,
      budgetCurrency: "USD",
    },
  });
  expect(posted.status()).toBe(201);
  const loadId = (await posted.json()).id as number;
  const bid = await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 777, currency: "USD" } });
  expect((await shipper.request.post(`/api/bids/${(await bid.json()).bid.id}/accept`)).status()).toBe(200);
  expect((await driver.request.post(`/api/loads/${loadId}/pickup`)).status()).toBe(200);
  // Points from the last seconds of the trip (the award was a moment ago; a phone's clock may be a little ahead).
  const now = Date.now();
  const stored = await driver.request.post(`/api/loads/${loadId}/positions`, {
    data: {
      positions: [
        { latitude: 9.0, longitude: 38.78, recordedAt: new Date(now + 10_000).toISOString() },
        { latitude: 8.95, longitude: 38.85, recordedAt: new Date(now + 20_000).toISOString() },
        { latitude: 8.9, longitude: 38.92, recordedAt: new Date(now + 30_000).toISOString() },
      ],
    },
  });
  expect((await stored.json()).stored).toBe(3);

  // The shipper makes the link on the load page.
  await shipper.goto(`/loads/${loadId}`);
  const card = shipper.getByTestId("tracking-link");
  await expect(card).toBeVisible({ timeout: 20_000 });
  await card.getByRole("button", { name: "Share tracking link" }).click();
  const field = card.getByLabel("Tracking link");
  await expect(field).toHaveValue(/\/track\/[A-Za-z0-9_-]{43}$/);
  const url = await field.inputValue();
  await expect(card.getByTestId("tracking-link-expiry")).toHaveText("It works until 7 days after the delivery.");
  const copyButton = card.getByRole("button", { name: "Copy" });
  expect((await copyButton.boundingBox())!.height).toBeGreaterThanOrEqual(44);

  // A consignee's phone in Amharic, never signed in.
  const visitorCtx = await browser.newContext({ ...phone, locale: "am-ET" });
  const visitor = await visitorCtx.newPage();
  await visitor.goto(url);
  const trip = visitor.getByTestId("shared-trip");
  await expect(trip).toBeVisible({ timeout: 20_000 });
  await expect(visitor.getByTestId("shared-trip-stage")).toHaveText("በመንገድ ላይ");
  await expect(visitor.getByTestId("shared-trip-route")).toContainText("Addis Ababa");
  await expect(visitor.getByTestId("shared-trip-route")).toContainText("Adama");
  await expect(visitor.getByTestId("shared-trip-eta")).toContainText("የሚጠበቀው");
  await expect(visitor.getByTestId("shared-trip-last")).toBeVisible();
  await expect(visitor.getByTestId("user-menu")).toHaveCount(0);
  const text = (await visitor.locator("main").textContent()) ?? "";
  for (const secret of ["Hirut", "Bekele", "Kebede", "Tola", title, "Merkato Block 7", "Gate 3", "812", "777"])
    expect(text).not.toContain(secret);
  // Nothing sideways on a phone.
  expect(await visitor.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // Turned off: the visitor's next look says the link no longer works, in Amharic.
  await card.getByRole("button", { name: "Turn off link" }).click();
  await expect(card.getByRole("button", { name: "Share tracking link" })).toBeVisible();
  await visitor.reload();
  await expect(visitor.getByTestId("shared-trip-gone")).toContainText("ይህ የክትትል ሊንክ ከእንግዲህ አይሠራም");

  await Promise.all([shipperCtx.close(), driverCtx.close(), visitorCtx.close()]);
});
