import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { signIn, signUp, uniqueEmail } from "./helpers";

// The freight-tool feel: dense sortable tables at desktop widths, compact cards on a phone with the first load on the
// first screen.

const DESKTOP = { width: 1280, height: 800 };
const SMALL_PHONE = { width: 360, height: 640 };
// Mike drives out of Chicago: his board mixes MyTess loads with his sandbox boards' (DAT live, the others synced), all
// in US dollars, so the rate per mile shown on each row is the figure the sort uses.
const MIKE = { email: "mike@demo.mytess.app", password: "mytess-demo" };
const ABEBE = { email: "abebe@demo.mytess.app", password: "mytess-demo" };

const contextAt = async (browser: Browser, viewport: { width: number; height: number }) => {
  const ctx = await browser.newContext({ viewport });
  // Nothing leaves the machine.
  await ctx.route(/^https?:\/\/(?!(localhost|127\.0\.0\.1)[:/])/, (route) => route.abort());
  return ctx;
};

const numberIn = (text: string | null, pattern: RegExp) => {
  const m = (text ?? "").match(pattern);
  return m ? Number(m[1].replace(/,/g, "")) : null;
};
const perMileOf = (rows: Locator) =>
  rows.getByTestId("rate-per-distance-cell").evaluateAll((cells) => cells.map((c) => c.textContent ?? ""));
const distancesOf = (rows: Locator) =>
  rows.getByTestId("distance-badge").evaluateAll((badges) => badges.map((b) => b.textContent ?? ""));
const descending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] >= x);
const ascending = (xs: number[]) => xs.every((x, i) => i === 0 || xs[i - 1] <= x);

/** No header cell's words spill out of it. */
const headerOverflow = (page: Page) =>
  page
    .getByTestId("load-table")
    .locator("thead th")
    .evaluateAll((ths) => ths.filter((th) => th.scrollWidth > th.clientWidth + 1).map((th) => th.textContent ?? ""));

