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

test("an amount converted into the reader's currency is marked ≈ and labelled an estimate; one in its own currency is not", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Lensa", last: "Tolera", email: uniqueEmail("lensa") });
  await expect(page.getByTestId("load-row").first()).toBeVisible();
  await page.getByTestId("currency-select").first().selectOption("ETB");

  // The board's rows, each held against the load's own currency as the API gives it.
  const rows = page.getByTestId("load-row");
  await expect(rows.first().getByTestId("load-budget")).toContainText("Br");
  const ids = await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute("data-load-id"))));
  const seen = { converted: 0, own: 0 };
  let convertedId = 0;
  for (const id of ids.slice(0, 10)) {
    const load = (await (await page.request.get(`/api/loads/${id}`)).json()) as {
      budgetAmount: number;
      budgetCurrency: string;
    };
    if (load.budgetAmount === 0) continue; // an outside board's load without a rate
    const budget = rows.and(page.locator(`[data-load-id="${id}"]`)).getByTestId("load-budget");
    if (load.budgetCurrency === "ETB") {
      seen.own++;
      await expect(budget).toHaveText(/^Br [\d,]+\.\d\d$/);
      await expect(budget).not.toHaveAttribute("title");
    } else {
      seen.converted++;
      convertedId = id;
      await expect(budget).toHaveText(/^≈\sBr [\d,]+\.\d\d \(Estimate at today's rate · .+\)$/);
      await expect(budget).toHaveAttribute("title", /^Estimate at today's rate · [$€]/);
      // A screen reader hears the amount and the note, not the sign.
      await expect(budget.locator("[aria-hidden]")).toHaveText(/^≈/);
    }
  }
  expect(seen.converted).toBeGreaterThan(0);
  expect(seen.own).toBeGreaterThan(0);

  // The load's page says the same, with the amount as posted beneath.
  await page.goto(`/loads/${convertedId}`);
  const onPage = page.locator("main [data-estimate]").first();
  await expect(onPage).toHaveAttribute("title", "Estimate at today's rate");
  await expect(onPage).toHaveText(/^≈\sBr [\d,]+\.\d\d \(Estimate at today's rate\)$/);

  // And a phone's board in Amharic.
  await page.goto("/loads");
  await page.getByTestId("language-select").first().selectOption({ label: "አማርኛ" });
  await page.setViewportSize({ width: 390, height: 844 });
  const line = page.getByTestId("load-line").locator("[data-estimate]").first();
  await expect(line).toHaveAttribute("title", /^ግምት፤ በዛሬው የምንዛሪ ተመን · /);
  await expect(line).toHaveText(/^≈\sብር /);
  await ctx.close();
});
