import { expect, type Page, test } from "@playwright/test";
import { signUp, uniqueEmail } from "./helpers";

/** The orders on the page that can still be converted, each with the load it would become (as the API gives it). */
const draftsOf = async (page: Page) => {
  const ids = await page
    .getByTestId("order-row")
    .filter({ has: page.getByTestId("convert-order") })
    .evaluateAll((rows) => rows.map((r) => Number(r.getAttribute("data-order-id"))));
  return Promise.all(
    ids.map(async (id) => ({
      id,
      ...((await (await page.request.get(`/api/ecommerce/orders/${id}/draft`)).json()) as {
        load: { weight: number; deliveryCountry: string };
        missing: string[];
      }),
    })),
  );
};

/** A new shipper with the Sandbox Shopify store (warehouse in Addis Ababa), synced, on its orders tab. */
const shipperWithStore = async (page: Page, first: string) => {
  await page.goto("/signin?mode=register&returnTo=/ecommerce");
  await signUp(page, { type: "Shipper", first, last: "Tesfaye", email: uniqueEmail(first.toLowerCase()) });
  await expect(page.getByTestId("no-integrations")).toBeVisible();
  await page.getByTestId("add-integration").click();
  await page.getByLabel("Platform").selectOption("shopify");
  await page.getByLabel("Name").fill(`${first}'s shop`);
  await page.getByTestId("use-sandbox").click();
  await page.locator("#ec-warehouse-city").fill("Addis");
  await page
    .getByRole("option", { name: /Addis Ababa/ })
    .first()
    .click();
  await page.locator("#ec-warehouse-address").fill("Bole Lemi Industrial Park");
  await page.getByTestId("integration-submit").click();
  await expect(page.getByTestId("toast").getByText("Integration Added")).toBeVisible();
  await page.getByTestId("sync-integration").first().click();
  await expect(page.getByTestId("toast").getByText("Sync Successful")).toBeVisible({ timeout: 20_000 });
  await page.getByTestId("tab-orders").click();
  await expect(page.getByTestId("order-row").first()).toBeVisible();
};

