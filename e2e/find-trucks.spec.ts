import { expect, type Page, test } from "@playwright/test";
import { postAddisLoad, signUp, uniqueEmail } from "./helpers";

// Trucks and invitations: a driver posts their truck on a phone; a shipper at a desk opens "Find trucks for this load"
// on their open load (the lane, equipment and day prefilled, all in the address), invites the driver, and is told when
// they try again; the driver sees the invitation on the load's page and bids from it.

const DAY = 24 * 60 * 60 * 1000;
const toast = (page: Page) => page.getByTestId("toast");
const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY).toISOString().slice(0, 10);

const postLoad = (page: Page, title: string) => postAddisLoad(page, title, { amount: 1000, currency: "USD" });

test("a driver posts a truck, a shipper finds it from a load and invites, the driver sees the invitation and bids", async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const title = `Cement bags ${Date.now()}`;
  // A last name of its own, so this run's driver is told apart from earlier runs' in the results.
  const last = `Alemu${Date.now().toString(36)}`;
  const driverName = `Tesfaye ${last.charAt(0)}.`;

  // The driver posts a flatbed free in Addis Ababa for the next days.
  const driverCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const driver = await driverCtx.newPage();
  await driver.goto("/signin?mode=register&returnTo=/trucks");
  await signUp(driver, { type: "Driver", first: "Tesfaye", last, email: uniqueEmail("tesfaye") });
  // The first page of a run waits for the app's code on a cold server.
  await expect(driver.getByTestId("no-trucks")).toBeVisible({ timeout: 30_000 });
  await driver.getByTestId("post-truck").click();
  const truckDialog = driver.getByTestId("truck-dialog");
  await truckDialog.getByLabel("Available at").fill("Addis Ab");
  await truckDialog
    .getByRole("option", { name: /^Addis Ababa/ })
    .first()
    .click();
  await truckDialog.getByLabel("Free from").fill(isoDay(1));
  await truckDialog.getByLabel("Free until").fill(isoDay(5));
  await truckDialog.getByLabel("Equipment").selectOption("flatbed");
  await truckDialog.getByLabel(/^Capacity/).fill("20000");
  await truckDialog.getByTestId("truck-submit").click();
  await expect(toast(driver).getByText("Truck posted")).toBeVisible();

  // The shipper opens the search from their open load: the lane, equipment and pickup day come with it.
  const shipperCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const shipper = await shipperCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Meron", last: "Tadesse", email: uniqueEmail("meron") });
  await expect(shipper.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible();
  const loadId = await postLoad(shipper, title);
  await shipper.reload();
  const myLoad = shipper.getByTestId("my-load").filter({ hasText: title });
  await myLoad.getByRole("link", { name: "Find trucks for this load" }).click();
  await expect(shipper).toHaveURL(new RegExp(`/find-trucks\\?.*load=${loadId}`));
  await expect(shipper.getByRole("heading", { name: "Find trucks" })).toBeVisible();
  await expect(shipper.getByLabel("Origin")).toHaveValue("Addis Ababa, Ethiopia");
  await expect(shipper.getByLabel("Destination", { exact: true })).toHaveValue("Adama, Ethiopia");
  await expect(shipper.getByLabel("Free from")).toHaveValue(isoDay(3));
  await expect(shipper.locator("#f-equipment-summary")).toHaveText("Flatbed");

  // The truck is a dense row: where it is free and would go, when, equipment, capacity, the driver.
  const row = shipper.getByTestId("truck-result").filter({ hasText: driverName });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("truck-lane")).toHaveText("Addis Ababa, Ethiopia → Anywhere");
  await expect(row).toContainText("Flatbed");
  await expect(row).toContainText(/20,000 (kg|lb)/);
  await expect(row.getByTestId("truck-driver")).toContainText("New");

  // Invite: the load the shipper came from is chosen already.
  await row.getByTestId("invite-to-bid").click();
  const invite = shipper.getByTestId("invite-dialog");
  await expect(invite.getByRole("heading", { name: `Invite ${driverName} to bid` })).toBeVisible();
  await expect(invite.getByLabel("Load")).toHaveValue(String(loadId));
  await invite.getByTestId("send-invitation").click();
  await expect(toast(shipper).getByText("Invitation sent")).toBeVisible();
  await expect(invite).toBeHidden();
  await expect(row.getByTestId("invited")).toHaveText("Invited");
  await expect(row.getByTestId("invited")).toBeDisabled();

  // A reload keeps the search (it lives in the address) and the invitation.
  await shipper.reload();
  await expect(shipper.getByLabel("Origin")).toHaveValue("Addis Ababa, Ethiopia");
  await expect(row.getByTestId("invited")).toHaveText("Invited");

  // From the menu, without a load: the truck says Invited, and inviting again to the same load is refused, saying why.
  await shipper.goto("/find-trucks");
  await expect(shipper.getByTestId("trucks-pick-origin")).toBeVisible();
  await shipper.getByLabel("Origin").fill("Addis Ab");
  await shipper
    .getByRole("option", { name: /^Addis Ababa/ })
    .first()
    .click();
  await expect(shipper).toHaveURL(/latitude=/);
  await expect(row.getByTestId("invite-to-bid")).toHaveText("Invited");
  await row.getByTestId("invite-to-bid").click();
  await expect(invite.getByLabel("Load")).toHaveValue(String(loadId));
  await expect(invite.getByLabel("Load").locator("option:checked")).toContainText("(invited)");
  await invite.getByTestId("send-invitation").click();
  await expect(invite.getByTestId("invite-error")).toHaveText(
    "You already invited this truck's driver to bid on this load",
  );
  await invite.getByRole("button", { name: "Cancel" }).click();

  // An equipment no truck here has: the empty state says what to try.
  await shipper.getByTestId("equipment-choice").locator("summary").click();
  await shipper.getByRole("checkbox", { name: "Refrigerated" }).check();
  await expect(shipper.getByTestId("no-trucks-found")).toContainText("No trucks match");
  await expect(shipper).toHaveURL(/equipmentType=refrigerated/);

  // The driver sees who invited them on the load's page and bids from the invitation.
  await driver.goto(`/loads/${loadId}`);
  const invitation = driver.getByTestId("truck-invitation");
  await expect(invitation).toContainText("Meron T. invited you to bid");
  const bidButton = invitation.getByTestId("invitation-bid");
  expect((await bidButton.boundingBox())?.height).toBeGreaterThanOrEqual(44);
  // One way to bid: the invitation's button, not a second one on the load's card.
  await expect(driver.getByRole("button", { name: "Place Bid" })).toHaveCount(1);
  await expect(driver.getByTestId("quick-bid")).toHaveCount(0);
  await bidButton.click();
  const bid = driver.getByTestId("bid-dialog");
  await bid.getByLabel("Bid amount").fill("950");
  await bid.getByRole("button", { name: "Place Bid" }).click();
  await expect(toast(driver).getByText("Bid Placed")).toBeVisible();
  await expect(invitation.getByTestId("your-bid")).toContainText("· pending");
  await expect(invitation.getByTestId("invitation-bid")).toHaveText("Change your bid");
  await expect(driver.getByRole("button", { name: "Change your bid" })).toHaveCount(1);

  // "Invited" on the load's card, the phone's board row and the dashboard's nearby card; at a desk, the table's row.
  await expect(driver.getByTestId("load-card").getByTestId("invited-badge")).toHaveText("Invited");
  // The board's lane: Addis Ababa → Adama, picked up on the load's day.
  const board = `/loads?origin=Addis%20Ababa&latitude=8.9&longitude=38.77&radius=50&destination=Adama&destinationLatitude=8.54&destinationLongitude=39.27&destinationRadius=25&pickupFrom=${isoDay(2)}&pickupTo=${isoDay(4)}`;
  await driver.goto(board);
  const line = driver.locator(`[data-testid="load-line"][data-load-id="${loadId}"]`);
  await expect(line.getByTestId("invited-badge")).toHaveText("Invited");
  // Another load of the same shipper, not offered to this driver, has no badge.
  const other = await postLoad(shipper, `${title} (no invitation)`);
  await driver.reload();
  await expect(driver.locator(`[data-testid="load-line"][data-load-id="${other}"]`)).toBeVisible();
  await expect(
    driver.locator(`[data-testid="load-line"][data-load-id="${other}"] [data-testid="invited-badge"]`),
  ).toHaveCount(0);
  await expect(line.getByTestId("invited-badge")).toBeVisible();
  const position = await driver.request.post("/api/drivers/location", { data: { latitude: 8.9, longitude: 38.77 } });
  expect(position.status()).toBe(200);
  await driver.goto("/driver");
  const card = driver.getByTestId("nearby-loads").locator(`[data-testid="load-card"][data-load-id="${loadId}"]`);
  await expect(card.getByTestId("invited-badge")).toHaveText("Invited");
  await expect(
    driver.getByTestId("nearby-loads").locator(`[data-testid="load-card"][data-load-id="${other}"]`),
  ).toBeVisible();
  await expect(
    driver
      .getByTestId("nearby-loads")
      .locator(`[data-testid="load-card"][data-load-id="${other}"] [data-testid="invited-badge"]`),
  ).toHaveCount(0);
  await driver.setViewportSize({ width: 1440, height: 900 });
  await driver.goto(board);
  const tableRow = driver.locator(`[data-testid="load-row"][data-load-id="${loadId}"]`);
  await expect(tableRow.getByTestId("invited-badge")).toHaveText("Invited");
  await expect(driver.locator(`[data-testid="load-row"][data-load-id="${other}"]`)).toBeVisible();
  await expect(
    driver.locator(`[data-testid="load-row"][data-load-id="${other}"] [data-testid="invited-badge"]`),
  ).toHaveCount(0);
  // The shipper's own board shows no invitation badge (the invitation is the driver's).
  await shipper.goto(`/loads/${loadId}`);
  await expect(shipper.getByTestId("load-card")).toBeVisible();
  await expect(shipper.getByTestId("invited-badge")).toHaveCount(0);

  await driverCtx.close();
  await shipperCtx.close();
});