test("desktop: the board is a table; sorting by rate orders the rows; paging; external rows; a row opens its load", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const ctx = await contextAt(browser, DESKTOP);
  const page = await ctx.newPage();
  await signIn(page, MIKE, "/loads");
  const table = page.getByTestId("load-table");
  const rows = page.getByTestId("load-row");
  await expect(table).toBeVisible();
  await expect(rows).toHaveCount(20);
  await expect(page.getByTestId("load-results").getByTestId("load-card")).toHaveCount(0);

  // Sorted by distance first (from Mike's last position): the distance column says so and the miles go up.
  const distanceHeader = table.locator("th", { has: page.getByTestId("sort-by-distance") });
  const rateHeader = table.locator("th", { has: page.getByTestId("sort-by-rate") });
  await expect(distanceHeader).toHaveAttribute("aria-sort", "ascending");
  await expect(rateHeader).toHaveAttribute("aria-sort", "none");
  const miles = (await distancesOf(rows)).map((t) => numberIn(t, /([\d.,]+)/)!);
  expect(miles).toHaveLength(20);
  expect(ascending(miles)).toBe(true);
  const ratesBefore = (await perMileOf(rows)).map((t) => numberIn(t, /\$([\d.,]+)\/mi/) ?? 0);
  expect(descending(ratesBefore)).toBe(false);

  // Sort by rate from its column header: best paid first, and the Sort select follows.
  await page.getByTestId("sort-by-rate").click();
  await expect(rateHeader).toHaveAttribute("aria-sort", "descending");
  await expect(distanceHeader).toHaveAttribute("aria-sort", "none");
  await expect(page.getByTestId("sort-select")).toHaveValue("rate");
  await expect
    .poll(async () => {
      const rates = (await perMileOf(rows)).map((t) => numberIn(t, /\$([\d.,]+)\/mi/) ?? 0);
      return rates.length === 20 && descending(rates) && rates[0] > rates[19];
    })
    .toBe(true);
  const firstPageRates = (await perMileOf(rows)).map((t) => numberIn(t, /\$([\d.,]+)\/mi/) ?? 0);

  // The header sorts from the keyboard too.
  await page.getByTestId("sort-by-date").focus();
  await page.keyboard.press("Enter");
  await expect(table.locator("th", { has: page.getByTestId("sort-by-date") })).toHaveAttribute(
    "aria-sort",
    "ascending",
  );
  await expect(page.getByTestId("sort-select")).toHaveValue("date");
  await page.getByTestId("sort-select").selectOption("rate");
  await expect(rateHeader).toHaveAttribute("aria-sort", "descending");

  // Paging: the next twenty, each paid no better than the last of the first page.
  const range = page.getByTestId("board-range");
  await expect(range).toHaveText(/^Showing 1–20 of \d+$/);
  const total = numberIn(await range.textContent(), /of ([\d,]+)/)!;
  expect(total).toBeGreaterThan(40);
  await page.getByTestId("board-paging").getByRole("button", { name: "Next" }).click();
  await expect(range).toHaveText(`Showing 21–40 of ${total}`);
  await expect
    .poll(async () => {
      const rates = (await perMileOf(rows)).map((t) => numberIn(t, /\$([\d.,]+)\/mi/) ?? 0);
      return rates.length === 20 && descending(rates) && rates[0] <= firstPageRates[19];
    })
    .toBe(true);
  await page.getByTestId("board-paging").getByRole("button", { name: "Previous" }).click();
  await expect(range).toHaveText(`Showing 1–20 of ${total}`);

  // External loads: their board named, DAT's attribution, no bidding (the poster is called instead).
  await page.getByLabel("Source").selectOption("external");
  await expect(range).toHaveText(/^Showing 1–20 of /);
  await expect(rows.first().getByTestId("source-badge")).toHaveText("EXTERNAL");
  for (const badge of await rows.getByTestId("source-badge").allTextContents()) expect(badge).toBe("EXTERNAL");
  await expect(rows.getByTestId("quick-bid")).toHaveCount(0);
  await expect(rows.first().getByTestId("board-name")).not.toBeEmpty();
  const dat = rows.filter({ has: page.getByTestId("powered-by") }).first();
  await expect(dat.getByTestId("powered-by")).toHaveText("Powered by DAT");
  await expect(dat.getByTestId("board-name")).toHaveText("DAT One");
  await expect(page.getByTestId("board-answer").filter({ hasText: "DAT One" })).toContainText("live");

  // The filters stay in sight while the table scrolls, and the header row under them.
  await page.getByLabel("Source").selectOption("all");
  await expect(rows).toHaveCount(20);
  await page.mouse.wheel(0, 1600);
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(1000);
  const filters = (await page.getByTestId("load-filters").boundingBox())!;
  expect(filters.y).toBeGreaterThanOrEqual(60);
  expect(filters.y).toBeLessThanOrEqual(68);
  const head = (await table.locator("thead").boundingBox())!;
  expect(Math.abs(head.y - (filters.y + filters.height))).toBeLessThanOrEqual(6);

  // A MyTess row: Quick Bid opens the card's dialog, and working in it does not open the load.
  await page.getByLabel("Source").selectOption("mytess");
  await expect(rows.getByTestId("board-name")).toHaveCount(0);
  const mytess = () => rows.filter({ has: page.getByTestId("quick-bid") }).first();
  const id = await mytess().getAttribute("data-load-id");
  const row = page.locator(`[data-testid="load-row"][data-load-id="${id}"]`);
  await row.getByTestId("quick-bid").click();
  const dialog = page.getByTestId("bid-dialog");
  await dialog.getByLabel("Bid amount").click();
  await dialog.getByLabel("Bid amount").fill("100");
  await page.keyboard.press("Escape");
  await expect(dialog).toBeHidden();
  // Still the board (its filters and sort stay in the address), not the load's page.
  await expect(page).toHaveURL(/\/loads(\?[^/]*)?$/);

  // A click anywhere else on the row opens the load; so does Enter on a focused row.
  await row.locator("td").nth(4).click();
  await expect(page).toHaveURL(new RegExp(`/loads/${id}$`));
  await expect(page.locator(`[data-testid="load-card"][data-load-id="${id}"]`)).toBeVisible();
  await page.goBack();
  await expect(rows.first()).toBeVisible();
  const other = await mytess().getAttribute("data-load-id");
  await mytess().focus();
  await page.keyboard.press("Enter");
  await expect(page).toHaveURL(new RegExp(`/loads/${other}$`));
  await ctx.close();
});

