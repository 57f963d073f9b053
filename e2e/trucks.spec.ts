import { type APIRequestContext, expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// My trucks on a phone: a new driver reaches the page from the menu, sees the empty list, is told what the form lacks,
// posts a truck from Addis Ababa to anywhere with the place picker, then deletes it after confirming.
test.use({ viewport: { width: 390, height: 844 } });

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

test("a driver posts a truck with the place picker, sees it listed, and deletes it after confirming", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto("/signin?mode=register&returnTo=/driver");
  await signUp(page, { type: "Driver", first: "Tesfaye", last: "Alemu", email: uniqueEmail("tesfaye") });
  await expect(page).toHaveURL(/\/driver/);

  // Reached from the phone menu.
  await expect(page.getByTestId("user-menu")).toBeVisible();
  const menu = page.getByRole("navigation", { name: "Mobile" });
  // A tap while the signed-in header is still settling can be lost: tap again until the menu shows.
  await expect(async () => {
    if (!(await menu.isVisible())) await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await menu.getByRole("link", { name: "My trucks" }).click();
  await expect(page).toHaveURL(/\/trucks$/);
  await expect(page.getByRole("heading", { name: "My trucks" })).toBeVisible();
  await expect(page.getByTestId("no-trucks")).toContainText("No trucks posted yet");

  await page.getByTestId("post-truck").click();
  const dialog = page.getByTestId("truck-dialog");
  await dialog.getByTestId("truck-submit").click();
  await expect(dialog.getByLabel("Available at")).toBeFocused();
  await expect(dialog.locator("#truck-origin-error")).toHaveText("Required");
  await expect(dialog.locator("#truck-capacity-error")).toHaveText("Enter a capacity greater than 0");

  await dialog.getByLabel("Available at").fill("Addis Ab");
  await dialog
    .getByRole("option", { name: /^Addis Ababa/ })
    .first()
    .click();
  await expect(dialog.getByLabel("Available at")).toHaveValue("Addis Ababa, Ethiopia");
  await dialog.getByLabel("Free from").fill(isoDay(1));
  await dialog.getByLabel("Free until").fill(isoDay(3));
  await dialog.getByLabel("Equipment").selectOption("flatbed");
  await dialog.getByLabel(/^Capacity/).fill("20000");
  await dialog.getByLabel("Plate number (optional)").fill("AA 3-12345");
  await dialog.getByTestId("truck-submit").click();
  await expect(page.getByTestId("toast").getByText("Truck posted")).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("truck-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("truck-route")).toHaveText("Addis Ababa, Ethiopia → Anywhere");
  await expect(row.getByTestId("truck-details")).toContainText("Flatbed");
  await expect(row.getByTestId("truck-details")).toContainText("AA 3-12345");
  await expect(row.getByTestId("truck-details")).toContainText(/20,000 (kg|lb)/);
  await expect(row.getByTestId("truck-expired")).toHaveCount(0);
  await expect(page.getByTestId("no-trucks")).toHaveCount(0);

  // Delete asks first; Cancel keeps it, Delete removes it.
  await row.getByTestId("delete-truck").click();
  const confirm = page.getByTestId("delete-truck-dialog");
  await expect(confirm).toContainText("Delete this truck?");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toHaveCount(1);
  await row.getByTestId("delete-truck").click();
  await confirm.getByTestId("confirm-delete-truck").click();
  await expect(page.getByTestId("toast").getByText("Truck deleted")).toBeVisible();
  await expect(page.getByTestId("truck-row")).toHaveCount(0);
  await expect(page.getByTestId("no-trucks")).toBeVisible();
});

test("the list says so when it cannot be loaded, and loads on Try again", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/signin?mode=register&returnTo=/trucks");
  await signUp(page, { type: "Driver", first: "Almaz", last: "Kebede", email: uniqueEmail("almaz") });
  await expect(page).toHaveURL(/\/trucks/);
  await expect(page.getByTestId("no-trucks")).toBeVisible();
  let fail = true;
  await page.route(/\/trpc\/.*trucks\.mine/, async (route) => (fail ? route.abort() : route.fallback()));
  await page.reload();
  // The query retries a few times before it gives up.
  await expect(page.getByTestId("trucks-error")).toContainText("Your trucks could not be loaded.", { timeout: 20_000 });
  // The shared error card (components/ui/load-error.tsx): an alert, the failure's own message, a 44 px Try again.
  await expect(page.getByTestId("trucks-error")).toHaveAttribute("role", "alert");
  await expect(page.getByTestId("trucks-error").locator("[data-slot=load-error-message]")).not.toBeEmpty();
  const retry = page.getByTestId("trucks-error").getByRole("button", { name: "Try again" });
  expect((await retry.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  fail = false;
  await page.getByTestId("trucks-error").getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("no-trucks")).toBeVisible();
});

test("a driver offers a truck with the bid; the shipper sees it on the bid and on the awarded load", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const title = `Cement ${Date.now()}`;
  const register = async (request: APIRequestContext, userType: "driver" | "shipper", first: string) => {
    const res = await request.post("/api/auth/register", {
      data: { email: uniqueEmail(first), password: "strong-password-1", firstName: first, lastName: "Alemu", userType },
      timeout: 60_000,
    });
    expect(res.status()).toBe(201);
  };
  const shipperCtx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  const driverCtx = await browser.newContext({ viewport: { width: 390, height: 844 } });
  await register(shipperCtx.request, "shipper", "Meron");
  await register(driverCtx.request, "driver", "Girma");
  const posted = await shipperCtx.request.post("/api/loads", {
    data: {
      title,
      equipmentType: "flatbed",
      pickupAddress: "Kality Customs Terminal",
      pickupCity: "Addis Ababa",
      pickupCountry: "Ethiopia",
      pickupLatitude: 8.9,
      pickupLongitude: 38.77,
      deliveryAddress: "Adama Industrial Park",
      deliveryCity: "Adama",
      deliveryCountry: "Ethiopia",
      deliveryLatitude: 8.54,
      deliveryLongitude: 39.27,
      pickupDate: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      deliveryDate: new Date(Date.now() + 4 * 86_400_000).toISOString(),
      weight: 20000,
      budgetAmount: 1000,
      budgetCurrency: "USD",
    },
  });
  expect(posted.status()).toBe(201);
  const loadId = (await posted.json()).id as number;

  // With no truck posted, the bid form links to My trucks instead of offering a select.
  const driver = await driverCtx.newPage();
  const bidDialog = driver.getByTestId("bid-dialog");
  // A tap while the page is still starting can be lost: tap again until the form shows.
  const openBidForm = () =>
    expect(async () => {
      if (!(await bidDialog.isVisible())) await driver.getByTestId("quick-bid").click();
      await expect(bidDialog).toBeVisible({ timeout: 2_000 });
    }).toPass();
  await driver.goto(`/loads/${loadId}`);
  await openBidForm();
  // The form asks for the driver's trucks as it opens; a loaded machine can take a while to answer.
  await expect(bidDialog.getByTestId("bid-truck-none").getByRole("link", { name: "Add a truck" })).toHaveAttribute(
    "href",
    "/trucks",
    { timeout: 30_000 },
  );
  await expect(bidDialog.getByLabel("Truck (optional)")).toHaveCount(0);
  await driver.keyboard.press("Escape");
  await expect(bidDialog).toBeHidden();

  // With a truck posted, the driver names it in the bid.
  const truck = await driverCtx.request.post("/api/trucks", {
    data: {
      originName: "Addis Ababa, Ethiopia",
      originLatitude: 8.9,
      originLongitude: 38.77,
      availableFrom: isoDay(1),
      availableTo: isoDay(5),
      equipmentType: "flatbed",
      capacityLbs: 20000,
      plate: "AA 3-12345",
    },
  });
  expect(truck.status()).toBe(201);
  await driver.reload();
  await openBidForm();
  const select = bidDialog.getByLabel("Truck (optional)");
  await expect(select).toHaveValue("", { timeout: 30_000 });
  await select.selectOption({ label: (await select.locator("option", { hasText: "AA 3-12345" }).textContent())! });
  await bidDialog.getByLabel("Bid amount").fill("900");
  await bidDialog.getByRole("button", { name: "Place Bid" }).click();
  await expect(driver.getByTestId("toast")).toContainText("Bid Placed");

  // The shipper sees the truck on the bid, accepts it, and finds it on the driver's card of the awarded load.
  const shipper = await shipperCtx.newPage();
  await shipper.goto("/shipper");
  await shipper.getByTestId("my-load").filter({ hasText: title }).getByTestId("view-bids").click();
  const bidRow = shipper.getByTestId("bid-row").filter({ hasText: "Girma Alemu" });
  const truckLine = /Flatbed · (9,072 kg|20,000 lbs) · AA 3-12345/;
  await expect(bidRow.getByTestId("bid-truck")).toContainText(truckLine, { timeout: 30_000 });
  await bidRow.getByTestId("accept-bid").click();
  await bidRow.getByTestId("confirm-accept-bid").click();
  await expect(bidRow.getByTestId("bid-status")).toHaveText("Accepted");
  await shipper.goto(`/loads/${loadId}`);
  await expect(shipper.getByTestId("trip-other-party").getByTestId("bid-truck")).toContainText(truckLine, {
    timeout: 30_000,
  });
  await shipperCtx.close();
  await driverCtx.close();
});
