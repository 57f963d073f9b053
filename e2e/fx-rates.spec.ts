import { expect, test } from "@playwright/test";
import { formatDate } from "../src/shared/dates";
import { signUp, uniqueEmail } from "./helpers";

test("the board says its converted amounts are estimates and gives the day of the rates, in Amharic, on a phone too", async ({
  browser,
}) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Hanna", last: "Bekele", email: uniqueEmail("hanna") });
  await expect(page.getByTestId("load-row").first()).toBeVisible();

  // The demo fetched the day's rates from the bank's Sandbox before it started: a published day, not the fixed ones.
  const rates = (await (await page.request.get("/api/fx-rates")).json()) as {
    code: string;
    rateDate: string | null;
    source: string;
  }[];
  const usd = rates.find((r) => r.code === "USD")!;
  const etb = rates.find((r) => r.code === "ETB")!;
  expect(etb.source).toBe("source");
  expect(etb.rateDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  const weekday = new Date(`${etb.rateDate}T12:00:00Z`).getUTCDay();
  expect(weekday === 0 || weekday === 6).toBe(false);

  await page.getByTestId("language-select").first().selectOption({ label: "አማርኛ" });
  const note = page.getByTestId("rates-note");
  await expect(note).toBeVisible();
  const day = formatDate(`${usd.rateDate}T12:00:00Z`, { language: "am", calendar: "gregorian", dateStyle: "medium" });
  await expect(note).toHaveText(`የተቀየሩ መጠኖች ግምት ናቸው፤ የ${day} የምንዛሪ ተመን`);
  // On a phone the note stays above the first load.
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByTestId("load-line").first()).toBeVisible();
  await expect(note).toBeInViewport();
  await ctx.close();
});