test("desktop: the table's header row fits at 1280 px in English, Amharic and Afaan Oromo", async ({ browser }) => {
  const ctx = await contextAt(browser, DESKTOP);
  const page = await ctx.newPage();
  // A new account: the language chosen here is saved on it, and no demo account should keep it.
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Lemlem", last: "Girma", email: uniqueEmail("lemlem") });
  await expect(page.getByTestId("load-row").first()).toBeVisible();
  for (const [label, lang] of [
    ["English", "en"],
    ["አማርኛ", "am"],
    ["Afaan Oromoo", "om"],
  ]) {
    await page.getByTestId("language-select").first().selectOption({ label });
    await expect(page.locator("html")).toHaveAttribute("lang", lang);
    await expect(page.getByTestId("load-row").first()).toBeVisible();
    expect(await headerOverflow(page)).toEqual([]);
    const table = (await page.getByTestId("load-table").boundingBox())!;
    expect(table.x + table.width).toBeLessThanOrEqual(DESKTOP.width);
  }
  await ctx.close();
});

test("phone: two-line rows, not a table; the first load is on the first screen; the filters fold", async ({
  browser,
}) => {
  const ctx = await contextAt(browser, SMALL_PHONE);
  const page = await ctx.newPage();
  await signIn(page, ABEBE, "/loads");
  const first = page.getByTestId("load-results").getByTestId("load-line").first();
  await expect(first).toBeVisible();
  await expect(page.getByTestId("load-table")).toHaveCount(0);
  await expect(page.getByTestId("board-summary")).toHaveText(/^\d+ loads found · \d+ urgent$/);
  // The whole first row, Quick Bid included, without scrolling.
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const box = (await first.boundingBox())!;
  expect(box.y).toBeGreaterThan(0);
  expect(box.y + box.height).toBeLessThanOrEqual(SMALL_PHONE.height);
  await expect(first.getByTestId("quick-bid")).toBeInViewport();

  // The filters open from the toolbar and fold again.
  const toggle = page.getByTestId("filters-toggle");
  await expect(page.getByTestId("load-filters")).toBeHidden();
  await expect(toggle).toHaveAttribute("aria-expanded", "false");
  await toggle.click();
  await expect(toggle).toHaveAttribute("aria-expanded", "true");
  await page.getByTestId("equipment-choice").locator("summary").click();
  await page.getByTestId("equipment-choice").getByRole("checkbox", { name: "Dry van" }).check();
  await expect(first).toContainText("Dry van");
  await expect(toggle).toContainText("1");
  await toggle.click();
  await expect(page.getByTestId("load-filters")).toBeHidden();
  await ctx.close();
});

