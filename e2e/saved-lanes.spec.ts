import { expect, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

// Saved lanes on a phone: a new driver whom MyTess cannot locate saves "Addis Ababa → Djibouti" with the place picker,
// connects the Sandbox load feed with sync on, and the sync finds the lane's loads; then changes and deletes the lane.
test.use({ viewport: { width: 390, height: 844 } });

test("a driver saves a lane with the place picker, sync searches it, then edits and deletes it", async ({ page }) => {
  test.setTimeout(60_000);
  await page.goto("/signin?mode=register&returnTo=/marketplaces");
  await signUp(page, { type: "Driver", first: "Hirut", last: "Bekele", email: uniqueEmail("hirut") });
  const lanes = page.getByTestId("saved-lanes");
  await expect(lanes.getByRole("heading", { name: "Saved lanes" })).toBeVisible();
  await expect(lanes.getByTestId("no-lanes")).toContainText("No saved lanes yet");

  // The dialog names what is missing, then takes places from the picker.
  await lanes.getByTestId("add-first-lane").click();
  const dialog = page.getByTestId("lane-dialog");
  await dialog.getByTestId("lane-submit").click();
  await expect(dialog.getByText("Origin is required")).toBeVisible();
  await expect(dialog.getByLabel("Origin")).toBeFocused();
  await dialog.getByLabel("Origin").fill("Addis Ab");
  await dialog.getByTestId("lane-submit").click();
  await expect(dialog.getByText("Pick the origin from the list")).toBeVisible();
  await dialog.getByLabel("Origin").fill("Addis Ab");
  await dialog
    .getByRole("option", { name: /^Addis Ababa/ })
    .first()
    .click();
  await expect(dialog.getByLabel("Origin")).toHaveValue("Addis Ababa, Ethiopia");
  await dialog.getByLabel("Name (optional)").fill("Port run");
  await dialog.locator("#lane-origin-radius").fill("150");
  await dialog.getByLabel("Destination (optional)").fill("Djibou");
  await dialog
    .getByRole("option", { name: /^Djibouti/ })
    .first()
    .click();
  await dialog.locator("#lane-destination-radius").fill("50");
  await dialog.getByLabel("Dry van").check();
  await dialog.getByLabel("Container").check();
  await dialog.getByTestId("lane-submit").click();
  await expect(page.getByTestId("toast").getByText("Lane saved")).toBeVisible();
  await expect(dialog).toBeHidden();

  const card = lanes.getByTestId("lane-card");
  await expect(card).toHaveCount(1);
  await expect(card.getByTestId("lane-name")).toHaveText("Port run");
  await expect(card.getByTestId("lane-route")).toContainText("Addis Ababa, Ethiopia (within 150 mi)");
  await expect(card.getByTestId("lane-route")).toContainText("Djibouti");
  await expect(card.getByTestId("lane-route")).toContainText("(within 50 mi)");
  await expect(card.getByTestId("lane-equipment")).toHaveText(/Dry van\s*Container/);
  await expect(lanes.getByTestId("lane-count")).toHaveText("1 of 20 lanes");

  // Edited: a wider origin; the rest stays.
  await card.getByTestId("edit-lane").click();
  await expect(dialog.getByLabel("Origin")).toHaveValue("Addis Ababa, Ethiopia");
  await dialog.locator("#lane-origin-radius").fill("600");
  await dialog.getByTestId("lane-submit").click();
  await expect(dialog.getByText("A whole number from 1 to 500 mi")).toBeVisible();
  await dialog.locator("#lane-origin-radius").fill("200");
  await dialog.getByTestId("lane-submit").click();
  await expect(page.getByTestId("toast").getByText("Lane updated")).toBeVisible();
  await expect(card.getByTestId("lane-route")).toContainText("(within 200 mi)");
  await expect(card.getByTestId("lane-equipment")).toHaveText(/Dry van\s*Container/);

  // The Sandbox feed with sync on: Manual Sync searches the lane, though MyTess does not know where this driver is.
  await page.getByTestId("add-marketplace").first().click();
  const mp = page.getByTestId("marketplace-dialog");
  await mp.getByLabel("Provider").selectOption("other");
  await mp.getByLabel("Name").fill("Corridor feed");
  await mp.getByTestId("use-sandbox").click();
  await mp.getByLabel("Sync loads").click();
  await mp.getByTestId("marketplace-submit").click();
  await expect(page.getByTestId("toast").getByText("Marketplace Added")).toBeVisible();
  await page.getByTestId("manual-sync").click();
  await expect(page.getByTestId("toast").getByText("Sync Started")).toBeVisible();
  // The Monitoring tab refreshes every 30 s: open it afresh until the worker has run the sync.
  const run = page.getByTestId("sync-run").filter({ hasText: "Corridor feed" }).first();
  await expect(async () => {
    await page.reload();
    await page.getByTestId("tab-monitoring").click();
    await expect(run.getByTestId("sync-run-result")).toHaveText("OK", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await expect(run.getByTestId("sync-run-found")).not.toHaveText(/Found\s*0$/);
  await expect(run.getByTestId("sync-run-found")).toHaveText(/[1-9]/);

  // Deleted after asking: the empty state is back.
  await page.getByTestId("tab-configurations").click();
  await card.getByTestId("delete-lane").click();
  const confirm = page.getByTestId("confirm-delete-lane-dialog");
  await expect(confirm).toContainText("Delete the lane Port run?");
  await confirm.getByTestId("confirm-delete-lane").click();
  await expect(page.getByTestId("toast").getByText("Lane deleted")).toBeVisible();
  await expect(lanes.getByTestId("no-lanes")).toBeVisible();
});
