import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// My trucks on a phone: a new driver reaches the page from the menu, sees the empty list, is told what the form lacks,
// posts a truck from Addis Ababa to anywhere with the place picker, then deletes it after confirming.
test.use({ viewport: { width: 390, height: 844 } });

const isoDay = (offsetDays: number) => new Date(Date.now() + offsetDays * 86_400_000).toISOString().slice(0, 10);

test("a driver posts a truck with the place picker, sees it listed, and deletes it after confirming", async ({
  page,
}) => {
  test.setTimeout(60_000);
  await page.goto("/signin?mode=register&returnTo=/driver");
  await signUp(page, { type: "Driver", first: "Tesfaye", last: "Alemu", email: uniqueEmail("tesfaye") });
  await expect(page).toHaveURL(/\/driver/);

  // Reached from the phone menu.
  await expect(page.getByTestId("user-menu")).toBeVisible();
  const menu = page.getByRole("navigation", { name: "Mobile" });
  // A tap while the signed-in header is still settling can be lost: tap again until the menu shows.
  await expect(async () => {
    if (!(await menu.isVisible())) await page.getByRole("button", { name: "Open menu" }).click();
    await expect(menu).toBeVisible({ timeout: 2_000 });
  }).toPass();
  await menu.getByRole("link", { name: "My trucks" }).click();
  await expect(page).toHaveURL(/\/trucks$/);
  await expect(page.getByRole("heading", { name: "My trucks" })).toBeVisible();
  await expect(page.getByTestId("no-trucks")).toContainText("No trucks posted yet");

  await page.getByTestId("post-truck").click();
  const dialog = page.getByTestId("truck-dialog");
  await dialog.getByTestId("truck-submit").click();
  await expect(dialog.getByLabel("Available at")).toBeFocused();
  await expect(dialog.locator("#truck-origin-error")).toHaveText("Required");
  await expect(dialog.locator("#truck-capacity-error")).toHaveText("Enter a capacity greater than 0");

  await dialog.getByLabel("Available at").fill("Addis Ab");
  await dialog
    .getByRole("option", { name: /^Addis Ababa/ })
    .first()
    .click();
  await expect(dialog.getByLabel("Available at")).toHaveValue("Addis Ababa, Ethiopia");
  await dialog.getByLabel("Free from").fill(isoDay(1));
  await dialog.getByLabel("Free until").fill(isoDay(3));
  await dialog.getByLabel("Equipment").selectOption("flatbed");
  await dialog.getByLabel(/^Capacity/).fill("20000");
  await dialog.getByLabel("Plate number (optional)").fill("AA 3-12345");
  await dialog.getByTestId("truck-submit").click();
  await expect(page.getByTestId("toast").getByText("Truck posted")).toBeVisible();
  await expect(dialog).toBeHidden();

  const row = page.getByTestId("truck-row");
  await expect(row).toHaveCount(1);
  await expect(row.getByTestId("truck-route")).toHaveText("Addis Ababa, Ethiopia → Anywhere");
  await expect(row.getByTestId("truck-details")).toContainText("Flatbed");
  await expect(row.getByTestId("truck-details")).toContainText("AA 3-12345");
  await expect(row.getByTestId("truck-details")).toContainText(/20,000 (kg|lb)/);
  await expect(row.getByTestId("truck-expired")).toHaveCount(0);
  await expect(page.getByTestId("no-trucks")).toHaveCount(0);

  // Delete asks first; Cancel keeps it, Delete removes it.
  await row.getByTestId("delete-truck").click();
  const confirm = page.getByTestId("delete-truck-dialog");
  await expect(confirm).toContainText("Delete this truck?");
  await confirm.getByRole("button", { name: "Cancel" }).click();
  await expect(row).toHaveCount(1);
  await row.getByTestId("delete-truck").click();
  await confirm.getByTestId("confirm-delete-truck").click();
  await expect(page.getByTestId("toast").getByText("Truck deleted")).toBeVisible();
  await expect(page.getByTestId("truck-row")).toHaveCount(0);
  await expect(page.getByTestId("no-trucks")).toBeVisible();
});

test("the list says so when it cannot be loaded, and loads on Try again", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/signin?mode=register&returnTo=/trucks");
  await signUp(page, { type: "Driver", first: "Almaz", last: "Kebede", email: uniqueEmail("almaz") });
  await expect(page).toHaveURL(/\/trucks/);
  await expect(page.getByTestId("no-trucks")).toBeVisible();
  let fail = true;
  await page.route(/\/trpc\/.*trucks\.mine/, async (route) => (fail ? route.abort() : route.fallback()));
  await page.reload();
  // The query retries a few times before it gives up.
  await expect(page.getByTestId("trucks-error")).toContainText("Your trucks could not be loaded.", { timeout: 20_000 });
  fail = false;
  await page.getByTestId("trucks-error").getByRole("button", { name: "Try again" }).click();
  await expect(page.getByTestId("no-trucks")).toBeVisible();
});