// Demo mode runs Sandbox emulators of Shopify, Amazon's Selling Partner API and Alibaba.com: a store added here is read
// through the same adapter a deployment uses, on loopback.
test("a new shipper adds a Shopify store, syncs its orders, converts one and finds the load on the board", async ({
  page,
}) => {
  await page.goto("/signin?mode=register&returnTo=/ecommerce");
  await signUp(page, { type: "Shipper", first: "Meron", last: "Haile", email: uniqueEmail("meron") });
  await expect(page.getByRole("heading", { name: "E-commerce Integrations" })).toBeVisible();
  await expect(page.getByTestId("no-integrations")).toBeVisible();

  await page.getByTestId("add-integration").click();
  await page.getByTestId("integration-submit").click();
  await expect(page.getByText("Platform is required")).toBeVisible();
  await expect(page.getByText("Warehouse city is required")).toBeVisible();
  await page.getByLabel("Platform").selectOption("shopify");
  await page.getByLabel("Name").fill("Meron's shop");
  // A new store connects a Dev Dashboard app (client ID and secret); a legacy custom app gives its access token.
  await expect(page.getByTestId("shopify-app-kind")).toHaveValue("devDashboard");
  await expect(page.getByTestId("credential-help")).toContainText("read_orders, read_products");
  await page.getByTestId("shopify-app-kind").selectOption("legacyCustom");
  await expect(page.getByLabel("Admin API access token")).toBeVisible();
  await expect(page.getByLabel("Client secret")).toHaveCount(0);
  await page.getByTestId("shopify-app-kind").selectOption("devDashboard");
  await expect(page.getByLabel("Admin API access token")).toHaveCount(0);
  await page.getByTestId("use-sandbox").click();
  await expect(page.getByLabel("Client ID")).toHaveValue("sandbox");
  await page.locator("#ec-warehouse-city").fill("Addis");
  await page
    .getByRole("option", { name: /Addis Ababa/ })
    .first()
    .click();
  await expect(page.getByTestId("warehouse-position")).toContainText("Addis Ababa");
  await page.locator("#ec-warehouse-address").fill("Bole Lemi Industrial Park");
  await page.getByTestId("integration-submit").click();
  await expect(page.getByTestId("toast").getByText("Integration Added")).toBeVisible();

  const card = page.getByTestId("integration-card").filter({ hasText: "Meron's shop" });
  await expect(card.getByTestId("integration-warehouse")).toContainText("Addis Ababa");
  await expect(card.getByTestId("integration-credentials")).toContainText("Client secret: set");
  await expect(card.getByTestId("integration-credentials")).not.toContainText("Admin API access token");
  await card.getByTestId("test-integration").click();
  await expect(page.getByTestId("toast").getByText("Connection Successful")).toBeVisible();
  await card.getByTestId("sync-integration").click();
  await expect(page.getByTestId("toast").getByText("Sync Successful")).toBeVisible({ timeout: 20_000 });
  await expect(page.getByTestId("toast").getByText(/\d+ new orders, 0 updated/)).toBeVisible();
  await expect(card.getByTestId("integration-orders-synced")).not.toHaveText("0");

  await page.getByTestId("tab-orders").click();
  const rows = page.getByTestId("order-row");
  await expect(rows.first()).toBeVisible();
  // An order whose city the map knows (the emulator's "Smallville, ZZ" orders need the shipper's help) and that a truck
  // reaches from Addis Ababa (not one across an ocean, which has its own story below).
  const drafts = await draftsOf(page);
  const draft = drafts.find((d) => d.missing.length === 0 && d.load.deliveryCountry !== "United States")!;
  expect(draft, "the Sandbox store has an order a truck reaches").toBeTruthy();
  const row = page.locator(`[data-testid="order-row"][data-order-id="${draft.id}"]`);
  const number = (await row.getByTestId("order-number").textContent())!.trim();
  // Convert opens the order's load in the Post Load form; nothing is posted before the shipper posts it.
  await row.getByTestId("convert-order").click();
  const review = page.getByRole("dialog");
  await expect(review.getByTestId("review-load-notice")).toHaveText(
    `The load from order ${number}: check it and post it.`,
  );
  await expect(review.getByTestId("complete-load-notice")).toHaveCount(0);
  await expect(review.getByTestId("parcel-suggestion")).toHaveCount(draft.load.weight < 70 / 0.45359237 ? 1 : 0);
  await expect(rows.filter({ hasText: number }).getByTestId("converted-badge")).toHaveCount(0);
  await review.getByRole("button", { name: "Post Load" }).click();
  await expect(page.getByTestId("toast").getByText("Order Converted")).toBeVisible();
  const converted = rows.filter({ hasText: number });
  await expect(converted.getByTestId("converted-badge")).toBeVisible();
  await expect(converted.getByTestId("convert-order")).toHaveCount(0);

  await converted.getByTestId("order-load-link").click();
  await expect(page.getByText(`Order ${number}:`).first()).toBeVisible();
  await expect(page.getByTestId("source-badge").first()).toHaveText("MYTESS");
});

