import { expect, type Page, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

const AM_MONTHS = ["መስከረም", "ጥቅምት", "ኅዳር", "ታኅሣሥ", "ጥር", "የካቲት", "መጋቢት", "ሚያዝያ", "ግንቦት", "ሰኔ", "ሐምሌ", "ነሐሴ", "ጳጉሜን"];
const OM_MONTHS = [
  "Fulbaana",
  "Onkololeessa",
  "Sadaasa",
  "Muddee",
  "Amajjii",
  "Guraandhala",
  "Bitootessa",
  "Eebila",
  "Caamsaa",
  "Waxabajjii",
  "Adoolessa",
  "Hagayya",
  "Qaammee",
];

const chooseLanguage = async (page: Page, label: string) => {
  await page.getByTestId("language-select").first().selectOption({ label });
};

test("a driver reading Amharic takes the suggested Ethiopian calendar and sees Ethiopian dates on the board and in the bid form", async ({
  browser,
}) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Meseret", last: "Wolde", email: uniqueEmail("meseret") });
  await expect(page.getByTestId("load-row").first()).toBeVisible();
  await chooseLanguage(page, "አማርኛ");
  // Suggested once, not forced.
  const suggestion = page.getByTestId("calendar-suggestion");
  await expect(suggestion).toContainText("ዓ.ም.");
  await suggestion.getByRole("button").first().click();
  await expect(suggestion).toHaveCount(0);

  const date = page.getByTestId("load-row").first().locator("span").filter({ hasText: "ዓ.ም." }).first();
  await expect(date).toBeVisible();
  const text = (await date.textContent()) ?? "";
  expect(AM_MONTHS.some((m) => text.includes(m))).toBe(true);

  // The bid's proposed pickup is chosen in the Ethiopian calendar.
  await page.getByTestId("load-row").first().getByTestId("quick-bid").click();
  const dialog = page.getByTestId("bid-dialog");
  const field = dialog.locator("fieldset[data-testid$='-ethiopic']");
  await expect(field).toBeVisible();
  await expect(field.locator("option", { hasText: "ጳጉሜን" })).toHaveCount(1);

  // Kept on the account: another device sees the same calendar.
  const me = await (await page.request.get("/api/auth/user")).json();
  expect(me.user.calendar).toBe("ethiopic");
  await ctx.close();
});

test("a shipper reading Afaan Oromo picks Ethiopian dates in the post-load form and sees them on the board", async ({
  browser,
}) => {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/settings");
  await signUp(page, { type: "Shipper", first: "Gemechu", last: "Dinsa", email: uniqueEmail("gemechu") });
  await chooseLanguage(page, "Afaan Oromoo");
  await page.getByTestId("calendar-suggestion").getByRole("button").last().click(); // keep Gregorian for now
  await page.locator("#calendar-select").selectOption("ethiopic");
  await expect(page.getByTestId("calendar-example")).toContainText("A.L.I.");

  await page.goto("/shipper");
  await page.getByRole("button", { name: "Fe'umsa Haaraa Maxxansaa" }).first().click();
  const pickup = page.getByTestId("load-pickup-date-ethiopic");
  await expect(pickup).toBeVisible();
  await expect(pickup.locator("option", { hasText: "Qaammee" })).toHaveCount(1);
  // Choose 1 Fulbaana (Meskerem) of next year: 11 or 12 September, seven years on in the Gregorian count.
  const year = pickup.getByLabel("Waggaa");
  const years = await year.locator("option").allTextContents();
  await year.selectOption(years[years.length - 1]);
  await pickup.getByLabel("Ji'a").selectOption({ label: "Fulbaana" });
  await pickup.getByLabel("Guyyaa").selectOption("1");
  await expect(page.getByTestId("load-pickup-date-gregorian")).toContainText(
    `/9/${Number(years[years.length - 1]) + 7}`,
  );

  await page.keyboard.press("Escape");
  await page.goto("/loads");
  const row = page.getByTestId("load-row").first();
  const text = (await row.textContent()) ?? "";
  expect(text).toContain("A.L.I.");
  expect(OM_MONTHS.some((m) => text.includes(m))).toBe(true);
  await ctx.close();
});

test("a visitor without an account chooses the Ethiopian calendar in the footer, and this device keeps it", async ({
  page,
}) => {
  await page.goto("/landing");
  await page.locator("#footer-calendar").selectOption("ethiopic");
  const bid = page.getByTestId("landing-bid");
  await expect(bid).toContainText("E.C.");
  await page.reload();
  await expect(page.getByTestId("landing-bid")).toContainText("E.C.");
  expect(await page.evaluate(() => localStorage.getItem("preferredCalendar"))).toBe("ethiopic");
});
