import { expect, type Page, test } from "@playwright/test";
import { postAddisLoad, signUp, uniqueEmail } from "./helpers";

const toast = (page: Page) => page.getByTestId("toast");

const postLoad = (page: Page, title: string) => postAddisLoad(page, title);

test("safe bidding on a phone: 5× the budget asks first, the bid shows on the load, a change and a withdrawal are confirmed", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Cement bags ${Date.now()}`;
  const shipperCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const shipper = await shipperCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  await signUp(shipper, { type: "Shipper", first: "Meron", last: "Tadesse", email: uniqueEmail("meron") });
  await expect(shipper.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible();
  const loadId = await postLoad(shipper, title);

  const driverCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, hasTouch: true });
  const driver = await driverCtx.newPage();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Girma", last: "Bekele", email: uniqueEmail("girma") });
  await expect(driver.getByRole("heading", { name: "Driver Dashboard" })).toBeVisible();

  // The load's page: 5× the budget asks "Are you sure?" with both figures; Back returns to the form, nothing sent.
  await driver.goto(`/loads/${loadId}`);
  await driver.getByTestId("quick-bid").click();
  const dialog = driver.getByTestId("bid-dialog");
  await expect(dialog.getByLabel("Currency")).toHaveValue("ETB");
  await dialog.getByLabel("Bid amount").fill("49000");
  await dialog.getByRole("button", { name: "Place Bid" }).click();
  const confirm = dialog.getByTestId("bid-confirm");
  await expect(confirm).toContainText("Are you sure?");
  await expect(confirm.getByTestId("bid-unusual")).toHaveText(
    "Your bid of Br 49,000.00 is 5× the load's budget of Br 9,800.00.",
  );
  await confirm.getByRole("button", { name: "Back" }).click();
  expect(await (await driver.request.get("/api/bids/driver")).json()).toEqual([]);
  // The budget itself goes without a question.
  await dialog.getByLabel("Bid amount").fill("9800");
  await dialog.getByRole("button", { name: "Place Bid" }).click();
  await expect(toast(driver).getByText("Bid Placed")).toBeVisible();
  const card = driver.getByTestId("load-card").filter({ hasText: title });
  await expect(card.getByTestId("your-bid")).toHaveText("Your bid: Br 9,800.00 · pending");

  // Bidding again is "Change your bid", from the bid as it is, and the change is confirmed with both amounts.
  await expect(card.getByTestId("quick-bid")).toHaveText("Change your bid");
  await card.getByTestId("quick-bid").click();
  await expect(dialog.getByRole("heading", { name: "Change your bid" })).toBeVisible();
  await expect(dialog.getByLabel("Bid amount")).toHaveValue("9800");
  await dialog.getByLabel("Bid amount").fill("9500");
  await dialog.getByRole("button", { name: "Change bid" }).click();
  await expect(dialog.getByTestId("bid-change")).toHaveText("Change your bid from Br 9,800.00 to Br 9,500.00?");
  await dialog.getByTestId("bid-confirm-send").click();
  await expect(toast(driver).getByText("Bid changed")).toBeVisible();
  await expect(card.getByTestId("your-bid")).toHaveText("Your bid: Br 9,500.00 · pending");
  // Still one bid: the change updated it.
  const bids = await (await driver.request.get("/api/bids/driver")).json();
  expect(bids.map((b: { amount: number; status: string }) => [b.amount, b.status])).toEqual([[9500, "pending"]]);

  // The board's card says the same.
  await driver.goto(`/loads?highlight=${loadId}`);
  await expect(driver.getByTestId("load-card").filter({ hasText: title }).first().getByTestId("your-bid")).toHaveText(
    "Your bid: Br 9,500.00 · pending",
  );

  // Withdraw asks first; "Keep my bid" keeps it.
  await driver.goto("/driver");
  const myBid = driver.getByTestId("my-bid").filter({ hasText: title });
  await myBid.getByTestId("withdraw-bid").click();
  const ask = driver.getByTestId("withdraw-confirm");
  await expect(ask.getByRole("heading", { name: "Withdraw your bid?" })).toBeVisible();
  await expect(ask).toContainText(`Your bid of Br 9,500.00 on “${title}” goes back`);
  await ask.getByRole("button", { name: "Keep my bid" }).click();
  await expect(ask).toHaveCount(0);
  await expect(myBid.getByTestId("bid-status")).toHaveText("Pending");
  await myBid.getByTestId("withdraw-bid").click();
  await ask.getByTestId("withdraw-confirm-yes").click();
  await expect(toast(driver).getByText("Bid withdrawn")).toBeVisible();
  await expect(myBid.getByTestId("bid-status")).toHaveText("Withdrawn");
  await shipperCtx.close();
  await driverCtx.close();
});
