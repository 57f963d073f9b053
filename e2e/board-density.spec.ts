import { type Browser, expect, type Locator, type Page, test } from "@playwright/test";
import { DEMO } from "./helpers";

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const contextAt = async (browser: Browser, viewport: { width: number; height: number }) => {
  const ctx = await browser.newContext({ viewport });
  await ctx.route(/^https?:\/\/(?!(localhost|127\.0\.0\.1)[:/])/, (route) => route.abort());
  return ctx;
};

/** Signed in through the API (the session cookie is the context's), then the page: a loaded machine answers slowly. */
const signInAt = async (page: Page, path: string) => {
  const res = await page.request.post("/api/auth/login", { data: DEMO.driver, timeout: 60_000 });
  expect(res.ok()).toBe(true);
  await page.goto(path);
};

/** How many of the rows are wholly on the first screen (their box inside the viewport, nothing scrolled). */
const whollyVisible = async (page: Page, rows: Locator) => {
  const { height, width } = page.viewportSize()!;
  let n = 0;
  for (const row of await rows.all()) {
    const box = await row.boundingBox();
    if (box && box.y >= 0 && box.y + box.height <= height && box.x >= 0 && box.x + box.width <= width) n++;
  }
  return n;
};

test("desktop 1440×900: at least 15 loads of the board's table on the first screen", async ({ browser }) => {
  test.setTimeout(120_000);
  const ctx = await contextAt(browser, DESKTOP);
  const page = await ctx.newPage();
  await signInAt(page, "/loads");
  const rows = page.getByTestId("load-row");
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const n = await whollyVisible(page, rows);
  console.log(`desktop_rows_visible=${n}`);
  expect(n).toBeGreaterThanOrEqual(15);
  await ctx.close();
});

test("phone 390×844: at least 4 loads on the first screen, in compact two-line rows", async ({ browser }) => {
  test.setTimeout(120_000);
  const ctx = await contextAt(browser, PHONE);
  const page = await ctx.newPage();
  await signInAt(page, "/loads");
  const rows = page.getByTestId("load-results").getByTestId("load-line");
  await expect(rows.first()).toBeVisible({ timeout: 30_000 });
  expect(await page.evaluate(() => window.scrollY)).toBe(0);
  const n = await whollyVisible(page, rows);
  console.log(`phone_rows_visible=${n}`);
  // Two lines of text (the Quick Bid button sets the height): no row is a card.
  for (const row of (await rows.all()).slice(0, n)) expect((await row.boundingBox())!.height).toBeLessThan(80);
  expect(n).toBeGreaterThanOrEqual(4);
  await ctx.close();
});
