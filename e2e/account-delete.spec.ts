import { readFileSync } from "node:fs";
import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

const DAY = 24 * 60 * 60 * 1000;

test("a shipper downloads their data (their load is in the file), deletes the account, is signed out and cannot sign in again", async ({
  browser,
}) => {
  test.setTimeout(90_000);
  const ctx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const page = await ctx.newPage();
  const email = uniqueEmail("leaving");
  const password = "strong-password-1";
  await page.goto("/signin?mode=register&returnTo=/settings");
  await signUp(page, { type: "Shipper", first: "Hana", last: "Alemu", email, password });
  const panel = page.getByTestId("your-data");
  await expect(panel).toBeVisible();
  const title = `Export cement ${Date.now()}`;
  const posted = await page.request.post("/api/loads", {
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
      pickupDate: new Date(Date.now() + 3 * DAY).toISOString(),
      deliveryDate: new Date(Date.now() + 4 * DAY).toISOString(),
      weight: 30000,
      budgetAmount: 1000,
      budgetCurrency: "USD",
    },
  });
  expect(posted.status()).toBe(201);

  // The file: named for today, holding the load, and no password.
  const downloadButton = panel.getByTestId("download-data");
  const box = await downloadButton.boundingBox();
  expect(box?.height ?? 0).toBeGreaterThanOrEqual(44);
  const [download] = await Promise.all([page.waitForEvent("download"), downloadButton.click()]);
  expect(download.suggestedFilename()).toMatch(/^mytess-export-\d{4}-\d{2}-\d{2}\.json$/);
  const text = readFileSync((await download.path())!, "utf8");
  const file = JSON.parse(text);
  expect(file.profile.email).toBe(email);
  expect(file.loadsPosted.map((l: { title: string }) => l.title)).toContain(title);
  expect(text).not.toContain(password);

  // Deleting asks for the password; a wrong one is named at its field, nothing happens.
  await panel.getByTestId("delete-account").click();
  const dialog = page.getByTestId("delete-account-dialog");
  await expect(dialog).toBeVisible();
  await dialog.getByLabel("Password").fill("not-my-password");
  await dialog.getByTestId("delete-account-confirm").click();
  await expect(dialog.getByText("The password is wrong")).toBeVisible();
  await dialog.getByLabel("Password").fill(password);
  await dialog.getByTestId("delete-account-confirm").click();

  // Signed out: the landing page, no account menu; the settings ask to sign in.
  await page.waitForURL((url) => url.pathname === "/");
  await expect(page.getByTestId("user-menu")).toHaveCount(0);
  expect((await page.request.get("/api/auth/user")).status()).toBe(401);

  // The old password signs nobody in.
  await page.goto("/signin");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByText("Invalid email or password")).toBeVisible();
  await expect(page.getByTestId("user-menu")).toHaveCount(0);
  await ctx.close();
});
