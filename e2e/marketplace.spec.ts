import { type Browser, type BrowserContext, expect, type Page, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// Kality, Addis Ababa: where the load is picked up and where the driver stands.
const PICKUP = { latitude: 8.9, longitude: 38.77 };

const localInput = (d: Date) => {
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
};

/** Nothing leaves the machine: any request that is not to the app is refused, and noted. */
const blocked: string[] = [];
const offlineContext = async (browser: Browser, options: Parameters<Browser["newContext"]>[0] = {}) => {
  const ctx = await browser.newContext(options);
  await ctx.route(/^https?:\/\/(?!localhost[:/])/, (route) => {
    blocked.push(route.request().url());
    return route.abort();
  });
  return ctx;
};

const pickPlace = async (page: Page, fieldId: string, typed: string, suggestion: RegExp) => {
  await page.locator(`#${fieldId}`).fill(typed);
  await page.getByRole("option", { name: suggestion }).first().click();
};

const toast = (page: Page) => page.getByTestId("toast");

test("the whole story: post, find nearby, bid, award, pick up, deliver, complete, rate", async ({ browser }) => {
  test.setTimeout(120_000);
  const title = `Teff flour ${Date.now()}`;

  // The shipper posts a load, picking both cities from the gazetteer.
  const shipperCtx: BrowserContext = await offlineContext(browser);
  const shipper = await shipperCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Meron", last: "Tadesse", email: uniqueEmail("meron") });
  await expect(shipper.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible();
  await expect(shipper.getByTestId("no-loads")).toBeVisible();
  await shipper.getByTestId("post-load").click();
  const dialog = shipper.getByRole("dialog");
  await dialog.getByLabel("Title").fill(title);
  await dialog.getByLabel("Equipment").selectOption("dry_van");
  await pickPlace(shipper, "pickup-city", "Addis Ab", /Addis Ababa.*Ethiopia/);
  await expect(shipper.locator("#pickup-country")).toHaveValue("Ethiopia");
  await expect(shipper.locator("#pickup-lat")).not.toHaveValue("");
  // The picker filled the coordinates; they are folded under "Exact position" and stay editable there: move the
  // pickup point to the terminal itself.
  await expect(shipper.locator("#pickup-lat")).toBeHidden();
  await shipper.getByTestId("pickup-exact-position").locator("summary").click();
  await shipper.locator("#pickup-lat").fill(String(PICKUP.latitude));
  await shipper.locator("#pickup-lng").fill(String(PICKUP.longitude));
  await shipper.locator("#pickup-address").fill("Kality Customs Terminal");
  await pickPlace(shipper, "delivery-city", "Adama", /Adama.*Ethiopia/);
  await shipper.locator("#delivery-address").fill("Adama Industrial Park");
  const pickupAt = new Date(Date.now() + 26 * 60 * 60 * 1000);
  await dialog.getByLabel("Pickup date and time").fill(localInput(pickupAt));
  await dialog.getByLabel("Delivery date and time").fill(localInput(new Date(pickupAt.getTime() + 8 * 60 * 60 * 1000)));
  await dialog.getByLabel("Weight (lbs)").fill("30000");
  await dialog.getByLabel("Budget", { exact: true }).fill("1000");
  await dialog.getByRole("button", { name: "Post Load" }).click();
  await expect(toast(shipper)).toContainText("Load Created");
  const myLoad = shipper.getByTestId("my-load").filter({ hasText: title });
  await expect(myLoad).toContainText("Posted");
  await expect(shipper.getByTestId("stat-active-value")).toHaveText("1");

  // A driver at the terminal shares the location and sees the load with its distance.
  const driverCtx = await offlineContext(browser, { geolocation: PICKUP, permissions: ["geolocation"] });
  const driver = await driverCtx.newPage();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Girma", last: "Bekele", email: uniqueEmail("girma") });
  await expect(driver.getByRole("heading", { name: "Driver Dashboard" })).toBeVisible();
  await driver.getByTestId("update-location").click();
  await expect(toast(driver)).toContainText("Location Updated");
  await expect(driver.getByTestId("coordinates")).toContainText("8.90000, 38.77000");
  const card = driver.getByTestId("nearby-loads").getByTestId("load-card").filter({ hasText: title });
  await expect(card).toBeVisible();
  await expect(card.getByTestId("distance-badge")).toHaveAttribute("data-tone", "near");
  await expect(card.getByTestId("distance-badge")).toContainText("0 mi to pickup");
  await expect(card.getByTestId("source-badge")).toHaveText("MYTESS");

  // The driver bids.
  await card.getByTestId("bid-button").click();
  const bidDialog = driver.getByTestId("bid-dialog");
  await bidDialog.getByLabel("Bid amount").fill("900");
  await bidDialog.getByRole("button", { name: "Place Bid" }).click();
  await expect(toast(driver)).toContainText("Bid Placed");
  await expect(bidDialog).toBeHidden();
  await expect(driver.getByTestId("my-bid").filter({ hasText: title })).toContainText("Pending");
  await expect(driver.getByTestId("stat-active-bids-value")).toHaveText("1");

  // The shipper sees the bid and accepts it.
  await shipper.reload();
  await myLoad.getByTestId("view-bids").click();
  const bidRow = shipper.getByTestId("bid-row").filter({ hasText: "Girma Bekele" });
  await expect(bidRow).toContainText("Closest");
  await expect(bidRow.getByTestId("bid-amount")).toHaveText("$900.00");
  await bidRow.getByTestId("accept-bid").click();
  // Awarding asks first, saying what will happen.
  await expect(bidRow.getByTestId("confirm-award")).toContainText("This cannot be undone.");
  await bidRow.getByTestId("confirm-accept-bid").click();
  await expect(toast(shipper)).toContainText("Bid accepted");
  await expect(bidRow.getByTestId("bid-status")).toHaveText("Accepted");
  await shipper.keyboard.press("Escape");
  await expect(myLoad.getByTestId("load-status")).toHaveText("Assigned");
  await expect(myLoad).toContainText("Driver: Girma Bekele");

  // The driver runs the trip.
  await driver.reload();
  const trip = driver.getByTestId("trip-row").filter({ hasText: title });
  await expect(trip.getByTestId("load-status")).toHaveText("Assigned");
  await trip.getByRole("button", { name: "Mark picked up" }).click();
  await expect(trip.getByTestId("load-status")).toHaveText("In transit");
  await driverCtx.setGeolocation({ latitude: 8.7, longitude: 39.0 });
  await driver.getByTestId("update-location").click();
  await expect(toast(driver)).toContainText("Location Updated");
  // The receiver signs on the driver's screen.
  await trip.getByRole("button", { name: "Record delivery" }).click();
  const pod = driver.getByTestId("pod-dialog");
  const pad = (await pod.getByTestId("signature-pad").boundingBox())!;
  await driver.mouse.move(pad.x + 20, pad.y + 40);
  await driver.mouse.down();
  await driver.mouse.move(pad.x + 120, pad.y + 90, { steps: 8 });
  await driver.mouse.move(pad.x + 220, pad.y + 30, { steps: 8 });
  await driver.mouse.up();
  await pod.getByLabel("Receiver's name").fill("Tigist Alemu");
  await pod.getByRole("button", { name: "Continue" }).click();
  await expect(pod).toContainText("Record the delivery to Tigist Alemu with their signature?");
  await pod.getByRole("button", { name: "Send proof of delivery" }).click();
  await expect(toast(driver)).toContainText("Delivery recorded");
  await expect(trip.getByTestId("load-status")).toHaveText("Delivered");

  // The shipper saw the last position, confirms the delivery and rates the driver.
  await shipper.reload();
  // As a place, not coordinates: 8.7, 39.0 is just south of Bishoftu.
  await expect(myLoad.getByTestId("last-position")).toContainText("4 mi south of Bishoftu");
  await myLoad.getByRole("button", { name: "Review delivery" }).click();
  const review = shipper.getByTestId("pod-review");
  await expect(review.getByTestId("pod-receiver")).toHaveText("Tigist Alemu");
  await expect(review.getByTestId("pod-signature")).toBeVisible();
  await review.getByRole("button", { name: "Accept delivery" }).click();
  // Asked once more: accepting completes the load and cannot be undone.
  await expect(review.getByTestId("accept-delivery-question")).toContainText("cannot be undone");
  await review.getByTestId("accept-delivery-confirm").click();
  await expect(myLoad.getByTestId("load-status")).toHaveText("Completed");
  await myLoad.getByRole("button", { name: "Rate the driver" }).click();
  await shipper.getByRole("radio", { name: "5 stars" }).click();
  await shipper.getByRole("button", { name: "Submit rating" }).click();
  await expect(toast(shipper)).toContainText("Rating saved");
  await expect(myLoad.getByRole("button", { name: "Rate the driver" })).toBeHidden();

  // The driver rates the shipper; both dashboards show the new figures.
  await driver.reload();
  await driver.getByTestId("completed-trips-toggle").click();
  await trip.getByRole("button", { name: "Rate the shipper" }).click();
  await driver.getByRole("radio", { name: "4 stars" }).click();
  await driver.getByRole("button", { name: "Submit rating" }).click();
  await expect(toast(driver)).toContainText("Rating saved");
  await expect(driver.getByTestId("stat-trips-value")).toHaveText("1");
  await expect(driver.getByTestId("stat-rating-value")).toHaveText("5");
  await expect(driver.getByTestId("stat-earnings-value")).toHaveText("$900.00");
  await expect(driver.getByTestId("stat-active-bids-value")).toHaveText("0");
  await shipper.reload();
  await expect(shipper.getByTestId("stat-completed-value")).toHaveText("1");
  await expect(shipper.getByTestId("stat-active-value")).toHaveText("0");
  await expect(shipper.getByTestId("stat-savings-value")).toHaveText("10%");

  // Home shows the user's own figures and what happened.
  await driver.goto("/");
  await expect(driver.getByTestId("home-greeting")).toHaveText("Welcome back, Girma!");
  const feed = driver.getByTestId("activity-feed");
  await expect(feed.locator('[data-kind="load_completed"]')).toContainText(title);
  await expect(feed.locator('[data-kind="rated"]')).toContainText("Meron Tadesse rated you");
  await shipperCtx.close();
  await driverCtx.close();
});

test("the load board: filters, sort, quick bid for drivers only, sharing, highlight", async ({ browser }) => {
  const ctx = await offlineContext(browser, {
    geolocation: PICKUP,
    permissions: ["geolocation", "clipboard-read", "clipboard-write"],
  });
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Lidya", last: "Haile", email: uniqueEmail("lidya") });
  await expect(page.getByRole("heading", { name: "Load Board" })).toBeVisible();
  await expect(page.getByTestId("load-row").first()).toBeVisible();
  const total = Number(await page.getByTestId("stat-total-value").textContent());
  expect(total).toBeGreaterThan(100);

  await page.getByRole("button", { name: "Use my location" }).click();
  await expect(page.getByTestId("origin-note")).toContainText("current position");
  await expect(page.getByTestId("load-row").first().getByTestId("distance-badge")).toBeVisible();
  const nearTotal = Number(await page.getByTestId("stat-total-value").textContent());
  expect(nearTotal).toBeLessThan(total);
  await page.getByLabel("Radius").selectOption("500");
  await expect
    .poll(async () => Number(await page.getByTestId("stat-total-value").textContent()))
    .toBeGreaterThan(nearTotal);

  await page.getByTestId("equipment-choice").locator("summary").click();
  await page.getByTestId("equipment-choice").getByRole("checkbox", { name: "Refrigerated" }).check();
  await page.getByTestId("equipment-choice").locator("summary").click();
  await expect(page.getByTestId("load-row").first()).toContainText("Refrigerated");
  await page.getByTestId("sort-select").selectOption("rate");
  await expect(page.getByTestId("load-row").first().getByTestId("quick-bid")).toBeVisible();

  // Copy a load's link, then open the shared link: the board highlights it.
  // Pin one row by its id: the list may still re-sort under a plain first().
  const id = await page.getByTestId("load-row").first().getAttribute("data-load-id");
  const first = page.locator(`[data-testid="load-row"][data-load-id="${id}"]`).first();
  await first.getByTestId("share-button").click();
  await page.getByRole("menuitem", { name: "Copy link" }).click();
  await expect(page.getByTestId("toast")).toContainText("Link Copied!");
  expect(await page.evaluate(() => navigator.clipboard.readText())).toMatch(new RegExp(`/loads/${id}\\?lang=en$`));
  const popup = page.waitForEvent("popup");
  await first.getByTestId("share-button").click();
  await page.getByRole("menuitem", { name: "WhatsApp" }).click();
  await popup;
  await expect.poll(() => blocked.find((u) => u.startsWith("https://wa.me/?text="))).toBeTruthy();
  await expect(page.getByTestId("toast")).toContainText("Content shared on WhatsApp");
  const log = await page.evaluate(() => JSON.parse(localStorage.getItem("socialEngagementLog") ?? "[]"));
  expect(log.map((e: { platform: string }) => e.platform)).toEqual(["copy", "WhatsApp"]);

  await page.goto(`/loads?highlight=${id}`);
  const highlighted = page.locator(`#load-${id}`);
  await expect(highlighted).toBeVisible();
  await expect(highlighted).toHaveClass(/ring-4/);

  // A signed-out visitor gets the public preview with a sign-in call to action.
  const visitor = await (await offlineContext(browser)).newPage();
  await visitor.goto(`/loads/${id}`);
  await expect(visitor.getByTestId("load-preview")).toBeVisible();
  await expect(visitor.getByRole("link", { name: "Sign in to bid" })).toHaveAttribute(
    "href",
    `/api/login?returnTo=%2Floads%3Fhighlight%3D${id}`,
  );
  await ctx.close();
});

test("shippers see the board without Quick Bid; a missing shared load says so", async ({ browser }) => {
  const ctx = await offlineContext(browser);
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Shipper", first: "Sara", last: "Mekonnen", email: uniqueEmail("sara") });
  await expect(page.getByTestId("load-row").first()).toBeVisible();
  await expect(page.getByTestId("quick-bid")).toHaveCount(0);
  await page.goto("/loads/999999");
  await expect(page.getByTestId("load-missing")).toBeVisible();
  await page.goto("/driver");
  await expect(page.getByTestId("wrong-role")).toBeVisible();
  await ctx.close();
});

test("a bid after the session ended shows Unauthorized and goes to sign in", async ({ browser }) => {
  const ctx = await offlineContext(browser);
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Yonas", last: "Tesfaye", email: uniqueEmail("yonas") });
  const row = page.getByTestId("load-row").first();
  await expect(row).toBeVisible();
  // The session ends elsewhere (signed out on another device, or expired).
  await ctx.clearCookies();
  await row.getByTestId("quick-bid").click();
  await page.getByTestId("bid-dialog").getByLabel("Bid amount").fill("500");
  await page.getByTestId("bid-dialog").getByRole("button", { name: "Place Bid" }).click();
  // A bid far from the budget is asked about once more ("Are you sure?"); this one is meant.
  await page.getByTestId("bid-confirm-send").click();
  await expect(page.getByTestId("toast")).toContainText("You are logged out. Logging in again...");
  await expect(page).toHaveURL(/\/signin\?returnTo=%2Floads/);
  await ctx.close();
});