test("the search says so when it cannot be loaded, and loads on Try again", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(page, { type: "Shipper", first: "Hana", last: "Girma", email: uniqueEmail("hana") });
  await expect(page.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible();
  let fail = true;
  await page.route(/\/trpc\/.*trucks\.search/, async (route) => (fail ? route.abort() : route.fallback()));
  await page.goto("/find-trucks?origin=Gondar&latitude=12.6&longitude=37.47&radius=50");
  // The query retries a few times before it gives up.
  await expect(page.getByTestId("trucks-error")).toContainText("The trucks could not be loaded.", { timeout: 20_000 });
  fail = false;
  await page.getByTestId("trucks-error").getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("no-trucks-found")).toBeVisible();
});

/** Interactive controls of the page's main part (and an open dialog) shorter than a finger's 44 px, by name. */
const smallTargets = (page: Page) =>
  page.evaluate(() => {
    const roots = [document.querySelector("main"), ...document.querySelectorAll("[role=dialog]")].filter(
      (r): r is Element => r != null,
    );
    const small: string[] = [];
    for (const root of roots)
      for (const el of root.querySelectorAll<HTMLElement>("a[href], button, input, select, summary, [role=combobox]")) {
        const r = el.getBoundingClientRect();
        if (!r.width || !r.height || getComputedStyle(el).visibility === "hidden") continue;
        // A link inside running text is not a control of its own.
        if (el.tagName === "A" && el.closest("p")) continue;
        if (el instanceof HTMLInputElement && el.type === "checkbox") continue;
        if (r.height < 44)
          small.push(
            `${el.tagName.toLowerCase()} "${(el.getAttribute("aria-label") ?? el.textContent ?? el.id).trim().slice(0, 40)}" ${Math.round(r.height)}px`,
          );
      }
    return small;
  });
