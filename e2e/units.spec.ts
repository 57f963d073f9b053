import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// Loads are stored in miles and pounds; each reader sees them in their own units, in their own language's words.

test("a driver signing up in Ethiopia reads kilometres and tonnes in Amharic, and can switch to miles and pounds", async ({
  browser,
}) => {
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, timezoneId: "Africa/Addis_Ababa" });
  const page = await ctx.newPage();
  await page.goto("/signin?mode=register&returnTo=/loads");
  await signUp(page, { type: "Driver", first: "Tigist", last: "Haile", email: uniqueEmail("tigist") });
  const card = page.getByTestId("load-line").first();
  await expect(card).toBeVisible();
  // Created in Ethiopia: metric and birr on the account.
  const me = await (await page.request.get("/api/auth/user")).json();
  expect(me.user).toMatchObject({ units: "metric", currency: "ETB" });

  // Amharic from the settings page (on a phone the header keeps its choices in the menu).
  await page.goto("/settings");
  await page.locator('[data-testid="language-select"]:visible').first().selectOption({ label: "አማርኛ" });
  const units = page.getByTestId("units-settings");
  await expect(units.getByTestId("units-example")).toContainText("ኪ.ሜ");
  await expect(units.getByTestId("units-example")).toContainText("ቶን");

  await page.goto("/loads");
  await expect(card.getByTestId("load-weight")).toHaveText(/^[\d.,]+ (ቶን|ኪ\.ግ)$/);
  await expect(card.getByTestId("load-rate-per-distance")).toHaveText(/\/ኪ\.ሜ$/);
  await expect(card).not.toContainText("ማይል");
  await expect(card).not.toContainText("ፓውንድ");

  // Miles and pounds, kept on the account and on this device.
  await page.goto("/settings");
  await units.getByTestId("units-select").selectOption("imperial");
  await expect(units.getByTestId("units-example")).toContainText("ማይል");
  await expect(units.getByTestId("units-example")).toContainText("ፓውንድ");
  await expect.poll(async () => (await (await page.request.get("/api/auth/user")).json()).user.units).toBe("imperial");

  await page.goto("/loads");
  await expect(card.getByTestId("load-weight")).toHaveText(/^[\d.,]+ ፓውንድ$/);
  await expect(card.getByTestId("load-rate-per-distance")).toHaveText(/\/ማይል$/);
  await ctx.close();
});
