import { expect, test } from "@playwright/test";
import {
  awardBid,
  cameraPhoto,
  confirmEmail,
  expectPaidOut,
  expectReceipt,
  fundOnSandbox,
  postLoad,
  setUpStripePayouts,
  signUp,
  uniqueEmail,
} from "./helpers";

const CHICAGO_TO_INDIANAPOLIS = {
  pickupAddress: "2200 S Halsted St",
  pickupCity: "Chicago",
  pickupCountry: "United States",
  pickupLatitude: 41.85,
  pickupLongitude: -87.65,
  deliveryAddress: "5500 W Raymond St",
  deliveryCity: "Indianapolis",
  deliveryCountry: "United States",
  deliveryLatitude: 39.74,
  deliveryLongitude: -86.25,
};

// Demo mode runs the Stripe Sandbox and the job worker: a shipper in the US funds a dollar load on Stripe's Checkout
// page, the driver sets up Stripe Connect payouts and delivers with a photo, the shipper accepts the proof, and the
// release is a Stripe transfer to the driver's connected account: "Paid out", with a receipt for each party.
test("a dollar load funded on the Stripe Sandbox is paid out to the driver's Connect account once the photo proof is accepted", async ({
  browser,
}) => {
  test.setTimeout(360_000);
  const title = `Auto parts ${Date.now()}`;

  const shipperCtx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  const shipper = await shipperCtx.newPage();
  await shipper.goto("/signin?mode=register&returnTo=/shipper");
  const shipperEmail = uniqueEmail("emily");
  await signUp(shipper, { type: "Shipper", first: "Emily", last: "Carter", email: shipperEmail });
  await expect(shipper.getByRole("heading", { name: "Shipper Dashboard" })).toBeVisible({ timeout: 20_000 });
  // Funding waits for a proven email or phone.
  await confirmEmail(shipper, shipperEmail);
  const loadId = await postLoad(shipper, {
    title,
    equipmentType: "dry_van",
    ...CHICAGO_TO_INDIANAPOLIS,
    weight: 18000,
    budgetAmount: 1200,
    budgetCurrency: "USD",
  });

  // The driver, on a phone, sets up Stripe Connect payouts through the Sandbox's onboarding link, then bids.
  const driverCtx = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
  const driver = await driverCtx.newPage();
  await driver.goto("/signin?mode=register&returnTo=/driver");
  await signUp(driver, { type: "Driver", first: "Marcus", last: "Reed", email: uniqueEmail("marcus") });
  await expect(driver.getByRole("heading", { name: "Driver Dashboard" })).toBeVisible({ timeout: 20_000 });
  await driver.goto("/settings");
  await setUpStripePayouts(driver);
  await awardBid(driver, shipper, loadId, { amount: 1150, currency: "USD" });

  // The shipper sees what funding costs (the bid plus the 3% fee, in dollars, on Stripe), then pays on Checkout.
  await shipper.goto(`/loads/${loadId}`);
  const fund = shipper.getByTestId("fund-load");
  await expect(fund.getByTestId("fund-agreed")).toHaveText("$1,150.00");
  await expect(fund.getByTestId("fund-fee")).toHaveText("$34.50");
  await expect(fund.getByTestId("fund-total")).toHaveText("$1,184.50");
  await expect(fund.getByTestId("fund-button")).toHaveText("Pay $1,184.50 with Stripe");
  await fundOnSandbox(shipper, loadId, "MyTess Sandbox · Stripe Checkout");
  await driver.goto(`/loads/${loadId}`);
  // The driver's first visit to a load page (its code is fetched on a phone): more time than a click.
  await expect(driver.getByTestId("payment-secured-text")).toHaveText(
    "$1,150.00 is held by MyTess and paid to you when the delivery is accepted.",
    { timeout: 20_000 },
  );

  // The trip on the phone: picked up, then delivered with a photo of the unloaded freight.
  await driver.goto("/driver");
  const trip = driver.locator(`[data-testid="trip-row"][data-load-id="${loadId}"]`);
  await trip.getByRole("button", { name: "Mark picked up" }).click();
  await expect(trip.getByTestId("load-status")).toHaveText("In transit");
  await trip.getByTestId("record-delivery").click();
  const pod = driver.getByTestId("pod-dialog");
  await pod.getByTestId("pod-photo-input").setInputFiles([await cameraPhoto("IMG_2041.jpg", 90)]);
  await expect(pod.getByTestId("pod-photos").locator("li")).toHaveCount(1);
  await pod.getByLabel("Receiver's name").fill("Dana Whitfield");
  await pod.getByTestId("pod-continue").click();
  await expect(pod.getByTestId("pod-confirm")).toContainText("Record the delivery to Dana Whitfield with 1 photo?");
  await pod.getByTestId("pod-send").click();
  await expect(pod).toBeHidden();
  await expect(trip.getByTestId("load-status")).toHaveText("Delivered");

  // The shipper reviews the photo and accepts the delivery: the release.
  await shipper.goto("/shipper");
  const myLoad = shipper.locator(`[data-testid="my-load"][data-load-id="${loadId}"]`);
  await myLoad.getByTestId("review-delivery").click();
  const proof = shipper.getByTestId("pod-review");
  await expect(proof.getByTestId("pod-receiver")).toHaveText("Dana Whitfield");
  await expect(proof.getByTestId("pod-photo")).toHaveCount(1);
  await proof.getByTestId("accept-delivery").click();
  await proof.getByTestId("accept-delivery-confirm").click();
  await expect(myLoad.getByTestId("load-status")).toHaveText("Completed");

  // The worker transfers the driver's share to the connected account: the driver sees it paid out…
  await expectPaidOut(driver, loadId);
  await expect(driver.getByTestId("payment-secured-text")).toHaveText("$1,150.00 was sent to your payout account.");
  // …and in the payments panel, with the history and the receipt.
  await driver.goto("/settings");
  const row = driver.getByTestId("freight-payment").filter({ hasText: title });
  await expect(row.getByTestId("payment-state")).toHaveText("Paid out");
  await expect(row).toContainText("Released to the driver");
  await expectReceipt(driver, row, title);

  // The shipper sees it paid to the driver, and has a receipt too.
  await shipper.goto(`/loads/${loadId}`);
  await expect(shipper.getByTestId("payment-state")).toHaveText("Paid out", { timeout: 20_000 });
  await expect(shipper.getByTestId("payment-secured-text")).toHaveText("$1,150.00 was paid to the driver.");
  await shipper.goto("/settings");
  const shipperRow = shipper.getByTestId("freight-payment").filter({ hasText: title });
  await expect(shipperRow.getByTestId("payment-state")).toHaveText("Paid out");
  await expectReceipt(shipper, shipperRow, title);
  await shipperCtx.close();
  await driverCtx.close();
});
