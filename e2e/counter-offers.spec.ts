import { expect, type Page, test } from "@playwright/test";
import { postAddisLoad, signUp, uniqueEmail } from "./helpers";

const toast = (page: Page) => page.getByTestId("toast");

const postLoad = (page: Page, title: string) => postAddisLoad(page, title, { amount: 1000, currency: "USD" });

test("counter-offer to award: the shipper counters, the driver counters back on a phone, the shipper accepts", async ({
  browser,
}) => {
  test.setTimeout(120_000);
  const title = `Coffee beans ${Date.now()}`;

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
  expect((await driver.request.post(`/api/loads/${loadId}/bids`, { data: { amount: 900 } })).status()).toBe(201);

  // The shipper answers the $900 bid with $800.
  await shipper.reload();
  const myLoad = shipper.getByTestId("my-load").filter({ hasText: title });
  await myLoad.getByTestId("view-bids").click();
  const bidRow = shipper.getByTestId("bid-row").filter({ hasText: "Girma Bekele" });
  await expect(bidRow.getByTestId("bid-amount")).toHaveText("$900.00");
  await bidRow.getByTestId("counter-button").click();
  // A bad amount is refused at the field, before anything is sent.
  await bidRow.getByTestId("send-counter").click();
  await expect(bidRow.getByRole("alert")).toHaveText("Enter an amount greater than 0");
  await bidRow.getByLabel("Your counter-offer").fill("800");
  await bidRow.getByTestId("send-counter").click();
  await expect(toast(shipper)).toContainText("Counter-offer sent");
  await expect(bidRow.getByTestId("own-counter")).toHaveText("Your offer of $800.00 is waiting for an answer.");
  await expect(bidRow.getByTestId("counter-button")).toHaveCount(0);
  await shipper.keyboard.press("Escape");

  // The driver, on a phone, sees the offer on the bid and counters back with $850.
  await driver.reload();
  const myBid = driver.getByTestId("my-bid").filter({ hasText: title });
  const offer = myBid.getByTestId("open-counter");
  await expect(offer).toContainText("The shipper offers $800.00");
  // The answer's buttons are big enough for a thumb.
  for (const id of ["accept-counter", "counter-button", "decline-counter"]) {
    const box = await offer.getByTestId(id).boundingBox();
    expect(box?.height).toBeGreaterThanOrEqual(44);
  }
  await offer.getByTestId("counter-button").click();
  await myBid.getByLabel("Your counter-offer").fill("850");
  await myBid.getByTestId("send-counter").click();
  await expect(toast(driver)).toContainText("Counter-offer sent");
  await expect(myBid.getByTestId("own-counter")).toHaveText("Your offer of $850.00 is waiting for an answer.");
  await expect(myBid.getByTestId("counter-history-item")).toHaveText([
    "Shipper: $800.00 · countered",
    "You: $850.00 · waiting for an answer",
  ]);

  // The shipper accepts $850: asked first, then the load is awarded at that price.
  await shipper.reload();
  await myLoad.getByTestId("view-bids").click();
  await expect(bidRow.getByTestId("open-counter")).toContainText("The driver asks $850.00");
  await bidRow.getByTestId("accept-counter").click();
  await expect(bidRow.getByRole("alertdialog")).toContainText("This cannot be undone.");
  await bidRow.getByTestId("confirm-accept-counter").click();
  await expect(toast(shipper)).toContainText("Offer accepted");
  await expect(bidRow.getByTestId("bid-status")).toHaveText("Accepted");
  await expect(bidRow.getByTestId("counter-history-item")).toHaveText([
    "You: $800.00 · countered",
    "Driver: $850.00 · accepted",
  ]);
  await shipper.keyboard.press("Escape");
  await expect(myLoad.getByTestId("load-status")).toHaveText("Assigned");

  // The driver's bell says so, and the bid is accepted.
  await driver.reload();
  await expect(myBid.getByTestId("bid-status")).toHaveText("Accepted");
  await expect(myBid.getByTestId("open-counter")).toHaveCount(0);

  await shipperCtx.close();
  await driverCtx.close();
});
