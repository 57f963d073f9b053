import { expect, test } from "@playwright/test";

// The lane search keeps every filter in the address: a reload, a shared link and the back button bring back the same
// question (Abebe drives the Ethiopian corridor; the demo posts loads from Addis Ababa and Modjo to the port).

const ABEBE = { email: "abebe@demo.mytess.app", password: "mytess-demo" };

test("destination, pickup window and equipment live in the URL; reload, back and a shared link keep them", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  await ctx.route(/^https?:\/\/(?!(localhost|127\.0\.0\.1)[:/])/, (route) => route.abort());
  const page = await ctx.newPage();
  // Signed in as the helper does, with room for a loaded machine's first page.
  await page.goto("/signin?returnTo=%2Floads");
  await page.getByLabel("Email").fill(ABEBE.email);
  await page.getByLabel("Password").fill(ABEBE.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByTestId("user-menu")).toBeVisible({ timeout: 30_000 });
  await expect(page.getByTestId("load-row").first()).toBeVisible();

  // A destination picked from the gazetteer: every load shown goes there.
  await page.locator("#f-destination").fill("Djibouti");
  await page
    .getByRole("option", { name: /Djibouti/ })
    .first()
    .click();
  await expect(page).toHaveURL(/destinationLatitude=/);
  await expect(page.locator("#f-destination-radius")).toBeVisible();
  const rows = page.getByTestId("load-row");
  await expect(rows.first()).toBeVisible();
  for (const text of await rows.allTextContents()) expect(text).toContain("Djibouti");

  // A pickup window from today: one more step in the history.
  const today = new Date().toISOString().slice(0, 10);
  await page.locator("#f-pickup-from").fill(today);
  await expect(page).toHaveURL(new RegExp(`pickupFrom=${today}`));

  // Reload: the same filters, the same answer.
  const shown = await rows.allTextContents();
  await page.reload();
  await expect(page.locator("#f-destination")).toHaveValue(/Djibouti/);
  await expect(page.locator("#f-pickup-from")).toHaveValue(today);
  await expect(rows).toHaveCount(shown.length);

  // Back: the window goes, the destination stays.
  await page.goBack();
  await expect(page).not.toHaveURL(/pickupFrom=/);
  await expect(page.locator("#f-pickup-from")).toHaveValue("");
  await expect(page.locator("#f-destination")).toHaveValue(/Djibouti/);

  // A shared link with several equipment types and a load size: another tab reads them from the address.
  const url = new URL(page.url());
  url.searchParams.set("equipmentType", "flatbed,dry_van");
  url.searchParams.set("loadSize", "full");
  const other = await ctx.newPage();
  await other.goto(url.toString());
  await expect(other.getByTestId("equipment-choice")).toContainText("Flatbed");
  await expect(other.getByTestId("equipment-choice")).toContainText("Dry van");
  await expect(other.locator("#f-size")).toHaveValue("full");
  await expect(other.locator("#f-destination")).toHaveValue(/Djibouti/);
  for (const text of await other.getByTestId("load-row").allTextContents()) expect(text).toMatch(/Flatbed|Dry van/);

  // An address edited by hand falls back to the defaults instead of failing the page.
  await other.goto("/loads?destinationRadius=7&loadSize=half&pickupFrom=soon");
  await expect(other.locator("#f-size")).toHaveValue("all");
  await expect(other.getByTestId("load-row").first()).toBeVisible();
  await ctx.close();
});