const DAY = 24 * 3600_000;
const loadInput = (title: string) => ({
  title,
  equipmentType: "flatbed",
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

test("My Loads: a table on desktop with bids and the best bid, filtered by status; cards on a phone", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const shipperCtx = await contextAt(browser, DESKTOP);
  const driverCtx = await contextAt(browser, DESKTOP);
  const page = await shipperCtx.newPage();
  const driver = await driverCtx.newPage();
  await page.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(page, { type: "Shipper", first: "Tigist", last: "Alemu", email: uniqueEmail("tigist") });
  await expect(page.getByTestId("no-loads")).toBeVisible();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Fikru", last: "Desta", email: uniqueEmail("fikru") });
  await expect(driver.getByTestId("user-menu")).toBeVisible();

  const stamp = Date.now();
  const post = async (title: string) => {
    const res = await page.request.post("/api/loads", { data: loadInput(title) });
    expect(res.status()).toBe(201);
    return (await res.json()).id as number;
  };
  const bidOn = await post(`Coffee ${stamp}`);
  const dropped = await post(`Cement ${stamp}`);
  expect(
    (await driver.request.post(`/api/loads/${bidOn}/bids`, { data: { amount: 750, currency: "USD" } })).status(),
  ).toBe(201);
  expect((await page.request.post(`/api/loads/${dropped}/cancel`, { data: {} })).status()).toBe(200);

  await page.reload();
  const table = page.getByTestId("my-loads-table");
  await expect(table).toBeVisible();
  const rows = table.getByTestId("my-load");
  await expect(rows).toHaveCount(2);
  for (const name of ["Load", "Status", "Pickup", "Bids", "Best bid", "Budget"])
    await expect(table.getByRole("columnheader", { name, exact: true })).toBeVisible();
  const coffee = page.locator(`[data-testid="my-load"][data-load-id="${bidOn}"]`);
  const cement = page.locator(`[data-testid="my-load"][data-load-id="${dropped}"]`);
  await expect(coffee.getByTestId("load-status")).toHaveText("Posted");
  await expect(coffee.getByTestId("pending-bids")).toHaveText("1");
  await expect(coffee.getByTestId("best-bid")).toHaveText("$750.00");
  await expect(coffee.getByTestId("view-bids")).toBeVisible();
  await expect(coffee.getByRole("button", { name: "Cancel load" })).toBeVisible();
  await expect(cement.getByTestId("load-status")).toHaveText("Cancelled");
  await expect(cement.getByTestId("pending-bids")).toHaveText("0");
  await expect(cement.getByTestId("best-bid")).toHaveCount(0);
  await expect(cement.getByRole("button", { name: "Cancel load" })).toHaveCount(0);

  // The status filter and the search still narrow the table.
  await page.getByLabel("Status").selectOption("cancelled");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-load-id", String(dropped));
  await page.getByLabel("Status").selectOption("posted");
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toHaveAttribute("data-load-id", String(bidOn));
  await page.getByLabel("Search").fill("no such load anywhere");
  await expect(page.getByTestId("no-matching-loads")).toBeVisible();
  await page.getByLabel("Search").fill("");
  await page.getByLabel("Status").selectOption("");
  await expect(rows).toHaveCount(2);

  // The view-bids dialog opens from the row without leaving the page; a click on the row opens the load.
  await coffee.getByTestId("view-bids").click();
  await expect(page.getByTestId("bid-row").filter({ hasText: "Fikru Desta" })).toBeVisible();
  await page.getByTestId("bid-row").first().click();
  await page.keyboard.press("Escape");
  await expect(page).toHaveURL(/\/shipper$/);
  await coffee.getByTestId("pending-bids").click();
  await expect(page).toHaveURL(new RegExp(`/loads/${bidOn}$`));

  // Narrowed to a phone, the same loads are cards.
  await page.goBack();
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("my-loads-table")).toHaveCount(0);
  const card = page.locator(`[data-testid="my-load"][data-load-id="${bidOn}"]`);
  await expect(card).toBeVisible();
  await expect(card.getByTestId("best-bid")).toHaveText("Best bid: $750.00");
  await shipperCtx.close();
  await driverCtx.close();
});

test("a driver opening the board gets its first page with the page itself: the app asks nothing more before it shows", async ({
  page,
}) => {
  await signIn(page, ABEBE, "/driver");
  const asked: string[] = [];
  page.on("request", (r) => {
    if (/\/trpc\/[^?]*(auth\.me|loads\.search|loads\.stats)/.test(r.url())) asked.push(r.url());
  });
  await page.goto("/loads");
  await expect(page.getByTestId("load-row").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  expect(asked).toEqual([]);
});

test.describe("without a service worker (whose cache would answer before the routes below)", () => {
  test.use({ serviceWorkers: "block" });
  test("the board shows without the code of its dialogs and menus, which loads when a button asks for it", async ({
    page,
  }) => {
    await signIn(page, ABEBE, "/driver");
    // Hold the bid dialog's and the share menu's code (and Radix's dialog and menu under them) until the board is shown:
    // had the board imported them, its first row could not appear.
    const held: (() => Promise<void>)[] = [];
    let holding = true;
    await page.route(/\/assets\/(bid-dialog|share-menu-part|dialog|dropdown-menu)-[\w-]+\.js/, async (route) => {
      if (!holding) return route.continue();
      held.push(() => route.continue());
    });
    await page.goto("/loads");
    const row = page.getByTestId("load-row").first();
    await expect(row).toBeVisible();
    await expect(row.getByTestId("quick-bid")).toBeVisible();
    // The click that wants the dialog opens it once its code arrives.
    await row.getByTestId("quick-bid").click();
    holding = false;
    for (const release of held.splice(0)) await release();
    await expect(page.getByTestId("bid-dialog")).toBeVisible();
    await expect(page.getByRole("heading", { name: "Place a bid" })).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(page.getByTestId("bid-dialog")).toBeHidden();
    // The share menu, the same way.
    await row.getByTestId("share-button").click();
    await expect(page.getByRole("menuitem", { name: "WhatsApp" })).toBeVisible();
  });
});
