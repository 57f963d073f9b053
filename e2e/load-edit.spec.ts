import { expect, type Page, test } from "@playwright/test";
import { postAddisLoad, signUp, uniqueEmail } from "./helpers";

const toast = (page: Page) => page.getByTestId("toast");
const pad = (n: number) => String(n).padStart(2, "0");
/** A date-time as the browser's picker takes it (local time, to the minute). */
const localInput = (d: Date) =>
  `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;

test("a shipper edits a posted load's weight and pickup date; the driver who bid is told and sees the new weight", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Teff sacks ${Date.now()}`;

  const shipperCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const shipper = await shipperCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Meron", last: "Tadesse", email: uniqueEmail("meron") });
  await expect(shipper.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible();
  expect((await shipper.request.put("/api/user/units", { data: { units: "metric" } })).status()).toBe(200);
  const loadId = await postAddisLoad(shipper, title);

  const driverCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const driver = await driverCtx.newPage();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Girma", last: "Bekele", email: uniqueEmail("girma") });
  await expect(driver.getByRole("heading", { name: "Driver Dashboard" })).toBeVisible();
  expect((await driver.request.put("/api/user/units", { data: { units: "metric" } })).status()).toBe(200);
  expect(
    (await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 9000, currency: "ETB" } })).status(),
  ).toBe(201);

  // The driver's load page shows the posted 30,000 lb (13.6 t).
  await driver.goto(`/loads/${loadId}`);
  await expect(driver.getByText("13.6 t").first()).toBeVisible();
  // A driver is not offered the edit.
  await expect(driver.getByTestId("edit-load")).toHaveCount(0);

  // The shipper opens the load: Edit load, big enough for a thumb on a phone.
  await shipper.setViewportSize({ width: 390, height: 844 });
  await shipper.goto(`/loads/${loadId}`);
  const edit = shipper.getByTestId("edit-load");
  expect((await edit.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  await shipper.setViewportSize({ width: 1440, height: 900 });

  await edit.click();
  const dialog = shipper.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Edit load" })).toBeVisible();
  // The form starts from the load.
  await expect(dialog.getByLabel("Title")).toHaveValue(title);
  const weight = dialog.getByLabel("Weight (kg)");
  await expect(weight).toHaveValue("13607.8");
  // A bad weight is shown beside the field and nothing is sent.
  await weight.fill("0");
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(dialog.getByText("Enter a weight greater than 0")).toBeVisible();

  const pickup = new Date(Date.now() + 2 * 24 * 60 * 60 * 1000);
  pickup.setHours(10, 0, 0, 0);
  await weight.fill("12500");
  await dialog.getByLabel("Pickup date and time").fill(localInput(pickup));
  await dialog.getByRole("button", { name: "Save changes" }).click();
  await expect(toast(shipper)).toContainText("Load updated");
  await expect(dialog).toHaveCount(0);
  // The page shows the new weight at once.
  await expect(shipper.getByText("12.5 t").first()).toBeVisible();
  const saved = await (await shipper.request.get(`/api/loads/${loadId}`)).json();
  expect(saved.pickupDate).toBe(pickup.toISOString());

  // The driver's bell names what changed; the load page shows the new weight, the bid still pending.
  await driver.reload();
  await driver.getByTestId("notification-bell").click();
  const item = driver.getByTestId("notification-item").filter({ hasText: "Load details changed" });
  await expect(item).toHaveCount(1);
  await expect(item).toContainText(`The shipper changed ${title}: pickup date, weight.`);
  await item.click();
  await expect(driver).toHaveURL(new RegExp(`/loads/${loadId}$`));
  await expect(driver.getByText("12.5 t").first()).toBeVisible();
  const bids = await (await driver.request.get("/api/bids/driver")).json();
  expect(JSON.stringify(bids)).toContain('"status":"pending"');

  await shipperCtx.close();
  await driverCtx.close();
});