/** What sticks out past the screen's right edge (the page then scrolls sideways): none when it fits. */
const sticksOut = (page: Page) =>
  page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth <= width) return [];
    return [...document.querySelectorAll<HTMLElement>("body *")]
      .filter((el) => el.getBoundingClientRect().right > width + 0.5)
      .map(
        (el) =>
          `${el.tagName.toLowerCase()}${el.dataset.testid ? `[${el.dataset.testid}]` : ""}${el.id ? `#${el.id}` : ""} "${(el.textContent ?? "").trim().slice(0, 30)}" right=${Math.round(el.getBoundingClientRect().right)}`,
      )
      .slice(0, 12);
  });

test("on a phone (390×844) a shipper searches trucks near a pickup and invites one: it fits, nothing scrolls sideways", async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true };
  const last = `Bekele${Date.now().toString(36)}`;
  const driverName = `Dawit ${last.charAt(0)}.`;
  const driverCtx = await browser.newContext(phone);
  const driver = await driverCtx.newPage();
  await driver.goto("/signin?mode=register&returnTo=/trucks");
  await signUp(driver, { type: "Driver", first: "Dawit", last, email: uniqueEmail("dawit") });
  await expect(driver.getByTestId("no-trucks")).toBeVisible({ timeout: 30_000 });
  const truck = await driver.request.post("/api/trucks", {
    data: {
      originName: "Addis Ababa, Ethiopia",
      originLatitude: 8.95,
      originLongitude: 38.76,
      availableFrom: isoDay(1),
      availableTo: isoDay(6),
      destinationName: "Dire Dawa, Ethiopia",
      destinationLatitude: 9.6,
      destinationLongitude: 41.85,
      destinationRadius: 100,
      equipmentType: "flatbed",
      capacityLbs: 44000,
    },
  });
  expect(truck.status()).toBe(201);
  await driverCtx.close();

  const ctx = await browser.newContext(phone);
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(page, { type: "Shipper", first: "Liya", last: "Haile", email: uniqueEmail("liya") });
  await expect(page.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible({ timeout: 30_000 });
  const title = `Steel rods ${Date.now()}`;
  const loadId = await postLoad(page, title);

  // The search from the menu: the pickup place picked from the suggestions.
  await page.goto("/find-trucks");
  await expect(page.getByTestId("trucks-pick-origin")).toBeVisible();
  expect(await sticksOut(page)).toEqual([]);
  await page.getByLabel("Origin").fill("Addis Ab");
  const suggestion = page.getByRole("option", { name: /^Addis Ababa/ }).first();
  expect((await suggestion.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  await suggestion.tap();
  await expect(page).toHaveURL(/latitude=/);
  const row = page.getByTestId("truck-result").filter({ hasText: driverName });
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("truck-lane")).toContainText("Addis Ababa, Ethiopia");
  await expect(row.getByTestId("truck-lane")).toContainText("Dire Dawa, Ethiopia");

  // Everything fits the screen: no sideways scroll, the row within the width, its button whole, touch-sized targets.
  expect(await sticksOut(page)).toEqual([]);
  const box = await row.boundingBox();
  expect(box!.x).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width).toBeLessThanOrEqual(390);
  const inviteButton = row.getByTestId("invite-to-bid");
  const buttonBox = await inviteButton.boundingBox();
  expect(buttonBox!.height).toBeGreaterThanOrEqual(44);
  expect(buttonBox!.x + buttonBox!.width).toBeLessThanOrEqual(390);
  expect(await smallTargets(page)).toEqual([]);

  // The invitation: a dialog that fits the phone, its controls touch-sized; the row then says Invited.
  await inviteButton.click();
  const invite = page.getByTestId("invite-dialog");
  await expect(invite.getByRole("heading", { name: `Invite ${driverName} to bid` })).toBeVisible();
  const dialogBox = await invite.boundingBox();
  expect(dialogBox!.x).toBeGreaterThanOrEqual(0);
  expect(dialogBox!.x + dialogBox!.width).toBeLessThanOrEqual(390);
  await invite.getByLabel("Load").selectOption(String(loadId));
  expect(await smallTargets(page)).toEqual([]);
  await invite.getByTestId("send-invitation").click();
  await expect(toast(page).getByText("Invitation sent")).toBeVisible();
  await expect(invite).toBeHidden();
  await row.getByTestId("invite-to-bid").click();
  await expect(invite.getByLabel("Load").locator(`option[value="${loadId}"]`)).toContainText("(invited)");
  await invite.getByRole("button", { name: "Cancel" }).click();
  expect(await sticksOut(page)).toEqual([]);
  await ctx.close();
});
