import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

const DAY = 24 * 3600_000;
const load = () => ({
  title: `Teff, 12 t ${Date.now()}`,
  equipmentType: "dry_van",
  pickupAddress: "Merkato",
  pickupCity: "Addis Ababa",
  pickupCountry: "Ethiopia",
  pickupLatitude: 9.03,
  pickupLongitude: 38.74,
  deliveryAddress: "Kebele 04",
  deliveryCity: "Hawassa",
  deliveryCountry: "Ethiopia",
  deliveryLatitude: 7.06,
  deliveryLongitude: 38.48,
  pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
  deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
  weight: 26000,
  budgetAmount: 800,
  budgetCurrency: "USD",
});

// Two people in two browsers; neither page is reloaded: the bell and the open conversation change as the other acts.
test("live: a bid rings the shipper's bell, a message appears in the driver's open conversation", async ({
  browser,
}) => {
  const shipperCtx = await browser.newContext();
  const driverCtx = await browser.newContext();
  const shipper = await shipperCtx.newPage();
  const driver = await driverCtx.newPage();

  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Hirut", last: "Bekele", email: uniqueEmail("hirut") });
  await expect(shipper.getByTestId("user-menu")).toBeVisible();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Kebede", last: "Tola", email: uniqueEmail("kebede") });
  await expect(driver.getByTestId("user-menu")).toBeVisible();
  const posted = await shipper.request.post("/api/loads", { data: load() });
  expect(posted.status()).toBe(201);
  const loadId = (await posted.json()).id as number;

  const bell = shipper.getByTestId("notification-bell");
  await expect(bell).toHaveAttribute("aria-label", "Notifications");
  await expect(shipper.getByTestId("notification-count")).toHaveCount(0);

  expect(
    (await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 750, currency: "USD" } })).status(),
  ).toBe(201);
  await expect(shipper.getByTestId("notification-count")).toHaveText("1");
  await expect(bell).toHaveAttribute("aria-label", "1 unread notification");
  await bell.click();
  const item = shipper.getByTestId("notification-item").first();
  await expect(item).toContainText("New bid on your load");
  await expect(item).toContainText("Kebede placed a bid on");
  await item.click();
  await expect(shipper).toHaveURL(new RegExp(`/loads/${loadId}$`));
  await expect(shipper.getByTestId("notification-count")).toHaveCount(0);

  // The driver opens the conversation from My Bids; the shipper writes; the line appears without a reload.
  await driver.reload();
  await driver.getByRole("button", { name: "Message shipper" }).first().click();
  const thread = driver.getByTestId("message-thread");
  await expect(thread).toBeVisible();
  const driverId = (await (await driver.request.get("/api/auth/user")).json()).user.id as number;
  const sent = await shipper.request.post(`/api/loads/${loadId}/messages`, {
    data: { body: "Can you load tomorrow at 8?", driverId },
  });
  expect(sent.status()).toBe(201);
  await expect(thread.getByText("Can you load tomorrow at 8?")).toBeVisible();
  await expect(driver.getByTestId("notification-count")).toHaveText("1");

  await shipperCtx.close();
  await driverCtx.close();
});