test("an order light enough for a parcel carrier suggests the parcel section before it is posted as a load", async ({
  page,
}) => {
  await page.goto("/signin?mode=register&returnTo=/ecommerce");
  await signUp(page, { type: "Shipper", first: "Chaltu", last: "Gemechu", email: uniqueEmail("chaltu") });
  await expect(page.getByTestId("no-integrations")).toBeVisible();
  await page.getByTestId("add-integration").click();
  await page.getByLabel("Platform").selectOption("shopify");
  await page.getByLabel("Name").fill("Chaltu's shop");
  await page.getByTestId("use-sandbox").click();
  await page.locator("#ec-warehouse-city").fill("Addis");
  await page
    .getByRole("option", { name: /Addis Ababa/ })
    .first()
    .click();
  await page.locator("#ec-warehouse-address").fill("Bole Lemi Industrial Park");
  await page.getByTestId("integration-submit").click();
  await expect(page.getByTestId("toast").getByText("Integration Added")).toBeVisible();
  await page.getByTestId("sync-integration").first().click();
  await expect(page.getByTestId("toast").getByText("Sync Successful")).toBeVisible({ timeout: 20_000 });

  // The orders on the first page, each with the load it would become (as the API gives it): one under 70 kg, one over.
  await page.getByTestId("tab-orders").click();
  await expect(page.getByTestId("order-row").first()).toBeVisible();
  const drafts = await draftsOf(page);
  const PARCEL_LBS = 70 / 0.45359237;
  const light = drafts.find((d) => d.load.weight < PARCEL_LBS && d.missing.length === 0);
  const heavy = drafts.find((d) => d.load.weight >= PARCEL_LBS && d.missing.length === 0);
  expect(light, "the Sandbox store has an order under 70 kg").toBeTruthy();
  expect(heavy, "the Sandbox store has an order over 70 kg").toBeTruthy();

  const open = async (id: number) => {
    await page.goto("/ecommerce");
    await page.getByTestId("tab-orders").click();
    const row = page.locator(`[data-testid="order-row"][data-order-id="${id}"]`);
    await row.getByTestId("convert-order").click();
    return page.getByRole("dialog");
  };
  const lightReview = await open(light!.id);
  await expect(lightReview.getByTestId("parcel-suggestion")).toContainText("under 70 kg");
  await lightReview.getByRole("link", { name: "Compare parcel rates" }).click();
  await expect(page).toHaveURL(/\/shipping/);

  const heavyReview = await open(heavy!.id);
  await expect(heavyReview.getByTestId("review-load-notice")).toBeVisible();
  await expect(heavyReview.getByTestId("parcel-suggestion")).toHaveCount(0);
});

test("an order across an ocean is flagged and posted as a truck load only once the shipper says so", async ({
  page,
}) => {
  await shipperWithStore(page, "Lensa");
  const drafts = await draftsOf(page);
  const ocean = drafts.find((d) => d.missing.length === 0 && d.load.deliveryCountry === "United States");
  const road = drafts.find((d) => d.missing.length === 0 && d.load.deliveryCountry === "Ethiopia");
  expect(ocean, "the Sandbox store has an order to the United States").toBeTruthy();
  expect(road, "the Sandbox store has an order within Ethiopia").toBeTruthy();
  const rowOf = (id: number) => page.locator(`[data-testid="order-row"][data-order-id="${id}"]`);

  // Within Ethiopia: nothing flagged.
  await rowOf(road!.id).getByTestId("convert-order").click();
  let review = page.getByRole("dialog");
  await expect(review.getByTestId("review-load-notice")).toBeVisible();
  await expect(review.getByTestId("ocean-crossing")).toHaveCount(0);
  await review.getByRole("button", { name: "Close" }).click();
  await expect(review).toBeHidden();

  // Addis Ababa → the United States: the form says it is ocean freight, and posting it unticked is refused.
  await rowOf(ocean!.id).getByTestId("convert-order").click();
  review = page.getByRole("dialog");
  await expect(review.getByTestId("ocean-crossing")).toContainText(
    "No road joins Ethiopia and United States: this order needs ocean freight, not a truck load.",
  );
  await review.getByRole("button", { name: "Post Load" }).click();
  await expect(review.getByText(/No road joins Ethiopia and United States: .*Confirm to post it/)).toBeVisible();
  await expect(review.locator("#delivery-country")).toHaveAttribute("aria-invalid", "true");
  await expect(rowOf(ocean!.id).getByTestId("converted-badge")).toHaveCount(0);
  // Ticked, it goes as a truck load.
  await review.getByTestId("confirm-ocean-crossing").check();
  await review.getByRole("button", { name: "Post Load" }).click();
  await expect(page.getByTestId("toast").getByText("Order Converted")).toBeVisible();
  await expect(rowOf(ocean!.id).getByTestId("converted-badge")).toBeVisible();
});
