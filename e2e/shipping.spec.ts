import { expect, type Page, test } from "@playwright/test";
import { DEMO, signIn } from "./helpers";

// Numbers with a right check digit whose emulator story is known (see emulators/carriers/numbers.ts).
const UPS_DELIVERED = "1Z4E5R120000348212";
const FEDEX_IN_TRANSIT = "700000248216";
const USPS_NOT_FOUND = "9400111206200000100005";

const toast = (page: Page) => page.getByTestId("toast");

const fillAddress = async (
  page: Page,
  id: "from" | "to",
  a: { street: string; city: string; state: string; zip: string },
) => {
  await page.locator(`#${id}-street1`).fill(a.street);
  await page.locator(`#${id}-city`).fill(a.city);
  await page.locator(`#${id}-state`).fill(a.state);
  await page.locator(`#${id}-postalCode`).fill(a.zip);
};

test("the calculator: carriers' real state, missing information, packages, rates cheapest first, select a service", async ({
  page,
}) => {
  await signIn(page, DEMO.shipper, "/shipping");
  await page.goto("/shipping");
  await expect(page.getByRole("heading", { name: "Package Delivery Services" })).toBeVisible();
  for (const c of ["fedex", "ups", "usps"]) await expect(page.getByTestId(`carrier-${c}`)).toContainText("Sandbox");

  await page.getByTestId("get-rates").click();
  await expect(toast(page)).toContainText("Please fill in all shipper address fields.");
  await fillAddress(page, "from", { street: "1 Infinite Loop", city: "Cupertino", state: "ca", zip: "95014" });
  await expect(page.locator("#from-state")).toHaveValue("CA");
  await page.getByTestId("get-rates").click();
  await expect(toast(page)).toContainText("Please fill in all recipient address fields.");
  await fillAddress(page, "to", { street: "350 5th Ave", city: "New York", state: "NY", zip: "10118" });

  await expect(page.getByTestId("package")).toHaveCount(1);
  await expect(page.getByRole("button", { name: /Remove package/ })).toHaveCount(0);
  await page.getByRole("button", { name: "Add Package" }).click();
  await expect(page.getByTestId("package")).toHaveCount(2);
  await expect(page.getByTestId("package").nth(1).getByLabel("Weight", { exact: true })).toHaveValue("1");
  await page.getByTestId("package").nth(1).getByLabel("Weight", { exact: true }).fill("4");
  await page.getByTestId("package").nth(0).getByLabel("Weight unit").selectOption("KG");

  await page.getByTestId("get-rates").click();
  await expect(toast(page)).toContainText(/Found \d+ shipping options\./);
  const options = page.getByTestId("rate-option");
  await expect(options.first()).toBeVisible();
  expect(await options.count()).toBeGreaterThanOrEqual(9);
  const costs = (await page.getByTestId("rate-cost").allTextContents()).map((c) => Number(c.replace(/[$,]/g, "")));
  expect(costs).toEqual([...costs].sort((a, b) => a - b));
  await expect(page.getByTestId("rate-results").getByText("Guaranteed").first()).toBeVisible();
  await expect(options.first()).toContainText("Delivery by");

  await options.first().getByRole("button", { name: "Select This Service" }).click();
  await expect(toast(page)).toContainText("is saved to your shipments");
  await expect(page.getByTestId("shipment-row").first()).toContainText("Cupertino, CA 95014");

  await page.getByLabel("Carrier Preference").selectOption("ups");
  await page.getByTestId("get-rates").click();
  await expect(toast(page)).toContainText(/Found \d+ shipping options\./);
  for (const text of await options.allTextContents()) expect(text).toContain("UPS");
});

test("tracking: Enter submits, detection, history newest first, failures clear the result", async ({ page }) => {
  await signIn(page, DEMO.driver, "/shipping");
  await page.goto("/shipping");
  await page.getByRole("tab", { name: "Package Tracking" }).click();
  await expect(page.getByTestId("format-reference")).toContainText("1Z followed by 16 letters and digits");

  const input = page.getByLabel("Tracking number");
  await input.press("Enter");
  await expect(toast(page)).toContainText("Please enter a tracking number.");

  await input.fill(UPS_DELIVERED);
  await input.press("Enter");
  await expect(toast(page)).toContainText(`Tracking information retrieved for ${UPS_DELIVERED}`);
  const result = page.getByTestId("tracking-result");
  await expect(result.getByTestId("tracking-status")).toHaveText("Delivered");
  await expect(result).toContainText("UPS Ground");
  await expect(result.getByTestId("delivery-date")).toContainText("Delivered:");
  const events = result.getByTestId("tracking-events").locator("li");
  expect(await events.count()).toBeGreaterThan(3);
  await expect(events.first()).toHaveAttribute("data-latest", "true");
  await expect(events.first()).toContainText("DELIVERED");
  await expect(result.getByRole("link", { name: "Schedule Delivery" })).toHaveAttribute(
    "href",
    `https://www.ups.com/track?tracknum=${UPS_DELIVERED}`,
  );

  await input.fill(FEDEX_IN_TRANSIT);
  await page.getByLabel("Carrier", { exact: true }).selectOption("fedex");
  await page.getByTestId("track-button").click();
  await expect(result.getByTestId("tracking-status")).toHaveText("In Transit");
  await expect(result.getByTestId("delivery-date")).toContainText("Estimated:");

  await input.fill(USPS_NOT_FOUND);
  await page.getByLabel("Carrier", { exact: true }).selectOption("auto");
  await page.getByTestId("track-button").click();
  await expect(toast(page)).toContainText(
    "Could not find tracking information. Please check the tracking number and try again.",
  );
  await expect(result).toHaveCount(0);

  // A number in no carrier's format is told as such, not as "could not find".
  await input.fill("12345");
  await page.getByTestId("track-button").click();
  await expect(toast(page).last()).toContainText("This is not a FedEx, UPS or USPS tracking number format.");
});
